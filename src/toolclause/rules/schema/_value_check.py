"""Validate a value against one subschema of a tool, compiled once (used by S008).

The subschema is compiled on its own with the root's `$defs`/`definitions`
beside it, so `#/$defs/...` references resolve; a subschema that refers to
anything else (`#`, `#/properties/...`, another document, an embedded `$id`)
is not checked, since its meaning would change out of place.
"""

from __future__ import annotations

import marshal
from typing import Any

import jsonschema_rs

from ...schema.keywords import type_alias
from ...schema.validators import COMPILE_ERRORS, VALUES, ValidatorMemo, compile_schema
from ...schema.walk import SchemaNode

_LOCAL_DEFINITION = ("#/$defs/", "#/definitions/")
# keywords that change what a reference means, so the subschema cannot be checked out of place
_OUT_OF_PLACE = (b"$dynamicRef", b"$recursiveRef", b"$id")
_GAVE_UP = frozenset({"BacktrackLimitExceeded", "RegexEngineFailure", "Referencing"})
_compiled = ValidatorMemo(limit=4096)  # marshalled standalone subschema → validator (or None)
MESSAGE_LIMIT = 160  # jsonschema-rs quotes the whole value, which may be long


def short_message(message: str) -> str:
    """A validator's message cut to MESSAGE_LIMIT characters for a finding."""
    return message if len(message) <= MESSAGE_LIMIT else message[: MESSAGE_LIMIT - 1] + "…"


def value_errors(node: SchemaNode, root: Any, value: Any) -> tuple[str, str, str] | None:
    """(error kind, message, instance path) of the first failure, or None when valid or not checkable."""
    validator = _validator_for(node, root)
    if validator is None:
        return None
    try:
        for error in validator.iter_errors(value):
            kind = type(error.kind).__name__
            if kind in _GAVE_UP:
                return None
            path = "/" + "/".join(str(t) for t in error.instance_path) if error.instance_path else ""
            return kind, error.message, path
    except (ValueError, jsonschema_rs.ValidationError):
        return None
    return None


def _validator_for(node: SchemaNode, root: Any) -> Any:
    is_root = node.parent is None
    candidate = _standalone(node.schema, None if is_root else root)
    try:
        key = marshal.dumps(candidate)  # C-speed cache key; refuses values too deep for jsonschema-rs
    except ValueError:
        return None
    return _compiled.compiled(key, lambda: _compile(candidate, key, is_root))


def _standalone(schema: dict[str, Any], root: Any) -> dict[str, Any]:
    """The subschema with what it may need from the root: definitions and dialect."""
    if not isinstance(root, dict):
        return schema
    candidate = dict(schema)
    for key in ("$defs", "definitions", "$schema"):
        if key in root and key not in candidate:
            candidate[key] = root[key]
    return candidate


def _compile(candidate: dict[str, Any], key: bytes, is_root: bool) -> Any:
    if any(marker in key for marker in _OUT_OF_PLACE):
        return None
    if not is_root and b"$ref" in key and not all(ref.startswith(_LOCAL_DEFINITION) for ref in _refs_in(candidate)):
        return None
    for attempt in (candidate, _with_standard_types(candidate)):
        if attempt is None:
            break
        try:
            return compile_schema(attempt, VALUES)
        except COMPILE_ERRORS:
            continue
    return None


def _refs_in(schema: Any) -> list[Any]:
    """Every `$ref` value in a schema (data keywords included: a false alarm only skips a check)."""
    found: list[Any] = []
    stack = [schema]
    seen: set[int] = set()
    while stack:
        value = stack.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        if isinstance(value, dict):
            if "$ref" in value:
                found.append(value["$ref"] if isinstance(value["$ref"], str) else "")
            stack.extend(v for v in value.values() if isinstance(v, (dict, list)))
        elif isinstance(value, list):
            stack.extend(v for v in value if isinstance(v, (dict, list)))
    return found


def _with_standard_types(schema: Any) -> Any:
    """A copy with S002's certain type aliases written as JSON Schema types (`float` → `number`,
    `any` → no type); None when a type has no certain reading."""
    try:
        return _rewrite(schema)
    except (RecursionError, _Unreadable):
        return None


class _Unreadable(Exception):
    pass


def _rewrite(value: Any) -> Any:
    if isinstance(value, list):
        return [_rewrite(v) for v in value]
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for key, child in value.items():
        if key == "type" and isinstance(child, (str, list)):
            names = [child] if isinstance(child, str) else child
            mapped: list[str] = []
            any_type = False
            for name in names:
                known, json_type = type_alias(name) if isinstance(name, str) else (False, None)
                if not known:
                    raise _Unreadable(name)
                if json_type is None:  # "any": no constraint at all
                    any_type = True
                    break
                mapped.append(json_type)
            if not any_type:
                out[key] = mapped[0] if isinstance(child, str) else list(dict.fromkeys(mapped))
            continue
        if key in ("enum", "const", "default", "examples", "example"):
            out[key] = child
        else:
            out[key] = _rewrite(child)
    return out
