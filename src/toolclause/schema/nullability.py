"""Null in a schema: the distinct questions the linter, the exporters and the gate ask, one function each.

    allows_null(schema)     would null validate here?  (read shallowly: a `$ref` counts as no)
    declares_null(schema)   does the schema name null itself: "null" in its `type`, or an
                            anyOf/oneOf branch typed null?  (`{}` allows null but declares nothing)
    openapi_nullable(schema)  OpenAPI 3.0's spelling, `"nullable": true`
    nullable_type(declared) the `type` value that also admits null, in JSON Schema's names
    make_nullable(schema)   the same schema, also accepting null (strict mode's optional property)
"""

from __future__ import annotations

from typing import Any

from .keywords import type_alias


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


def _type_names(schema: dict[str, Any]) -> list[str]:
    value = schema.get("type")
    if isinstance(value, str):
        return [value]
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def declares_null(schema: dict[str, Any]) -> bool:
    """Whether the schema says null itself: a `type` naming "null", or an anyOf/oneOf branch typed null."""
    if "null" in _type_names(schema):
        return True
    for keyword in ("anyOf", "oneOf"):
        branches = schema.get(keyword)
        if isinstance(branches, list) and any(isinstance(b, dict) and "null" in _type_names(b) for b in branches):
            return True
    return False


def openapi_nullable(schema: dict[str, Any]) -> bool:
    """OpenAPI 3.0 (Gemini `parameters`) admits null with `"nullable": true` instead of a type."""
    return schema.get("nullable") is True


def nullable_type(declared: Any) -> list[str]:
    """The `type` names that also admit null: known aliases in JSON Schema's names (`float` → number),
    unknown names as written, then "null"; [] when `type` is neither a name nor a list of names."""
    names = [declared] if isinstance(declared, str) else [d for d in declared if isinstance(d, str)] \
        if isinstance(declared, list) else []
    if not names:
        return []
    standard = []
    for name in names:
        known, json_type = type_alias(name)
        standard.append(json_type if known and json_type else name)
    return list(dict.fromkeys(standard + ["null"]))


def make_nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """The same schema, also accepting null (the strict form of an optional property)."""
    if allows_null(schema):
        return schema
    out = dict(schema)
    if "const" in out:
        out["enum"] = [out.pop("const")]
    if "$ref" in out:
        description = out.pop("description", None)
        wrapped: dict[str, Any] = {"anyOf": [out, {"type": "null"}]}
        if description is not None:
            wrapped["description"] = description
        return wrapped
    types = out.get("type")
    if isinstance(types, str):
        out["type"] = [types, "null"]
    elif isinstance(types, list):
        out["type"] = [*types, "null"] if "null" not in types else types
    elif isinstance(out.get("anyOf"), list):
        out["anyOf"] = [*out["anyOf"], {"type": "null"}]
        return out
    else:
        return {"anyOf": [out, {"type": "null"}]}
    if isinstance(out.get("enum"), list) and None not in out["enum"]:
        out["enum"] = [*out["enum"], None]
    return out
