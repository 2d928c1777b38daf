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

Exactly once (docs/serving.md, "Proxy: what it guarantees").  A call that may have reached the
server and got no answer — its process died, the connection broke, no answer within `--timeout` —
has an unknown outcome: OUTCOME_UNKNOWN (not retryable, `reconcile`), stored under the call's key,
so a retry with that key is never sent again.  Only a call that provably never left (the server
not running, the connection refused, the session already closed) answers UPSTREAM_UNAVAILABLE,
retryable, and leaves its key free.  A read-only tool, or one annotated idempotent, is simply
retryable either way.  `Upstream` keeps the connection: a stdio server that stops is started again
(at most `max_restarts` times within RESTART_WINDOW seconds, waiting 0.5 s, 1 s, 2 s … before
each), and past that the proxy gives up (`UpstreamGone`); an HTTP session the server forgot is
opened again.  Answers larger than `max_answer_bytes` are dropped unread (proxy_link).
"""

from __future__ import annotations

import collections
import logging
import os
import shlex
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

import anyio
import mcp_types as types
from mcp.client.session import ClientSession
from mcp.shared.exceptions import MCPError

from ..loading import contracts_from_document
from ..rules.safety._actions import normalised
from ..rules.safety._words import IDEMPOTENCY_PARAMS, IDEMPOTENCY_PARTS
from ..runtime import Reply, Toolbox, ToolError
from ..runtime.envelope import envelope_in
from ..runtime.errors import CODES, CodeSpec, ToolRegistrationError
from ..runtime.registration import BoundTool
from .live import start_failure
from .proxy_link import (
    CURRENT_ATTEMPT,
    LOST,
    MAX_ANSWER_BYTES,
    NEVER_SENT,
    REFUSED,
    TOO_LARGE,
    Attempt,
    Link,
    http_transport,
    stdio_transport,
)
from .serving import ToolboxServer

logger = logging.getLogger("toolclause.mcp")

UPSTREAM_ERROR = "UPSTREAM_TOOL_ERROR"
TOO_LARGE_ERROR = "UPSTREAM_ANSWER_TOO_LARGE"
CALL_TIMEOUT = 300.0     # seconds a call waits for the server's answer (--timeout)
START_TIMEOUT = 60.0     # seconds to start (or restart) the server and initialise the session
MAX_RESTARTS = 5         # restarts of a stopped stdio server within RESTART_WINDOW (--max-restarts)
RESTART_WINDOW = 60.0
FIRST_DELAY = 0.5        # seconds before the first restart; doubled for each restart in the window
MAX_DELAY = 10.0
RESEND_WAIT = 5.0        # a call the server refused for a forgotten session waits this long for a new one


class UpstreamError(Exception):
    """The upstream server could not be reached or listed (one line)."""


class UpstreamGone(UpstreamError):
    """The stdio server kept stopping: it was restarted as often as allowed (one line)."""


class Upstream:
    """The connection to the upstream server, kept open: started, restarted with backoff, closed.

    `run` (a task of its own) owns it; `link` is the live connection, or None while the server is
    being started again.  A stdio server (`server`, a command line) that stops is restarted at most
    `max_restarts` times within RESTART_WINDOW seconds, FIRST_DELAY seconds after it stopped and twice
    as long for each restart already made in the window; one more stop and `run` raises UpstreamGone.
    An HTTP server (`url`) is reconnected as often as it takes (a session it forgot, a start that
    failed), waiting up to MAX_DELAY between tries: the proxy does not own that server.
    """

    def __init__(self, server: str | None = None, url: str | None = None, headers: Mapping[str, str] | None = None,
                 *, max_answer_bytes: int = MAX_ANSWER_BYTES, max_restarts: int = MAX_RESTARTS,
                 timeout: float = CALL_TIMEOUT, env: Mapping[str, str] | None = None) -> None:
        if (server is None) == (url is None):
            raise ValueError("give the server's command or its URL (one of them)")
        self.argv = shlex.split(server) if server is not None else None
        if self.argv is not None and not self.argv:
            raise UpstreamError("--server: the command is empty")
        self.url = url
        self.headers = dict(headers or {})
        self.label = f"server '{server}'" if server is not None else f"server {url}"
        self.max_answer_bytes = max_answer_bytes
        self.max_restarts = max_restarts
        self.timeout = timeout
        # the server gets this process's environment (the SDK's default passes only a few variables)
        self.env = dict(env) if env is not None else dict(os.environ)
        self.link: Link | None = None
        self.why = "it has not started yet"
        self._restarts: collections.deque[float] = collections.deque()
        self._ready: anyio.Event | None = None

    @property
    def restarts(self) -> bool:
        """Whether a stopped server is started again by the proxy (stdio), rather than reconnected (HTTP)."""
        return self.argv is not None

    async def run(self, *, task_status: anyio.abc.TaskStatus[Link] = anyio.TASK_STATUS_IGNORED) -> None:
        """Keep the connection until cancelled.  The first one is reported through `task_status`; failing
        that, UpstreamError.  Raises UpstreamGone when a stdio server stopped once more than allowed."""
        first = True
        while True:
            link = Link(self.label, self.max_answer_bytes)
            try:
                async with self._connect(link):
                    self.link = link
                    if self._ready is not None:
                        self._ready.set()
                        self._ready = None
                    if first:
                        first = False
                        task_status.started(link)
                    else:
                        logger.warning("%s: connected again", self.label)
                    await link.wait_lost()
            except Exception as exc:  # noqa: BLE001 - a failed start, or a transport that broke: decided below
                if first:
                    program = self.argv[0] if self.argv else None
                    raise UpstreamError(start_failure(exc, self.label, program) or
                                        f"{self.label} could not be reached: {_innermost(exc)}") from None
                link.lose(f"it could not be started again ({_innermost(exc)})")
                logger.debug("%s: connection failed", self.label, exc_info=True)
            finally:
                self.link = None
                link.lose("the proxy closed the connection")
            self.why = link.reason
            if link.exit_code is not None and "exit code" not in self.why:
                self.why += f" (exit code {link.exit_code})"
            delay = self._next_delay()
            logger.warning("%s: %s; %s in %.1f s", self.label, self.why,
                           "restarting it" if self.restarts else "reconnecting", delay)
            await anyio.sleep(delay)

    def _next_delay(self) -> float:
        now = time.monotonic()
        while self._restarts and self._restarts[0] < now - RESTART_WINDOW:
            self._restarts.popleft()
        made = len(self._restarts)
        if self.restarts and made >= self.max_restarts:
            tried = f"after {made} restart(s) within {RESTART_WINDOW:g} s" if made else "and --max-restarts is 0"
            raise UpstreamGone(f"{self.label} stopped: {self.why}, {tried}; giving up")
        self._restarts.append(now)
        if len(self._restarts) > 64:
            self._restarts.popleft()
        return min(FIRST_DELAY * 2 ** made, MAX_DELAY)

    async def wait_ready(self, seconds: float) -> Link | None:
        """The live connection, waiting up to `seconds` for one while the server is started again."""
        with anyio.move_on_after(seconds):
            while self.link is None or self.link.lost:
                if self._ready is None:
                    self._ready = anyio.Event()
                await self._ready.wait()
        link = self.link
        return link if link is not None and not link.lost else None

    @asynccontextmanager
    async def _connect(self, link: Link) -> AsyncIterator[Link]:
        """Start (or reach) the server and initialise a session with it; the session's life is the link's."""
        if self.argv is not None:
            connect: Any = stdio_transport(self.argv, link, env=self.env)
        else:
            assert self.url is not None
            connect = http_transport(self.url, link, self.headers, read_timeout=self.timeout + 30.0)
        async with connect as (read, write), ClientSession(read, write) as session:
            with anyio.fail_after(START_TIMEOUT):
                await session.initialize()
            link.session = session
            yield link


def _innermost(exc: BaseException) -> str:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return f"{type(exc).__name__}: {exc}"[:300]


class Forwarder:
    """The executor that runs a call on the upstream server (toolclause.runtime.executor.Executor).

    What it raises says whether the call can have run (module docstring): UPSTREAM_UNAVAILABLE when
    it provably never reached the server, OUTCOME_UNKNOWN when it may have and no answer came (for
    a tool that is neither read-only nor idempotent), UPSTREAM_ANSWER_TOO_LARGE, UPSTREAM_TOOL_ERROR
    or the server's own envelope code when the server answered with an error.
    """

    def __init__(self, upstream: Upstream, timeout: float = CALL_TIMEOUT) -> None:
        self.upstream = upstream
        self.timeout = timeout

    def run(self, tool: BoundTool, arguments: dict[str, Any]) -> Any:
        raise RuntimeError("the proxy forwards calls asynchronously: use acall")

    async def arun(self, tool: BoundTool, arguments: dict[str, Any]) -> Any:
        link = self.upstream.link
        for resend in (False, True):
            if link is None or link.lost:
                raise self._unavailable(tool)
            attempt = Attempt()
            token = CURRENT_ATTEMPT.set(attempt)
            try:
                # sent as a plain request: the session's call_tool would check the result against the
                # outputSchema itself and raise, where the gate's own check answers OUTPUT_CONTRACT_VIOLATION
                result = await link.session.send_request(
                    types.CallToolRequest(params=types.CallToolRequestParams(name=tool.name, arguments=arguments)),
                    types.CallToolResult, request_read_timeout_seconds=self.timeout)
            except Exception as exc:  # noqa: BLE001 - what happened to the request decides, below
                failure: Exception | None = exc
            else:
                failure = None
            finally:
                CURRENT_ATTEMPT.reset(token)
                link.forget(attempt)
            if failure is None:
                return self._answer(tool, result)
            if attempt.fate == REFUSED and attempt.session_lost and not resend:
                # the server refused it unrun (a session it forgot): safe to send once more, on a new one
                link = await self.upstream.wait_ready(RESEND_WAIT)
                continue
            logger.debug("%s: %s: %s (the request %s)", self.upstream.label, tool.name, failure, attempt.fate,
                         exc_info=failure)
            raise self._failed(tool, link, attempt, failure) from None
        raise RuntimeError("unreachable: the loop returns or raises")  # pragma: no cover

    def close(self) -> None:
        pass

    # ------------------------------------------------------------------ answers

    def _answer(self, tool: BoundTool, result: types.CallToolResult) -> Any:
        if result.is_error:
            raise _upstream_error(tool, result)
        texts = [c.text for c in result.content if isinstance(c, types.TextContent)]
        data = result.structured_content if result.structured_content is not None else \
            {"text": "\n".join(texts)} if texts else {}
        if not result.meta:
            return data
        # the server's widget-only _meta (and its own text for people) is relayed as it sent them
        return Reply(data, summary="\n".join(texts) or None, meta=dict(result.meta))

    def _failed(self, tool: BoundTool, link: Link, attempt: Attempt, exc: Exception) -> ToolError:
        name = tool.name
        if attempt.fate == TOO_LARGE:
            mutating = not _retry_safe(tool)
            return ToolError(TOO_LARGE_ERROR, (
                f"{name}: the server's answer was larger than the proxy takes ({self.upstream.max_answer_bytes:,} "
                f"bytes, --max-answer-bytes), so it was dropped unread. "
                + ("The call itself ran: check its effect before calling again" if mutating else
                   "Ask for less (a narrower query, a smaller page)")),
                retryable=False, user_action="reconcile" if mutating else "fix_arguments")
        if attempt.fate in NEVER_SENT:
            return self._unavailable(tool, attempt.detail or (link.reason if link.lost else None))
        if attempt.fate == REFUSED:
            logger.warning("%s: the server refused %s (%s); it did not run", self.upstream.label, name,
                           attempt.detail)
            if attempt.status == 429:
                return ToolError("RATE_LIMITED", f"{name}: the server is refusing calls for now (too many); it did "
                                                 f"not run this one. The same call may succeed later")
            return ToolError("UPSTREAM_UNAVAILABLE", f"{name}: the server refused the call ({attempt.detail}) "
                                                     f"without running it; the same call may succeed later")
        code = exc.code if isinstance(exc, MCPError) else None
        if isinstance(exc, MCPError) and attempt.fate != LOST and code not in (
                types.CONNECTION_CLOSED, types.REQUEST_TIMEOUT):
            # the server itself answered the request with a JSON-RPC error: a definite answer, not a lost one
            return ToolError(UPSTREAM_ERROR, f"{name}: the server refused the call: {str(exc)[:500] or '(no text)'}")
        timed_out = code == types.REQUEST_TIMEOUT
        if timed_out:
            why = f"no answer came within {self.timeout:g} s"
        elif attempt.detail:
            why = f"the connection broke before the answer ({attempt.detail})"
        elif link.lost:
            why = f"the server stopped before answering ({link.reason})"
        elif isinstance(exc, ValueError):  # pydantic's ValidationError: not a tools/call result
            why = "its answer could not be read (not a tools/call result)"
        else:
            why = "its answer was lost"
        logger.warning("%s: %s reached the server, then %s", self.upstream.label, name, why)
        if _retry_safe(tool):
            code_name = "UPSTREAM_TIMEOUT" if timed_out else "UPSTREAM_UNAVAILABLE"
            return ToolError(code_name, f"{name}: the call reached the server, then {why}. The tool changes "
                                        f"nothing (read-only or idempotent): the same call may be sent again")
        return ToolError("OUTCOME_UNKNOWN", (
            f"{name}: the call reached the server, then {why}: it may or may not have taken effect. Check "
            f"before calling again: a retry with the same idempotency key gets this answer and is never sent "
            f"again; without a key, sending it again might do it twice"), retryable=False, user_action="reconcile")

    def _unavailable(self, tool: BoundTool, why: str | None = None) -> ToolError:
        """The call never left: `why` is what stopped it (the transport's word), else the server is down."""
        if why:
            what = f"the call could not be sent to the server ({why})"
        else:
            doing = "the proxy is starting it again" if self.upstream.restarts else "the proxy is reconnecting"
            what = f"the server is not available ({self.upstream.why}); {doing}"
        return ToolError("UPSTREAM_UNAVAILABLE", f"{tool.name}: {what}. The call was not sent, so nothing was done; "
                                                 f"the same call may succeed in a few seconds")


def _retry_safe(tool: BoundTool) -> bool:
    """Whether sending the call again changes nothing more: the tool is read-only or idempotent."""
    hints = tool.contract.annotations or {}
    return hints.get("readOnlyHint") is True or hints.get("idempotentHint") is True


def _upstream_error(tool: BoundTool, result: types.CallToolResult) -> ToolError:
    found = envelope_in(result)
    if found is not None:  # a toolclause envelope from a server behind a gate of its own: its code stays
        error = found["error"]
        code, retryable = error["code"], error.get("retryable")
        action = error.get("userAction") if isinstance(error.get("userAction"), str) else None
        if code not in CODES and isinstance(tool.errors, dict):
            # the server declared it by sending it: not a gap in the proxied contract
            tool.errors.setdefault(code, CodeSpec("upstream", retryable is True, action or "contact_support"))
        return ToolError(code, error["message"], retryable=retryable if isinstance(retryable, bool) else None,
                         user_action=action)
    text = " ".join(c.text for c in result.content if isinstance(c, types.TextContent)).strip()
    return ToolError(UPSTREAM_ERROR, f"{tool.name}: the server answered with an error: {text[:500] or '(no text)'}")


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


async def build_proxy(upstream: Upstream, store: str | None) -> tuple[ProxyServer, list[str]]:
    """The proxy server for a connected upstream (its tools as listed now), and what could not be proxied."""
    link = upstream.link
    if link is None:
        raise UpstreamError(f"{upstream.label} is not connected")
    listed: list[dict[str, Any]] = []
    cursor: str | None = None
    with anyio.fail_after(START_TIMEOUT):
        for _ in range(1000):
            page = await link.session.list_tools(
                params=types.PaginatedRequestParams(cursor=cursor) if cursor else None)
            listed += [t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in page.tools]
            cursor = page.next_cursor
            if cursor is None:
                break
    contracts, unreadable = contracts_from_document({"tools": listed}, upstream.label, "mcp")
    skipped = [f"{u.pointer}: {u.message}" for u in unreadable]
    box = Toolbox(store, lint="off", executor=Forwarder(upstream, upstream.timeout))
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
    return ProxyServer(box, keys, name=f"toolclause proxy of {upstream.label}"), skipped


__all__ = ["CALL_TIMEOUT", "Forwarder", "MAX_RESTARTS", "ProxyServer", "RESTART_WINDOW", "TOO_LARGE_ERROR",
           "UPSTREAM_ERROR", "Upstream", "UpstreamError", "UpstreamGone", "build_proxy", "key_parameter"]
