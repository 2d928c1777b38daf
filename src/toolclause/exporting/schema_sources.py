"""What the structured-output target reads: JSON Schemas of handoffs and state, found as lint finds them.

A file's place in a contracts folder says what it holds (`loading.contract_files`):
`handoffs/*.json` and `state/*.json` are the schemas; `examples/<name>/valid|invalid/*`
are fixtures, which `toolclause test` checks and no export ships; a file of
tools (`tools/*.json`) is left to the tool targets.  Any other file is a plain
JSON Schema, named by its stem.

A schema may refer to another of its project by `$id`: the handoff and state
schemas beside the ones exported (`contracts/handoffs` for `contracts/state`) are
read too, as references.  Export ships each schema with a copy of those it
refers to (`bundling.py`); lint reads each as written, in its own file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..loading.contract_files import FIXTURE, HANDOFF, STATE, contract_kind, load_file_text
from ..loading.files import iter_files, load_paths, read_document_text
from ..loading.text import parse_document
from ..model import Diagnostic, Origin, SchemaDocument, ToolContract, Unreadable
from ..schema.refs import value_at
from ..suggest import closest
from .bundling import bundle_schema, document_uri, ids_of, referred_document
from .structured_output import carrier

PLAIN = "schema"  # the kind of a schema file outside `handoffs/` and `state/`
_SCHEMA_SUFFIXES = (".json", ".yaml", ".yml")
_SCHEMA_FOLDERS = ("handoffs", "state")


@dataclass
class SchemaSources:
    """The schemas to export, and every schema of their projects they may refer to by `$id`."""

    documents: list[SchemaDocument]
    references: list[SchemaDocument] = field(default_factory=list)

    @property
    def by_id(self) -> dict[str, SchemaDocument]:
        return ids_of([*self.references, *self.documents])  # an exported schema wins a shared $id

    def bundled(self) -> list[ToolContract]:
        """What export ships: each schema with the schemas it refers to by `$id` under its `$defs`."""
        by_id = self.by_id
        return [carrier(document, bundle_schema(document, by_id)[0]) for document in self.documents]

    def as_written(self) -> list[ToolContract]:
        """What lint reads: each schema exported, and each it carries a copy of, as written in its file."""
        by_id = self.by_id
        carried = [copied for document in self.documents for copied in bundle_schema(document, by_id)[1]]
        return [carrier(document) for document in _unique([*self.documents, *carried])]

    def resolves(self, finding: Diagnostic) -> bool:
        """Whether a finding on a `$ref` is about a schema of the project, which the export copies in."""
        ref, base = _ref_of(finding)
        return referred_document(ref, base, self.by_id) is not None

    def explained(self, finding: Diagnostic) -> Diagnostic:
        """A finding on a `$ref` to another document, with the `$id` meant (the closest the project has),
        else those it has."""
        ref, base = _ref_of(finding)
        uri = document_uri(ref, base) if isinstance(ref, str) else ""
        if not uri or not self.by_id:
            return finding
        guess = closest(uri, list(self.by_id))
        known = f"did you mean '{guess}'?" if guess else "its schemas' $ids: " + ", ".join(sorted(self.by_id)[:5])
        return replace(finding, message=f"{finding.message}; or refer to a schema of the project by its $id "
                                        f"(no handoff or state schema here has '{uri}'; {known})")


def _ref_of(finding: Diagnostic) -> tuple[Any, str | None]:
    """(the `$ref` a finding points at, the `$id` of the schema it is written in), from the finding's carrier."""
    contract = finding.contract
    if contract is None or not isinstance(contract.input_schema, dict) or not finding.pointer.endswith("/$ref"):
        return None, None
    schema = contract.input_schema
    return value_at(schema, finding.pointer), _id_of(schema)  # a carrier's pointers are its file's


def documents_of_mapping(schemas: Mapping[str, Any]) -> SchemaSources:
    """{name: schema} given in Python: schemas that may refer to one another by `$id`."""
    documents = [SchemaDocument(PLAIN, name, schema, _id_of(schema), None, Origin(file="<memory>", format=PLAIN))
                 for name, schema in schemas.items()]
    return SchemaSources(documents)


def read_schema_sources(paths: Sequence[str | Path]) -> SchemaSources:
    """The schemas of files and folders, with their projects' references; ValueError names what cannot be read."""
    documents: list[SchemaDocument] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            # a folder holds fixtures and tools beside its schemas, as `toolclause lint` reads it: left out
            documents += [found for file in _schema_files(path) if isinstance(found := _read(file), SchemaDocument)]
        elif path.exists():  # a pipe or a device too: the loader's reader says why it is not read
            found = _read(path)
            if not isinstance(found, SchemaDocument):
                raise ValueError(f"{path}: {found}")
            documents.append(found)
        else:
            raise ValueError(f"{raw}: no such file or folder")
    return SchemaSources(documents, _references(paths, documents))


def _schema_files(folder: Path) -> list[Path]:
    return [file for file in iter_files(folder) if file.suffix.lower() in _SCHEMA_SUFFIXES]


def _read(file: Path) -> SchemaDocument | str:
    """The schema a file holds, or why it holds none (a fixture, tools)."""
    kind = contract_kind(file)
    if kind == FIXTURE:
        return ("is a fixture (a sample `toolclause test` checks), not a schema; export the schema it samples, "
                "or the folder it is in")
    text = _text(file)
    loaded = load_file_text(text, str(file), file)
    if kind in (HANDOFF, STATE):
        if loaded.unreadable:
            raise ValueError(_where(loaded.unreadable[0]))
        found = [*loaded.handoffs, *loaded.states]
        if not found:
            raise ValueError(f"{file}: holds no {kind} schema (a JSON Schema object with \"type\": \"object\")")
        return found[0]
    if loaded.tools:
        names = ", ".join(tool.name for tool in loaded.tools[:3])
        return (f"holds tools ({names}), not a JSON Schema: structured-output exports handoff and state schemas; "
                f"export tools with a tool target (openai-chat, anthropic, …)")
    return _plain_document(text, file)


def _text(file: Path) -> str:
    """The file's text, read as the loader reads every document (regular files, size, UTF-8)."""
    text = read_document_text(file)
    if isinstance(text, Unreadable):
        raise ValueError(_where(text))
    return text


def _plain_document(text: str, file: Path) -> SchemaDocument:
    doc, locate, problem = parse_document(text, str(file), "json" if file.suffix.lower() == ".json" else "yaml")
    if problem is not None:
        raise ValueError(_where(problem))
    if not isinstance(doc, dict):
        raise ValueError(f"{file}: a JSON Schema is an object, not {type(doc).__name__}; write the schema as "
                         f"{{\"type\": \"object\", \"properties\": {{…}}}}")
    return SchemaDocument(PLAIN, file.stem, doc, _id_of(doc), None, Origin(file=str(file), format=PLAIN, locate=locate))


def _references(paths: Sequence[str | Path], documents: list[SchemaDocument]) -> list[SchemaDocument]:
    """The handoff and state schemas of the projects the paths are in, less those exported.

    One that cannot be read is left out here: it is reported where it is exported, and a `$ref`
    to it is reported by lint as a reference to a schema the project lacks.
    """
    folders = {folder for raw in paths for folder in _schema_folders(Path(raw))}
    loaded = load_paths(sorted(str(folder) for folder in folders))
    exported = {Path(d.origin.file).resolve() for d in documents}
    return [d for d in [*loaded.handoffs, *loaded.states] if Path(d.origin.file).resolve() not in exported]


def _schema_folders(path: Path) -> list[Path]:
    """`handoffs/` and `state/` of the contracts folder a path is, or is in."""
    folder = path if path.is_dir() else path.parent
    project = folder.parent if folder.name in _SCHEMA_FOLDERS else folder
    return [project / name for name in _SCHEMA_FOLDERS if (project / name).is_dir()]


def _where(problem: Unreadable) -> str:
    line = f":{problem.line}" if problem.line is not None else ""
    pointer = f" {problem.pointer}" if problem.pointer else ""
    return f"{problem.file}{line}{pointer}: {problem.message}"


def _id_of(schema: Any) -> str | None:
    ident = schema.get("$id") if isinstance(schema, dict) else None
    return ident if isinstance(ident, str) else None


def _unique(documents: Iterable[SchemaDocument]) -> list[SchemaDocument]:
    return list({id(document): document for document in documents}.values())


__all__ = ["PLAIN", "SchemaSources", "documents_of_mapping", "read_schema_sources"]
