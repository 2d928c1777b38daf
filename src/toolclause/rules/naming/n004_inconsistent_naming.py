"""inconsistent-naming (N004)

## What it does
Finds a tool list that mixes naming styles — `snake_case`, `camelCase`,
`PascalCase`, `kebab-case` — in its tool names, and a tool whose top-level
property names mix styles.  It says which style dominates and lists the odd
names.  Single lower-case words (`search`) fit every style and are not counted;
names that mix styles inside themselves are not counted either.

## Why is this bad?
Models copy the pattern they see.  In a list of `get_user`, `list_orders` and
`createInvoice`, a model will sooner or later call `create_invoice` or send
`userId` where the schema says `user_id`, and the call fails validation.

## Example
```json
[{"name": "get_user", "description": "Looks up one user by id and returns the profile.",
  "inputSchema": {"type": "object", "properties": {"user_id": {"type": "string", "description": "User id"}}}},
 {"name": "list_orders", "description": "Lists a user's orders, newest first, with totals.",
  "inputSchema": {"type": "object", "properties": {"user_id": {"type": "string", "description": "User id"}}}},
 {"name": "createInvoice", "description": "Creates an invoice for one order and returns its number.",
  "inputSchema": {"type": "object", "properties": {"order_id": {"type": "string", "description": "Order id"}}}}]
```

## Use instead
```json
[{"name": "get_user", "description": "Looks up one user by id and returns the profile.",
  "inputSchema": {"type": "object", "properties": {"user_id": {"type": "string", "description": "User id"}}}},
 {"name": "list_orders", "description": "Lists a user's orders, newest first, with totals.",
  "inputSchema": {"type": "object", "properties": {"user_id": {"type": "string", "description": "User id"}}}},
 {"name": "create_invoice", "description": "Creates an invoice for one order and returns its number.",
  "inputSchema": {"type": "object", "properties": {"order_id": {"type": "string", "description": "Order id"}}}}]
```

## Fix safety
No fix: renaming tools or properties changes the contract.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from ...lexicon import NameStyle, name_style
from ...model import Fix, Severity, ToolContract, escape_token
from ..base import Finding, LintContext, Rule

_LISTED = 6


def _odd_ones(names: Sequence[str]) -> tuple[NameStyle | None, Counter, list[tuple[str, NameStyle]]] | None:
    """(dominant style or None on a tie, counts, odd names) when the classified names mix styles.

    On a tie no style dominates; the names not in the first name's style are the odd ones.
    """
    styled = [(n, s) for n in names if (s := name_style(n)) is not None]
    counts = Counter(s for _, s in styled)
    if len(counts) < 2:
        return None
    (dominant, top), (_, second) = counts.most_common(2)
    reference = dominant if top > second else styled[0][1]
    return (dominant if top > second else None), counts, [(n, s) for n, s in styled if s is not reference]


def _verdict(dominant: NameStyle | None, counts: Counter, what: str) -> str:
    if dominant is None:
        return f"{what} mix styles with none dominating ({_tally(counts)}); pick one"
    return f"{dominant.value} dominates {what} ({_tally(counts)})"


def _tally(counts: Counter) -> str:
    return ", ".join(f"{n} {s.value}" for s, n in counts.most_common())


def _listing(odd: list[tuple[str, NameStyle]]) -> str:
    shown = ", ".join(f"'{n}'" for n, _ in odd[:_LISTED])
    return shown + (f" and {len(odd) - _LISTED} more" if len(odd) > _LISTED else "")


class InconsistentNaming(Rule):
    code = "N004"
    name = "inconsistent-naming"
    severity = Severity.INFO

    def check_tools(self, tools: Sequence[ToolContract], ctx: LintContext) -> Iterable[tuple[ToolContract, Finding]]:
        found = _odd_ones([t.name for t in tools if isinstance(t.name, str)])
        if found:
            dominant, counts, odd = found
            odd_styles = dict(odd)
            verdict = _verdict(dominant, counts, "the tool names in this list")
            for tool in tools:
                if tool.name in odd_styles:
                    style = odd_styles[tool.name]
                    target = dominant.value if dominant else "one style"
                    yield tool, Finding("/name", (
                        f"tool name '{tool.name}' is {style.value} but {verdict}; odd ones: {_listing(odd)}"),
                        Fix(f"rename the odd tools to {target}", safe=False))
        for tool in tools:
            props = tool.input_schema.get("properties") if isinstance(tool.input_schema, dict) else None
            if not isinstance(props, dict):
                continue
            found = _odd_ones([k for k in props if isinstance(k, str)])
            if not found:
                continue
            dominant, counts, odd = found
            target = dominant.value if dominant else "one style"
            yield tool, Finding(f"/inputSchema/properties/{escape_token(odd[0][0])}", (
                f"property names mix styles: {_verdict(dominant, counts, 'the property names')}; "
                f"odd ones: {_listing(odd)}"),
                Fix(f"rename the odd properties to {target}", safe=False))
