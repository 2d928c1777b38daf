"""`Reply`: what an app's tool returns when the model, the person and the widget each need their own part.

    from toolclause import Reply

    @box.tool(read_only=True, meta={"openai/outputTemplate": "ui://widget/restaurants.html"})
    def search_restaurants(query: str, location: str) -> dict:
        found = ...
        return Reply({"restaurants": [brief(r) for r in found]},
                     summary=f"Found {len(found)} restaurants near {location}.",
                     meta={"restaurantsById": {r["id"]: r for r in found}})

- `data` is the result proper: checked against the output schema, the envelope's `data`, MCP's
  `structuredContent`.  The model reads it and may use it in its next call.
- `summary` is the text a person reads: MCP's `content` text block (without one, that block holds
  the data as JSON).  The model reads it too.
- `meta` goes only to the widget (MCP's result `_meta`, which ChatGPT hands to the widget as
  `toolResponseMetadata` and never shows the model): a map by id for rendering, a trace id.
  It is not a vault: the widget, and so the user's browser, sees it.

A tool that returns anything else returns only its data, as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

MAX_SUMMARY_CHARS = 4000  # a summary is a few sentences; a longer one is cut (the data holds the rest)


@dataclass(frozen=True, slots=True, init=False)
class Reply:
    """A tool's data, its own summary text for `content`, and widget-only `_meta`."""

    data: Any
    summary: str | None
    meta: dict[str, Any] | None

    def __init__(self, data: Any, *, summary: str | None = None, meta: Mapping[str, Any] | None = None) -> None:
        if summary is not None and not isinstance(summary, str):
            raise TypeError(f"Reply summary is text, not {type(summary).__name__}")
        if meta is not None and not isinstance(meta, Mapping):
            raise TypeError(f"Reply meta is a mapping (the result's _meta), not {type(meta).__name__}")
        if meta is not None and not all(isinstance(key, str) for key in meta):
            raise TypeError("Reply meta's keys are strings")
        object.__setattr__(self, "data", data)
        text = summary.strip() if summary is not None else None
        if text is not None and len(text) > MAX_SUMMARY_CHARS:
            text = text[: MAX_SUMMARY_CHARS - 1] + "…"
        object.__setattr__(self, "summary", text or None)
        object.__setattr__(self, "meta", dict(meta) if meta else None)


__all__ = ["MAX_SUMMARY_CHARS", "Reply"]
