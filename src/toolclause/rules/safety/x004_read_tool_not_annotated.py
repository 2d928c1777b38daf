"""read-tool-not-annotated (X004)

## What it does
Finds an MCP tool that only reads — its verb is `get`, `list`, `search`,
`find`, `lookup`, `extract`, `crawl`, `geocode`, `validate`, `explain`, `stats`
(조회, 검색, 확인), no job its action parameter selects writes, and neither
its name's verbs (not its objects: `list_deploys` only lists) nor its
description's first sentence changes anything — whose annotations do not say
`readOnlyHint: true`.  A tool that asks for a change is no read, whatever verb
it opens with: `request_user_data_deletion` ("Request deletion of all data
about a user"), "Looks up the account and schedules its deletion", a
`find_and_replace` or a first sentence that "charges the card" is never told
to claim read-only.  A tool that sets `readOnlyHint: false` on purpose is left
alone, and so are formats that cannot carry annotations (OpenAI, Anthropic,
Gemini function declarations).

## Why is this bad?
MCP's defaults are the cautious ones: a tool without `readOnlyHint` may change
things and is destructive, so hosts ask the user before every call.  Saying
that a lookup is read-only lets hosts run it freely and keeps confirmations for
the calls that matter.

## Example
```json
{"name": "get_invoice", "description": "Returns one invoice by id, with its lines and totals.",
 "inputSchema": {"type": "object", "properties": {"invoice_id": {"type": "string", "description": "Invoice id"}},
                 "required": ["invoice_id"]}}
```

## Use instead
```json
{"name": "get_invoice", "description": "Returns one invoice by id, with its lines and totals.",
 "inputSchema": {"type": "object", "properties": {"invoice_id": {"type": "string", "description": "Invoice id"}},
                 "required": ["invoice_id"]},
 "annotations": {"readOnlyHint": true}}
```

## Fix safety
The fix adds `readOnlyHint: true`; it is not applied by `--fix`, because only the
author knows that the tool has no side effect.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...model import Edit, Fix, Severity, ToolContract
from ..base import Finding, LintContext, Rule
from ._actions import annotations_of, can_annotate, hint
from ._analysis import only_reads


def read_only_action(tool: ToolContract, ctx: LintContext | None = None):
    """The tool's read verb when reading is all it does, else None."""
    return only_reads(tool, ctx)


class ReadToolNotAnnotated(Rule):
    code = "X004"
    name = "read-tool-not-annotated"
    severity = Severity.INFO

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        if not can_annotate(tool) or "readOnlyHint" in annotations_of(tool):
            return
        action = read_only_action(tool, ctx)
        if action is None or hint(tool, "destructiveHint") is True:
            return
        pointer = "/annotations/readOnlyHint" if annotations_of(tool) else "/annotations"
        value = True if annotations_of(tool) else {"readOnlyHint": True}
        yield Finding("/annotations", (
            f"'{tool.name}' only reads ({action.says()}) but is not annotated readOnlyHint: true, so hosts treat it "
            f"as a tool that may change things and ask before every call; add annotations.readOnlyHint: true"),
            Fix("set annotations.readOnlyHint: true", safe=False, edits=(Edit("set", pointer, value),)))
