"""Recursion among local `$ref`s, found while the schema is walked once.

Definitions (`$defs/X`, `definitions/X`) and the root are the units; each local
`$ref` adds an edge from the unit that holds it to the unit it names.  A ref
that names one of its own enclosing schemas, or an edge that closes a cycle of
definitions, is recursion.
"""

from __future__ import annotations

from ...model import ToolContract
from ...schema.walk import SchemaNode

_DEFINITION_KEYWORDS = ("$defs", "definitions")


class DefinitionGraph:
    def __init__(self, tool: ToolContract, root_pointer: str) -> None:
        self.tool = tool
        self.root = root_pointer
        self.edges: dict[str, set[str]] = {}

    def _unit(self, pointer: str) -> str:
        """The definition (or the root) a pointer lies in."""
        rest = pointer[len(self.root):].split("/")
        if len(rest) >= 3 and rest[1] in _DEFINITION_KEYWORDS:
            return "/".join([self.root, rest[1], rest[2]])
        return self.root

    def add(self, node: SchemaNode, ref: str) -> str | None:
        """Record the ref of `node`; say how it recurses, or None."""
        target = self.root + ref[1:]
        if node.pointer == target or node.pointer.startswith(target + "/"):
            return "encloses it"
        source, goal = self._unit(node.pointer), self._unit(target)
        if goal == self.root and target != self.root:
            return None  # a ref into the root's own properties: only direct enclosure recurses
        self.edges.setdefault(source, set()).add(goal)
        if self._reaches(goal, source):
            return "leads back to it through other references"
        return None

    def _reaches(self, start: str, goal: str) -> bool:
        seen, stack = set(), [start]
        while stack:
            current = stack.pop()
            if current == goal:
                return True
            if current in seen:
                continue
            seen.add(current)
            stack.extend(self.edges.get(current, ()))
        return False
