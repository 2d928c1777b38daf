"""The proxy's connection to its upstream server, and what it knows about each request it sent.

`toolclause proxy` must never run a keyed call twice, so for every request it needs to know more
than the SDK's `MCPError("Connection closed")` says: whether the request can have reached the
server at all.  Each request is tracked by an `Attempt`, whose `fate` moves on as the transport
hands it on:

    PENDING   created; nothing has been handed to the transport yet
    HANDED    given to the SDK's HTTP transport (which posts it from a task of its own)
    POSTING   the HTTP request is being made
    WRITING   the line is being written to the server's standard input
    UNSENT    provably never reached the server: the pipe was broken before the line was
              written, the TCP connection was refused or never made, the session was closed
    REFUSED   the HTTP server answered 3xx/4xx: it did not run the request (`status` says which)
    SENT      reached the server (its answer may still be lost)
    LOST      reached it, or may have, and the connection failed before the answer
    TOO_LARGE the answer came, larger than the cap; it was dropped unread

Two transports, both behind the SDK's `ClientSession` (the official client speaks the protocol):

- `stdio_transport`: starts the server and exchanges newline-delimited JSON-RPC with it, like the
  SDK's `stdio_client`, but writes each message itself (so a broken pipe is known to have stopped
  *that* message) and reads lines with a cap: a line over `max_bytes` is never held in memory
  whole; it is skipped as it arrives, and the request it answers gets an error at once.
- `http_transport`: the SDK's Streamable HTTP client over an httpx transport (`GuardTransport`)
  that records each request's fate, turns connection failures into JSON-RPC errors (the SDK would
  otherwise end its whole session on one), and holds each answer to the cap (a JSON body, or each
  server-sent event, is buffered up to `max_bytes` and no further).

The attempt a request belongs to is found by its JSON-RPC id: the session's write stream is wrapped
so that each outgoing request registers (`Link.register`), in the task of the caller who sent it
(the forwarder sets `CURRENT_ATTEMPT` around `tools/call`).
"""

from __future__ import annotations

import contextvars
import json
import logging
import os
import re
import signal
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from types import TracebackType
from typing import Any

import anyio
import anyio.abc
import mcp_types as types
from mcp.shared.message import SessionMessage

logger = logging.getLogger("toolclause.mcp")

PENDING, HANDED, POSTING, WRITING = "pending", "handed", "posting", "writing"
UNSENT, REFUSED, SENT, LOST, TOO_LARGE = "unsent", "refused", "sent", "lost", "too_large"
NEVER_SENT = frozenset({PENDING, UNSENT})

MAX_ANSWER_BYTES = 16 * 1024 * 1024
STOP_GRACE = 2.0        # seconds a server has to exit once its standard input is closed (then SIGTERM, SIGKILL)
_WATCH_INTERVAL = 0.5   # how often a server's process is checked for an exit its output did not show
_PEEK = 4096            # bytes kept from each end of an over-long line, to find the id it answers

CURRENT_ATTEMPT: contextvars.ContextVar[Attempt | None] = contextvars.ContextVar("toolclause_proxy_attempt",
                                                                                   default=None)


@dataclass(eq=False)
class Attempt:
    """One request's journey to the upstream server (module docstring: the fates)."""

    fate: str = PENDING
    request_id: Any = None
    status: int | None = None        # HTTP status, when the server answered with one
    session_lost: bool = False       # HTTP 404 for our session: the server forgot it (it did not run the request)
    detail: str = ""                 # what failed, for the log and the message (no secrets: exception class, status)
    answer_bytes: int = 0            # TOO_LARGE: how much of the answer was seen before it was dropped


class Link:
    """One connection to the upstream (one process, or one HTTP session) and the requests in flight on it."""

    def __init__(self, label: str, max_bytes: int = MAX_ANSWER_BYTES) -> None:
        self.label = label
        self.max_bytes = max_bytes
        self.attempts: dict[Any, Attempt] = {}
        self.session: Any = None          # the ClientSession, once initialised
        self.lost = False
        self.reason = ""
        self.exit_code: int | None = None
        self._lost_event = anyio.Event()

    def register(self, message: Any) -> Attempt | None:
        """The attempt of an outgoing request (the caller's for tools/call, else a new one); None for others."""
        if not isinstance(message, types.JSONRPCRequest):
            return None
        attempt = CURRENT_ATTEMPT.get() if message.method == "tools/call" else None
        if attempt is None:
            attempt = Attempt()
        attempt.request_id = _id_key(message.id)
        self.attempts[attempt.request_id] = attempt
        return attempt

    def forget(self, attempt: Attempt) -> None:
        if self.attempts.get(attempt.request_id) is attempt:
            del self.attempts[attempt.request_id]

    def lose(self, reason: str) -> None:
        """The connection is gone (the first reason given is kept); whoever waits in `wait_lost` wakes."""
        if not self.lost:
            self.lost, self.reason = True, reason
            self._lost_event.set()

    async def wait_lost(self) -> None:
        await self._lost_event.wait()


def _id_key(value: Any) -> Any:
    """A request id as the dispatcher matches it: "7" and 7 are one request."""
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return value


# --------------------------------------------------------------------------- finding the id of a dropped answer

_VALUE = rb'(-?\d{1,30}|"(?:[^"\\]|\\.){0,200}")'
_HEAD_ID = re.compile(rb'^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*' + _VALUE)
_TAIL_ID = re.compile(rb'"id"\s*:\s*' + _VALUE + rb'\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$')
_HEAD_METHOD = re.compile(rb'^\s*\{\s*(?:"(?:jsonrpc|id)"\s*:\s*' + _VALUE + rb'\s*,\s*)*"method"\s*:')


def answered_id(head: bytes | bytearray, tail: bytes | bytearray) -> Any:
    """The id of the JSON-RPC response whose text begins with `head` and ends with `tail`, if it shows.

    Only a top-level `"id"` is taken: the first key (after `jsonrpc`) at the start, as the Python SDK
    writes a response, or the last one before the closing brace, as the TypeScript SDK does.  A
    message that names a `method` is a request or a notification of the server's, never an answer.
    """
    if _HEAD_METHOD.match(head):
        return None
    found = _HEAD_ID.match(head) or _TAIL_ID.search(tail)
    if found is None:
        return None
    try:
        return _id_key(json.loads(found.group(1)))
    except ValueError:
        return None


def too_large_message(request_id: Any, seen: int, cap: int, complete: bool) -> SessionMessage:
    size = f"{seen:,} bytes" if complete else f"more than {cap:,} bytes"
    return _error_message(request_id, f"the server's answer was {size}, over the proxy's limit of {cap:,} bytes "
                                      f"(--max-answer-bytes); it was dropped unread")


def _error_message(request_id: Any, message: str) -> SessionMessage:
    error = types.ErrorData(code=types.INTERNAL_ERROR, message=message)
    return SessionMessage(types.JSONRPCError(jsonrpc="2.0", id=request_id, error=error))


def _error_body(request_id: Any, message: str) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "error": {"code": types.INTERNAL_ERROR,
                                                                      "message": message}}).encode()


# --------------------------------------------------------------------------- stdio


class _PipeWriter:
    """The session's write stream over stdio: each message is written here, in the sender's task."""

    def __init__(self, stdin: anyio.abc.ByteSendStream, link: Link) -> None:
        self._stdin = stdin
        self._link = link
        self._lock = anyio.Lock()
        self._closed = False

    async def send(self, item: SessionMessage, /) -> None:
        attempt = self._link.register(item.message)
        if self._closed or self._link.lost:
            if attempt is not None:
                attempt.fate, attempt.detail = UNSENT, self._link.reason or "the connection was closed"
            raise anyio.ClosedResourceError
        data = (item.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n").encode("utf-8")
        async with self._lock:
            if attempt is not None:
                attempt.fate = WRITING
            try:
                await self._stdin.send(data)
            except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError) as exc:
                # the line's last byte never reached a reader: the server cannot have acted on it
                if attempt is not None:
                    attempt.fate, attempt.detail = UNSENT, f"its standard input is closed ({type(exc).__name__})"
                self._link.lose("its standard input was closed")
                raise anyio.BrokenResourceError from None
            if attempt is not None:
                attempt.fate = SENT

    async def aclose(self) -> None:
        self._closed = True

    async def __aenter__(self) -> _PipeWriter:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.aclose()


class _Oversize:
    """An answer line over the cap, skipped as it arrives: its head and tail are kept to find its id."""

    def __init__(self, head: bytes) -> None:
        self.head = head[:_PEEK]
        self.tail = head[-_PEEK:]
        self.seen = len(head)
        self.answered: Any = None   # the request already told (once the id showed in the head)

    def feed(self, piece: bytes) -> None:
        if len(self.head) < _PEEK:
            self.head += piece[:_PEEK - len(self.head)]
        self.tail = (self.tail + piece[-_PEEK:])[-_PEEK:]
        self.seen += len(piece)


async def _read_lines(stdout: anyio.abc.ByteReceiveStream, out: Any, link: Link) -> None:
    """Messages from the server's standard output, one a line, each held to `link.max_bytes`."""
    cap = link.max_bytes
    buffer = bytearray()
    over: _Oversize | None = None
    try:
        async for chunk in stdout:
            start = 0
            while True:
                end = chunk.find(b"\n", start)
                piece = chunk[start:] if end < 0 else chunk[start:end]
                if over is not None:
                    over.feed(piece)
                elif len(buffer) + len(piece) > cap:
                    over = _Oversize(bytes(buffer) + piece)
                    buffer.clear()
                    # the id often shows at the start (the Python SDK writes it first): answer at once
                    over.answered = await _refuse_oversize(out, link, over, complete=False)
                else:
                    buffer += piece
                if end < 0:
                    break
                start = end + 1
                if over is not None:
                    if over.answered is None:
                        await _refuse_oversize(out, link, over, complete=True)
                    over = None
                elif buffer and not buffer.isspace():
                    line, buffer = buffer, bytearray()
                    await _deliver(out, link, line)
                else:
                    buffer.clear()
    except (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream, OSError):
        pass
    finally:
        link.lose("its process stopped")
        await out.aclose()


async def _deliver(out: Any, link: Link, line: bytes | bytearray) -> None:
    try:
        message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except ValueError:
        request_id = answered_id(line[:_PEEK], line[-_PEEK:])
        attempt = link.attempts.pop(request_id, None) if request_id is not None else None
        logger.warning("%s sent a line that is not a JSON-RPC message (%d bytes)%s", link.label, len(line),
                       "" if attempt is None else f"; it answered request {request_id!r}")
        if attempt is not None:
            attempt.fate, attempt.detail = LOST, "its answer could not be read"
            await out.send(_error_message(request_id, "the server's answer is not valid JSON-RPC"))
        return
    if isinstance(message, types.JSONRPCResponse | types.JSONRPCError):
        link.attempts.pop(_id_key(message.id), None)
    await out.send(SessionMessage(message))


async def _refuse_oversize(out: Any, link: Link, over: _Oversize, complete: bool) -> Any:
    """Answer the request an over-long line answers with an error; the request's id, or None if unknown yet."""
    request_id = answered_id(over.head, over.tail if complete else b"")
    if request_id is None and complete and len(link.attempts) == 1 and not _HEAD_METHOD.match(over.head):
        request_id = next(iter(link.attempts))  # one request in flight: the answer can only be its
    attempt = link.attempts.pop(request_id, None) if request_id is not None else None
    if attempt is None:
        if complete:
            logger.warning("%s sent a message of %d bytes, over the limit of %d; dropped", link.label, over.seen,
                           link.max_bytes)
        return None
    attempt.fate, attempt.answer_bytes = TOO_LARGE, over.seen
    logger.warning("%s answered request %r with %s bytes, over the limit of %d; dropped unread", link.label,
                   request_id, f"{over.seen:,}" if complete else "more than " + f"{link.max_bytes:,}", link.max_bytes)
    await out.send(too_large_message(request_id, over.seen, link.max_bytes, complete))
    return request_id


async def _watch(process: anyio.abc.Process, link: Link) -> None:
    """A process that exits while something else holds its output open shows no end of output: poll."""
    while process.returncode is None:
        await anyio.sleep(_WATCH_INTERVAL)
    link.exit_code = process.returncode
    link.lose(f"its process stopped (exit code {process.returncode})")


@asynccontextmanager
async def stdio_transport(argv: list[str], link: Link, env: Mapping[str, str] | None = None,
                          cwd: str | None = None) -> AsyncIterator[tuple[Any, _PipeWriter]]:
    """Start `argv` and yield the (read, write) streams of a ClientSession over its stdin and stdout."""
    process = await anyio.open_process(argv, env=dict(env) if env is not None else None, cwd=cwd, stderr=None,
                                       start_new_session=sys.platform != "win32")
    assert process.stdin is not None and process.stdout is not None
    send, receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    writer = _PipeWriter(process.stdin, link)
    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(_read_lines, process.stdout, send, link)
            tg.start_soon(_watch, process, link)
            try:
                yield receive, writer
            finally:
                link.lose("the proxy closed the connection")
                with anyio.CancelScope(shield=True):
                    await stop_process(process)
                tg.cancel_scope.cancel()
    finally:
        link.exit_code = process.returncode
        receive.close()


async def stop_process(process: anyio.abc.Process) -> None:
    """Close its standard input, give it STOP_GRACE seconds, then SIGTERM and SIGKILL its process group."""
    assert process.stdin is not None and process.stdout is not None
    with anyio.move_on_after(STOP_GRACE), suppress(Exception):  # a server that reads nothing cannot be flushed to
        await process.stdin.aclose()
    for how in (None, signal.SIGTERM, getattr(signal, "SIGKILL", signal.SIGTERM)):
        if how is not None:
            _signal(process, how)
        with anyio.move_on_after(STOP_GRACE):
            while process.returncode is None:
                await anyio.sleep(0.02)
        if process.returncode is not None:
            break
    with suppress(Exception):
        await process.stdout.aclose()
    with anyio.move_on_after(1.0), suppress(Exception):
        await process.aclose()


def _signal(process: anyio.abc.Process, how: signal.Signals) -> None:
    try:
        if sys.platform != "win32":
            os.killpg(process.pid, how)  # the server and whatever it started (npx → node …)
        else:  # pragma: no cover
            process.kill()
    except (ProcessLookupError, PermissionError, OSError):
        with suppress(Exception):
            process.send_signal(how)


# --------------------------------------------------------------------------- Streamable HTTP


class _TrackingWriter:
    """The SDK transport's write stream, with each request registered (in its sender's task) on the way."""

    def __init__(self, inner: Any, link: Link) -> None:
        self._inner = inner
        self._link = link

    async def send(self, item: SessionMessage, /) -> None:
        attempt = self._link.register(item.message)
        if attempt is not None:
            attempt.fate = HANDED
        try:
            await self._inner.send(item)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            if attempt is not None and attempt.fate == HANDED:
                attempt.fate, attempt.detail = UNSENT, "the connection was closed"
            raise

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> _TrackingWriter:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.aclose()


def _guard_transport_class() -> Any:
    import httpx2

    # the request never left this machine: no connection, or no free one in time
    not_sent = (httpx2.ConnectError, httpx2.ConnectTimeout, httpx2.PoolTimeout, httpx2.UnsupportedProtocol,
                httpx2.ProxyError, httpx2.LocalProtocolError)

    class GuardTransport(httpx2.AsyncBaseTransport):
        """An httpx transport that records each MCP request's fate and holds each answer to the cap."""

        def __init__(self, inner: httpx2.AsyncBaseTransport, link: Link) -> None:
            self._inner = inner
            self._link = link

        async def aclose(self) -> None:
            await self._inner.aclose()

        async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
            if request.method != "POST":
                return await self._inner.handle_async_request(request)
            try:
                sent = _json_or_none(request.content)
            except httpx2.RequestNotRead:  # pragma: no cover - the SDK posts JSON it has in memory
                sent = None
            request_id = sent.get("id") if isinstance(sent, dict) and "method" in sent else None
            if request_id is None:  # a notification, or our answer to a request of the server's
                try:
                    return await self._inner.handle_async_request(request)
                except httpx2.TransportError as exc:
                    logger.debug("%s: a notification was not delivered (%s)", self._link.label, type(exc).__name__)
                    return httpx2.Response(202, request=request)
            # looked up, not taken: a redirect the SDK follows posts the same request again
            attempt = self._link.attempts.get(_id_key(request_id)) or Attempt(request_id=request_id)
            attempt.fate = POSTING
            try:
                response = await self._inner.handle_async_request(request)
            except not_sent as exc:
                attempt.fate, attempt.detail = UNSENT, _described(exc)
                return self._error(request, request_id, f"the server could not be reached ({attempt.detail})")
            except httpx2.TransportError as exc:
                attempt.fate, attempt.detail = LOST, _described(exc)
                return self._error(request, request_id, f"the connection to the server failed ({attempt.detail})")
            return await self._answer(request, request_id, attempt, response)

        async def _answer(self, request: httpx2.Request, request_id: Any, attempt: Attempt,
                          response: httpx2.Response) -> httpx2.Response:
            status = attempt.status = response.status_code
            if 300 <= status < 500 and status != 202:
                # the server (or a proxy before it) answered without running the request
                attempt.fate, attempt.detail = REFUSED, f"HTTP {status}"
                if status == 404 and request.headers.get("mcp-session-id"):
                    attempt.session_lost = True
                    self._link.lose("the server no longer knows the session (HTTP 404)")
                return response
            if status >= 500 or status == 202:
                attempt.fate, attempt.detail = LOST, f"HTTP {status}"
                return response
            attempt.fate = SENT
            kind = response.headers.get("content-type", "").lower()
            if kind.startswith("text/event-stream"):
                return httpx2.Response(status, headers=response.headers, request=request,
                                       extensions=response.extensions,
                                       stream=_CappedEvents(response, attempt, request_id, self._link))
            body = bytearray()
            try:
                async for chunk in response.stream:  # type: ignore[union-attr]
                    body += chunk
                    if len(body) > self._link.max_bytes:
                        attempt.fate, attempt.answer_bytes = TOO_LARGE, len(body)
                        logger.warning("%s answered request %r with more than %d bytes; dropped unread",
                                       self._link.label, request_id, self._link.max_bytes)
                        return self._error(request, request_id, _too_large_text(len(body), self._link.max_bytes))
            except httpx2.TransportError as exc:
                attempt.fate, attempt.detail = LOST, _described(exc)
                return self._error(request, request_id, f"the connection to the server failed ({attempt.detail})")
            finally:
                await response.aclose()
            return httpx2.Response(status, headers=response.headers, content=bytes(body), request=request,
                                   extensions=response.extensions)

        @staticmethod
        def _error(request: httpx2.Request, request_id: Any, message: str) -> httpx2.Response:
            return httpx2.Response(200, headers={"content-type": "application/json"}, request=request,
                                   content=_error_body(request_id, message))

    class _CappedEvents(httpx2.AsyncByteStream):
        """A response's server-sent events, each passed on whole once it ends and dropped if over the cap."""

        def __init__(self, response: httpx2.Response, attempt: Attempt, request_id: Any, link: Link) -> None:
            self._response = response
            self._attempt = attempt
            self._request_id = request_id
            self._link = link

        async def __aiter__(self) -> AsyncIterator[bytes]:
            cap = self._link.max_bytes
            pending = bytearray()
            resumable = False
            try:
                async for chunk in self._response.stream:  # type: ignore[union-attr]
                    searched = max(len(pending) - 3, 0)
                    pending += chunk
                    end = _events_end(pending, searched)
                    if end:
                        done = bytes(pending[:end])
                        del pending[:end]
                        resumable = resumable or _EVENT_ID.search(done) is not None
                        yield done
                    if len(pending) > cap:
                        self._attempt.fate, self._attempt.answer_bytes = TOO_LARGE, len(pending)
                        logger.warning("%s answered request %r with an event of more than %d bytes; dropped unread",
                                       self._link.label, self._request_id, cap)
                        yield _event(_error_body(self._request_id, _too_large_text(len(pending), cap)))
                        return
            except httpx2.TransportError as exc:
                self._attempt.fate, self._attempt.detail = LOST, _described(exc)
                if resumable:
                    raise  # the SDK resumes the stream (Last-Event-ID) and may still get the answer
                yield _event(_error_body(self._request_id,
                                         f"the connection to the server failed ({self._attempt.detail})"))
                return
            finally:
                await self._response.aclose()
            if pending:
                yield bytes(pending)

        async def aclose(self) -> None:
            await self._response.aclose()

    return GuardTransport


_EVENT_ENDS = (b"\n\n", b"\r\r", b"\r\n\r\n", b"\n\r\n")
_EVENT_ID = re.compile(rb"(?:^|[\r\n])id:")


def _events_end(data: bytearray, start: int) -> int:
    """Where the last complete event in `data` ends (0: none has yet), searching from `start`."""
    best = 0
    for mark in _EVENT_ENDS:
        found = data.rfind(mark, start)
        if found >= 0:
            best = max(best, found + len(mark))
    return best


def _event(data: bytes) -> bytes:
    return b"event: message\ndata: " + data + b"\n\n"


def _too_large_text(seen: int, cap: int) -> str:
    return (f"the server's answer was more than {cap:,} bytes (at least {seen:,}), over the proxy's limit "
            f"(--max-answer-bytes); it was dropped unread")


def _json_or_none(body: bytes) -> Any:
    try:
        return json.loads(body)
    except ValueError:
        return None


def _described(exc: BaseException) -> str:
    """An exception as the log and the message may show it: its class, and its text when short."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text[:120]}" if text else type(exc).__name__


@asynccontextmanager
async def http_transport(url: str, link: Link, headers: Mapping[str, str] | None = None,
                         read_timeout: float = 300.0) -> AsyncIterator[tuple[Any, _TrackingWriter]]:
    """The SDK's Streamable HTTP client over a `GuardTransport`; yields a ClientSession's (read, write)."""
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    guard = _guard_transport_class()(httpx2.AsyncHTTPTransport(), link)
    # identity: the cap counts the bytes the server sends, with no compressed answer to grow past it
    client = httpx2.AsyncClient(headers={"accept-encoding": "identity", **dict(headers or {})}, transport=guard,
                                timeout=httpx2.Timeout(30.0, read=read_timeout))
    async with client, streamable_http_client(url, http_client=client, max_sse_event_size=link.max_bytes) as pair:
        read, write = pair
        yield read, _TrackingWriter(write, link)


__all__ = ["Attempt", "CURRENT_ATTEMPT", "HANDED", "LOST", "Link", "MAX_ANSWER_BYTES", "NEVER_SENT", "PENDING",
           "POSTING", "REFUSED", "SENT", "TOO_LARGE", "UNSENT", "WRITING", "answered_id", "http_transport",
           "stdio_transport", "stop_process"]
