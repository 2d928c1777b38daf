"""A Toolbox served over MCP by the official SDK's low-level server (docs/serving.md).

    server = box.mcp_server(widgets=[Widget("ui://widget/list.html", html, "Restaurant list")])
    anyio.run(serve_stdio, server)              # or serve_http(server, "127.0.0.1", 8000)

- tools/list: the tools as `toolclause export --target mcp` writes them (title, description,
  inputSchema, outputSchema, annotations, `_meta`), in pages of `page_size`.
- tools/call: through the gate (`Toolbox.acall`), so the client gets the gate's answer: on
  failure `isError: true` and the whole envelope as JSON text, without `structuredContent`
  (clients check that against the outputSchema, which describes a success); on success the
  data as `structuredContent` (what the outputSchema describes) and its JSON as text; a stored
  outcome answered again carries `_meta: {"toolclause/replayed": true}`.  A tool that returns a
  `Reply` gets its own summary as the text and its widget-only data as the result's `_meta`.  A
  failure of a tool that names a widget also carries the envelope in `_meta["toolclause/error"]`,
  so the widget can show an error state (and a retry hint when `retryable`) instead of "no results".
- confirmation: a preview's token travels only in its result's `_meta` (to the widget, whose
  confirm button calls the commit tool, listed `openai/widgetAccessible`); a commit called without
  one, from a client that declared elicitation, is confirmed by asking the user (confirming.py).
- the key: the request's `params.idempotencyKey` (SEP-3182), else its `_meta.idempotencyKey`,
  when the client sends one, is the call's idempotency key; keys and confirmations are scoped by
  the caller (principals.py).
- a tool whose output is not an object (a list, a scalar): MCP takes only an object as
  outputSchema, so it is listed as `{"type": "object", "properties": {"result": <schema>},
  "required": ["result"]}` and answered `{"result": <data>}` (a Python function's return
  annotation is wrapped so already; a contract's outputSchema, which the MCP export leaves out,
  is wrapped here).
- cancellation (`notifications/cancelled`): a read-only call stops at once (an async tool sees
  `CancelledError`); a call that changes state is not torn in half: it finishes in the
  background and its outcome is recorded, so a retry with the same key gets that outcome.
- progress: a client that sends a `progressToken` gets a `notifications/progress` every
  `progress_interval` seconds while the call runs.
- resources: the widgets given (`ui://…`, `text/html+skybridge` for ChatGPT Apps or
  `text/html;profile=mcp-app` for MCP Apps), listed and read with their `_meta`.
- routing (`route_k=K`): tools/list has no request text to route on, so a session first lists one
  tool, `find_tools`; calling it with the user's request routes it (`Toolbox.select`), makes the
  session list `find_tools` and the K tools that fit, and sends `notifications/tools/list_changed`
  so the client lists again.  Each session has its own list; every tool stays callable by name
  (routing narrows what a model reads, it is not access control).

The protocol itself (JSON-RPC, sessions, transports) is the SDK's; this module only answers
the requests.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import math
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel.server import NotificationOptions, Server
from mcp.server.models import InitializationOptions
from mcp.shared.exceptions import MCPError

from .._http_limits import (
    KEEP_ALIVE,
    MAX_SESSIONS,
    READ_TIMEOUT,
    SESSION_IDLE,
    ConnectionGuard,
    connection_budget,
    evict_idle_sessions,
    guarded_server,
    quiet_logs,
)
from .._sockets import listening_socket
from .._version import __version__
from ..linting.config import LintConfig
from ..model import Diagnostic
from ..runtime.envelope import Result
from ..runtime.errors import standard_error
from ..runtime.gate import new_trace_id
from ..runtime.toolbox import Toolbox
from .confirming import confirm_through_elicitation
from .principals import auth_options, principal_of
from .raw_call import request_key

logger = logging.getLogger("toolclause.mcp")

PAGE_SIZE = 100
PROGRESS_INTERVAL = 1.0
REPLAYED = "toolclause/replayed"  # result _meta: this is the stored outcome of an earlier call with the same key
WIDGET_ERROR = "toolclause/error"  # a widget tool's failed result's _meta: the envelope, for its error state
WIDGET_TYPES = ("text/html+skybridge", "text/html;profile=mcp-app")
FIND_TOOLS = "find_tools"  # the one tool a routed server lists before a request has been routed
MAX_REQUEST_CHARS = 2000


@dataclass(frozen=True)
class Widget:
    """An HTML resource that shows a tool's result: the tool names its `uri` in `_meta`
    (`openai/outputTemplate` for ChatGPT Apps, `ui.resourceUri` for MCP Apps).

    meta: the resource's `_meta` (`openai/widgetDescription`, `openai/widgetPrefersBorder`,
    `openai/widgetCSP`, `openai/widgetDomain`; or `ui: {csp, domain, prefersBorder}`),
    sent with the listing and with the contents.
    """

    uri: str
    html: str
    name: str
    description: str | None = None
    mime_type: str = "text/html+skybridge"
    meta: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.uri.startswith("ui://"):
            raise ValueError(f"a widget's uri starts with ui:// (got {self.uri!r})")
        if self.mime_type not in WIDGET_TYPES:
            raise ValueError(f"a widget's mime_type is one of {', '.join(WIDGET_TYPES)} (got {self.mime_type!r})")

    def listing(self) -> dict[str, Any]:
        out: dict[str, Any] = {"uri": self.uri, "name": self.name, "mimeType": self.mime_type}
        if self.description is not None:
            out["description"] = self.description
        if self.meta:
            out["_meta"] = dict(self.meta)
        return out

    def contents(self) -> dict[str, Any]:
        out: dict[str, Any] = {"uri": self.uri, "mimeType": self.mime_type, "text": self.html}
        if self.meta:
            out["_meta"] = dict(self.meta)
        return out


_WIDGETS: weakref.WeakKeyDictionary[Toolbox, list[Widget]] = weakref.WeakKeyDictionary()


def add_widgets(box: Toolbox, *widgets: Widget) -> None:
    """Widgets every server made from `box` serves (`box.mcp_server()`, `toolclause serve app.py:box`)."""
    for widget in widgets:
        if not isinstance(widget, Widget):
            raise TypeError(f"add_widgets takes Widget objects, not {type(widget).__name__}")
    _WIDGETS.setdefault(box, []).extend(widgets)


class ToolboxServer(Server[Any]):
    """The SDK's low-level `Server`, answering from a Toolbox: `.toolbox`, `.tools` (wire dicts), `.widgets`."""

    def __init__(self, box: Toolbox, *, name: str = "toolclause", version: str | None = None,
                 instructions: str | None = None, widgets: Sequence[Widget] | None = None, page_size: int = PAGE_SIZE,
                 progress_interval: float = PROGRESS_INTERVAL, route_k: int | None = None,
                 route_min_score: float = 0.0) -> None:
        if not isinstance(box, Toolbox):
            raise TypeError(f"mcp_server serves a Toolbox, not {type(box).__name__}")
        if page_size < 1:
            raise ValueError("page_size must be at least 1")
        if route_k is not None and (isinstance(route_k, bool) or not isinstance(route_k, int) or route_k < 1):
            raise ValueError(f"route_k is a number of tools, at least 1 (got {route_k!r})")
        if route_k is not None and FIND_TOOLS in box:
            raise ValueError(f"route_k: the server lists its own '{FIND_TOOLS}' tool, and the Toolbox has one "
                             f"by that name; rename it")
        exported = box.export("mcp")
        self.toolbox = box
        self.routing = exported.routing or None
        self.tools: list[dict[str, Any]] = [dict(t) for t in exported]
        self._wrap: set[str] = set()  # tools listed with a wrapped outputSchema that the gate answers bare
        for tool, contract in zip(self.tools, box.contracts, strict=True):  # the export keeps the order
            wrapper = _wrapped_output(contract.output_schema)
            if wrapper is not None:
                tool["outputSchema"] = wrapper
                self._wrap.add(contract.name)
        self._models = [types.Tool.model_validate(t) for t in self.tools]
        self.route_k = route_k
        self.route_min_score = route_min_score
        self.find_tools: dict[str, Any] | None = _find_tools_tool(len(self.tools), route_k) if route_k else None
        self._by_name = {m.name: m for m in self._models}
        self._routed: weakref.WeakKeyDictionary[Any, list[str]] = weakref.WeakKeyDictionary()
        self._read_only = {t["name"]: bool((t.get("annotations") or {}).get("readOnlyHint")) for t in self.tools}
        self._commits = any(p.commit_of for p in box.registry.policies.values())
        self._widget_tools = {t["name"] for t in self.tools if _has_widget(t.get("_meta"))}
        self.widgets: dict[str, Widget] = {}
        for widget in widgets if widgets is not None else _WIDGETS.get(box, ()):
            if not isinstance(widget, Widget):
                raise TypeError(f"widgets holds Widget objects, not {type(widget).__name__}")
            if widget.uri in self.widgets:
                raise ValueError(f"two widgets have the uri {widget.uri}")
            self.widgets[widget.uri] = widget
        self.page_size = page_size
        self.progress_interval = progress_interval
        self._background: set[asyncio.Task[Any]] = set()
        self.calls_in_flight = 0  # tools/call requests not yet answered: a SIGTERM waits for them
        handlers: dict[str, Any] = {"on_list_tools": self._list_tools, "on_call_tool": self._call_tool}
        if self.widgets:
            handlers.update(on_list_resources=self._list_resources, on_read_resource=self._read_resource)
        super().__init__(name, version=version or __version__, instructions=instructions, **handlers)

    # ------------------------------------------------------------------ what a client sees

    def snapshot(self) -> dict[str, Any]:
        """The listing a client gets (tools, resources with their read contents' type and `_meta`):
        the shape `toolclause lint --server` reads, so a server is linted before it starts as it would be live."""
        resources = []
        for widget in self.widgets.values():
            entry = widget.listing()
            entry["contents"] = [{k: v for k, v in widget.contents().items() if k != "text"}]
            resources.append(entry)
        found = [dict(self.find_tools)] if self.find_tools is not None else []
        return {"tools": found + [dict(t) for t in self.tools], "resources": resources}

    def create_initialization_options(self, notification_options: NotificationOptions | None = None,
                                      experimental_capabilities: dict[str, dict[str, Any]] | None = None,
                                      extensions: dict[str, dict[str, Any]] | None = None) -> InitializationOptions:
        """The SDK's options, with `tools.listChanged` declared when the listing follows the conversation."""
        if notification_options is None and self.route_k is not None:
            notification_options = NotificationOptions(tools_changed=True)
        return super().create_initialization_options(notification_options, experimental_capabilities, extensions)

    def listed(self, session: Any = None) -> list[types.Tool]:
        """What tools/list gives `session`: every tool, or (routing) find_tools and the tools routed for it."""
        if self.find_tools is None:
            return self._models
        routed = self._routed.get(_connection(session), []) if session is not None else []
        return [types.Tool.model_validate(self.find_tools), *(self._by_name[n] for n in routed if n in self._by_name)]

    async def _list_tools(self, ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        models = self.listed(getattr(ctx, "session", None))
        start = _cursor(params.cursor if params is not None else None, len(models))
        end = start + self.page_size
        return types.ListToolsResult(tools=models[start:end], next_cursor=str(end) if end < len(models) else None)

    async def _find_tools(self, ctx: Any, arguments: Mapping[str, Any] | None) -> types.CallToolResult:
        """Route the request to the tools that fit; the session lists them from now on."""
        request = (arguments or {}).get("request")
        extra = sorted(set(arguments or {}) - {"request"})
        problem = None
        if extra:
            problem = ("/" + extra[0], "additionalProperties", f"{FIND_TOOLS} takes only 'request', not '{extra[0]}'")
        elif not isinstance(request, str) or not request.strip():
            problem = ("/request", "required" if request is None else "type",
                       f"{FIND_TOOLS} needs 'request': the user's request in their own words, as text")
        elif len(request) > MAX_REQUEST_CHARS:
            problem = ("/request", "maxLength", f"'request' is at most {MAX_REQUEST_CHARS} characters")
        if problem is not None:
            path, keyword, message = problem
            refused = Result(False, error=standard_error("VALIDATION_ERROR", message,
                                                         [{"path": path, "problem": keyword}]),
                             trace_id=new_trace_id(), tool=FIND_TOOLS)
            return types.CallToolResult.model_validate(refused.to_mcp())
        assert isinstance(request, str) and self.route_k is not None
        chosen = self.toolbox.select(request, k=self.route_k, min_score=self.route_min_score)
        session = getattr(ctx, "session", None)
        if chosen and session is not None and self._routed.get(_connection(session)) != chosen:
            self._routed[_connection(session)] = chosen
            try:
                await session.send_tool_list_changed()
            except Exception:  # noqa: BLE001 - a client that cannot be told still gets the names below
                logger.debug("tools/list_changed not sent", exc_info=True)
        found = [{k: v for k, v in (("name", m.name), ("title", m.title), ("description", m.description))
                  if v is not None} for m in (self._by_name[n] for n in chosen)]
        data = {"tools": found}
        text = json.dumps(data, ensure_ascii=False)
        return types.CallToolResult.model_validate({"content": [{"type": "text", "text": text}],
                                                    "structuredContent": data, "isError": False})

    async def _list_resources(self, ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
        return types.ListResourcesResult.model_validate({"resources": [w.listing() for w in self.widgets.values()]})

    async def _read_resource(self, ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        widget = self.widgets.get(str(params.uri))
        if widget is None:
            raise MCPError(types.INVALID_PARAMS, f"no resource {str(params.uri)[:200]!r}; "
                                                 f"the resources are: {', '.join(self.widgets)}")
        return types.ReadResourceResult.model_validate({"contents": [widget.contents()]})

    # ------------------------------------------------------------------ tools/call

    async def _call_tool(self, ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        self.calls_in_flight += 1
        try:
            return await self._answer_call(ctx, params)
        finally:
            self.calls_in_flight -= 1

    async def _answer_call(self, ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if self.find_tools is not None and params.name == FIND_TOOLS:
            return await self._find_tools(ctx, params.arguments)
        meta = dict(params.meta) if params.meta else None
        token: Any = meta.get("progressToken", meta.get("progress_token")) if meta else None
        # keys and confirmations are scoped by whose call it is (principals.py): never shared across clients;
        # SEP-3182's params.idempotencyKey, which the SDK's typed params drop, wins over _meta's
        principal = principal_of(getattr(ctx, "request", None))
        arguments = params.arguments
        if self._commits:  # a commit without the user's token: ask the user, where the client can (confirming.py)
            asked = await confirm_through_elicitation(self.toolbox, ctx, params.name, arguments, self.routing,
                                                      principal)
            if isinstance(asked, Result):
                return types.CallToolResult.model_validate(asked.to_mcp())
            arguments = asked if asked is not None else arguments
        call = self.toolbox.acall(params.name, arguments, meta=meta, routing=self.routing,
                                  principal=principal, idempotency_key=request_key(ctx))
        if token is not None and self.progress_interval > 0:
            call = _with_progress(call, ctx, token, self.progress_interval)
        if self._read_only.get(params.name, True):
            result = await call
        else:
            # a call that changes state runs to its end even if the client cancels, so its outcome is recorded
            task = asyncio.ensure_future(call)
            self._background.add(task)
            task.add_done_callback(self._background.discard)
            result = await asyncio.shield(task)
        shaped = result.to_mcp(wrap=result.tool in self._wrap)
        if not result.ok and result.tool in self._widget_tools:  # the widget shows the error, not "nothing found"
            shaped["_meta"] = {WIDGET_ERROR: result.to_dict()}
        if result.replayed:  # a stored outcome answered again: the client may want to know
            shaped["_meta"] = {**shaped.get("_meta", {}), REPLAYED: True}
        return types.CallToolResult.model_validate(shaped)


def _has_widget(meta: Any) -> bool:
    """Whether a listed tool's `_meta` names a widget (ChatGPT Apps' outputTemplate, MCP Apps' ui.resourceUri)."""
    return isinstance(meta, Mapping) and (isinstance(meta.get("openai/outputTemplate"), str) or isinstance(
        (meta.get("ui") or {}).get("resourceUri") if isinstance(meta.get("ui"), Mapping) else None, str))


def _connection(session: Any) -> Any:
    """What one client's requests share: the SDK makes a ServerSession per request around the client's
    connection (the MCP session), which is what a routed list belongs to."""
    return getattr(session, "_connection", session)


def _wrapped_output(schema: Any) -> dict[str, Any] | None:
    """The outputSchema to list for a contract whose output is not an object (MCP takes only an object
    there): `{"type": "object", "properties": {"result": <schema>}, "required": ["result"]}`, the Python
    SDK's own convention and the shape of a Python function's wrapped result.  None for an object (listed
    as it is) and for no schema.  `$defs` and `$schema` move to the root, so references still resolve."""
    if not isinstance(schema, Mapping) or schema.get("type") == "object":
        return None
    inner = {k: v for k, v in schema.items() if k not in ("$defs", "definitions", "$schema")}
    wrapper: dict[str, Any] = {"type": "object", "properties": {"result": inner}, "required": ["result"]}
    for key in ("$schema", "$defs", "definitions"):
        if key in schema:
            wrapper[key] = schema[key]
    return wrapper


def _find_tools_tool(total: int, k: int) -> dict[str, Any]:
    """The tool a routed server lists first (MCP wire shape)."""
    return {
        "name": FIND_TOOLS,
        "title": "Find tools",
        "description": (f"Find the tools that fit what the user asks for, out of the {total} this server has: "
                        f"returns up to {k} of them (name, title, description), best first, and lists them "
                        f"from then on (the tool list changes). Call it with the user's request before any "
                        f"other tool, and again when the conversation turns to something new. Finds nothing "
                        f"itself and changes nothing outside this session."),
        "inputSchema": {"type": "object", "additionalProperties": False, "required": ["request"],
                        "properties": {"request": {
                            "type": "string", "minLength": 1, "maxLength": MAX_REQUEST_CHARS,
                            "description": "The user's request in their own words, e.g. 'pizza near Gangnam "
                                           "station' or '강남역 근처 피자집'."}}},
        "outputSchema": {"type": "object", "additionalProperties": False, "required": ["tools"],
                         "properties": {"tools": {
                             "type": "array", "description": "The tools that fit, best first; empty when none does.",
                             "items": {"type": "object", "additionalProperties": False, "required": ["name"],
                                       "properties": {"name": {"type": "string", "description": "The tool's name."},
                                                      "title": {"type": "string", "description": "Its title."},
                                                      "description": {"type": "string",
                                                                      "description": "What it does."}}}}}},
        "annotations": {"title": "Find tools", "readOnlyHint": True, "openWorldHint": False,
                        "idempotentHint": True, "destructiveHint": False},
    }


def _cursor(cursor: str | None, total: int) -> int:
    if cursor is None:
        return 0
    if not (cursor.isascii() and cursor.isdigit()) or int(cursor) > total:
        raise MCPError(types.INVALID_PARAMS, "tools/list: this cursor was not given by this server; "
                                             "list again without one")
    return int(cursor)


async def _with_progress(call: Awaitable[Any], ctx: Any, token: str | int, interval: float) -> Any:
    """Await `call`, telling the client every `interval` seconds that it is still running."""
    async def beat() -> None:
        elapsed = 0.0
        while True:
            await anyio.sleep(interval)
            elapsed += interval
            try:
                await ctx.session.send_progress_notification(token, elapsed, None, f"running for {elapsed:g} s",
                                                              related_request_id=ctx.request_id)
            except Exception:  # noqa: BLE001 - a client that went away does not stop the call
                logger.debug("progress notification not sent", exc_info=True)
                return

    async with anyio.create_task_group() as group:
        group.start_soon(beat)
        try:
            return await call
        finally:
            group.cancel_scope.cancel()


def lint_served(server: ToolboxServer, config: LintConfig | None = None) -> list[Diagnostic]:
    """Lint what clients of `server` will list (tools, and widgets for the W rules), as
    `toolclause lint --server` would; `config` defaults to the one found from the current folder."""
    from ..linting.run import LintRequest, Parsed, run  # the one lint pipeline, as `lint --server` runs it

    reader = Parsed(server.snapshot(), f"server {server.name}", "mcp")
    if config is not None:
        return run(LintRequest(reader=reader, config=config)).diagnostics
    return run(LintRequest(reader=reader, discover_from=Path.cwd())).diagnostics


def build_server(box: Toolbox, **options: Any) -> ToolboxServer:
    """`Toolbox.mcp_server()`: the SDK's server for `box` (options: name, version, instructions, widgets,
    page_size, progress_interval, route_k, route_min_score)."""
    return ToolboxServer(box, **options)


# --------------------------------------------------------------------------- transports (the SDK's)

async def serve_stdio(server: Server[Any]) -> None:
    """Serve one client over standard input and output until it closes them."""
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


async def serve_http(server: Server[Any], host: str = "127.0.0.1", port: int = 8000, path: str = "/mcp",
                     on_ready: Callable[[str], None] | None = None, stateless: bool = False,
                     token_verifier: Any = None, *, read_timeout: float = READ_TIMEOUT,
                     max_sessions: int = MAX_SESSIONS, session_idle: float = SESSION_IDLE) -> None:
    """Serve Streamable HTTP at http://host:port/path until SIGINT or SIGTERM.

    token_verifier: bearer tokens every request must carry (principals.py: a `TokenFile`, a
    function token → identity, or the SDK's TokenVerifier); the identity scopes the calls' keys.

    port 0 picks a free port; `on_ready` gets the URL once the socket listens.  On a loopback
    host the SDK turns on its DNS-rebinding protection (Host and Origin must be local).
    A connection has `read_timeout` seconds to send each whole request; at most `max_sessions`
    sessions are kept (at the cap the one idle longest ends to admit a new client), and a session
    without a request for `session_idle` seconds ends (docs/serving.md, toolclause._http_limits).
    """
    import uvicorn

    if stateless and getattr(server, "route_k", None) is not None:
        raise ValueError("a routed server (route_k) keeps each session's tool list: it cannot be stateless")
    if isinstance(max_sessions, bool) or not isinstance(max_sessions, int) or max_sessions < 1:
        raise ValueError(f"max_sessions is a number of sessions, at least 1 (got {max_sessions!r})")
    if not (math.isfinite(session_idle) and session_idle > 0):
        raise ValueError(f"session_idle is a positive number of seconds (got {session_idle!r})")
    guard = ConnectionGuard(read_timeout, connection_budget())
    app = server.streamable_http_app(streamable_http_path=path, host=host, stateless_http=stateless,
                                     transport_security=loopback_security(host), max_sessions=max_sessions,
                                     session_idle_timeout=session_idle, **auth_options(token_verifier, host))
    if not stateless and not evict_idle_sessions(server.session_manager):
        logger.warning("this MCP SDK's session manager cannot end idle sessions early: at the session cap "
                       "new clients are refused (503) until a session ends")
    sock = listening_socket(host, port, backlog=LISTEN_BACKLOG)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if sock.family == socket.AF_INET6 else host
    config = uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=3,
                            http=guard.protocol(), ws="none", timeout_keep_alive=KEEP_ALIVE)
    server_class = _stopping_on_sigterm(guarded_server(uvicorn.Server, guard, sock),
                                        lambda: getattr(server, "calls_in_flight", 0))
    runner = server_class(config)
    try:
        with quiet_logs():
            if on_ready is not None:
                on_ready(f"http://{shown}:{bound}{path}")
            await runner.serve(sockets=[])  # the guard accepts on `sock` (toolclause._http_limits)
    finally:
        sock.close()


def loopback_security(host: str) -> Any:
    """DNS-rebinding protection for any loopback host (127.0.0.2 too, not only the SDK's three names):
    Host and Origin must then name a loopback address, so a web page cannot reach the server through a
    domain that resolves to it.  None for other hosts (the SDK's own default applies)."""
    from mcp.server.transport_security import TransportSecuritySettings

    bare = host.strip("[]")
    try:
        loopback = bare == "localhost" or ipaddress.ip_address(bare).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        return None
    shown = f"[{bare}]" if ":" in bare else bare
    hosts = sorted({f"{shown}:*", "127.0.0.1:*", "localhost:*", "[::1]:*"})
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts,
                                     allowed_origins=[f"http://{h}" for h in hosts])


LISTEN_BACKLOG = 2048  # connections the kernel queues until they are accepted (uvicorn's default)
DRAIN_SECONDS = 30.0  # how long a SIGTERM waits for the tool calls in flight before the server stops


def _stopping_on_sigterm(server_class: type, in_flight: Callable[[], int]) -> type:
    """uvicorn's Server, but SIGTERM drains: the tool calls in flight are answered (for up to
    DRAIN_SECONDS), then the server stops and the process exits 0, as a service manager expects.
    uvicorn alone closes the streams of calls in flight and raises the signal again once it has shut
    down, so the process would die of it (exit 143).  SIGINT keeps uvicorn's behaviour."""

    class StoppingOnSigterm(server_class):
        draining_until: float | None = None

        def handle_exit(self, sig: int, frame: Any) -> None:
            if sig == signal.SIGTERM:  # not kept among the signals to raise again
                self.draining_until = time.monotonic() + DRAIN_SECONDS
                return
            super().handle_exit(sig, frame)

        async def on_tick(self, counter: int) -> bool:
            if self.draining_until is not None and (in_flight() == 0 or time.monotonic() > self.draining_until):
                return True
            return bool(await super().on_tick(counter))

    return StoppingOnSigterm


# --------------------------------------------------------------------------- a server in a process of its own

READY = re.compile(r"at (http://\S+) \(Streamable HTTP\)")  # the line `toolclause serve --transport http` says


@contextmanager
def http_process(*arguments: str, command: str = "serve", env: Mapping[str, str] | None = None,
                 cwd: str | None = None, timeout: float = 60.0) -> Iterator[str]:
    """`toolclause serve TARGET [options] --transport http --port 0` in a process of its own; yields its URL.

    `command="proxy"` starts `toolclause proxy [arguments] --transport http --port 0` instead.

    For tests and scripts that drive a server as a client would (replicas: enter it twice with one
    TOOLCLAUSE_STORE).  The process is stopped on the way out (SIGTERM, then SIGKILL after 10 s);
    a server that does not listen within `timeout` seconds is a RuntimeError quoting what it said.
    """
    argv = [sys.executable, "-m", "toolclause.cli.main", command, *arguments, "--transport", "http", "--port", "0"]
    process = subprocess.Popen(argv, cwd=cwd, env=dict(env) if env is not None else None, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    killer = threading.Timer(timeout, process.kill)
    killer.start()
    try:
        assert process.stderr is not None
        said = []
        for line in process.stderr:
            said.append(line)
            found = READY.search(line)
            if found:
                break
        else:
            raise RuntimeError(f"toolclause {command} stopped before listening:\n" + "".join(said[-20:]))
        killer.cancel()
        threading.Thread(target=process.stderr.read, daemon=True).start()  # keep its stderr drained
        yield found.group(1)
    finally:
        killer.cancel()
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


__all__ = ["PAGE_SIZE", "READY", "REPLAYED", "WIDGET_ERROR", "ToolboxServer", "Widget", "add_widgets", "build_server",
           "http_process", "lint_served", "serve_http", "serve_stdio"]
