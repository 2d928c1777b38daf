"""missing-idempotency-key (X002)

## What it does
Finds a tool that creates, pays, charges, sends, books or orders something
(`create_order`, `send_email`, `pay_invoice`, or a Korean description whose verb
is 생성, 주문, 결제, 발송, 예약 …) that takes no idempotency key
(`idempotency_key`, `request_id`, `client_token`, `dedupe_key`,
`client_reference` …) and is not annotated `idempotentHint: true`.  The message
names the verb that triggered it.

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
 "inputSchema": {"type": "object",
                 "properties": {"cart_id": {"type": "string", "description": "Cart to order"},
                                "idempotency_key": {"type": "string",
                                                    "description": "Unique per order attempt; a retry with the same key returns the first order"}},
                 "required": ["cart_id", "idempotency_key"]}}
```

## Fix safety
No fix: the server must honour the key, which a schema edit cannot promise.
"""

from __future__ import annotations

from typing import Iterable

from ...lexicon import identifier_words, is_hangul, korean_stem
from ...model import Fix, Severity, ToolContract
from ..base import Finding, LintContext, Rule
from ._actions import can_annotate, computes, has_parameter_like, hint, tool_action
from ._words import (ARITHMETIC, CREATING_EN, CREATING_KO, IDEMPOTENCY_PARAMS, IDEMPOTENCY_PARTS, IN_MEMORY,
                     PHYSICAL_CHARGE)


def creating_action(tool: ToolContract):
    """The tool's action when it makes something new each time it runs, else None."""
    action = tool_action(tool)
    if action is None:
        return None
    if is_hangul(action.word):
        return action if korean_stem(action.word, CREATING_KO) else None
    if action.word not in CREATING_EN:
        return None
    # `create_recipe_guide` that "Generates a recipe guide" returns an answer and stores nothing
    if computes(tool):
        return None
    # `add_numbers`, `send_time_estimate`: the name computes or measures, it makes nothing;
    # `create_polygon`: it builds a value in memory and returns it
    name_words = identifier_words(tool.name) if isinstance(tool.name, str) else ()
    if ARITHMETIC.intersection(name_words) or IN_MEMORY.intersection(name_words):
        return None
    if action.word in ("charge", "charges") and PHYSICAL_CHARGE.intersection(name_words):
        return None
    return action


def has_idempotency_key(tool: ToolContract) -> bool:
    return has_parameter_like(tool, IDEMPOTENCY_PARAMS, IDEMPOTENCY_PARTS)


class MissingIdempotencyKey(Rule):
    code = "X002"
    name = "missing-idempotency-key"
    severity = Severity.WARNING

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        action = creating_action(tool)
        if action is None or hint(tool, "idempotentHint") is True or hint(tool, "readOnlyHint") is True:
            return
        if has_idempotency_key(tool):
            return
        remedy = "add an 'idempotency_key' string parameter the server deduplicates on"
        if can_annotate(tool):
            remedy += ", or set annotations.idempotentHint: true if a repeated call already changes nothing"
        yield Finding(action.pointer, (
            f"'{tool.name}' makes something new on every call ({action.says()}) and no parameter looks like an "
            f"idempotency key, so a retried call repeats it; {remedy}"),
            Fix("add an 'idempotency_key' parameter", safe=False))
