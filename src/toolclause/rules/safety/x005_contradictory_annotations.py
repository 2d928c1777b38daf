"""contradictory-annotations (X005)

## What it does
Finds annotations that contradict the tool or each other:
`readOnlyHint: true` on a tool whose name or description changes things
(`delete_file`, "주문을 생성합니다"), and `destructiveHint: true` on a tool that
only reads — one annotated `readOnlyHint: true`, or one whose only verb is a
read (`get_weather`).  The message names the verb and the hint.

## Why is this bad?
Hosts act on annotations: a tool marked read-only runs without asking, so a
`delete_file` that claims to be read-only deletes without the user's
confirmation.  The reverse lie makes hosts ask before every harmless lookup,
and users learn to click "allow" without reading.

## Example
```json
{"name": "delete_file", "description": "Deletes one file from the workspace.",
 "inputSchema": {"type": "object", "properties": {"path": {"type": "string", "description": "File path"}},
                 "required": ["path"]},
 "annotations": {"readOnlyHint": true}}
```

## Use instead
```json
{"name": "delete_file", "description": "Deletes one file from the workspace.",
 "inputSchema": {"type": "object", "properties": {"path": {"type": "string", "description": "File path"}},
                 "required": ["path"]},
 "annotations": {"readOnlyHint": false, "destructiveHint": true}}
```

## Fix safety
No fix: only the author knows which of the two statements is true.
"""

from __future__ import annotations

from typing import Iterable

from ...lexicon import VerbClass
from ...model import Severity, ToolContract
from ..base import Finding, LintContext, Rule
from ._actions import hint, tool_action
from .x004_read_tool_not_annotated import read_only_action


class ContradictoryAnnotations(Rule):
    code = "X005"
    name = "contradictory-annotations"
    severity = Severity.ERROR

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        read_only = hint(tool, "readOnlyHint")
        destructive = hint(tool, "destructiveHint")
        if read_only is None and destructive is None:
            return
        if read_only is True:
            action = tool_action(tool)
            if action is not None and action.cls & (VerbClass.MUTATING | VerbClass.IRREVERSIBLE):
                yield Finding("/annotations/readOnlyHint", (
                    f"'{tool.name}' is annotated readOnlyHint: true but changes things ({action.says()}); hosts will run "
                    f"it without asking — set readOnlyHint: false, or rename the tool if it really only reads"))
            if destructive is True:
                yield Finding("/annotations/destructiveHint", (
                    "destructiveHint: true contradicts readOnlyHint: true (a tool that changes nothing destroys "
                    "nothing; MCP reads destructiveHint only when readOnlyHint is false); remove one of them"))
        elif destructive is True and read_only is None:
            action = read_only_action(tool)
            if action is not None and action.where == "name":
                yield Finding("/annotations/destructiveHint", (
                    f"'{tool.name}' only reads ({action.says()}) but is annotated destructiveHint: true; set "
                    f"readOnlyHint: true and drop destructiveHint, or rename the tool if it does destroy something"))
