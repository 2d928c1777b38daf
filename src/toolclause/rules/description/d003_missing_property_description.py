"""missing-property-description (D003)

## What it does
Finds a property of the input schema, at any depth (inside nested objects and
array items too), with no description or an empty one.  A property that takes
its description from a `$ref` target or a composition branch is not reported.

## Why is this bad?
The name alone rarely says what to send: `date` in which format, `amount` in
which currency and unit, `id` of what.  The model fills the gap with a guess,
and the call fails validation or — worse — succeeds with the wrong value.

## Example
```json
{"name": "create_refund", "description": "Refunds part or all of one payment; returns the refund id.",
 "inputSchema": {"type": "object",
                 "properties": {"amount": {"type": "integer"}}}}
```

## Use instead
```json
{"name": "create_refund", "description": "Refunds part or all of one payment; returns the refund id.",
 "inputSchema": {"type": "object",
                 "properties": {"amount": {"type": "integer", "description": "Amount to refund, in cents (환불 금액, 센트)"}}}}
```

## Fix safety
No fix: only the author knows what the value means.
"""

from __future__ import annotations

from typing import Iterable

from ...model import Fix, Severity, ToolContract
from ...schema.walk import NodeKind, SchemaNode
from ..base import Finding, LintContext, Rule
from ._common import property_path, resolve_local, text_of


def _described_elsewhere(schema: dict, tool: ToolContract) -> bool:
    """A `$ref` target or a composition branch may carry the description."""
    target = resolve_local(tool, schema.get("$ref"))
    if target is not None and text_of(target):
        return True
    if "$ref" in schema and target is None:
        return True  # unresolvable here: give it the benefit of the doubt (S005 reports bad refs)
    for keyword in ("allOf", "anyOf", "oneOf"):
        branches = schema.get(keyword)
        if isinstance(branches, list):
            for branch in branches:
                if isinstance(branch, dict) and (text_of(branch) or text_of(resolve_local(tool, branch.get("$ref")) or {})):
                    return True
    return False


class MissingPropertyDescription(Rule):
    code = "D003"
    name = "missing-property-description"
    severity = Severity.WARNING
    node_kinds = frozenset({NodeKind.PROPERTY})

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        schema = node.schema
        if text_of(schema) or _described_elsewhere(schema, tool):
            return
        path = property_path(node)
        what = "an empty description" if "description" in schema else "no description"
        title = text_of(schema, "title")
        note = f" (only the title '{title}')" if title else ""
        container = schema.get("type") in ("object", "array") or "properties" in schema or "items" in schema
        advice = ("say what it holds and when to send it" if container
                  else "say what value it expects (meaning, format, unit, example)")
        yield Finding(node.pointer, f"property '{path}' has {what}{note}; {advice}",
                      Fix(f"add a description to '{path}'", safe=False))
