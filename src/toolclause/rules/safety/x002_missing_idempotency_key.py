"""missing-idempotency-key (X002)

## What it does
Finds a tool that creates, pays, charges, sends, books or orders something
(`create_order`, `send_email`, `pay_invoice`, or a Korean description whose verb
is 생성, 주문, 결제, 발송, 예약 …) that takes no idempotency key
(`idempotency_key`, `request_id`, `client_token`, `dedupe_key`,
`client_reference` …) and is not annotated `idempotentHint: true`.  The verb
may be the tool's own or one its action parameter selects (`ticket_write`
with `method: create|update`).  The message names the verb that triggered it.

Designs that are idempotent by nature are left alone: a natural unique key
(`create_branch` with a required branch name: a repeat fails "already exists";
a pull request per head and base), set semantics (add a reaction, a label, a
member: a repeat is a no-op), a version guard (`sha`, `etag`, `if_match`,
`expected_version`), an upsert (`create_or_update_file`), a file created at a
given path, a tool that *is* the preview step (`quote_purchase`), and feedback
sent to the server itself.  Nouns that look like verbs are not read as the
action: `list_deploys`, a `send_as` alias, a calculator's `add(a, b)`.  An
upload that attaches or appends adds one more attachment on every retry and is
reported.

## Why is this bad?
Models and their hosts retry: a timeout, a dropped connection or a model that
calls the tool twice to be sure.  Without a key the server cannot tell a retry
from a new request, so the customer gets two orders, two charges, two e-mails.
With a key the second call returns the first result.

## Example
```json
{"name": "create_order", "description": "Places an order for the items in the cart; returns the order id.",
 "inputSchema": {"type": "object",
                 "properties": {"cart_id": {"type": "string", "description": "Cart to order"}},
                 "required": ["cart_id"]}}
```

## Use instead
```json
{"name": "create_order", "description": "Places an order for the items in the cart; returns the order id.",
 "inputSchema": {
   "type": "object",
   "properties": {
     "cart_id": {"type": "string", "description": "Cart to order"},
     "idempotency_key": {
       "type": "string",
       "description": "Unique per order attempt; a retry with the same key returns the first order"}},
   "required": ["cart_id", "idempotency_key"]}}
```

## Fix safety
No fix: the server must honour the key, which a schema edit cannot promise.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...model import Fix, Severity, ToolContract
from ..base import Finding, LintContext, Rule
from ._actions import can_annotate, has_parameter_like, hint
from ._analysis import analyse
from ._words import IDEMPOTENCY_PARAMS, IDEMPOTENCY_PARTS


def creating_action(tool: ToolContract):
    """The tool's action (its own verb, or a job its action parameter selects) when it makes something new."""
    return analyse(tool).creates


def has_idempotency_key(tool: ToolContract) -> bool:
    return has_parameter_like(tool, IDEMPOTENCY_PARAMS, IDEMPOTENCY_PARTS)


class MissingIdempotencyKey(Rule):
    code = "X002"
    name = "missing-idempotency-key"
    severity = Severity.WARNING

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        analysis = analyse(tool, ctx)
        action = analysis.creates
        if action is None or hint(tool, "idempotentHint") is True or hint(tool, "readOnlyHint") is True:
            return
        if analysis.safe_repeat is not None or analysis.preview or has_idempotency_key(tool):
            return
        remedy = "add an 'idempotency_key' string parameter the server deduplicates on"
        if can_annotate(tool):
            remedy += ", or set annotations.idempotentHint: true if a repeated call already changes nothing"
        yield Finding(action.pointer, (
            f"'{tool.name}' makes something new on every call ({action.says()}) and no parameter looks like an "
            f"idempotency key, so a retried call repeats it; {remedy}"),
            Fix("add an 'idempotency_key' parameter", safe=False))
