"""irreversible-without-confirmation (X003)

## What it does
Finds a tool whose action cannot be undone — pay, charge, send, transfer,
place, purchase, delete (결제, 송금, 발송, 삭제 …) — that offers no way to look
before acting: no confirmation or dry-run parameter (`confirm`, `dry_run`,
`preview` …) and no preview step for the same thing in the same list (a tool
named `preview_*`, `prepare_*`, `quote_*`, `draft_*` or `estimate_*` that shares
a word with it: `quote_transfer` for `transfer_funds`).  The verb may be one
an action parameter selects (`tag_write` with `method: create|rename|delete`).
Money counts wherever it is moved: a tool that commits, submits, confirms or
processes an order, a payment, a purchase or a transfer (`commit_order`,
`submit_payment`), and one whose description's first sentence moves money with
a verb anywhere in it ("Commits the order in the cart and charges the card on
file").  The message names the verb that triggered it.

A tool annotated `destructiveHint: true` is not reported: hosts ask the user
before running it, which is the confirmation this rule asks for.  Neither is a
tool that is itself the preview step (`quote_purchase`), nor feedback sent to
the server.

## Why is this bad?
A model that misread the user, or was steered by text it read, acts at once:
the money is gone, the e-mail is sent.  A preview step (or a `confirm` flag the
model must set after showing the user what will happen) puts a person between
the model's guess and the irreversible effect.

## Example
```json
{"name": "transfer_funds", "description": "Moves money between two accounts immediately.",
 "inputSchema": {"type": "object",
                 "properties": {"from_account": {"type": "string", "description": "Source account id"},
                                "to_account": {"type": "string", "description": "Target account id"},
                                "amount": {"type": "number", "description": "Amount in EUR"}},
                 "required": ["from_account", "to_account", "amount"]}}
```

## Use instead
```json
{"name": "transfer_funds",
 "description": "Moves money between two accounts. Call with dry_run first and show the user the result.",
 "inputSchema": {"type": "object",
                 "properties": {"from_account": {"type": "string", "description": "Source account id"},
                                "to_account": {"type": "string", "description": "Target account id"},
                                "amount": {"type": "number", "description": "Amount in EUR"},
                                "dry_run": {"type": "boolean", "description": "Only validate and return the fees"}},
                 "required": ["from_account", "to_account", "amount", "dry_run"]}}
```

## Fix safety
No fix: a confirmation step is a change in how the tool works.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ...lexicon import english, identifier_words, stem_en, verb_class
from ...model import Fix, Severity, ToolContract
from ..base import Finding, LintContext, Rule
from ._actions import has_parameter_like, hint
from ._analysis import analyse
from ._words import CONFIRMATION_PARAMS, CONFIRMATION_PARTS, PREVIEW_VERBS


def _objects(name: str) -> frozenset[str]:
    """Stems of the name's words that are not verbs: `preview_order_refund` → {order, refund}."""
    return frozenset(stem_en(w) for w in identifier_words(name)
                     if w not in PREVIEW_VERBS and not (verb_class(w) and w not in english.NOUN_VERBS)
                     and len(w) > 2)


class IrreversibleWithoutConfirmation(Rule):
    code = "X003"
    name = "irreversible-without-confirmation"
    severity = Severity.WARNING

    def survey_tools(self, tools: Sequence[ToolContract], ctx: LintContext) -> list[frozenset[str]]:
        """What the list's preview tools (preview_*, quote_* …) are about: the non-verb stems of each one's name."""
        previews: list[frozenset[str]] = []
        for tool in tools:
            if isinstance(tool.name, str):
                words = identifier_words(tool.name)
                if words and words[0] in PREVIEW_VERBS:
                    previews.append(_objects(tool.name))
        return previews

    def check_member(self, tool: ToolContract, previews: list[frozenset[str]], ctx: LintContext) -> Iterable[Finding]:
        analysis = analyse(tool, ctx)
        action = analysis.irreversible
        # destructiveHint: true makes hosts ask the user before running it: the confirmation exists;
        # a tool that is itself the preview step (quote_purchase) commits nothing
        if action is None or hint(tool, "destructiveHint") is True or analysis.preview:
            return
        if has_parameter_like(tool, CONFIRMATION_PARAMS, CONFIRMATION_PARTS):
            return
        objects = _objects(tool.name) if isinstance(tool.name, str) else frozenset()
        if any(objects & shared for shared in previews):
            return
        yield Finding(action.pointer, (
            f"'{tool.name}' cannot be undone ({action.says()}) and has no confirmation or dry-run parameter and no "
            f"preview tool for the same thing; add a 'dry_run' (or 'confirm') boolean, or a preview_* tool the "
            f"model calls first so the user sees what will happen"),
            Fix("add a 'dry_run' boolean parameter or a preview tool", safe=False))
