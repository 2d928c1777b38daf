"""Whole numbers written as floats (`{"limit": 1e2}`) reach an integer parameter as an int.

JSON has one number type, and JSON Schema's `"type": "integer"` accepts any
number with no fractional part, so `1e2` and `100.0` pass validation for
`limit: int`.  A Python function annotated `int` must not get a float (`range(100.0)`
raises), so after validation every value the schema types as an integer is
made an int.  Where that can happen is worked out once per tool, at
registration (`integer_plan`); a call whose tool has no integer parameters
pays nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..schema.refs import MISSING, ref_target

INTEGER = "int"
_MAX_DEPTH = 16


def integer_plan(schema: Any) -> dict[str, Any]:
    """{property: where integers sit under it} for the properties of an object schema that hold integers."""
    plan = _plan(schema, schema, 0)
    return plan[1] if isinstance(plan, tuple) and plan[0] == "properties" else {}


def _plan(node: Any, root: Any, depth: int) -> Any:
    if depth > _MAX_DEPTH or not isinstance(node, Mapping):
        return None
    if isinstance(node.get("$ref"), str):
        target = ref_target(root, node["$ref"])
        return None if target is MISSING else _plan(target, root, depth + 1)
    declared = node.get("type")
    types = {declared} if isinstance(declared, str) else set(declared) if isinstance(declared, list) else set()
    if "integer" in types and "number" not in types:
        return INTEGER
    branches = node.get("anyOf") or node.get("oneOf")
    if isinstance(branches, list) and not types:
        plans = [_plan(b, root, depth + 1) for b in branches]
        nulls = [isinstance(b, Mapping) and b.get("type") == "null" for b in branches]
        if INTEGER in plans and all(p == INTEGER or n for p, n in zip(plans, nulls, strict=True)):
            return INTEGER
        return None
    items = node.get("items")
    if isinstance(items, Mapping):
        sub = _plan(items, root, depth + 1)
        if sub is not None:
            return ("items", sub)
    properties = node.get("properties")
    if isinstance(properties, Mapping):
        subs = {k: p for k, p in ((k, _plan(v, root, depth + 1)) for k, v in properties.items()) if p is not None}
        if subs:
            return ("properties", subs)
    return None


def apply_integers(arguments: dict[str, Any], plan: Mapping[str, Any]) -> None:
    """Make the whole-number floats that `plan` marks ints, in place (the arguments are valid already)."""
    for key, where in plan.items():
        if key in arguments:
            arguments[key] = _apply(arguments[key], where)


def _apply(value: Any, where: Any) -> Any:
    if where == INTEGER:
        return int(value) if type(value) is float and value.is_integer() else value
    kind, sub = where
    if kind == "items" and type(value) is list:
        for i, item in enumerate(value):
            value[i] = _apply(item, sub)
    elif kind == "properties" and type(value) is dict:
        apply_integers(value, sub)
    return value


__all__ = ["apply_integers", "integer_plan"]
