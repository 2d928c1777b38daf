"""What the W rules share: a tool's widget references and the server's resources.

A tool names its widget in `_meta`: the Apps SDK's `openai/outputTemplate`, or
MCP Apps' `ui.resourceUri` (the flat `ui/resourceUri` key is its deprecated
spelling).  The server's resources come with the tool's `Origin` — from a saved
snapshot or a live server; a plain tool file knows none (`resources is None`),
and then the W rules that need them say nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ... import _lazy_re as re
from ...model import ToolContract
from ..base import IdentityMemo, LintContext

OPENAI = "openai"
MCP_APPS = "mcp-apps"

# the mime type each host renders a widget from
SKYBRIDGE = "text/html+skybridge"
MCP_APP = "text/html;profile=mcp-app"
EXPECTED_MIME = {OPENAI: SKYBRIDGE, MCP_APPS: MCP_APP}
CSP_KEY = {OPENAI: '_meta["openai/widgetCSP"]', MCP_APPS: "_meta.ui.csp"}

_TEMPLATE_VARIABLE = re.compile(r"\{[^{}]*\}")


@dataclass(frozen=True, slots=True)
class WidgetReference:
    pointer: str  # canonical, into the tool
    key: str  # as the user wrote it, for messages
    uri: str
    host: str  # OPENAI or MCP_APPS


def widget_references(tool: ToolContract) -> list[WidgetReference]:
    meta = tool.meta
    if not isinstance(meta, Mapping):
        return []
    found = []
    template = meta.get("openai/outputTemplate")
    if isinstance(template, str):
        found.append(WidgetReference("/_meta/openai~1outputTemplate", '_meta["openai/outputTemplate"]', template,
                                     OPENAI))
    ui = meta.get("ui")
    if isinstance(ui, Mapping) and isinstance(ui.get("resourceUri"), str):
        found.append(WidgetReference("/_meta/ui/resourceUri", "_meta.ui.resourceUri", ui["resourceUri"], MCP_APPS))
    flat = meta.get("ui/resourceUri")
    if isinstance(flat, str):
        found.append(WidgetReference("/_meta/ui~1resourceUri", '_meta["ui/resourceUri"]', flat, MCP_APPS))
    return found


class ResourceIndex:
    """The declared resources by URI, and the resource templates as patterns."""

    def __init__(self, resources: Sequence[Mapping[str, Any]]) -> None:
        self.by_uri: dict[str, Mapping[str, Any]] = {}
        self.templates: list[tuple[re.Pattern[str], Mapping[str, Any]]] = []
        for resource in resources:
            uri = resource.get("uri")
            if isinstance(uri, str):
                self.by_uri.setdefault(uri, resource)
            pattern = resource.get("uriTemplate")
            if isinstance(pattern, str):
                self.templates.append((_template_pattern(pattern), resource))

    def find(self, uri: str) -> Mapping[str, Any] | None:
        found = self.by_uri.get(uri)
        if found is not None:
            return found
        for pattern, resource in self.templates:
            if pattern.fullmatch(uri):
                return resource
        return None

    def uris(self) -> list[str]:
        return list(self.by_uri) + [r["uriTemplate"] for _, r in self.templates]


def _template_pattern(template: str) -> re.Pattern[str]:
    """RFC 6570 → a regex; any expansion matches any text, so a template never looks missing."""
    parts = _TEMPLATE_VARIABLE.split(template)
    return re.compile(".+".join(re.escape(p) for p in parts), re.S)


class _ResourceIndexes(IdentityMemo[Any, ResourceIndex]):
    """One index per resource list for one run (every tool of a server shares its list)."""


def resource_index(tool: ToolContract, ctx: LintContext) -> ResourceIndex | None:
    """The index of the tool's server's resources, built once per resource list; None when unknown."""
    resources = tool.origin.resources
    if resources is None:
        return None
    return ctx.state(_ResourceIndexes).get(resources, ResourceIndex)


def resource_meta(resource: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """The resource's `_meta`, then each read content's `_meta` (hosts take widget settings from either)."""
    meta = resource.get("_meta")
    if isinstance(meta, Mapping):
        yield meta
    for content in read_contents(resource) or ():
        meta = content.get("_meta")
        if isinstance(meta, Mapping):
            yield meta


def read_contents(resource: Mapping[str, Any]) -> list[Mapping[str, Any]] | None:
    """The resources/read contents saved with the resource, or None when it was not read."""
    contents = resource.get("contents")
    if not isinstance(contents, list):
        return None
    return [c for c in contents if isinstance(c, Mapping)]


def widget_uses(tools: Sequence[ToolContract], ctx: LintContext
                ) -> dict[str, tuple[Mapping[str, Any], list[tuple[ToolContract, WidgetReference]]]]:
    """Each declared widget resource (by URI as referenced) with the tools that reference it."""
    uses: dict[str, tuple[Mapping[str, Any], list[tuple[ToolContract, WidgetReference]]]] = {}
    for tool in tools:
        references = widget_references(tool)
        if not references:
            continue
        index = resource_index(tool, ctx)
        if index is None:
            continue
        for reference in references:
            resource = index.find(reference.uri)
            if resource is not None:
                uses.setdefault(reference.uri, (resource, []))[1].append((tool, reference))
    return uses


def hosts_of(references: Sequence[tuple[ToolContract, WidgetReference]]) -> set[str]:
    return {reference.host for _, reference in references}


def also_used(references: Sequence[tuple[ToolContract, WidgetReference]]) -> str:
    others = {tool.name for tool, _ in references[1:]} - {references[0][0].name}
    return f" (also the widget of {', '.join(sorted(others)[:5])})" if others else ""
