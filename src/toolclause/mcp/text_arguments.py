"""A tools/call whose `arguments` is JSON text: let it reach the gate instead of dying in the SDK.

Several providers double-encode a tool call's arguments (a JSON string holding the object).  The
SDK checks `params.arguments` is an object before any handler (or FastMCP middleware) runs, so
such a call fails as a JSON-RPC error the model cannot act on.  `accept_text_arguments(server)`
adds a `ServerMiddleware` to the SDK's low-level server, the one tier that runs before that check:
it hands the rest of the chain `arguments: {}` and keeps the text for the gate (`sent_text()`),
which parses it as it parses any call and repairs it or answers INVALID_ARGUMENTS_JSON.
Nothing else passes through it changed.
"""

from __future__ import annotations

import contextvars
import dataclasses
from collections.abc import Mapping
from typing import Any

_TEXT: contextvars.ContextVar[str | None] = contextvars.ContextVar("toolclause_text_arguments", default=None)


class TextArguments:
    """The SDK ServerMiddleware (`(ctx, call_next) -> result`) that lets text arguments through to the gate."""

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        params = ctx.params
        if ctx.method != "tools/call" or not isinstance(params, Mapping) or \
                not isinstance(params.get("arguments"), str):
            return await call_next(ctx)
        token = _TEXT.set(params["arguments"])
        try:
            return await call_next(dataclasses.replace(ctx, params={**params, "arguments": {}}))
        finally:
            _TEXT.reset(token)


def sent_text() -> str | None:
    """The text a tools/call being answered sent as its arguments, if it sent text."""
    return _TEXT.get()


def accept_text_arguments(server: Any) -> None:
    """Let text arguments of `server` (an SDK low-level Server) reach its handler's gate (once)."""
    if not any(isinstance(middleware, TextArguments) for middleware in server.middleware):
        server.middleware.append(TextArguments())


__all__ = ["TextArguments", "accept_text_arguments", "sent_text"]
