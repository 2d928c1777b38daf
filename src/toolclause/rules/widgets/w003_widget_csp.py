"""widget-csp (W003)

## What it does
Checks the Content Security Policy of each widget resource (one a tool names
as its template): `_meta["openai/widgetCSP"]` for the ChatGPT Apps SDK
(`connect_domains`, `resource_domains`, `frame_domains`, `redirect_domains`),
`_meta.ui.csp` for MCP Apps (`connectDomains`, `resourceDomains`,
`frameDomains`, `baseUriDomains`).  The Apps SDK's policy may be
written as an object or as a CSP string (`"default-src 'self'; img-src
https://cdn.example.com"`); the tool's own `_meta` may carry it too.  It reports
a source that allows any host (`*`, `https://*`, `https:`) in either form as a
warning, and a widget with no CSP at all as info (the host applies its own
strict default) — from the resource list's metadata alone as well as from the
read resource.

## Why is this bad?
The widget is third-party HTML running inside the host's page.  A wildcard lets
it send the conversation's data to any server and load any script; ChatGPT
asks for an explicit CSP before an app is published, and MCP Apps hosts fall
back to a restrictive default that blocks the widget's own API calls.

## Example
```json
{"tools": [{"name": "show_board", "description": "Shows the kanban board for one project.",
            "inputSchema": {"type": "object",
                            "properties": {"project": {"type": "string", "description": "Project id"}},
                            "required": ["project"]},
            "_meta": {"openai/outputTemplate": "ui://widget/board.html"}}],
 "resources": [{"uri": "ui://widget/board.html", "name": "board", "mimeType": "text/html+skybridge",
                "_meta": {"openai/widgetCSP": {"connect_domains": ["*"], "resource_domains": ["https://cdn.example.com"]}}}]}
```

## Use instead
```json
{"tools": [{"name": "show_board", "description": "Shows the kanban board for one project.",
            "inputSchema": {"type": "object",
                            "properties": {"project": {"type": "string", "description": "Project id"}},
                            "required": ["project"]},
            "_meta": {"openai/outputTemplate": "ui://widget/board.html"}}],
 "resources": [{"uri": "ui://widget/board.html", "name": "board", "mimeType": "text/html+skybridge",
                "_meta": {"openai/widgetCSP": {"connect_domains": ["https://api.example.com"],
                                               "resource_domains": ["https://cdn.example.com"]}}}]}
```

## Fix safety
No fix: only the author knows which origins the widget needs.

## References
- OpenAI Apps SDK reference (tool and resource `_meta` keys):
  https://developers.openai.com/apps-sdk/reference
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from ... import _lazy_re as re
from ...model import Severity, ToolContract
from ..base import Finding, LintContext, Rule
from ._resources import CSP_KEY, MCP_APPS, OPENAI, also_used, hosts_of, read_contents, resource_meta, widget_uses

# `*`, a bare network scheme (`https:`), or a scheme with a wildcard host (`https://*`, `*://*`);
# `https://*.example.com` is scoped to one site and fine, and `data:`/`blob:` are not hosts
_ANY_HOST = re.compile(r"\*|(?:https?|wss?):(?://\*(?::(?:\*|\d+))?/?)?|\*://\*.*", re.I)


class WidgetCsp(Rule):
    code = "W003"
    name = "widget-csp"
    severity = Severity.WARNING

    def check_tools(self, tools: Sequence[ToolContract], ctx: LintContext) -> Iterable[tuple[ToolContract, Finding]]:
        if not any(tool.meta for tool in tools):
            return
        for uri, (resource, references) in widget_uses(tools, ctx).items():
            tool, reference = references[0]
            metas = _metas(resource, [t.meta for t, _ in references])
            policies = list(_policies(metas))
            if not any("openai/widgetCSP" in m or (isinstance(m.get("ui"), Mapping) and "csp" in m["ui"])
                       for m in metas):
                keys = " or ".join(CSP_KEY[h] for h in sorted(hosts_of(references), reverse=True))
                # the host then applies its own strict default: worth declaring (ChatGPT's review asks for it),
                # not a defect in the widget
                yield tool, Finding(reference.pointer, (
                    f"widget resource '{uri}' declares no Content Security Policy ({keys}){_unread(resource)}; list "
                    f"the origins the widget fetches from and loads assets from{also_used(references)}"),
                    severity=Severity.INFO)
                continue
            # the list entry and the read contents often repeat one policy: name each source once
            wide = list(dict.fromkeys(f"{field} '{source}'" for _, policy in policies
                                      for field, source in _wildcards(policy)))
            if wide:
                yield tool, Finding(reference.pointer, (
                    f"widget resource '{uri}' has a CSP that allows any host: {', '.join(wide)}; list the exact "
                    f"origins instead (e.g. 'https://api.example.com'){also_used(references)}"))


def _unread(resource: Mapping[str, Any]) -> str:
    return " in its listing (nor was it read)" if read_contents(resource) is None else ""


def _metas(resource: Mapping[str, Any], tool_metas: Sequence[Any]) -> list[Mapping[str, Any]]:
    """Where a CSP may stand: the resource's listing, its read contents, the tools' own `_meta`."""
    return [*resource_meta(resource), *(m for m in tool_metas if isinstance(m, Mapping))]


def _policies(metas: Sequence[Mapping[str, Any]]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    for meta in metas:
        policy = meta.get("openai/widgetCSP")
        if isinstance(policy, str) and policy.strip():
            yield OPENAI, csp_directives(policy)
        if isinstance(policy, Mapping):
            yield OPENAI, policy
        ui = meta.get("ui")
        if isinstance(ui, Mapping) and isinstance(ui.get("csp"), Mapping):
            yield MCP_APPS, ui["csp"]


def _wildcards(policy: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    for field, sources in policy.items():
        if isinstance(sources, str):
            sources = [sources]
        if not isinstance(sources, list):
            continue
        for source in sources:
            if isinstance(source, str) and _ANY_HOST.fullmatch(source.strip()):
                yield str(field), source


def csp_directives(policy: str) -> dict[str, list[str]]:
    """A CSP string (`"default-src 'self'; img-src https://cdn.example.com"`) as {directive: [sources]}."""
    found: dict[str, list[str]] = {}
    for directive in policy.split(";"):
        words = directive.split()
        if words:
            found.setdefault(words[0], []).extend(words[1:])
    return found
