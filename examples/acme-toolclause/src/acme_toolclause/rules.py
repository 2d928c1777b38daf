"""billing-needs-confirmation (ACME001)

## What it does
Finds a tool that moves money (its name or description charges, bills,
invoices, refunds or pays) whose arguments have no boolean `confirm`
(`confirmed`, `confirmation`) parameter.

## Why is this bad?
At ACME a model may prepare a payment but never make one on its own: the
client shows the arguments and the user sets `confirm` to true.

## Example
```json
{"name": "charge_card", "description": "Charges the customer's card on file.",
 "inputSchema": {"type": "object", "properties": {"amount_cents": {"type": "integer"}}}}
```

## Use instead
```json
{"name": "charge_card", "description": "Charges the customer's card on file.",
 "inputSchema": {"type": "object", "properties": {"amount_cents": {"type": "integer"},
                                                  "confirm": {"type": "boolean"}}}}
```

## Fix safety
No fix.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from toolclause.model import Severity, ToolContract
from toolclause.rules.base import Finding, LintContext, Rule

MONEY = re.compile(r"(?i)\b(charge|bill|invoice|refund|pay|payment|payout)", re.ASCII)
CONFIRMATIONS = ("confirm", "confirmed", "confirmation")


class BillingNeedsConfirmation(Rule):
    code = "ACME001"
    name = "billing-needs-confirmation"
    severity = Severity.WARNING
    tags = ("MCP02:2025",)

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterator[Finding]:
        text = f"{tool.name.replace('_', ' ')} {tool.description or ''}"
        if not MONEY.search(text):
            return
        properties = (tool.input_schema or {}).get("properties")
        properties = properties if isinstance(properties, dict) else {}
        if any(isinstance(properties.get(name), dict) and properties[name].get("type") == "boolean"
               for name in CONFIRMATIONS):
            return
        yield Finding("/inputSchema", f"'{tool.name}' moves money but takes no boolean 'confirm' parameter; "
                                      f"ACME tools that charge, bill or refund wait for the user to confirm")
