"""Small, defensive readers of schema shapes shared by the C and P rules.

Every function accepts whatever a user wrote (`type: 5`, `properties: []`) and
answers without raising.
"""

from __future__ import annotations

from typing import Any

from ...model import ToolContract
from ...schema.refs import value_at
from ...schema.walk import NodeKind, SchemaNode

COMPOSITION = ("allOf", "anyOf", "oneOf")


def declared_types(schema: dict[str, Any]) -> frozenset[str]:
    """The names in `type` (a string or a list); empty when absent or malformed."""
    value = schema.get("type")
    if isinstance(value, str):
        return frozenset((value,))
    if isinstance(value, list):
        return frozenset(v for v in value if isinstance(v, str))
    return frozenset()


def is_object_schema(schema: dict[str, Any]) -> bool:
    """Declared `type: object` (alone or in a list), or untyped with a `properties` map."""
    if "type" in schema:
        declared = schema["type"]
        if isinstance(declared, str):  # the common case, answered without building a set
            return declared == "object"
        return "object" in declared_types(schema)
    return isinstance(schema.get("properties"), dict)


def is_array_schema(schema: dict[str, Any]) -> bool:
    declared = schema.get("type")
    if isinstance(declared, str):
        return declared == "array"
    return "array" in declared_types(schema)


def is_number_schema(schema: dict[str, Any]) -> bool:
    types = declared_types(schema)
    return bool(types) and types <= {"integer", "number", "null"} and bool(types - {"null"})


def holder_keyword(node: SchemaNode) -> str | None:
    """The keyword of the parent that holds this node (`properties`, `anyOf`, `not`, …)."""
    if node.parent is None:
        return None
    rest = node.pointer[len(node.parent.pointer) + 1:]
    return rest.split("/", 1)[0]


def property_label(node: SchemaNode) -> str:
    """How a message names a node: 'city' for a property, else its pointer."""
    if node.kind is NodeKind.PROPERTY and node.key is not None:
        return f"'{node.key}'"
    if node.is_root:
        return "the input schema" if node.role == "input" else "the output schema"
    return f"the schema at {node.pointer}"


def ancestor_via(node: SchemaNode, keywords: frozenset[str]) -> bool:
    """Whether this node, or an ancestor, is held by one of `keywords`."""
    # holder_keyword() inlined: C001 and P001 ask this for every object node, up to the root
    current, parent = node, node.parent
    while parent is not None:
        pointer = current.pointer
        start = len(parent.pointer) + 1
        end = pointer.find("/", start)
        if (pointer[start:end] if end >= 0 else pointer[start:]) in keywords:
            return True
        current, parent = parent, parent.parent
    return False


def written_by_user(tool: ToolContract, node: SchemaNode) -> bool:
    """Whether this schema object is one the user wrote as JSON Schema.

    Loaders of non-schema formats (parameter lists, bare property maps) build
    the enclosing objects themselves; those formats cannot say "closed" or
    "no properties", so advice to edit such an object could not be followed.
    A loader keeps user-written schemas as the very same dict objects.
    """
    raw = tool.raw
    if raw is None:
        return True
    # original_value() inlined: C001 and P001 ask this for every object node
    return value_at(raw, tool.origin.pointers.to_original(node.pointer)) is node.schema
