"""template-not-found (W001)

## What it does
Finds a widget template — `_meta["openai/outputTemplate"]` (ChatGPT Apps SDK) or
`_meta.ui.resourceUri` (MCP Apps) — that names no resource the server declares,
and suggests the closest declared URI.  It runs only when the server's
resources are known: a live server (`--server`, `--url`) or a saved snapshot
(`{"tools": [...], "resources": [...]}`); for a plain tool file it says nothing.
A URI that one of the server's resource templates matches counts as declared.

## Why is this bad?
The host fetches the template by URI after the tool runs.  When no resource has
that URI, the call succeeds but the user sees no widget, only the raw text —
and nothing in the logs says why.

## Example
```json
{"tools": [{"name": "show_board", "description": "Shows the kanban board for one project.",
            "inputSchema": {"type": "object",
                            "properties": {"project": {"type": "string", "description": "Project id"}},
                            "required": ["project"]},
            "_meta": {"openai/outputTemplate": "ui://widget/bord.html"}}],
 "resources": [{"uri": "ui://widget/board.html", "name": "board", "mimeType": "text/html+skybridge"}]}
```

## Use instead
```json
{"tools": [{"name": "show_board", "description": "Shows the kanban board for one project.",
            "inputSchema": {"type": "object",
                            "properties": {"project": {"type": "string", "description": "Project id"}},
                            "required": ["project"]},
            "_meta": {"openai/outputTemplate": "ui://widget/board.html"}}],
 "resources": [{"uri": "ui://widget/board.html", "name": "board", "mimeType": "text/html+skybridge"}]}
```

## Fix safety
No fix: the suggested URI is a guess, and the missing resource may simply not
be registered yet.

## References
- OpenAI Apps SDK reference (tool and resource `_meta` keys):
  https://developers.openai.com/apps-sdk/reference
"""

from __future__ import annotations

from collections.abc import Iterable

from ...model import Fix, Severity, ToolContract
from ...suggest import closest
from ..base import Finding, LintContext, Rule
from ._resources import resource_index, widget_references


class TemplateNotFound(Rule):
    code = "W001"
    name = "template-not-found"
    severity = Severity.ERROR

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        if tool.meta is None:
            return
        references = widget_references(tool)
        if not references:
            return
        index = resource_index(tool, ctx)
        if index is None:  # resources unknown: a tool file, not a server
            return
        for reference in references:
            if index.find(reference.uri) is not None:
                continue
            declared = index.uris()
            suggestion = closest(reference.uri, declared)
            message = f"{reference.key} names '{reference.uri}', which the server does not declare as a resource"
            if suggestion:
                message += f"; did you mean '{suggestion}'?"
                fix = Fix(f"replace '{reference.uri}' with '{suggestion}'", safe=False)
            else:
                if declared:
                    message += f" (declared: {', '.join(sorted(declared)[:6])})"
                else:
                    message += " (the server declares no resources)"
                fix = Fix(f"register a resource with the URI '{reference.uri}', or point the template at one",
                          safe=False)
            yield Finding(reference.pointer, message, fix)
