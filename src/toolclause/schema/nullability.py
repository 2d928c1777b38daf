"""Whether a schema accepts null: one reading, shared by the strict projections and argument normalisation."""

from __future__ import annotations

from typing import Any


def allows_null(schema: Any) -> bool:
    """Whether null is valid here, read shallowly (a `$ref` counts as not allowing it)."""
    if not isinstance(schema, dict):
        return schema is True
    types = schema.get("type")
    if isinstance(types, str) and types != "null" or isinstance(types, list) and "null" not in types:
        return False
    if isinstance(schema.get("enum"), list) and None not in schema["enum"]:
        return False
    if "const" in schema and schema["const"] is not None or "$ref" in schema:
        return False
    for keyword in ("anyOf", "oneOf"):
        if isinstance(schema.get(keyword), list):
            return any(allows_null(b) for b in schema[keyword])
    if isinstance(schema.get("allOf"), list):
        return all(allows_null(b) for b in schema["allOf"])
    return True
