"""widget-mime-type (W002)

## What it does
Finds a widget resource — one a tool names as its template — whose mime type
is not the one its host renders: `text/html+skybridge` for a ChatGPT Apps SDK
template (`_meta["openai/outputTemplate"]`), `text/html;profile=mcp-app` for an
MCP Apps one (`_meta.ui.resourceUri`).  A resource that tools name both ways
may use either.  The mime type read back from the resource (live servers) wins
over the one in the resource list.  Runs only when the server's resources are
known (a live server or a `{"tools": [...], "resources": [...]}` snapshot).

## Why is this bad?
Hosts render only their own widget mime type.  A template served as plain
`text/html` is not rendered at all: the tool works, the widget never appears.

## Example
```json
{"tools": [{"name": "show_board", "description": "Shows the kanban board for one project.",
            "inputSchema": {"type": "object",
                            "properties": {"project": {"type": "string", "description": "Project id"}},
                            "required": ["project"]},
            "_meta": {"openai/outputTemplate": "ui://widget/board.html"}}],
 "resources": [{"uri": "ui://widget/board.html", "name": "board", "mimeType": "text/html"}]}
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
No fix: the resource is registered in the server's code, not in the tool
definition.

## References
- OpenAI Apps SDK reference (tool and resource `_meta` keys):
  https://developers.openai.com/apps-sdk/reference
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ...model import Severity, ToolContract
from ..base import Finding, LintContext, Rule
from ._resources import EXPECTED_MIME, MCP_APPS, OPENAI, also_used, hosts_of, read_contents, widget_uses

_WHO = {OPENAI: "ChatGPT renders", MCP_APPS: "MCP Apps hosts render"}


class WidgetMimeType(Rule):
    code = "W002"
    name = "widget-mime-type"
    severity = Severity.ERROR

    def check_tools(self, tools: Sequence[ToolContract], ctx: LintContext) -> Iterable[tuple[ToolContract, Finding]]:
        if not any(tool.meta for tool in tools):
            return
        for uri, (resource, references) in widget_uses(tools, ctx).items():
            hosts = hosts_of(references)
            served = _served_mime_types(resource)
            if served is None or any(_renders(mime, hosts) for mime in served):
                continue
            tool, reference = references[0]
            wanted = " or ".join(f"'{EXPECTED_MIME[h]}'" for h in sorted(hosts, reverse=True))
            who = _WHO[OPENAI] if hosts == {OPENAI} else _WHO[MCP_APPS] if hosts == {MCP_APPS} else "hosts render"
            if served:
                problem = f"is served as '{served[0]}'"
            else:
                problem = "declares no mimeType"
            yield tool, Finding(reference.pointer, (
                f"widget resource '{uri}' {problem}; {who} a widget only from {wanted} — set the resource's "
                f"mimeType to {wanted.split(' or ')[0]}{also_used(references)}"))


def _served_mime_types(resource: Mapping[str, Any]) -> list[str] | None:
    """The mime types the resource is served as; [] when provably none; None when unknown."""
    contents = read_contents(resource)
    if contents:
        read = [c["mimeType"] for c in contents if isinstance(c.get("mimeType"), str)]
        if read:
            return read
    listed = resource.get("mimeType")
    if isinstance(listed, str):
        return [listed]
    # without a listed type, only a resource that was read (and said nothing) provably lacks one
    return [] if contents is not None else None


def _renders(mime: str, hosts: set[str]) -> bool:
    base, _, rest = mime.partition(";")
    base = base.strip().lower()
    params = {}
    for part in rest.split(";"):
        key, _, value = part.partition("=")
        params[key.strip().lower()] = value.strip().strip('"').lower()
    if OPENAI in hosts and base == "text/html+skybridge":
        return True
    return MCP_APPS in hosts and base == "text/html" and params.get("profile") == "mcp-app"
