"""Which definitions (`$defs`, `definitions`) a tool's schema actually uses.

Generated schemas often carry every shared definition in every tool (one server
copies the same nine `$defs` into 24 tools, most of them unused).  No argument
can ever be validated by an unused definition, so advice about its properties
(describe them, close them, bound them) changes nothing; the rules that walk
schema nodes skip them.
"""

from __future__ import annotations

from typing import Any

from ..model import ToolContract
from ..schema.walk import SchemaNode
from .base import IdentityMemo, LintContext

DEFINITION_KEYWORDS = _DEFS = ("$defs", "definitions")


class _Used(IdentityMemo[dict, frozenset[str]]):
    """This run's used definitions, one set per schema."""


def _refs(value: Any, out: set[str], skip_defs: bool) -> None:
    stack = [(value, skip_defs)]
    seen: set[int] = set()  # a YAML alias can make the schema a cycle
    while stack:
        current, top = stack.pop()
        if isinstance(current, (dict, list)):
            if id(current) in seen:
                continue
            seen.add(id(current))
        if isinstance(current, dict):
            ref = current.get("$ref")
            if isinstance(ref, str):
                out.add(ref)
            for key, sub in current.items():
                if top and key in _DEFS:
                    continue
                stack.append((sub, False))
        elif isinstance(current, list):
            stack.extend((sub, False) for sub in current)


def used_definitions(schema: dict) -> frozenset[str]:
    """Pointers ('/$defs/name') of the definitions reachable from the schema outside its definitions."""
    refs: set[str] = set()
    _refs(schema, refs, True)
    used: set[str] = set()
    pending = list(refs)
    while pending:
        ref = pending.pop()
        if not ref.startswith("#/"):
            continue
        parts = ref[2:].split("/")
        if len(parts) < 2 or parts[0] not in _DEFS:
            continue
        key = f"/{parts[0]}/{parts[1]}"
        if key in used:
            continue
        used.add(key)
        holder = schema.get(parts[0])
        target = holder.get(parts[1].replace("~1", "/").replace("~0", "~")) if isinstance(holder, dict) else None
        more: set[str] = set()
        _refs(target, more, False)
        pending.extend(more - refs)
        refs |= more
    return frozenset(used)


_PREFIXES = ("/inputSchema/$defs/", "/inputSchema/definitions/", "/outputSchema/$defs/", "/outputSchema/definitions/")


def unused_definition(tool: ToolContract, node: SchemaNode, ctx: LintContext | None = None) -> bool:
    """Whether the node sits inside a definition of the input schema that nothing references."""
    pointer = node.pointer
    if not pointer.startswith(_PREFIXES):
        return False  # the common case, one string test
    for root in ("/inputSchema", "/outputSchema"):
        if not pointer.startswith(root + "/"):
            continue
        rest = pointer[len(root):]
        if not rest.startswith(("/$defs/", "/definitions/")):
            return False
        parts = rest.split("/")
        schema = tool.input_schema if root == "/inputSchema" else tool.output_schema
        if not isinstance(schema, dict):
            return False
        used = used_definitions(schema) if ctx is None else ctx.state(_Used).get(schema, used_definitions)
        return f"/{parts[1]}/{parts[2]}" not in used
    return False
