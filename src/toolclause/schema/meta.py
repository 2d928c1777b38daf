"""Meta-schema validation: is a schema valid JSON Schema of its dialect?

The official meta-schemas of drafts 4, 6, 7, 2019-09 and 2020-12 are bundled in
`toolclause/data/metaschemas/` (copied unchanged from json-schema.org, via the
`jsonschema-specifications` package) and loaded into a jsonschema-rs
`Registry`; nothing is ever fetched (see `validators`).

They are loaded with one change: the `type` keyword accepts anything.  Rule
S002 reports every bad `type` with the type meant, and without this change
most real-world schemas (BFCL's `"type": "dict"`) would be invalid and take the
slow path that lists every error.  With it, `is_valid` answers almost every
schema in microseconds and errors are listed only for the rare real ones.
Each validator is compiled once, on first use.  A schema without `$schema` is
2020-12, as MCP specifies.
"""

from __future__ import annotations

import json
import marshal
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema_rs

from .. import _lazy_re as re
from ..model import Problem, join_pointer
from .failures import failed_keyword
from .validators import VALUES, ValidatorMemo, compile_schema

DEFAULT_DIALECT = "2020-12"

# `$schema` URI (without a trailing "#" and the scheme) → dialect
_DIALECT_URIS = {
    "json-schema.org/draft-04/schema": "draft-04",
    "json-schema.org/draft-06/schema": "draft-06",
    "json-schema.org/draft-07/schema": "draft-07",
    "json-schema.org/draft/2019-09/schema": "2019-09",
    "json-schema.org/draft/2020-12/schema": "2020-12",
}
_OBSOLETE = re.compile(r"json-schema\.org/draft-0[0-3]/")

# dialect → bundled files (the first is the meta-schema itself, the rest its vocabularies)
_FILES = {
    "draft-04": ("draft-04",),
    "draft-06": ("draft-06",),
    "draft-07": ("draft-07",),
    "2019-09": ("2019-09", "2019-09-meta-core", "2019-09-meta-applicator", "2019-09-meta-validation",
                "2019-09-meta-meta-data", "2019-09-meta-format", "2019-09-meta-content"),
    "2020-12": ("2020-12", "2020-12-meta-core", "2020-12-meta-applicator", "2020-12-meta-unevaluated",
                "2020-12-meta-validation", "2020-12-meta-meta-data", "2020-12-meta-format-annotation",
                "2020-12-meta-format-assertion", "2020-12-meta-content"),
}
# Our variants live under their own base URI so they never collide with the originals
# jsonschema-rs knows; relative references between the files still resolve.
_OFFICIAL_BASE = re.compile(r"^https?://json-schema\.org/")
_OWN_BASE = "https://toolclause.invalid/metaschemas/"
_compiled = ValidatorMemo()  # dialect → validator


def dialect_of(schema: Any) -> str | None:
    """The dialect a root schema declares.

    DEFAULT_DIALECT without `$schema` or for a URI no draft owns (a custom or
    "latest" meta-schema: a client validates it as 2020-12); None for drafts
    before 4, which no validator here implements.
    """
    uri = schema.get("$schema") if isinstance(schema, dict) else None
    if not isinstance(uri, str):
        return DEFAULT_DIALECT  # absent; a non-string is reported by the meta-schema itself
    key = uri.strip().rstrip("#").split("://", 1)[-1]
    if key in _DIALECT_URIS:
        return _DIALECT_URIS[key]
    if _OBSOLETE.search(key):
        return None
    return DEFAULT_DIALECT


def _load(name: str) -> dict[str, Any]:
    # the package's own data folder (importlib.resources would cost more to import than the read)
    text = (Path(__file__).resolve().parent.parent / "data" / "metaschemas" / f"{name}.json").read_text("utf-8")
    document = json.loads(text)
    id_key = "$id" if "$id" in document else "id"
    document[id_key] = _OFFICIAL_BASE.sub(_OWN_BASE, document[id_key])
    properties = document.get("properties")
    if isinstance(properties, dict) and "type" in properties:
        properties["type"] = True  # S002 owns `type`
    return document


def meta_validator(dialect: str) -> Any:
    return _compiled.compiled(dialect, lambda: _compile_meta(dialect))


def _compile_meta(dialect: str) -> Any:
    documents = [_load(name) for name in _FILES[dialect]]
    root = documents[0]
    root_id = root.get("$id") or root.get("id")
    # every bundled meta-schema has an $id (draft-04's is spelt "id")
    registry = jsonschema_rs.Registry([(str(d.get("$id") or d.get("id")), d) for d in documents])
    return compile_schema({"$schema": root["$schema"], "$ref": root_id}, VALUES, registry=registry)


def is_safe_to_validate(document: Any) -> bool:
    """Whether a compiled validator can take this value without exhausting its stack.

    jsonschema-rs recurses natively and crashes the process on values nested
    many thousands deep.  marshal (in C, a few microseconds for a tool
    schema) refuses values nested deeper than ~2,000 containers, and anything
    that is not plain data.  It writes an object it has already written as a
    reference, so a value that contains itself costs linear time here (and
    jsonschema-rs takes such values without recursing forever).
    """
    try:
        marshal.dumps(document)
    except ValueError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class MetaError(Problem):
    """Where a schema breaks its meta-schema.

    `code` is the meta-schema keyword that failed (from `failures.FAILED_KEYWORDS`:
    "type", "minItems" …); `message` jsonschema-rs's own wording; `pointer` the
    place in the schema, also as tokens in `path`; `kind` the jsonschema-rs
    error kind ("Type", "AnyOf", "MinItems" …); `instance` the offending value.
    """

    path: tuple[str | int, ...] = field(kw_only=True)
    kind: str = field(kw_only=True)
    instance: Any = field(kw_only=True)


def meta_errors(schema: Any, dialect: str | None = None) -> list[MetaError] | None:
    """Meta-schema errors, one per location (first wins); None when it cannot be checked.

    `type` is not checked here (see the module docstring).
    """
    dialect = dialect or dialect_of(schema)
    if dialect is None or not is_safe_to_validate(schema):
        return None
    validator = meta_validator(dialect)
    out: list[MetaError] = []
    seen: set[tuple[str | int, ...]] = set()
    try:
        if validator.is_valid(schema):
            return out
        for error in validator.iter_errors(schema):
            path = tuple(error.instance_path)
            if path in seen:
                continue
            seen.add(path)
            out.append(MetaError(failed_keyword(error), error.message, join_pointer("", *path), path=path,
                                 kind=type(error.kind).__name__, instance=error.instance))
    except (ValueError, jsonschema_rs.ValidationError):
        return None
    return out
