"""invalid-suppression (G002)

## What it does
Finds an entry of a tool's `"x-toolclause-ignore"` list that is neither a
rule code nor a table it can read: an unknown key (`untill`), a date that is
no date, a code that is no code, a number.  The entry suppresses nothing.
(The same mistakes in the configuration's `ignore` stop the run with exit 2,
naming the key.)

## Why is this bad?
The author meant to silence something for a reason; an entry that cannot be
read silences nothing, or, worse, would be read as something else.  Saying so
is the only way the author learns it.

## Example
```json
{"name": "create_refund", "description": "Refunds one payment in full or in part and returns the refund.",
 "inputSchema": {"type": "object", "properties": {"payment_id": {"type": "string", "description": "Payment"}},
                 "required": ["payment_id"], "additionalProperties": false},
 "x-toolclause-ignore": [{"code": "X002", "owner": "payments", "untill": "2027-01-31"}]}
```

## Use instead
```json
{"name": "create_refund", "description": "Refunds one payment in full or in part and returns the refund.",
 "inputSchema": {"type": "object", "properties": {"payment_id": {"type": "string", "description": "Payment"}},
                 "required": ["payment_id"], "additionalProperties": false},
 "x-toolclause-ignore": [{"code": "X002", "owner": "payments", "until": "2027-01-31"}]}
```

## Fix safety
No fix: only the author knows what was meant.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model import Severity, ToolContract
from ..base import Finding, LintContext, Rule
from ._entries import INLINE, SuppressionError, inline_entries


class InvalidSuppression(Rule):
    code = "G002"
    name = "invalid-suppression"
    severity = Severity.WARNING
    severity_rationale = "warning: the entry silences nothing its author meant it to; the author rewrites it"

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterator[Finding]:
        if not tool.extra:
            return
        for index, entry in inline_entries(tool.extra, tool.origin.file):
            if isinstance(entry, SuppressionError):
                yield Finding(f"/{INLINE}/{index}", f"{entry}; the entry suppresses nothing")
