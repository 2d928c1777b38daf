"""Schemas written in a dialect that spells JSON Schema otherwise, read as the JSON Schema they mean.

Gemini's own `parameters`/`response` (OpenAPI 3.0 style) and RapidAPI parameter records spell
types in capitals (`"type": "STRING"`) and null as `"nullable": true`.  Export reads them so
before it projects a tool, and diff before it compares two, so a Gemini file and its JSON
Schema twin are the same tool to both.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from ..model import ToolContract
from ..targets import JSON_SCHEMA_TYPES

_MAX_DEPTH = 200


# keywords whose value maps names to subschemas: the names are data, never keywords
# (a property called "type" is not the `type` keyword)
_NAME_MAPS = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"})


def copy_nodes(schema: Any, fix_node: Callable[[dict[str, Any]], None], depth: int = 0) -> Any:
    """A copy of `schema` with `fix_node` applied to every schema node in it."""
    if depth > _MAX_DEPTH:
        return schema
    if isinstance(schema, list):
        return [copy_nodes(item, fix_node, depth + 1) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if key in _NAME_MAPS and isinstance(value, dict):
            out[key] = {name: copy_nodes(sub, fix_node, depth + 1) for name, sub in value.items()}
        elif key in ("type", "enum", "const", "default", "examples", "example", "required"):
            out[key] = value
        else:
            out[key] = copy_nodes(value, fix_node, depth + 1)
    fix_node(out)
    return out


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
            changes[key] = copy_nodes(schema, _native_node)
    return dataclasses.replace(tool, **changes) if changes else tool


__all__ = ["as_json_schema", "capitals_are_native", "copy_nodes"]
