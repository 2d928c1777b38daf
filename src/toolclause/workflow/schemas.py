"""Handoff and state schemas by `$id`: one registry, compiled validators, readable problems.

Every handoff and state schema of a contracts folder goes into one registry
under its `$id`, so a schema may `$ref` another by its `$id`
(`{"$ref": "urn:example:handoff:triage-to-billing"}`) and a sample may be
checked against a schema named by `$id` alone.  Nothing is ever fetched.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..model import SchemaDocument
from ..runtime.validation import describe, schema_errors
from ..schema.validators import ARGUMENTS, COMPILE_ERRORS, compile_schema


@dataclass(frozen=True, slots=True)
class Problem:
    """Why a value does not satisfy a schema: the pointer into the value and a phrase."""

    path: str
    message: str


def problems_of(validator: Any, value: Any, schema: Mapping[str, Any]) -> list[Problem]:
    """Every problem the validator finds in `value` (at most 20), each with its path into the value."""
    try:
        if validator.is_valid(value):
            return []
    except (ValueError, TypeError, OverflowError):
        return [Problem("", "the value holds something that is not JSON")]
    records, _ = schema_errors(validator, value, schema)
    if not records:
        return [Problem("", "does not satisfy the schema")]
    return [Problem(record["path"], phrase) for record, phrase in zip(records, _phrases(records), strict=False)]


def _phrases(records: list[dict[str, Any]]) -> list[str]:
    # describe() folds an unknown key and the missing key it meant into one phrase; keep one phrase per record
    out = []
    for record in records:
        phrase = describe([record])
        out.append(phrase[0] if phrase else str(record.get("problem", "invalid")))
    return out


def load_schemas(folder: str | Path, kind: str) -> tuple[list[SchemaDocument], list[SchemaDocument]]:
    """(the `kind` schemas of `folder`, every handoff and state schema they may refer to by `$id`).

    A `handoffs/` or `state/` folder is read with its sibling (`contracts/state` refers to
    `contracts/handoffs`); ValueError names the first file that cannot be read.
    """
    from ..loading import load_paths

    path = Path(folder)
    if not path.is_dir():
        raise ValueError(f"{folder}: no such folder")
    paths = [str(path)]
    for sibling in ("handoffs", "state"):
        if path.name in ("handoffs", "state") and sibling != path.name and (path.parent / sibling).is_dir():
            paths.append(str(path.parent / sibling))
    loaded = load_paths(paths)
    if loaded.unreadable:
        first = loaded.unreadable[0]
        raise ValueError(f"{first.file}{first.pointer}: {first.message}")
    every = [*loaded.handoffs, *loaded.states]
    return [d for d in every if d.kind == kind and Path(d.origin.file).parent == path], every


class SchemaSet:
    """Schemas by `$id` and by name, compiled on first use against one registry of all of them.

    `references`: further schemas the documents may `$ref` by `$id` (not listed in `documents`).
    """

    def __init__(self, documents: Iterable[SchemaDocument], references: Iterable[SchemaDocument] = ()) -> None:
        self.documents = list(documents)
        self.by_id = {d.id: d for d in [*references, *self.documents] if d.id}
        self._registry: Any = None
        self._compiled: dict[int, Any] = {}

    def named(self, name: str) -> list[SchemaDocument]:
        """The schemas a sample folder or a route names: by `$id`, else by file stem."""
        if name in self.by_id:
            return [self.by_id[name]]
        return [d for d in self.documents if d.name == name]

    def get(self, id_or_name: str) -> SchemaDocument | None:
        found = self.named(id_or_name)
        return found[0] if len(found) == 1 else None

    def validator(self, document: SchemaDocument) -> Any:
        """The compiled validator, or a string saying why the schema cannot be compiled."""
        key = id(document)
        if key not in self._compiled:
            try:
                self._compiled[key] = compile_schema(dict(document.schema), ARGUMENTS, self._registry_of())
            except COMPILE_ERRORS as exc:
                self._compiled[key] = f"the schema cannot be compiled: {str(exc).splitlines()[0][:200]}"
        return self._compiled[key]

    def check(self, document: SchemaDocument, value: Any) -> list[Problem]:
        validator = self.validator(document)
        if isinstance(validator, str):
            return [Problem("", validator)]
        return problems_of(validator, value, document.schema)

    def _registry_of(self) -> Any:
        if self._registry is None and self.by_id:
            import jsonschema_rs

            try:
                self._registry = jsonschema_rs.Registry([(i, dict(d.schema)) for i, d in self.by_id.items()])
            except COMPILE_ERRORS:
                self._registry = None
        return self._registry


__all__ = ["Problem", "SchemaSet", "load_schemas", "problems_of"]
