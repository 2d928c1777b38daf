"""The contracts folder: which file holds what, and the readers of what is not a tool.

    contracts/
      tools/create_refund.json                       tools (any name, any shape `shapes.py` reads)
      handoffs/triage_to_billing.json                a handoff schema: JSON Schema with `$id`
      state/refund_flow.json                         a state schema: JSON Schema with `version` (and `$id`)
      examples/create_refund/valid/*.json            fixtures: arguments that must pass …
      examples/create_refund/invalid/*.json          … or fail: {"arguments": …, "code": "VALIDATION_ERROR"}

A file's kind comes from the folder it is in (`handoffs/`, `state/`,
`examples/<tool>/valid|invalid/`); every other file holds tools.  A tool file
may carry its examples inline (`"examples": {"valid": [...], "invalid": [...]}`);
`inline_fixtures` reads those into the same `Fixture` records.

A fixture file is for the tool of that name in its own contracts folder, never
for a namesake in another folder read in the same run (`belongs_to`): a folder's
tools are the files directly in it and those anywhere under its `tools/`.

An example is the arguments themselves, or an object that wraps them: a valid
one `{"arguments": {...}}`, an invalid one `{"arguments": ..., "code": "..."}`.
"""

from __future__ import annotations

import os
from pathlib import PurePath
from typing import Any

from ..model import Fixture, Origin, SchemaDocument, ToolContract, Unreadable, escape_token
from .result import LoadResult
from .text import load_text, parse_document

HANDOFF, STATE, FIXTURE = "handoff", "state", "fixture"
_DOCUMENT_SUFFIXES = (".json", ".yaml", ".yml")


def contract_kind(path: PurePath) -> str | None:
    """What a file holds by its place in a contracts folder: HANDOFF, STATE, FIXTURE, or None for tools."""
    if path.suffix.lower() not in _DOCUMENT_SUFFIXES:
        return None
    folder = path.parent
    if folder.name == "handoffs":
        return HANDOFF
    if folder.name == "state":
        return STATE
    if folder.name in ("valid", "invalid") and folder.parent.parent.name == "examples":
        return FIXTURE
    return None


def load_file_text(text: str, file: str, path: PurePath, input_format: str | None = None) -> LoadResult:
    """A file's text, read as what its place in a contracts folder says it holds."""
    kind = contract_kind(path)
    if kind is None:
        return load_text(text, file, None, input_format)
    doc, locate, problem = parse_document(text, file, "yaml" if path.suffix.lower() != ".json" else "json")
    if problem is not None:
        return LoadResult(unreadable=[problem])
    origin = Origin(file=file, format=kind, locate=locate)
    if kind == FIXTURE:
        return LoadResult(fixtures=[_fixture(path.parent.parent.name, path.parent.name == "valid", doc, origin)])
    found = read_schema_document(doc, kind, path.stem, origin)
    if isinstance(found, Unreadable):
        return LoadResult(unreadable=[found])
    return LoadResult(handoffs=[found]) if kind == HANDOFF else LoadResult(states=[found])


def read_schema_document(doc: Any, kind: str, name: str, origin: Origin) -> SchemaDocument | Unreadable:
    """A handoff or state schema, or why it cannot be one."""
    if not isinstance(doc, dict):
        return Unreadable("schema-not-object", f"a {kind} schema must be a JSON Schema object, not "
                                               f"{type(doc).__name__}", file=origin.file)
    schema_id = doc.get("$id")
    version = doc.get("version")
    if kind == HANDOFF and not isinstance(schema_id, str):
        return Unreadable("missing-id", "a handoff schema needs a string $id, so that agents and workflows can "
                                        "name it", "/$id" if "$id" in doc else "", file=origin.file)
    if kind == STATE and (not isinstance(version, int) or isinstance(version, bool) or version < 1):
        return Unreadable("missing-version", "a state schema needs an integer version of 1 or more, so that a saved "
                                             "checkpoint says which version wrote it",
                          "/version" if "version" in doc else "", file=origin.file)
    return SchemaDocument(kind, name, doc, schema_id if isinstance(schema_id, str) else None,
                          version if isinstance(version, int) and not isinstance(version, bool) else None, origin)


def _fixture(tool: str, valid: bool, entry: Any, origin: Origin) -> Fixture:
    arguments, code = entry, None
    if valid and isinstance(entry, dict) and isinstance(entry.get("arguments"), dict):
        arguments = entry["arguments"]
    elif not valid and isinstance(entry, dict) and "arguments" in entry:
        arguments = entry["arguments"]
        code = entry["code"] if isinstance(entry.get("code"), str) else None
    return Fixture(tool, valid, arguments, code, origin)


def inline_fixtures(tool: ToolContract) -> list[Fixture]:
    """The examples a tool file carries in its `examples` key, located in that file."""
    examples = tool.extra.get("examples")
    if not isinstance(examples, dict):
        return []
    out = []
    for group, valid in (("valid", True), ("invalid", False)):
        entries = examples.get(group)
        for index, entry in enumerate(entries if isinstance(entries, list) else []):
            pointer = tool.origin.original_pointer(f"/examples/{escape_token(group)}/{index}")
            origin = Origin(file=tool.origin.file, format=FIXTURE, base=pointer, line=tool.origin.line,
                            locate=tool.origin.locate)
            out.append(_fixture(tool.name, valid, entry, origin))
    return out


def _absolute(file: str | PurePath) -> PurePath:
    # lexical, not resolved: `./contracts` and `contracts` are one folder, and a symlink stays where it was put
    return PurePath(os.path.abspath(file))


def contracts_folder(file: str) -> PurePath:
    """The contracts folder a fixture, handoff or state file is in, as written, by where its kind puts it."""
    path = PurePath(file)
    return path.parents[3] if contract_kind(path) == FIXTURE else path.parents[1]


def holds(folder: PurePath, file: str) -> bool:
    """Whether a file read with a contracts folder is the folder's own.

    A handoff, state or fixture file is where its kind puts it; a tool file is directly in the
    folder or anywhere under its `tools/`.  A tool file deeper in some other subfolder belongs to
    a contracts folder nested inside this one (`examples/food/contracts/tools/…` is not `examples/`'s).
    """
    own = _absolute(folder)
    if contract_kind(PurePath(file)) is not None:
        return _absolute(contracts_folder(file)) == own
    where = _absolute(file).parent
    return where == own or where.is_relative_to(own / "tools")


def belongs_to(fixture: Fixture, tool: ToolContract) -> bool:
    """Whether a fixture file's example is for this tool: the same name, in the same contracts folder."""
    return fixture.tool == tool.name and holds(contracts_folder(fixture.origin.file), tool.origin.file)


def every_fixture(result: LoadResult) -> list[Fixture]:
    """The fixture files read, then the inline examples of every tool."""
    return result.fixtures + [fixture for tool in result.tools for fixture in inline_fixtures(tool)]
