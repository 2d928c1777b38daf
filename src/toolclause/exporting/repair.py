"""S002's safe fixes, applied to a copy: `"type": "dict"` → `"object"` and the rest of the certain table.

The exporter never repairs silently (an unknown type name is a loss); callers
that want the repaired contract — the corpus tests, `toolclause export
--fix-types` — ask for it explicitly.  The table is `schema.keywords.type_alias`,
the one S002 itself reads.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from ..model import ToolContract
from ..schema.keywords import type_alias
from ..targets import JSON_SCHEMA_TYPES

_MAX_DEPTH = 200


# keywords whose value maps names to subschemas: the names are data, never keywords
# (a property called "type" is not the `type` keyword)
_NAME_MAPS = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"})


def fix_types(schema: Any, depth: int = 0) -> Any:
    """A copy of `schema` with every safely mappable type name replaced (and `any` removed)."""
    return _copy(schema, _fix_node, depth)


def _copy(schema: Any, fix_node: Callable[[dict[str, Any]], None], depth: int = 0) -> Any:
    """A copy of `schema` with `fix_node` applied to every schema node in it."""
    if depth > _MAX_DEPTH:
        return schema
    if isinstance(schema, list):
        return [_copy(item, fix_node, depth + 1) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if key in _NAME_MAPS and isinstance(value, dict):
            out[key] = {name: _copy(sub, fix_node, depth + 1) for name, sub in value.items()}
        elif key in ("type", "enum", "const", "default", "examples", "example", "required"):
            out[key] = value
        else:
            out[key] = _copy(value, fix_node, depth + 1)
    fix_node(out)
    return out


def _fix_node(node: dict[str, Any]) -> None:
    if "type" in node:
        fixed = _fixed_type(node["type"])
        if fixed is _REMOVE:
            del node["type"]
        else:
            node["type"] = fixed


def _native_node(node: dict[str, Any]) -> None:
    """Gemini's OpenAPI `Schema` (and RapidAPI records) as JSON Schema: `STRING` is `string`, and
    `nullable: true` is a null among the types (and the enum values)."""
    types = node.get("type")
    if isinstance(types, str) and types.upper() == types and types.lower() in JSON_SCHEMA_TYPES:
        node["type"] = types = types.lower()
    if node.get("nullable") is True and isinstance(types, str):
        del node["nullable"]
        node["type"] = [types, "null"] if types != "null" else "null"
        if isinstance(node.get("enum"), list) and None not in node["enum"]:
            node["enum"] = [*node["enum"], None]


def capitals_are_native(tool: ToolContract, role: str) -> bool:
    """Whether the schema is written in a dialect that spells types in capitals: Gemini's OpenAPI-style
    `parameters`/`response`, or a RapidAPI parameter record (as S002 reads them)."""
    if tool.origin.format == "rapidapi":
        return True
    source = tool.origin.pointers.entries.get("/inputSchema" if role == "input" else "/outputSchema", "")
    return tool.origin.format == "gemini" and source in ("/parameters", "/response")


def as_json_schema(tool: ToolContract) -> ToolContract:
    """The tool with schemas of a capitals dialect read as the JSON Schema they mean; others as they are."""
    changes = {}
    for role, key in (("input", "input_schema"), ("output", "output_schema")):
        schema = getattr(tool, key)
        if isinstance(schema, dict) and capitals_are_native(tool, role):
            changes[key] = _copy(schema, _native_node)
    return dataclasses.replace(tool, **changes) if changes else tool


_REMOVE = object()


def _fixed_type(value: Any) -> Any:
    if isinstance(value, str):
        known, json_type = type_alias(value)
        if not known:
            return value
        return _REMOVE if json_type is None else json_type
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        mapped = [_fixed_type(v) for v in value]
        if any(m is _REMOVE for m in mapped):
            return _REMOVE
        return list(dict.fromkeys(mapped))
    return value


def with_fixed_types(tool: ToolContract) -> ToolContract:
    return dataclasses.replace(tool, input_schema=fix_types(tool.input_schema) if tool.input_schema else None,
                               output_schema=fix_types(tool.output_schema) if tool.output_schema else None)
