"""irreversible-without-confirmation (X003)

## What it does
Finds a tool whose action cannot be undone — pay, charge, send, transfer,
place, purchase, delete (결제, 송금, 발송, 삭제 …) — that offers no way to look
before acting: no confirmation or dry-run parameter (`confirm`, `dry_run`,
`preview` …) and no preview step for the same thing in the same list (a tool
named `preview_*`, `prepare_*`, `quote_*`, `draft_*` or `estimate_*` that shares
a word with it: `quote_transfer` for `transfer_funds`).  The verb may be one
an action parameter selects (`tag_write` with `method: create|rename|delete`).
The message names the verb that triggered it.

How loud it is depends on who asks the user first.  MCP's defaults make a tool
without `readOnlyHint` and `destructiveHint` destructive, so hosts already
confirm it; a dry-run on top is extra, not a must:

- **money** — a payment, a charge, a purchase, an order placed, a refund, a
  transfer of funds (`transfer_funds`, `commit_order`, `submit_payment`, or a
  first sentence that "charges the card on file"): a **warning** whatever the
  annotations say, unless `destructiveHint: true`.  The model must not buy
  alone, and a host's yes/no on a raw call shows no total;
- anything else that cannot be undone, annotated so that hosts will **not**
  ask (`destructiveHint: false`, or `readOnlyHint: true`): a **warning** —
  unless X006 or X005 already reports that annotation on a deletion, whose
  fix (`destructiveHint: true`) is the confirmation;
- a deletion of a whole project, account, workspace, database, cluster or
  repository, or one the description says takes everything in it ("Deletes
  the repository and all its issues"), left to the default: **info** that asks
  for a preview listing what will go (hosts already confirm it by default);
- any other irreversible action left to the default (a plain
  `delete_issue` without annotations): **info** — hosts confirm it already;
  say so explicitly with `destructiveHint: true`.  In a format that carries
  no annotations (OpenAI, Anthropic or Gemini function declarations) no
  default asks anyone, and it stays a **warning**.

Not reported: a tool annotated `destructiveHint: true` (the host's question
is the confirmation); a tool that is itself the preview step
(`quote_purchase`); feedback sent to the server; a non-money action whose
description makes the model ask the user first ("wait for their explicit
confirmation before proceeding"); taking a watch, a star or an owner off an
item, which adding back restores (`delete_watching`); deleting a message
from a queue (the consumer's acknowledgement); a `transfer` that moves no
money (an image copied to another region); and a router whose listed
sub-commands change nothing.

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

from ... import _lazy_re as re
from ...lexicon import english, identifier_words, stem_en, verb_class
from ...model import Fix, Severity, ToolContract
from ..base import Finding, LintContext, Rule
from ._actions import Action, can_annotate, has_parameter_like, hint
from ._analysis import (
    Analysis,
    analyse,
    describes_changes,
    destroys_a_container,
    lasting_destruction,
    moves_money_for_good,
    undone_by_adding_back,
)
from ._words import CONFIRMATION_PARAMS, CONFIRMATION_PARTS, PREVIEW_VERBS


def _objects(name: str) -> frozenset[str]:
    """Stems of the name's words that are not verbs: `preview_order_refund` → {order, refund}."""
    return frozenset(stem_en(w) for w in identifier_words(name)
                     if w not in PREVIEW_VERBS and not (verb_class(w) and w not in english.NOUN_VERBS)
                     and len(w) > 2)


# The description makes the model ask first: "wait for their explicit confirmation", "only call this tool when the
# user explicitly asks"
_ASKS_FIRST = re.compile(
    r"\b(?:wait|waiting)\s+for\s+(?:the\s+user'?s?|their)\s+(?:explicit\s+)?(?:confirmation|approval)\b"
    r"|\b(?:ask|asks|asking)\s+(?:the\s+user\s+)?(?:for\s+(?:explicit\s+)?(?:confirmation|approval)|to\s+confirm)\b"
    r"|\bconfirm\s+with\s+the\s+user\b|\b(?:requires?|needs?|after)\s+(?:the\s+user'?s?\s+)?explicit\s+(?:user\s+)?"
    r"(?:confirmation|approval)\b|\bonly\s+(?:call|use|run|invoke)\s+this\s+(?:tool\s+)?when\s+the\s+user\s+"
    r"(?:has\s+)?explicitly\s+(?:asks?|asked|requests?|requested)\b", re.I)
_QUEUE_WORDS = frozenset("queue queues".split())
_MESSAGE_WORDS = frozenset("message messages msg msgs".split())


def _left_alone(tool: ToolContract, analysis: Analysis, action: Action) -> bool:
    """A non-money action the tool itself makes safe or trivial: the description has the model ask first, adding
    back restores it, it acknowledges a queue message, it transfers no money, or a router lists no change."""
    description = tool.description if isinstance(tool.description, str) else ""
    if _ASKS_FIRST.search(description):
        return True
    if undone_by_adding_back(tool, action):
        return True  # `delete_watching`: a watch put back is as it was
    words = set(identifier_words(tool.name)) if isinstance(tool.name, str) else set()
    if action.word in ("delete", "deletes") and _QUEUE_WORDS & words and _MESSAGE_WORDS & words:
        return True  # deleting a received message is how a queue consumer acknowledges it
    if action.word in ("transfer", "transfers", "place", "places"):
        return True  # not money (moves_money_for_good said so): an image moved to another region
    return analysis.routes is not None and not describes_changes(description)


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
        fix = Fix("add a 'dry_run' boolean parameter or a preview tool", safe=False)
        if moves_money_for_good(tool, analysis):
            yield Finding(action.pointer, (
                f"'{tool.name}' moves money and cannot be undone ({action.says()}), and has no confirmation or "
                f"dry-run parameter and no preview tool for the same thing; add a 'dry_run' (or 'confirm') boolean, "
                f"or a preview_* tool the model calls first so the user sees the amount before it is spent"), fix)
            return
        if _left_alone(tool, analysis, action):
            return
        if hint(tool, "destructiveHint") is False or hint(tool, "readOnlyHint") is True:
            if hint(tool, "readOnlyHint") is True or lasting_destruction(tool, analysis) is not None:
                return  # X005 / X006 report the annotation; destructiveHint: true is the confirmation
            yield Finding(action.pointer, (
                f"'{tool.name}' cannot be undone ({action.says()}) but is annotated destructiveHint: false, so "
                f"hosts run it without asking the user; set destructiveHint: true, or add a 'dry_run' (or "
                f"'confirm') boolean or a preview_* tool the model calls first"), fix)
            return
        if not can_annotate(tool):
            # an OpenAI or Anthropic function carries no annotations: no default makes anyone ask
            yield Finding(action.pointer, (
                f"'{tool.name}' cannot be undone ({action.says()}) and has no confirmation or dry-run parameter and "
                f"no preview tool for the same thing, and its format carries no annotation that makes a host ask; "
                f"add a 'dry_run' (or 'confirm') boolean, or a preview_* tool the model calls first"), fix)
            return
        whole = destroys_a_container(tool, action)
        if whole is not None:
            yield Finding(action.pointer, (
                f"'{tool.name}' cannot be undone ({action.says()}; {whole}) and has no confirmation or dry-run "
                f"parameter and no preview tool; a host's default prompt shows only the raw call — add a 'dry_run' "
                f"(or 'confirm') boolean that lists what will go, or a preview_* tool the model calls first"), fix,
                Severity.INFO)  # hosts confirm it by MCP's default: a preview is a design choice, not a defect
            return
        yield Finding(action.pointer, (
            f"'{tool.name}' cannot be undone ({action.says()}); with destructiveHint left out, MCP's default (true) "
            f"makes hosts ask the user first, so no dry-run is needed — write annotations.destructiveHint: true so "
            f"the confirmation does not rest on a default"),
            Fix("set annotations.destructiveHint: true", safe=False), Severity.INFO)
