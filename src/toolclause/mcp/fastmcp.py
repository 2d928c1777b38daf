"""The gate inside a FastMCP server (extra `fastmcp`): two lines (docs/integrations.md).

    from toolclause.mcp.fastmcp import gate
    gate(mcp, store="sqlite:///.toolclause/state.db", idempotency={"place_order": "key"})

or, among middleware of one's own, `mcp.add_middleware(GateMiddleware(...))`.

Per tools/call, before FastMCP's own (pydantic) validation, the tool's listed inputSchema is the
contract (built once per tool object, so again when the tool list changes): a misspelt, missing,
extra (at any depth: objects from pydantic models are closed, as pydantic validates them) or wrongly
typed argument is answered with the gate's envelope as an `isError` result, with did-you-mean and
never a value or pydantic's text, and the tool does not run.  A keyed tool runs once per key
(ListedGate); the answer is checked against the outputSchema.  FastMCP's own answers pass unchanged.

A tool's own error (FastMCP's `ToolError`, raised by the tool) reaches the model as TOOL_ERROR with
its message; any other exception is the gate's INTERNAL_ERROR (or UPSTREAM_TIMEOUT, …) with no
internals, as in a Toolbox.  `gate()` also accepts a double-encoded arguments object (a JSON string
where an object belongs), which the SDK would refuse before any middleware sees it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

try:
    import fastmcp as _fastmcp  # noqa: F401 - only to say what to install when it is missing
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("toolclause.mcp.fastmcp needs FastMCP: pip install 'toolclause[fastmcp]'") from exc

import mcp_types as mt
from fastmcp.exceptions import DisabledError, FastMCPError, NotFoundError
from fastmcp.exceptions import ToolError as FastMCPToolError
from fastmcp.exceptions import ValidationError as FastMCPValidationError
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.tools.base import Tool, ToolResult
from fastmcp.tools.function_tool import FunctionTool
from pydantic import TypeAdapter

from ..runtime import ToolError
from ..runtime.envelope import Result
from ..stores.base import Store
from .listed_gate import TOOL_ERROR, Downstream, GatedTool, ListedGate
from .raw_call import RawCall, lift
from .serving import REPLAYED
from .text_arguments import accept_text_arguments, sent_text

_CONTENT: TypeAdapter[Any] = TypeAdapter(mt.ContentBlock)  # a stored content block → the SDK's model
WRAP_MARK = "x-fastmcp-wrap-result"  # FastMCP lists a non-object result wrapped as {"result": …}
REFRESH = 5.0      # seconds a lookup of a tool is kept (_ResolvedTools)
MAX_KEPT = 4096    # lookups kept at most, over all callers

Principal = str | Callable[[Any], str | None] | None


class GateMiddleware(Middleware):
    """FastMCP middleware that puts every tools/call through the gate (module docstring).

    store: where idempotency records live (a URL or an opened toolclause Store; default
        TOOLCLAUSE_STORE, else sqlite:///.toolclause/state.db, opened by the first keyed call).
    idempotency: tool name → "key" or "content" (the modes of `Toolbox.tool(idempotency=…)`); a tool
        with a key argument (`idempotency_key`, `request_id`, …) is keyed without being listed.
    principal: whose calls these are (keys of one never match another's): a name, or a function of
        FastMCP's Context that returns one.
    correction_budget: failed attempts one session may make at one tool after its first mistake.
    """

    def __init__(self, store: str | Store | None = None, idempotency: Mapping[str, str] | None = None,
                 principal: Principal = None, correction_budget: int = 3) -> None:
        self.gate = ListedGate(store=store, idempotency=idempotency, correction_budget=correction_budget)
        self.principal = principal
        self._resolved = _ResolvedTools()

    async def on_list_tools(self, context: MiddlewareContext[mt.ListToolsRequest],
                            call_next: CallNext[mt.ListToolsRequest, Sequence[Tool]]) -> Sequence[Tool]:
        # a client lists again when told the list changed: calls then look their tools up afresh
        self._resolved.forget()
        return await call_next(context)

    async def on_call_tool(self, context: MiddlewareContext[mt.CallToolRequestParams],
                           call_next: CallNext[mt.CallToolRequestParams, ToolResult]) -> ToolResult:
        ctx = context.fastmcp_context
        params = context.message
        server = getattr(ctx, "fastmcp", None)
        tool = await self._resolved.tool(server, params.name) if server is not None else None
        if tool is None:  # an unknown tool (or no server to ask): FastMCP answers it as it would
            return await call_next(context)
        gated = self.gate.tool(params.name, lambda: _listing(tool), tool, closed=isinstance(tool, FunctionTool))
        if gated is None:
            return await call_next(context)
        raw = _raw_call(params)

        async def run(arguments: dict[str, Any]) -> ToolResult:
            try:
                return await call_next(context.copy(message=params.model_copy(update={"arguments": arguments})))
            except FastMCPToolError as exc:
                if exc.__cause__ is not None:  # the tool failed unexpectedly: the gate masks it as it masks any
                    raise exc.__cause__ from None
                raise ToolError(TOOL_ERROR, f"{gated.name}: {str(exc)[:1000]}") from None
            except (NotFoundError, DisabledError):  # gone, or hidden from this caller, since it was looked up
                raise ToolError("UNKNOWN_TOOL", f"{gated.name}: no tool by that name is available now; list the "
                                                f"tools again") from None
            except FastMCPValidationError:
                # pydantic refused what the listed schema accepts (a validator of the tool's own): no raw text
                raise ToolError("VALIDATION_ERROR", f"{gated.name}: the tool's own validation refused these "
                                                    f"arguments; check them against its description") from None

        downstream = Downstream(run, lambda answer: _read(gated, answer))
        result, answer = await self.gate.call(gated, raw, downstream, run=_session(ctx),
                                              principal=self._principal(ctx))
        return answer if answer is not None else _shaped(result, gated)

    def _principal(self, ctx: Any) -> str | None:
        if callable(self.principal):
            return self.principal(ctx)
        return self.principal

    def close(self) -> None:
        """Close the store the middleware opened."""
        self.gate.close()


class _ResolvedTools:
    """The tool a name resolves to, kept per caller (its access token, if any).

    FastMCP's own lookup (providers, transforms, visibility, auth) costs about 80 µs, more than the rest
    of the gate, and FastMCP makes it again for the call itself; so an answer is kept until a client lists
    the tools again (what a client does when told the list changed) or REFRESH seconds have passed.  Not
    per session: on 2026-07-28 connections every request is a session of its own.  A name not found is
    asked again every time; a tool kept for a caller FastMCP then refuses is refused by FastMCP as before.
    """

    def __init__(self) -> None:
        self._found: dict[tuple[int, Any, str], tuple[float, Tool]] = {}

    async def tool(self, server: Any, name: str) -> Tool | None:
        key = (id(server), _caller(), name)  # one middleware may serve several servers (a mounted one too)
        now = time.monotonic()
        kept = self._found.get(key)
        if kept is not None and now - kept[0] < REFRESH:
            return kept[1]
        tool: Tool | None = await server.get_tool(name)
        if tool is None:
            self._found.pop(key, None)
            return None
        if len(self._found) >= MAX_KEPT:
            self._found.clear()
        self._found[key] = (now, tool)
        return tool

    def forget(self) -> None:
        self._found.clear()


def _caller() -> Any:
    """Who is calling, as FastMCP's auth sees it: the request's access token (None without auth)."""
    from fastmcp.server.dependencies import get_access_token

    token = get_access_token()
    return getattr(token, "token", None)


def gate(server: Any, *, store: str | Store | None = None, idempotency: Mapping[str, str] | None = None,
         principal: Principal = None, correction_budget: int = 3) -> GateMiddleware:
    """Put `server` (a FastMCP) behind the gate: a GateMiddleware as its outermost middleware, and a
    double-encoded arguments object accepted.  Returns the middleware."""
    middleware = GateMiddleware(store, idempotency, principal, correction_budget)
    server.middleware.insert(0, middleware)
    accept_text_arguments(server._mcp_server)  # FastMCP's low-level server is the SDK's
    return middleware


def _listing(tool: Any) -> dict[str, Any]:
    listed: dict[str, Any] = tool.to_mcp_tool().model_dump(by_alias=True, mode="json", exclude_none=True)
    return listed


def _raw_call(params: mt.CallToolRequestParams) -> RawCall:
    """The request as sent (its SEP-3182 key, its `_meta`, double-encoded arguments), from FastMCP's
    request context; the typed params FastMCP hands middleware carry none of these."""
    from fastmcp.server.dependencies import fastmcp_request_ctx

    bound = fastmcp_request_ctx.get()
    sdk_context = getattr(bound, "_srctx", None)
    raw = getattr(sdk_context, "params", None)
    if not isinstance(raw, Mapping) or raw.get("name") != params.name:
        return RawCall(params.arguments)  # called from code, not from a client's request
    lifted = lift(raw, params.arguments)
    text = sent_text()  # a double-encoded arguments object, kept aside by TextArguments
    return RawCall(text if text is not None else params.arguments, lifted.key, lifted.meta)


def _read(gated: GatedTool, answer: ToolResult) -> Any:
    """The JSON data of FastMCP's answer: what its outputSchema describes, or its content blocks."""
    if answer.is_error:
        text = " ".join(getattr(block, "text", "") for block in answer.content).strip()
        raise ToolError(TOOL_ERROR, f"{gated.name}: {text[:1000] or 'the tool answered with an error'}")
    if gated.has_output_schema:
        data = answer.structured_content
        schema = gated.listed.get("outputSchema") or {}
        if schema.get(WRAP_MARK) and not (isinstance(data, dict) and set(data) == {"result"}):
            data = {"result": data}  # a raw non-object result, listed wrapped
        return data
    return {"content": [block.model_dump(by_alias=True, mode="json", exclude_none=True) for block in answer.content]}


def _shaped(result: Result, gated: GatedTool) -> ToolResult:
    """The gate's own answer as FastMCP's result: an error envelope, or a stored outcome replayed."""
    if not result.ok:  # the text `serve` sends: the envelope, no structuredContent (it would break outputSchema)
        return ToolResult(content=[mt.TextContent.model_validate(result.to_mcp()["content"][0])], is_error=True)
    meta = {REPLAYED: True} if result.replayed else None
    data = result.data
    if not gated.has_output_schema and isinstance(data, dict) and isinstance(data.get("content"), list):
        return ToolResult(content=[_CONTENT.validate_python(block) for block in data["content"]], meta=meta)
    return ToolResult(content=[mt.TextContent(type="text", text=json.dumps(data, ensure_ascii=False))],
                      structured_content=data if isinstance(data, dict) else None, meta=meta)


def _session(ctx: Any) -> Any:
    """The run a correction budget counts in: the client's session."""
    try:
        return ctx.session_id if ctx is not None else None
    except (RuntimeError, FastMCPError, AttributeError):
        return None


__all__ = ["GateMiddleware", "gate"]
