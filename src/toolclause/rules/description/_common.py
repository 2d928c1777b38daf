"""Helpers the description rules share: readable property paths and schema facts."""

from __future__ import annotations

from typing import Any

from ...model import ToolContract, split_pointer
from ...schema.refs import MISSING, ref_target
from ...schema.walk import NodeKind, SchemaNode
from ..base import original_value

STRING_TYPES = frozenset({"string", "str", "String"})
"""`str` and `String` are not JSON Schema, but they certainly mean a string (S002 reports them)."""

COMPOSITION = ("$ref", "$dynamicRef", "anyOf", "oneOf", "allOf", "not")


def property_path(node: SchemaNode) -> str:
    """`address.city`, `items[].name` — the property as a person would name it."""
    parts: list[str] = []
    current: SchemaNode | None = node
    while current is not None and current.parent is not None:
        if current.kind is NodeKind.PROPERTY:
            parts.append(str(current.key))
        elif current.kind is NodeKind.ITEMS:
            parts.append("[]")
        current = current.parent
    text = ""
    for part in reversed(parts):
        text += part if part == "[]" or not text else "." + part
    return text or str(node.key)


def is_string(schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    if isinstance(kind, str):
        return kind in STRING_TYPES
    if isinstance(kind, list):
        names = [k for k in kind if k != "null"]
        return len(names) == 1 and names[0] in STRING_TYPES
    return False


def nullable_view(schema: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
    """An `Optional[X]` as pydantic writes it (`{"anyOf": [{"type": "string"}, {"type": "null"}], …}`, no `type`
    of its own), seen as X: the branch that is not `null` with the schema's own keywords beside it, and the
    branch's place below the schema ("anyOf/0"), where a keyword about X belongs.  None for any other schema."""
    if "type" in schema:
        return None
    for keyword in ("anyOf", "oneOf"):
        branches = schema.get(keyword)
        if isinstance(branches, list) and len(branches) == 2 and all(isinstance(b, dict) for b in branches):
            others = [i for i, b in enumerate(branches) if b != {"type": "null"}]
            if len(others) != 1:
                return None
            own = {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf")}
            return {**branches[others[0]], **own}, f"{keyword}/{others[0]}"
    return None


def text_of(schema: dict[str, Any], key: str = "description") -> str:
    value = schema.get(key)
    return value.strip() if isinstance(value, str) else ""


def resolve_local(tool: ToolContract, ref: Any) -> dict[str, Any] | None:
    """The subschema a local `$ref` ("#/$defs/x") names inside the input schema, or None."""
    if not isinstance(tool.input_schema, dict):
        return None
    target = ref_target(tool.input_schema, ref)
    return target if isinstance(target, dict) else None


def raw_value(tool: ToolContract, canonical: str) -> tuple[bool, Any]:
    """(present, value) of what the user's document holds at a canonical pointer."""
    value = original_value(tool, canonical)
    return (False, None) if value is MISSING else (True, value)


__all__ = ["COMPOSITION", "is_string", "nullable_view", "property_path", "raw_value", "resolve_local",
           "split_pointer", "text_of"]
