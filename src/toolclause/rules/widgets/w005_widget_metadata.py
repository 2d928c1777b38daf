"""widget-metadata (W005)

## What it does
Checks the ChatGPT Apps SDK settings of each widget a tool names as its
`openai/outputTemplate`, on the widget resource (its listing or its read
contents) or on the tool's own `_meta`:

- `openai/widgetDomain` must be an origin: `https://` and a host (a port at
  most), no path, query or fragment;
- `openai/widgetPrefersBorder` must be a boolean (`true`, not `"true"`);
- `openai/widgetDescription` should be there (info when it is missing) and
  short: at most 200 characters.

## Why is this bad?
The host reads these values as they are.  A domain with a path or without
`https://` is not an origin, so the widget gets no dedicated origin (or the app
is refused at review); `"false"` is a non-empty string, so a border appears
where the author asked for none.  The description is what the model says about
the open widget; without one the model makes its own comment up, and a long
one is a second tool description the model reads every time.

## Example
```json
{"tools": [{"name": "suggest_gifts", "description": "Suggests gifts for one person as cards.",
            "inputSchema": {"type": "object", "properties": {}},
            "_meta": {"openai/outputTemplate": "ui://widget/gifts.html", "openai/widgetDomain": "chatgpt.com/gifts",
                      "openai/widgetPrefersBorder": "true", "openai/widgetDescription": "Gifts."}}],
 "resources": [{"uri": "ui://widget/gifts.html", "name": "gifts", "mimeType": "text/html+skybridge"}]}
```

## Use instead
```json
{"tools": [{"name": "suggest_gifts", "description": "Suggests gifts for one person as cards.",
            "inputSchema": {"type": "object", "properties": {}}, "_meta": {"openai/outputTemplate": "ui://g.html"}}],
 "resources": [{"uri": "ui://g.html", "name": "gifts", "mimeType": "text/html+skybridge",
                "_meta": {"openai/widgetDomain": "https://gifts.example.com", "openai/widgetPrefersBorder": true,
                          "openai/widgetDescription": "GiftGenius shows gift suggestions as cards."}}]}
```

## Fix safety
No fix: the origin and the wording are the author's.

## References
- OpenAI Apps SDK reference (tool and resource `_meta` keys):
  https://developers.openai.com/apps-sdk/reference
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from ...model import Severity, ToolContract
from ..base import Finding, LintContext, Rule
from ._resources import OPENAI, also_used, resource_meta, widget_uses

MAX_DESCRIPTION = 200
DOMAIN, BORDER, DESCRIPTION = "openai/widgetDomain", "openai/widgetPrefersBorder", "openai/widgetDescription"


class WidgetMetadata(Rule):
    code = "W005"
    name = "widget-metadata"
    severity = Severity.WARNING

    def check_tools(self, tools: Sequence[ToolContract], ctx: LintContext) -> Iterable[tuple[ToolContract, Finding]]:
        if not any(tool.meta for tool in tools):
            return
        for uri, (resource, references) in widget_uses(tools, ctx).items():
            ours = [(tool, reference) for tool, reference in references if reference.host == OPENAI]
            if not ours:
                continue
            tool, reference = ours[0]
            settings = _settings(resource, [t.meta for t, _ in ours])
            where = f"widget resource '{uri}'"
            for problem in _problems(settings):
                yield tool, Finding(reference.pointer, f"{where}: {problem}{also_used(ours)}")
            if DESCRIPTION not in settings:
                yield tool, Finding(reference.pointer, (
                    f'{where} has no _meta["{DESCRIPTION}"]: say in a sentence what the widget shows, so the model '
                    f"does not describe it on its own{also_used(ours)}"), severity=Severity.INFO)


def _settings(resource: Mapping[str, Any], tool_metas: Sequence[Any]) -> dict[str, Any]:
    """The first value of each setting: the resource's listing, its read contents, then the tools' `_meta`."""
    found: dict[str, Any] = {}
    for meta in [*resource_meta(resource), *(m for m in tool_metas if isinstance(m, Mapping))]:
        for key in (DOMAIN, BORDER, DESCRIPTION):
            if key in meta:
                found.setdefault(key, meta[key])
    return found


def _problems(settings: Mapping[str, Any]) -> Iterable[str]:
    if DOMAIN in settings and not is_origin(settings[DOMAIN]):
        yield (f'_meta["{DOMAIN}"] is {_shown(settings[DOMAIN])}, not an origin; write "https://" and the host '
               f"alone (e.g. 'https://board.example.com'), no path")
    if BORDER in settings and type(settings[BORDER]) is not bool:
        yield f'_meta["{BORDER}"] is {_shown(settings[BORDER])}; write true or false (a JSON boolean)'
    text = settings.get(DESCRIPTION)
    if DESCRIPTION in settings and (not isinstance(text, str) or not text.strip()):
        yield f'_meta["{DESCRIPTION}"] is {_shown(text)}; write one short sentence saying what the widget shows'
    elif isinstance(text, str) and len(text) > MAX_DESCRIPTION:
        yield (f'_meta["{DESCRIPTION}"] is {len(text)} characters; keep it under {MAX_DESCRIPTION}: one sentence '
               f"saying what the widget shows (it starts '{text[:40]}…')")


def is_origin(value: Any) -> bool:
    """Whether `value` is an https origin: scheme and host (and a port), nothing after."""
    if not isinstance(value, str) or value != value.strip():
        return False
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError:
        return False
    return (parts.scheme == "https" and bool(parts.hostname) and "*" not in value and parts.path in ("", "/")
            and not parts.query and not parts.fragment and "@" not in parts.netloc)


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=lambda v: type(v).__name__)
    return text if len(text) <= 60 else text[:59] + "…"
