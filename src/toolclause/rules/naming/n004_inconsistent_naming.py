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


_OddNames = tuple[dict[str, NameStyle], str, Fix]
"""A list's survey: the style of each odd tool name, the verdict on the list, the fix offered on each."""


class InconsistentNaming(Rule):
    code = "N004"
    name = "inconsistent-naming"
    severity = Severity.INFO

    def survey_tools(self, tools: Sequence[ToolContract], ctx: LintContext) -> _OddNames | None:
        """The tool names that break the list's naming style, and what the finding on each says of the list."""
        found = _odd_ones([t.name for t in tools if isinstance(t.name, str)])
        if not found:
            return None
        dominant, counts, odd = found
        return (dict(odd), f"{_verdict(dominant, counts, 'the tool names in this list')}; odd ones: {_listing(odd)}",
                Fix(f"rename the odd tools to {dominant.value if dominant else 'one style'}", safe=False))

    def check_member(self, tool: ToolContract, odd_names: _OddNames | None, ctx: LintContext) -> Iterable[Finding]:
        if odd_names is not None and tool.name in odd_names[0]:
            odd_styles, verdict, fix = odd_names
            yield Finding("/name", f"tool name '{tool.name}' is {odd_styles[tool.name].value} but {verdict}", fix)
        props = tool.input_schema.get("properties") if isinstance(tool.input_schema, dict) else None
        if not isinstance(props, dict):
            return
        found = _odd_ones([k for k in props if isinstance(k, str)])
        if not found:
            return
        dominant, counts, odd = found
        target = dominant.value if dominant else "one style"
        yield Finding(f"/inputSchema/properties/{escape_token(odd[0][0])}", (
            f"property names mix styles: {_verdict(dominant, counts, 'the property names')}; "
            f"odd ones: {_listing(odd)}"),
            Fix(f"rename the odd properties to {target}", safe=False))
