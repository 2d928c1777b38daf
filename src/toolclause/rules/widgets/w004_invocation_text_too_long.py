"""invocation-text-too-long (W004)

## What it does
Finds a status text — `_meta["openai/toolInvocation/invoking"]` (shown while the
tool runs) or `_meta["openai/toolInvocation/invoked"]` (shown when it is done) —
longer than the 64 characters ChatGPT allows, and says how long it is.
Characters are counted as the user sees them, so Korean text counts one per
syllable.

## Why is this bad?
The text is a one-line status under the user's message.  ChatGPT accepts at
most 64 characters; longer text is cut off or the descriptor rejected, and the
user reads half a sentence.

## Example
```json
{"name": "show_board", "description": "Shows the kanban board for one project.",
 "inputSchema": {"type": "object", "properties": {"project": {"type": "string", "description": "Project id"}},
                 "required": ["project"]},
 "_meta": {"openai/toolInvocation/invoking":
             "Fetching every card, column and assignee of your project's kanban board from the server",
           "openai/toolInvocation/invoked": "Board ready"}}
```

## Use instead
```json
{"name": "show_board", "description": "Shows the kanban board for one project.",
 "inputSchema": {"type": "object", "properties": {"project": {"type": "string", "description": "Project id"}},
                 "required": ["project"]},
 "_meta": {"openai/toolInvocation/invoking": "Loading the board…",
           "openai/toolInvocation/invoked": "Board ready"}}
```

## Fix safety
No fix: shortening a sentence is the author's call.

## References
- OpenAI Apps SDK reference (tool and resource `_meta` keys):
  https://developers.openai.com/apps-sdk/reference
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ...model import Severity, ToolContract
from ..base import Finding, LintContext, Rule

MAX_CHARACTERS = 64
_KEYS = ("openai/toolInvocation/invoking", "openai/toolInvocation/invoked")


class InvocationTextTooLong(Rule):
    code = "W004"
    name = "invocation-text-too-long"
    severity = Severity.INFO

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        meta = tool.meta
        if not isinstance(meta, Mapping):
            return
        for key in _KEYS:
            text = meta.get(key)
            if isinstance(text, str) and len(text) > MAX_CHARACTERS:
                yield Finding("/_meta/" + key.replace("/", "~1"), (
                    f'_meta["{key}"] is {len(text)} characters; ChatGPT shows at most {MAX_CHARACTERS} — shorten it '
                    f"(it starts '{text[:40]}…')"))
