"""`toolclause proxy`: the gate in front of any MCP server, whatever language it is written in.

    toolclause proxy --server "node build/index.js" [--transport stdio|http] [--store URL]
    toolclause proxy --url https://mcp.example.com/mcp --header "Authorization: Bearer $T"

The proxy connects to the upstream server with the official client, lists its tools (every page)
and serves the same listing, through a Toolbox whose executor forwards each call upstream:

- arguments are validated against the server's own inputSchema first, so a model's mistake gets
  the gate's actionable VALIDATION_ERROR and never reaches the server;
- the upstream result is checked against the server's own outputSchema (OUTPUT_CONTRACT_VIOLATION
  when it breaks it); an upstream `isError` result becomes the error `UPSTREAM_TOOL_ERROR` (or the
  code of a toolclause envelope the upstream sent) with the server's own text;
- a tool that takes an idempotency key (a top-level string parameter with a name X002 knows:
  `idempotency_key`, `request_id`, `client_token` …) runs once per key — the argument's value, or
  the request's `_meta.idempotencyKey` — and a retry gets the stored result from the store; where
  the server's own schema makes that parameter optional, a call without a key is forwarded as the
  server allows it (run once, nothing to deduplicate by), and only a required one is insisted on;
- every call is logged (the `toolclause.runtime` logger: tool, outcome, duration, trace id).
"""

from __future__ import annotations

import logging
import os
import shlex
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

import mcp_types as types
from mcp.client.session import ClientSession

from ..loading import contracts_from_document
from ..rules.safety._actions import normalised
from ..rules.safety._words import IDEMPOTENCY_PARAMS, IDEMPOTENCY_PARTS
from ..runtime import Toolbox, ToolError
from ..runtime.errors import ToolRegistrationError
from ..runtime.registration import BoundTool
from .serving import ToolboxServer

logger = logging.getLogger("toolclause.mcp")

UPSTREAM_ERROR = "UPSTREAM_TOOL_ERROR"


class UpstreamError(Exception):
    """The upstream server could not be reached or listed (one line)."""


class Forwarder:
    """The executor that runs a call on the upstream server (toolclause.runtime.executor.Executor)."""

    def __init__(self, session: ClientSession) -> None:
        self.session = session

    def run(self, tool: BoundTool, arguments: dict[str, Any]) -> Any:
        raise RuntimeError("the proxy forwards calls asynchronously: use acall")

    async def arun(self, tool: BoundTool, arguments: dict[str, Any]) -> Any:
        # sent as a plain request: the session's call_tool would check the result against the outputSchema
        # itself and raise, where the gate's own check answers OUTPUT_CONTRACT_VIOLATION
        result = await self.session.send_request(
            types.CallToolRequest(params=types.CallToolRequestParams(name=tool.name, arguments=arguments)),
            types.CallToolResult)
        if result.is_error:
            raise _upstream_error(tool.name, result)
        if result.structured_content is not None:
            return result.structured_content
        texts = [c.text for c in result.content if isinstance(c, types.TextContent)]
        return {"text": "\n".join(texts)} if texts else {}

    def close(self) -> None:
        pass


def _upstream_error(name: str, result: types.CallToolResult) -> ToolError:
    sent = result.structured_content
    if isinstance(sent, dict) and sent.get("ok") is False and isinstance(sent.get("error"), dict):
        error = sent["error"]  # a toolclause envelope from a server behind a gate of its own
        if isinstance(error.get("code"), str) and isinstance(error.get("message"), str):
            return ToolError(error["code"], error["message"], retryable=error.get("retryable"),
                             user_action=error.get("userAction"))
    text = " ".join(c.text for c in result.content if isinstance(c, types.TextContent)).strip()
    return ToolError(UPSTREAM_ERROR, f"{name}: the server answered with an error: {text[:500] or '(no text)'}")


def key_parameter(schema: Any) -> str | None:
    """The top-level string parameter that carries an idempotency key, if the tool has one."""
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return None
    for name, prop in properties.items():
        flat = normalised(name)
        if (flat in IDEMPOTENCY_PARAMS or any(part in flat for part in IDEMPOTENCY_PARTS)) and \
                isinstance(prop, dict) and prop.get("type") in ("string", None):
            return name
    return None


class ProxyServer(ToolboxServer):
    """A ToolboxServer whose key for a keyed tool is its key argument (or the request's `_meta` key)."""

    def __init__(self, box: Toolbox, keys: Mapping[str, str], **options: Any) -> None:
        super().__init__(box, **options)
        self.keys = dict(keys)

    async def _call_tool(self, ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        parameter = self.keys.get(params.name)
        if parameter is not None and isinstance(params.arguments, dict) and \
                isinstance(params.arguments.get(parameter), str) and not (params.meta or {}).get("idempotencyKey"):
            meta = {**(params.meta or {}), "idempotencyKey": params.arguments[parameter]}
            params = params.model_copy(update={"meta": meta})
        return await super()._call_tool(ctx, params)


def _forward(**arguments: Any) -> Any:  # pragma: no cover - bound for the contract; the Forwarder runs calls
    raise RuntimeError("proxied tools run upstream")


async def build_proxy(session: ClientSession, store: str | None, label: str) -> tuple[ProxyServer, list[str]]:
    """The proxy server for an initialised upstream session, and what could not be proxied."""
    listed: list[dict[str, Any]] = []
    cursor: str | None = None
    for _ in range(1000):
        page = await session.list_tools(params=types.PaginatedRequestParams(cursor=cursor) if cursor else None)
        listed += [t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in page.tools]
        cursor = page.next_cursor
        if cursor is None:
            break
    contracts, unreadable = contracts_from_document({"tools": listed}, label, "mcp")
    skipped = [f"{u.pointer}: {u.message}" for u in unreadable]
    box = Toolbox(store, lint="off", executor=Forwarder(session))
    keys: dict[str, str] = {}
    for contract in contracts:
        parameter = key_parameter(contract.input_schema)
        required = (contract.input_schema or {}).get("required") if parameter else None
        try:
            box.add(contract, _forward, idempotency="host" if parameter else None,
                    key_optional=not (isinstance(required, list) and parameter in required))
        except ToolRegistrationError as exc:
            skipped.append(f"{contract.name}: {str(exc).splitlines()[0]}")
            continue
        if parameter:
            keys[contract.name] = parameter
    return ProxyServer(box, keys, name=f"toolclause proxy of {label}"), skipped


@asynccontextmanager
async def upstream(server: str | None, url: str | None,
                   headers: Mapping[str, str] | None = None) -> AsyncIterator[ClientSession]:
    """An initialised client session with the upstream server (started with `server`, or at `url`)."""
    if server is not None:
        from mcp.client.stdio import StdioServerParameters, stdio_client

        argv = shlex.split(server)
        if not argv:
            raise UpstreamError("--server: the command is empty")
        # the server gets this process's environment (the SDK's default passes only a few variables)
        connect: Any = stdio_client(StdioServerParameters(command=argv[0], args=argv[1:], env=dict(os.environ)))
    else:
        assert url is not None
        import httpx2
        from mcp.client.streamable_http import streamable_http_client

        client = httpx2.AsyncClient(headers=dict(headers or {}), timeout=httpx2.Timeout(30.0, read=300.0))
        connect = _with_client(client, streamable_http_client(url, http_client=client))
    async with connect as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


@asynccontextmanager
async def _with_client(client: Any, streams: Any) -> AsyncIterator[Any]:
    async with client, streams as pair:
        yield pair


__all__ = ["Forwarder", "ProxyServer", "UPSTREAM_ERROR", "UpstreamError", "build_proxy", "key_parameter", "upstream"]
