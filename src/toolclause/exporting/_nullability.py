"""Null and shape facts the projector needs, kept apart from its walk.

Strict modes have no optional properties: an optional one becomes required and
nullable (`schema.nullability.make_nullable`); OpenAPI (Gemini) spells null as
`nullable: true` instead of a type (`to_openapi_nullable`).  The shape tests say when a
composition is an object, and when `oneOf` may safely become `anyOf`.
"""

from __future__ import annotations

import json
from typing import Any


def to_openapi_nullable(out: dict[str, Any]) -> None:
    """OpenAPI has one type and `nullable`: rewrite type arrays and anyOf[X, null]."""
    types = out.get("type")
    if isinstance(types, list):
        non_null = [t for t in types if t != "null"]
        if "null" in types:
            out["nullable"] = True
        if len(non_null) == 1:
            out["type"] = non_null[0]
        else:
            del out["type"]
            out["anyOf"] = [{"type": t} for t in non_null]
    branches = out.get("anyOf")
    if isinstance(branches, list):
        nulls = [b for b in branches if b in ({"type": "null"}, {"nullable": True})]
        rest = [b for b in branches if b not in nulls]
        if nulls:
            out["nullable"] = True
            if len(rest) == 1 and not (set(rest[0]) & set(out) - {"description"}):
                del out["anyOf"]
                description = out.pop("description", None)
                out.update(rest[0])
                if description and "description" not in rest[0]:
                    out["description"] = description
            else:
                out["anyOf"] = rest
    if out.get("type") == "null":
        out.pop("type")
        out["nullable"] = True


def is_object(schema: dict[str, Any]) -> bool:
    types = schema.get("type")
    return types == "object" or isinstance(types, list) and "object" in types


def is_array(schema: dict[str, Any]) -> bool:
    types = schema.get("type")
    return types == "array" or isinstance(types, list) and "array" in types


def object_branches(schema: dict[str, Any]) -> bool:
    """A composition whose every branch is an object (so the node itself can say `type: object`)."""
    for keyword in ("anyOf", "oneOf", "allOf"):
        branches = schema.get(keyword)
        if isinstance(branches, list) and branches and all(isinstance(b, dict) and is_object(b) for b in branches):
            return True
    return False


def disjoint(branches: list[Any]) -> bool:
    """True when no value can match two branches (different types, or different constants)."""
    types, consts = [], []
    for b in branches:
        if not isinstance(b, dict):
            return False
        if isinstance(b.get("type"), str):
            types.append(b["type"])
        if "const" in b:
            consts.append(json.dumps(b["const"], sort_keys=True))
    if len(types) == len(branches) and len(set(types)) == len(types) and not {"number", "integer"} <= set(types):
        return True
    return len(consts) == len(branches) and len(set(consts)) == len(consts)
