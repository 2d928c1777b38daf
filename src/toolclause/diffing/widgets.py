"""The widget contract of a tool: which template it renders, and how that resource is served.

ChatGPT caches a widget's HTML when the app is registered: the template, its mime type, its
CSP and its domain are a frontend release, not a hot fix.  A tool whose
`openai/outputTemplate` (or MCP Apps' `ui.resourceUri`) now names another resource, or whose
resource is served with another mime type, CSP or `openai/widgetDomain`, changes what an
already-registered widget receives and is allowed to do — reported as breaking for the widget
contract (breaking-results: the widget is a consumer of the results).  The resources come from a
snapshot or a live server; a plain tool file has none, and then only the template is compared.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..model import ToolContract
from ..rules.widgets._resources import ResourceIndex, read_contents, resource_meta, widget_references
from .kinds import change
from .model import Change

# how a widget resource is served: what each setting is called, and the kind of its change
_SERVED = {"mimeType": "mime type", "csp": "Content Security Policy", "domain": "openai/widgetDomain"}
_SERVED_KINDS = {"mimeType": "widget-mime-type-changed", "csp": "widget-csp-changed",
                 "domain": "widget-domain-changed"}
_MIGRATION = "ChatGPT caches the widget at registration, so this is a frontend migration"


def widget_changes(old: ToolContract, new: ToolContract) -> list[Change]:
    olds = {r.pointer: r for r in widget_references(old)}
    news = {r.pointer: r for r in widget_references(new)}
    changes: list[Change] = []
    for pointer in sorted(set(olds) | set(news)):
        before, after = olds.get(pointer), news.get(pointer)
        if before is None or after is None or before.uri != after.uri:
            written = after.key if after is not None else before.key if before is not None else pointer
            changes.append(change("widget-template-changed", new.name, pointer if before else "",
                                  pointer if after else "", (
                f"{written} changed from {_shown(before.uri if before else None)} to "
                f"{_shown(after.uri if after else None)}: the widget registered for this tool no longer matches; "
                f"{_MIGRATION}")))
            continue
        a, b = _served(old, before.uri), _served(new, after.uri)
        if a is None or b is None:
            continue  # a side without its resources: nothing more to compare
        for key, what in _SERVED.items():
            if a.get(key) != b.get(key):
                changes.append(change(_SERVED_KINDS[key], new.name, pointer, pointer, (
                    f"widget resource '{after.uri}': its {what} changed from {_shown(a.get(key))} to "
                    f"{_shown(b.get(key))}; {_MIGRATION}")))
    return changes


def _served(tool: ToolContract, uri: str) -> dict[str, Any] | None:
    """How the tool's server serves the resource at `uri`: its mime type, CSP and domain; None if unknown."""
    if tool.origin.resources is None:
        return None
    resource = ResourceIndex(tool.origin.resources).find(uri)
    if resource is None:
        return {}
    mime = resource.get("mimeType")
    for content in read_contents(resource) or ():
        mime = content.get("mimeType", mime)
    served: dict[str, Any] = {"mimeType": mime}
    metas = [*resource_meta(resource), *([tool.meta] if isinstance(tool.meta, Mapping) else [])]
    for meta in metas:
        found = meta.get("ui")
        ui: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
        for key, value in (("csp", meta.get("openai/widgetCSP", ui.get("csp"))),
                           ("domain", meta.get("openai/widgetDomain", ui.get("domain")))):
            if value is not None:
                served.setdefault(key, value)
    return served


def _shown(value: Any) -> str:
    if value is None:
        return "nothing"
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return text if len(text) <= 120 else text[:119] + "…"


__all__ = ["widget_changes"]
