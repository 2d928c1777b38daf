"""Find `$ref`s that make a schema recursive (used by S005 for targets that reject recursion).

A reference is recursive when expanding its target in place would, directly or
through other references, reach the same reference again.  Expanding a schema
evaluates its subschemas but not its `$defs`/`definitions`, which are reached
only through references; so a `"$ref": "#"` placed inside `$defs` is recursive
only if something evaluated refers to that definition.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...model import split_pointer
from ...schema.keywords import SCHEMA_LIST, SCHEMA_MAP
from ...schema.refs import RefIndex, iter_subschemas

_NOT_EVALUATED = frozenset({"$defs", "definitions"})


def _evaluated_within(target: str, location: str) -> bool:
    """Whether the schema at `location` is evaluated when the schema at `target` is."""
    if location != target and not location.startswith(target + "/") and target != "":
        return False
    tokens = split_pointer(location[len(target):])
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token in _NOT_EVALUATED:
            return False
        # a map or list keyword is followed by a name or an index, which is never a keyword
        if token in SCHEMA_MAP or token in SCHEMA_LIST or (token == "items" and i + 1 < len(tokens)
                                                              and tokens[i + 1].isdigit()):
            i += 2
        else:
            i += 1
    return True


def recursive_refs(root: dict[str, Any]) -> Iterator[tuple[str, str, list[str]]]:
    """(location of the $ref's node, the ref, the chain of refs that loops) — one per loop."""
    refs: list[tuple[str, str, str]] = []  # (location, ref, target pointer)
    index: RefIndex | None = None
    for location, node in iter_subschemas(root):
        ref = node.get("$ref")
        if not isinstance(ref, str):
            continue
        index = index or RefIndex(root)
        resolution = index.resolve(ref)
        if resolution.ok and resolution.pointer is not None:
            refs.append((location, ref, resolution.pointer))
    if not refs:
        return
    edges = {i: [j for j, (loc, _, _) in enumerate(refs) if _evaluated_within(target, loc)]
             for i, (_, _, target) in enumerate(refs)}
    reported: set[int] = set()
    for start in range(len(refs)):
        if start in reported:
            continue
        loop = _loop_through(start, edges)
        if loop is None:
            continue
        reported.update(loop)
        location, ref, _ = refs[start]
        yield location, ref, [refs[i][1] for i in loop] + [ref]


def _loop_through(start: int, edges: dict[int, list[int]]) -> list[int] | None:
    """A path start → … → start, as the list of refs on it, or None."""
    stack: list[tuple[int, list[int]]] = [(start, [start])]
    seen: set[int] = set()
    while stack:
        current, path = stack.pop()
        for nxt in edges[current]:
            if nxt == start:
                return path
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, path + [nxt]))
    return None
