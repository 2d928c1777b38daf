"""expired-suppression (G001)

## What it does
Finds a suppression whose `until` date has passed: an entry of a tool's
`"x-toolclause-ignore"` list or of the configuration's `ignore`, written as a
table (`{code, tool, reason, owner, until}`).  From the day after `until`, the
suppression hides nothing (the finding it hid is reported again) and is
reported itself, with its owner and reason, saying the day it expired.

## Why is this bad?
An exception made for a sprint ("until the refund service adds idempotency
keys") becomes permanent when nobody looks at it again.  A date makes the
exception end on its own and brings it back to its owner, in CI.

## Example
```json
{"name": "create_refund", "description": "Refunds one payment in full or in part and returns the refund.",
 "inputSchema": {"type": "object", "properties": {"payment_id": {"type": "string", "description": "Payment"}},
                 "required": ["payment_id"], "additionalProperties": false},
 "x-toolclause-ignore": [{"code": "X002", "reason": "keyed upstream until the gateway moves",
                          "owner": "payments", "until": "2020-01-31"}]}
```

## Use instead
```json
{"name": "create_refund", "description": "Refunds one payment in full or in part and returns the refund.",
 "inputSchema": {"type": "object", "properties": {"payment_id": {"type": "string", "description": "Payment"}},
                 "required": ["payment_id"], "additionalProperties": false},
 "x-toolclause-ignore": [{"code": "X002", "reason": "keyed upstream until the gateway moves",
                          "owner": "payments", "until": "2999-01-31"}]}
```

## Fix safety
No fix: fix the finding, or agree a new date with the owner.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator

from ...model import Severity, ToolContract
from ..base import Finding, LintContext, Rule
from ._entries import Suppression, inline_entries


def expired_message(suppression: Suppression) -> str:
    until = suppression.until.isoformat() if suppression.until else "?"
    return (f"the suppression of {suppression.describe()} expired on {until}: it no longer hides anything, so "
            f"what it hid is reported again; fix that, or renew the suppression with a new until")


class ExpiredSuppression(Rule):
    code = "G001"
    name = "expired-suppression"
    severity = Severity.WARNING
    severity_rationale = "warning: the exception has lapsed; its owner fixes the finding or renews it"

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterator[Finding]:
        if not tool.extra:
            return
        today = datetime.date.today()
        for _, entry in inline_entries(tool.extra, tool.origin.file):
            if isinstance(entry, Suppression) and entry.expired(today):
                yield Finding(entry.pointer, expired_message(entry))
