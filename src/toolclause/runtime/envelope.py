"""The outcome of one call, and its shapes for each protocol (docs/runtime.md).

    success  {"ok": true, "data": <JSON value>}
    failure  {"ok": false, "error": {code, message, retryable, userAction, details}, "traceId": "…"}

Adapters (one function each, the same data):
- `to_mcp(wrap=False)` — a CallToolResult dict.  Failure: `isError: true` and one
  text block holding the whole envelope as compact JSON, and no `structuredContent`
  (MCP clients check `structuredContent` against the tool's `outputSchema`, which
  describes the success, not the envelope).  Success: the data as `structuredContent`
  when it is an object, wrapped as `{"result": …}` when the tool's outputSchema is
  wrapped (`wrapped`, or `wrap=True` from a server that wraps the listing), and a
  text block holding the data as JSON — or the tool's own `summary` (a `Reply`), and its
  widget-only `meta` as the result's `_meta`.  `envelope_in()` reads the envelope back.
- `to_openai(tool_call_id)` — a Chat Completions tool message; `content` is the
  envelope as JSON, so the model sees `ok` and the error code alike.
- `to_anthropic(tool_use_id)` — a `tool_result` block; `is_error` on failure,
  `content` the envelope as JSON.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .errors import CallError


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


class Result:
    """One call's outcome.  `ok`, `data` (success), `error` (a `CallError`), `trace_id`, `tool`."""

    __slots__ = ("ok", "data", "error", "trace_id", "tool", "call_id", "wrapped", "replayed", "summary", "meta")

    def __init__(self, ok: bool, data: Any = None, error: CallError | None = None, trace_id: str = "",
                 tool: str = "", call_id: str | None = None, wrapped: bool = False, replayed: bool = False,
                 summary: str | None = None, meta: dict[str, Any] | None = None) -> None:
        self.ok = ok
        self.data = data
        self.error = error
        self.trace_id = trace_id
        self.tool = tool
        self.call_id = call_id
        self.wrapped = wrapped
        self.replayed = replayed
        # a success's own text for a person (MCP `content`) and its widget-only `_meta`: neither is part of
        # the envelope, so a model reading `to_dict()` / `to_openai()` never sees `meta`
        self.summary = summary
        self.meta = meta

    def __repr__(self) -> str:
        if self.ok:
            return f"Result(ok=True, tool={self.tool!r}, data={self.data!r})"
        assert self.error is not None
        return f"Result(ok=False, tool={self.tool!r}, code={self.error.code!r}, trace_id={self.trace_id!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Result) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # unhashable on purpose (mutable, equal by content); mypy wants a method

    # ------------------------------------------------------------------ shapes

    def to_dict(self) -> dict[str, Any]:
        """The envelope."""
        if self.ok:
            out: dict[str, Any] = {"ok": True, "data": self.data}
            if self.replayed:
                out["replayed"] = True
            return out
        assert self.error is not None
        out = {"ok": False, "error": self.error.to_dict(), "traceId": self.trace_id}
        if self.replayed:  # a stored business failure, answered again
            out["replayed"] = True
        return out

    def text(self) -> str:
        """What a person reads: the data as JSON, or 'CODE: message' and the trace id (to_mcp() sends
        the whole envelope as JSON instead, for a model and a program alike)."""
        if self.ok:
            return _dumps(self.data)
        assert self.error is not None
        return f"{self.error.code}: {self.error.message} (trace {self.trace_id})"

    def to_mcp(self, wrap: bool = False) -> dict[str, Any]:
        """A CallToolResult dict (MCP wire shape, camelCase keys).

        A failure is `isError: true` with the envelope as JSON text and no `structuredContent`,
        so no client checks it against the outputSchema.  `wrap`: the tool is listed with its
        outputSchema wrapped as `{"result": <schema>}` (a server does that for a contract whose
        output is not an object), so a success's `structuredContent` is `{"result": data}`.
        """
        if not self.ok:
            return {"content": [{"type": "text", "text": _dumps(self.to_dict())}], "isError": True}
        out: dict[str, Any] = {"content": [{"type": "text", "text": self.summary or self.text()}], "isError": False}
        if self.wrapped or wrap:
            out["structuredContent"] = {"result": self.data}
        elif isinstance(self.data, dict):
            out["structuredContent"] = self.data
        if self.meta:
            out["_meta"] = dict(self.meta)
        return out

    def to_openai(self, tool_call_id: str | None = None) -> dict[str, Any]:
        """A Chat Completions tool message."""
        return {"role": "tool", "tool_call_id": self._id(tool_call_id), "content": _dumps(self.to_dict())}

    def to_anthropic(self, tool_use_id: str | None = None) -> dict[str, Any]:
        """An Anthropic `tool_result` content block."""
        return {"type": "tool_result", "tool_use_id": self._id(tool_use_id), "content": _dumps(self.to_dict()),
                "is_error": not self.ok}

    def _id(self, given: str | None) -> str:
        found = given if given is not None else self.call_id
        if found is None:
            raise ValueError("no tool call id: pass it here or to call(..., call_id=…)")
        return found


def envelope_in(result: Any) -> dict[str, Any] | None:
    """The toolclause error envelope an MCP tool result carries, or None.

    `result`: a CallToolResult, as a wire dict or the SDK's model.  The envelope is the JSON of
    its text (what `to_mcp()` sends) or, from a server that sent it so (toolclause before this
    shape, or another gate), its `structuredContent`: `{"ok": false, "error": {code, message, …}, …}`.
    """
    def get(key: str, attribute: str) -> Any:
        return result.get(key) if isinstance(result, Mapping) else getattr(result, attribute, None)

    texts = []
    for block in get("content", "content") or ():
        text = block.get("text") if isinstance(block, Mapping) else getattr(block, "text", None)
        if isinstance(text, str):
            texts.append(text)
    candidates: list[Any] = [get("structuredContent", "structured_content")]
    if len(texts) == 1 and texts[0].lstrip().startswith("{"):
        try:
            candidates.insert(0, json.loads(texts[0]))
        except ValueError:
            pass
    for found in candidates:
        error = found.get("error") if isinstance(found, dict) and found.get("ok") is False else None
        if isinstance(error, dict) and isinstance(error.get("code"), str) and isinstance(error.get("message"), str):
            return found
    return None
