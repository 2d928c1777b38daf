"""Walk a JSON Schema once, yielding every subschema with its context.

Rules subscribe to the nodes they care about (see `toolclause.rules.base`), so a
schema is traversed a single time however many rules run.  The walk is
iterative and depth-bounded: a schema nested thousands of levels deep costs a
bounded amount of work and is reported, never a RecursionError.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from typing import Any

from ..model import escape_token

MAX_DEPTH = 64
"""Subschemas deeper than this are not analysed (OpenAI allows 10 levels)."""


class NodeKind(enum.Enum):
    ROOT = "root"              # the inputSchema / outputSchema itself
    PROPERTY = "property"      # properties/<name>
    PATTERN_PROPERTY = "patternProperty"
    ADDITIONAL = "additionalProperties"
    ITEMS = "items"            # items, prefixItems/n, additionalItems, contains, unevaluatedItems
    BRANCH = "branch"          # allOf/anyOf/oneOf/n, not, if/then/else
    DEFINITION = "definition"  # $defs/<name>, definitions/<name>
    OTHER = "other"            # propertyNames, dependentSchemas/<name>, unevaluatedProperties


# keyword → (kind, shape) where shape is "schema", "list" or "map"
SUBSCHEMA_KEYWORDS: dict[str, tuple[NodeKind, str]] = {
    "properties": (NodeKind.PROPERTY, "map"),
    "patternProperties": (NodeKind.PATTERN_PROPERTY, "map"),
    "additionalProperties": (NodeKind.ADDITIONAL, "schema"),
    "items": (NodeKind.ITEMS, "schema-or-list"),
    "prefixItems": (NodeKind.ITEMS, "list"),
    "additionalItems": (NodeKind.ITEMS, "schema"),
    "contains": (NodeKind.ITEMS, "schema"),
    "unevaluatedItems": (NodeKind.ITEMS, "schema"),
    "allOf": (NodeKind.BRANCH, "list"),
    "anyOf": (NodeKind.BRANCH, "list"),
    "oneOf": (NodeKind.BRANCH, "list"),
    "not": (NodeKind.BRANCH, "schema"),
    "if": (NodeKind.BRANCH, "schema"),
    "then": (NodeKind.BRANCH, "schema"),
    "else": (NodeKind.BRANCH, "schema"),
    "$defs": (NodeKind.DEFINITION, "map"),
    "definitions": (NodeKind.DEFINITION, "map"),
    "dependentSchemas": (NodeKind.OTHER, "map"),
    "propertyNames": (NodeKind.OTHER, "schema"),
    "unevaluatedProperties": (NodeKind.OTHER, "schema"),
}

_SUBSCHEMA_KEYS = frozenset(SUBSCHEMA_KEYWORDS)

# keywords whose value is data, never a schema: the walk must not look inside
DATA_KEYWORDS = frozenset({"enum", "const", "default", "examples", "example", "required"})


class SchemaNode:
    """One subschema and where it sits.

    pointer   canonical pointer (e.g. "/inputSchema/properties/city")
    schema    the subschema dict
    kind      how its parent holds it
    key       the property / definition name, or the index as a string
    parent    the enclosing SchemaNode (None for the root)
    depth     nesting level of objects/arrays (root = 0)
    required  for PROPERTY nodes: whether the parent lists the name in `required`
    """

    __slots__ = ("pointer", "schema", "kind", "key", "parent", "depth", "required", "role")

    def __init__(self, pointer: str, schema: dict[str, Any], kind: NodeKind, key: str | None,
                 parent: SchemaNode | None, depth: int, required: bool, role: str) -> None:
        self.pointer = pointer
        self.schema = schema
        self.kind = kind
        self.key = key
        self.parent = parent
        self.depth = depth
        self.required = required
        self.role = role  # "input" or "output"

    @property
    def is_root(self) -> bool:
        return self.parent is None

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"SchemaNode({self.pointer!r}, {self.kind.value})"


def walk(schema: Any, base_pointer: str, role: str = "input",
         max_depth: int = MAX_DEPTH) -> tuple[list[SchemaNode], list[str]]:
    """Return (nodes in document order, pointers where the walk stopped for depth)."""
    nodes: list[SchemaNode] = []
    too_deep: list[str] = []
    if not isinstance(schema, dict):
        return nodes, too_deep
    stack: list[SchemaNode] = [SchemaNode(base_pointer, schema, NodeKind.ROOT, None, None, 0, False, role)]
    while stack:
        node = stack.pop()
        nodes.append(node)
        sch = node.schema
        # most nodes hold no subschema keyword at all ({"type": "string", ...}); a set
        # intersection in C skips them without a Python-level loop over their keys
        present = _SUBSCHEMA_KEYS.intersection(sch)
        if not present:
            continue
        children: list[SchemaNode] = []
        for keyword in sch:
            if keyword not in present:
                continue
            value = sch[keyword]
            kind, shape = SUBSCHEMA_KEYWORDS[keyword]
            base = node.pointer + "/" + keyword  # subschema keywords need no escaping
            if shape == "map":
                if not isinstance(value, dict):
                    continue
                required = sch.get("required") if kind is NodeKind.PROPERTY else None
                required_names = set(r for r in required if isinstance(r, str)) if isinstance(required, list) else ()
                depth = node.depth + 1
                for name, sub in value.items():
                    if isinstance(sub, dict):
                        token = escape_token(name) if ("~" in name or "/" in name) else name
                        children.append(SchemaNode(base + "/" + token, sub, kind, name, node,
                                                   depth, name in required_names, role))
            elif shape == "list" or (shape == "schema-or-list" and isinstance(value, list)):
                if not isinstance(value, list):
                    continue
                depth = node.depth + (1 if kind is NodeKind.ITEMS else 0)
                for index, sub in enumerate(value):
                    if isinstance(sub, dict):
                        children.append(SchemaNode(f"{base}/{index}", sub, kind, str(index), node, depth, False, role))
            elif isinstance(value, dict):
                depth = node.depth + (0 if kind is NodeKind.BRANCH else 1)
                children.append(SchemaNode(base, value, kind, keyword, node, depth, False, role))
        for child in reversed(children):
            if child.depth > max_depth:
                too_deep.append(child.pointer)
                continue
            stack.append(child)
    return nodes, too_deep


def iter_object_properties(schema: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    props = schema.get("properties")
    if isinstance(props, dict):
        yield from props.items()
