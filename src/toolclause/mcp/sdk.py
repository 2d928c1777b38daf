"""The gate inside a server written with the official MCP SDK: two lines (docs/integrations.md).

    from toolclause.mcp.sdk import gate
    gate(server, store="sqlite:///.toolclause/state.db", idempotency={"place_order": "key"})

`server` is an `MCPServer` (the SDK's high-level server, FastMCP before 2.x) or a low-level
`Server`.  Its tools/call handler is wrapped through the SDK's stable `add_request_handler` (the
provisional middleware only lets double-encoded arguments through to it): each call's tool, as the
server's own tools/list handler lists it, is the contract.  So a misspelt argument, which MCPServer
silently ignores (running the tool with its default) and a low-level server never checks, is
answered with the gate's envelope, with did-you-mean and never a value; keyed tools run once per key
(`params.idempotencyKey`, `_meta.idempotencyKey`, or a key argument); the answer is checked against
the outputSchema; a double-encoded arguments object is repaired.  An `isError` answer of the tool's
own reaches the model as TOOL_ERROR with its text.  Call `gate` after the tools/call handler is
registered (for a low-level Server: construct it with `on_call_tool` first).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import mcp_types as mt

from ..runtime import ToolError
from ..runtime.envelope import Result
from ..stores.base import Store
from .listed_gate import TOOL_ERROR, Downstream, GatedTool, ListedGate
from .raw_call import RawCall, lift
from .serving import REPLAYED
from .text_arguments import accept_text_arguments, sent_text

Principal = str | Callable[[Any], str | None] | None
_MARK = "_toolclause_gate"


class SDKGate:
    """The gate wrapped around one SDK server's tools/call handler (`gate()` returns it)."""

    def __init__(self, server: Any, *, store: str | Store | None = None,
                 idempotency: Mapping[str, str] | None = None, principal: Principal = None,
                 correction_budget: int = 3) -> None:
        self.lowlevel = getattr(server, "_lowlevel_server", server)  # an MCPServer keeps its low-level server there
        calls = self.lowlevel.get_request_handler("tools/call")
        if calls is None:
            raise ValueError("the server has no tools/call handler yet: register its tools first, then gate it")
        if getattr(calls.handler, _MARK, False):
            raise ValueError("the server is already gated")
        self.gate = ListedGate(store=store, idempotency=idempotency, correction_budget=correction_budget)
        self.principal = principal
        self._inner: Callable[[Any, Any], Awaitable[Any]] = calls.handler
        self.params_type = calls.params_type
        # MCPServer builds its tools' schemas with pydantic, whose models validate closed
        self._closed = self.lowlevel is not server

    async def handle(self, ctx: Any, params: Any) -> Any:
        """The tools/call handler: through the gate, then the server's own."""
        listed, source = await self._listed(ctx, params.name)
        gated = self.gate.tool(params.name, listed, source, closed=self._closed) if listed is not None else None
        if gated is None:  # unknown to the listing: the server's own handler answers it as it would
            return await self._inner(ctx, _plain(params))
        lifted = lift(getattr(ctx, "params", None), params.arguments)
        text = sent_text()  # a double-encoded arguments object, kept aside by TextArguments
        raw = RawCall(text if text is not None else params.arguments, lifted.key, lifted.meta)

        async def run(arguments: dict[str, Any]) -> Any:
            return await self._inner(ctx, _plain(params, arguments))

        downstream = Downstream(run, lambda answer: _read(gated, answer))
        result, answer = await self.gate.call(gated, raw, downstream, run=_connection(ctx),
                                              principal=self.principal(ctx) if callable(self.principal)
                                              else self.principal)
        return answer if answer is not None else _shaped(result, gated)

    async def _listed(self, ctx: Any, name: str) -> tuple[dict[str, Any] | None, Any]:
        """The tool called, as the server's own tools/list handler lists it (every page), and the listed model."""
        entry = self.lowlevel.get_request_handler("tools/list")
        if entry is None:
            return None, None
        cursor: str | None = None
        for _ in range(1000):
            page = await entry.handler(ctx, mt.PaginatedRequestParams(cursor=cursor))
            for tool in getattr(page, "tools", ()):
                if tool.name == name:
                    known = self.gate.known(name)
                    if known is not None and known.source is tool:
                        return dict(known.listed), tool
                    return tool.model_dump(by_alias=True, mode="json", exclude_none=True), tool
            cursor = getattr(page, "next_cursor", None)
            if cursor is None:
                break
        return None, None

    def close(self) -> None:
        """Close the store the gate opened."""
        self.gate.close()


def gate(server: Any, *, store: str | Store | None = None, idempotency: Mapping[str, str] | None = None,
         principal: Principal = None, correction_budget: int = 3) -> SDKGate:
    """Put an SDK server (`MCPServer` or low-level `Server`) behind the gate; returns the SDKGate."""
    wrapped = SDKGate(server, store=store, idempotency=idempotency, principal=principal,
                      correction_budget=correction_budget)

    async def handler(ctx: Any, params: Any) -> Any:
        return await wrapped.handle(ctx, params)

    setattr(handler, _MARK, True)
    wrapped.lowlevel.add_request_handler("tools/call", wrapped.params_type, handler)
    accept_text_arguments(wrapped.lowlevel)
    return wrapped


def _plain(params: Any, arguments: dict[str, Any] | None = None) -> mt.CallToolRequestParams:
    """The params as the server's own handler takes them, with the gate's arguments when it has them."""
    return params if arguments is None else params.model_copy(update={"arguments": arguments})


def _read(gated: GatedTool, answer: Any) -> Any:
    """The JSON data of the server's answer: what its outputSchema describes, or its content blocks."""
    result = answer if isinstance(answer, mt.CallToolResult) else None
    if result is None:  # a handler of the low-level server may answer with anything the SDK serialises
        return {"content": []}
    if result.is_error:
        text = " ".join(getattr(block, "text", "") for block in result.content).strip()
        raise ToolError(TOOL_ERROR, f"{gated.name}: {text[:1000] or 'the tool answered with an error'}")
    if gated.has_output_schema:
        return result.structured_content
    return {"content": [block.model_dump(by_alias=True, mode="json", exclude_none=True) for block in result.content]}


def _shaped(result: Result, gated: GatedTool) -> mt.CallToolResult:
    """The gate's own answer: an error envelope (no structuredContent), or a stored outcome replayed."""
    if not result.ok:
        return mt.CallToolResult.model_validate(result.to_mcp())
    meta = {REPLAYED: True} if result.replayed else None
    data = result.data
    if not gated.has_output_schema and isinstance(data, dict) and isinstance(data.get("content"), list):
        return mt.CallToolResult.model_validate({"content": data["content"], "_meta": meta})
    text = json.dumps(data, ensure_ascii=False)
    shaped: dict[str, Any] = {"content": [{"type": "text", "text": text}], "_meta": meta}
    if isinstance(data, dict):
        shaped["structuredContent"] = data
    return mt.CallToolResult.model_validate(shaped)


def _connection(ctx: Any) -> Any:
    """The run a correction budget counts in: the client's connection."""
    session = getattr(ctx, "session", None)
    return id(getattr(session, "_connection", session)) if session is not None else None


__all__ = ["SDKGate", "gate"]
