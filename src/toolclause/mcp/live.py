"""A live MCP server → ToolContracts: start or connect, initialize, list, stop.

The server's tools/list (every page), resources/list and resources/templates/list
(when it declares resources) and the widget resources its tools name (read, with
their text dropped) become one snapshot document, `{"tools": [...], "resources":
[...]}` — the same shape a saved snapshot file has — which the loader reads, so a
live server and its snapshot lint alike.

Every failure is one `LiveServerError` line naming the server: a command that
does not exist, a server that exits, one that prints non-JSON-RPC on stdout, one
that does not answer within the timeout.  A message larger than a document the
loader reads is refused as the transport reads it, before anything parses it
(over stdio, one line; over HTTP, one response body), so a huge listing costs
the time and memory of the limit, not of the listing.  The server is stopped on
the way out (stdin closed, then SIGTERM, then SIGKILL to its process group),
whatever happened.
"""

from __future__ import annotations

import logging
import os
import shlex
import signal
import sys
import tempfile
import time
import unicodedata
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from typing import IO, Any, TypeVar, cast

import anyio
import mcp_types as types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage

from ..loading import MAX_DOCUMENT_BYTES, LoadResult, contracts_from_document
from ..model import Unreadable

DEFAULT_TIMEOUT = 30.0
MAX_PAGES = 1000  # a server whose cursors never end is reported, not followed forever
MAX_WIDGET_READS = 50
MAX_MESSAGE_CHARS = 600  # an error line quotes the server; what it sent is cut here
_SDK_LOGGERS = ("mcp", "httpx", "httpx2", "httpcore")

T = TypeVar("T")
Work = Callable[[ClientSession, list[str]], Awaitable[T]]  # what to do on a session: (session, phase) → outcome


class LiveServerError(Exception):
    """A live server could not be listed; the message is one line naming it."""


class ListingTooLarge(LiveServerError):
    """The server's listing is larger than a document the loader reads (MAX_DOCUMENT_BYTES)."""


class _SizeGuard:
    """Whether the transport refused a message over the document limit (read at the time of the call)."""

    def __init__(self) -> None:
        self.limit = MAX_DOCUMENT_BYTES
        self.exceeded = False

    def refuse(self) -> Exception:
        self.exceeded = True
        return _MessageTooLarge(f"a message over {self.limit} bytes")


class _MessageTooLarge(Exception):
    """Raised by a transport that stopped reading a message at the document limit."""


# --------------------------------------------------------------------------- public API

def snapshot_server(command: str, timeout: float = DEFAULT_TIMEOUT, cwd: str | None = None) -> dict[str, Any]:
    """Start `command` (a command line) as a stdio MCP server and return its snapshot document."""
    return run_server(command, _list_everything, timeout, cwd)


def snapshot_url(url: str, timeout: float = DEFAULT_TIMEOUT,
                 headers: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Connect to a Streamable HTTP MCP server at `url` and return its snapshot document.

    `headers` go with every request (`{"Authorization": "Bearer …"}` for a hosted
    server); their values never appear in an error message.
    """
    return run_url(url, _list_everything, timeout, headers)


def run_server(command: str, work: Work[T], timeout: float | None = DEFAULT_TIMEOUT, cwd: str | None = None) -> T:
    """Start `command` as a stdio MCP server, run `work(session, phase)` on an initialized-to-be session
    (`work` calls `session.initialize()`; `phase[0]` names what it asks, for the error line) and stop
    the server.  `timeout` bounds the whole run (None: no bound; `work` bounds its own requests)."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise LiveServerError(f"--server {command!r}: cannot split the command line: {exc}") from None
    if not argv:
        raise LiveServerError("--server: the command is empty")
    label = f"server '{command}'"
    guard = _SizeGuard()
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog, _reaping():
        if sys.platform == "win32":  # pragma: no cover - the SDK's own transport (unbounded lines)
            params = StdioServerParameters(command=argv[0], args=argv[1:], env=dict(os.environ), cwd=cwd)
            return _run(lambda: stdio_client(params, errlog=errlog), label, timeout, errlog, argv[0], work=work)
        return _run(lambda: _bounded_stdio(argv, cwd, errlog, guard), label, timeout, errlog, argv[0],
                    guard=guard, work=work)


def run_url(url: str, work: Work[T], timeout: float | None = DEFAULT_TIMEOUT,
            headers: Mapping[str, str] | None = None) -> T:
    """`run_server` for a Streamable HTTP MCP server at `url`."""
    if not url.startswith(("http://", "https://")):
        raise LiveServerError(f"--url {url!r}: give an http:// or https:// URL (e.g. http://localhost:8000/mcp)")
    status = _HttpStatus(bool(headers))
    guard = _SizeGuard()

    @asynccontextmanager
    async def connect() -> AsyncIterator[Any]:
        import httpx2  # the SDK's HTTP client; only --url needs it

        async def bound(response: Any) -> None:  # every body is read through the guard
            response.stream = _bounded_body(response.stream, guard)

        # the SDK's own client settings (30 s to connect, 300 s to read a stream), plus the
        # caller's headers, a hook that keeps the status the SDK reports only as "an error",
        # and bodies read uncompressed (what is counted is what the SDK parses)
        client = httpx2.AsyncClient(headers={"Accept-Encoding": "identity", **dict(headers or {})},
                                    timeout=httpx2.Timeout(30.0, read=300.0),
                                    event_hooks={"response": [status.record, bound]})
        async with client, streamable_http_client(url, http_client=client) as streams:
            yield streams

    return _run(connect, f"server {url}", timeout, None, None, status, guard=guard, work=work)


def load_server(command: str, timeout: float = DEFAULT_TIMEOUT, cwd: str | None = None) -> LoadResult:
    file = f"server:{command}"
    try:
        return _contracts(snapshot_server(command, timeout, cwd), file)
    except ListingTooLarge as exc:
        return _too_large(exc, file)


def load_url(url: str, timeout: float = DEFAULT_TIMEOUT, headers: Mapping[str, str] | None = None) -> LoadResult:
    try:
        return _contracts(snapshot_url(url, timeout, headers), url)
    except ListingTooLarge as exc:
        return _too_large(exc, url)


def _too_large(exc: ListingTooLarge, file: str) -> LoadResult:
    """Refused as a file over the size limit is: unreadable (too-large), and the run goes on to exit 2."""
    return LoadResult(tools=[], unreadable=[Unreadable("too-large", str(exc), file=file)], files=1, documents={})


class _HttpStatus:
    """The last HTTP error status a server answered with (the SDK turns a 401 into "an error response")."""

    def __init__(self, sent_headers: bool) -> None:
        self.sent_headers = sent_headers
        self.code: int | None = None

    async def record(self, response: Any) -> None:
        # MCP messages go by POST; an optional GET stream or the closing DELETE may fail harmlessly
        if response.status_code >= 400 and response.request.method == "POST":
            self.code = response.status_code

    def explain(self, label: str) -> str | None:
        if self.code in (401, 403):
            refused = "refused the credentials given with --header" if self.sent_headers else "needs credentials"
            return (f"{label} {refused} (HTTP {self.code} {'Unauthorized' if self.code == 401 else 'Forbidden'}); "
                    f"pass them with --header 'Authorization: Bearer <token>' (or the header the server documents)")
        return None


def _contracts(snapshot: dict[str, Any], file: str) -> LoadResult:
    tools, problems = contracts_from_document(snapshot, file, "mcp")
    return LoadResult(tools=tools, unreadable=problems, files=1, documents={})


# --------------------------------------------------------------------------- bounded transports

@asynccontextmanager
async def _bounded_stdio(argv: list[str], cwd: str | None, errlog: IO[str],
                         guard: _SizeGuard) -> AsyncIterator[tuple[Any, Any]]:
    """The stdio transport (one JSON-RPC message per line, parsed by the SDK's types), reading at
    most `guard.limit` bytes of one line: a longer one ends the session before it is parsed."""
    process = await anyio.open_process(argv, env=dict(os.environ), stderr=errlog, cwd=cwd, start_new_session=True)
    read_writer, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_stream, write_reader = anyio.create_memory_object_stream[SessionMessage](0)
    stdout, stdin = process.stdout, process.stdin
    assert stdout is not None and stdin is not None

    async def reader() -> None:
        buffer = bytearray()
        delivering = True  # until the session stops listening; then what the server writes is drained
        async with read_writer:
            while True:
                try:
                    chunk = await stdout.receive(65536)
                except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                    return
                if not delivering:
                    continue
                scanned = len(buffer)
                buffer += chunk
                start = 0
                while delivering and (end := buffer.find(b"\n", scanned)) >= 0:
                    if end - start > guard.limit:
                        raise guard.refuse()
                    line = buffer[start:end].decode("utf-8", "replace")
                    start = scanned = end + 1
                    if line.strip():
                        try:
                            await read_writer.send(_parse_line(line))
                        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                            delivering = False
                del buffer[:start]
                if len(buffer) > guard.limit:
                    raise guard.refuse()

    async def writer() -> None:
        try:
            async with write_reader:
                async for message in write_reader:
                    text = message.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n"
                    await stdin.send(text.encode("utf-8"))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            await read_writer.aclose()  # the server is gone: the session sees the connection end

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(reader)
        tasks.start_soon(writer)
        try:
            yield read_stream, write_stream
        finally:
            read_stream.close()
            write_stream.close()
            with anyio.CancelScope(shield=True):
                await _stop(process, patient=not guard.exceeded)
            tasks.cancel_scope.cancel()


def _parse_line(line: str) -> SessionMessage | Exception:
    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_json(line, by_name=False))
    except ValueError as exc:
        return exc  # the session hands it to the message handler: not JSON-RPC


async def _stop(process: Any, patient: bool) -> None:
    """stdin closed, 2 s to exit (not for a server whose output was refused: nothing reads it now);
    then SIGTERM to its process group, 2 s more; then SIGKILL."""
    from mcp.os.posix.utilities import terminate_posix_process_tree

    try:
        await process.stdin.aclose()
    except (OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
        pass
    if not patient or not await _exited(process, 2.0):
        await terminate_posix_process_tree(process, 2.0)
        await _exited(process, 2.0)
    with anyio.move_on_after(2.0):
        await process.aclose()


async def _exited(process: Any, seconds: float) -> bool:
    with anyio.move_on_after(seconds):
        while process.returncode is None:
            await anyio.sleep(0.01)
    return process.returncode is not None


def _bounded_body(stream: Any, guard: _SizeGuard) -> Any:
    """An HTTP response body read through the guard: at most `guard.limit` bytes."""
    import httpx2

    class BoundedBody(httpx2.AsyncByteStream):
        async def __aiter__(self) -> AsyncIterator[bytes]:
            read = 0
            async for chunk in stream:
                read += len(chunk)
                if read > guard.limit:
                    raise guard.refuse()
                yield chunk

        async def aclose(self) -> None:
            await stream.aclose()

    return BoundedBody()


# --------------------------------------------------------------------------- the session

def _run(connect: Callable[[], AbstractAsyncContextManager[Any]], label: str, timeout: float | None,
         errlog: IO[str] | None, program: str | None, status: _HttpStatus | None = None, *,
         guard: _SizeGuard | None = None, work: Work[T]) -> T:
    with _quiet_sdk():
        try:
            return anyio.run(_session, connect, label, timeout, errlog, program, status, work, guard)
        except LiveServerError as exc:
            # the message quotes what the server sent (its error text, stderr, stdout): printed
            # raw, escape sequences would clear the terminal or forge lines of the report
            raise type(exc)(printable(str(exc), MAX_MESSAGE_CHARS)) from None


async def _session(connect: Callable[[], AbstractAsyncContextManager[Any]], label: str, timeout: float | None,
                   errlog: IO[str] | None, program: str | None, status: _HttpStatus | None, work: Work[T],
                   guard: _SizeGuard | None = None) -> T:
    phase = ["start"]  # what the server was asked last, for the error message
    garbage: list[str] = []
    scope = anyio.CancelScope()

    async def on_message(message: Any) -> None:
        # The transport hands over what it could not parse as JSON-RPC; one such line is enough
        if isinstance(message, Exception) and not garbage:
            garbage.append(_unparsed_text(message))
            scope.cancel()

    done = False
    outcome: Any = None
    try:
        with anyio.fail_after(timeout), scope:
            async with connect() as (read, write):
                async with ClientSession(read, write, message_handler=on_message) as session:
                    outcome = await work(session, phase)
                    done = True
    except Exception as exc:  # noqa: BLE001 - every failure becomes one line naming the server
        if guard is not None and guard.exceeded:
            raise ListingTooLarge(f"{label}: {_too_large_message(phase[0], guard.limit)}") from None
        if isinstance(_innermost(exc), ListingTooLarge):
            raise ListingTooLarge(f"{label}: {_innermost(exc)}") from None
        if garbage:
            raise LiveServerError(_garbage_message(label, garbage[0])) from None
        refused = status.explain(label) if status is not None else None
        raise LiveServerError(refused or _explain(_innermost(exc), label, phase[0], timeout, errlog, program)) from None
    if garbage:
        raise LiveServerError(_garbage_message(label, garbage[0]))
    if not done:  # pragma: no cover - the scope is only cancelled with garbage recorded
        raise LiveServerError(f"{label} stopped before it answered {phase[0]}")
    return cast(T, outcome)


async def list_tools(session: ClientSession, phase: list[str]) -> tuple[Any, list[dict[str, Any]]]:
    """initialize, then every page of tools/list: the server's InitializeResult and its tools (wire dicts)."""
    phase[0] = "initialize"
    initialized = await session.initialize()
    phase[0] = "tools/list"
    return initialized, [_wire(t) for t in await _all_pages(session.list_tools, "tools", phase)]


async def _list_everything(session: ClientSession, phase: list[str]) -> dict[str, Any]:
    initialized, tools = await list_tools(session, phase)
    snapshot: dict[str, Any] = {"tools": tools}
    if isinstance(initialized.instructions, str):
        snapshot["instructions"] = initialized.instructions  # the model reads it too (X007 does)
    if initialized.capabilities.prompts is not None:
        phase[0] = "prompts/list"
        try:
            snapshot["prompts"] = [_wire(p) for p in await _all_pages(session.list_prompts, "prompts", phase)]
        except MCPError:
            pass  # prompts unknown: nothing of them is read
    if initialized.capabilities.resources is None:
        snapshot["resources"] = []  # the server declares no resources at all
        return snapshot
    phase[0] = "resources/list"
    try:
        resources = [_wire(r) for r in await _all_pages(session.list_resources, "resources", phase)]
    except MCPError:
        return snapshot  # resources unknown: the W rules that need them stay silent
    phase[0] = "resources/templates/list"
    try:
        resources += [_wire(r) for r in await _all_pages(session.list_resource_templates, "resource_templates", phase)]
    except MCPError:
        pass  # many servers have resources but no templates
    await _read_widgets(session, tools, resources, phase)
    snapshot["resources"] = resources
    return snapshot


async def _all_pages(method: Callable[..., Any], field: str, phase: list[str]) -> list[Any]:
    items: list[Any] = []
    cursor: str | None = None
    seen: set[str] = set()
    size = 0
    for _ in range(MAX_PAGES):
        result = await method(params=types.PaginatedRequestParams(cursor=cursor) if cursor is not None else None)
        size += len(result.model_dump_json(by_alias=True, exclude_unset=True))
        if size > MAX_DOCUMENT_BYTES:
            raise ListingTooLarge(_too_large_message(phase[0], MAX_DOCUMENT_BYTES))
        items.extend(getattr(result, field))
        cursor = result.next_cursor
        if cursor is None:
            return items
        if cursor in seen:
            raise LiveServerError(f"{phase[0]} returned the cursor {cursor!r} twice; the listing never ends")
        seen.add(cursor)
    raise LiveServerError(f"{phase[0]} still had more pages after {MAX_PAGES}; stopped")


async def _read_widgets(session: ClientSession, tools: list[dict[str, Any]], resources: list[dict[str, Any]],
                        phase: list[str]) -> None:
    """Read the resources the tools name as widget templates: hosts take the widget's mime type and CSP
    from what is read as well as from the list, so the W rules need both.  The HTML itself is dropped."""
    by_uri = {r["uri"]: r for r in resources if isinstance(r.get("uri"), str)}
    wanted = [uri for uri in dict.fromkeys(_template_uris(tools)) if uri in by_uri][:MAX_WIDGET_READS]
    for uri in wanted:
        phase[0] = f"resources/read {uri}"
        try:
            result = await session.read_resource(uri)
        except MCPError:
            continue  # unread: the rules judge the list entry alone
        by_uri[uri]["contents"] = [{k: v for k, v in _wire(c).items() if k not in ("text", "blob")}
                                   for c in result.contents]


def _too_large_message(phase: str, limit: int) -> str:
    mib = limit // (1024 * 1024)
    return f"{phase} sent more than {mib} MiB; documents over {mib} MiB are not read"


def _template_uris(tools: list[dict[str, Any]]) -> Iterator[str]:
    for tool in tools:
        meta = tool.get("_meta")
        if not isinstance(meta, dict):
            continue
        ui = meta.get("ui")
        for uri in (meta.get("openai/outputTemplate"), meta.get("ui/resourceUri"),
                    ui.get("resourceUri") if isinstance(ui, dict) else None):
            if isinstance(uri, str):
                yield uri


def _wire(model: Any) -> dict[str, Any]:
    """The object as the server sent it (camelCase, `_meta`; fields it left out stay out)."""
    return model.model_dump(by_alias=True, mode="json", exclude_unset=True)


# --------------------------------------------------------------------------- what the server leaves behind

_PR_SET_CHILD_SUBREAPER, _PR_GET_CHILD_SUBREAPER = 36, 37


@contextmanager
def _reaping() -> Iterator[None]:
    """Nothing a server starts outlives the lint.

    The transport signals the server's process group, but a grandchild that
    called setsid() is in no group of ours.  As a child subreaper (Linux), this
    process inherits every descendant orphaned when the server stops; those that
    appeared during the lint are killed and reaped on the way out.
    """
    libc = _libc() if sys.platform.startswith("linux") else None
    was: int | None = None
    if libc is not None:
        import ctypes

        value = ctypes.c_int(0)
        if libc.prctl(_PR_GET_CHILD_SUBREAPER, ctypes.byref(value), 0, 0, 0) == 0:
            was = value.value
    if libc is None or was is None or libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        yield
        return
    before = _children()
    try:
        yield
    finally:
        _kill_new_children(before)
        if not was:  # only for the lint: a program that calls this API keeps its own process tree
            libc.prctl(_PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)


def _libc() -> Any:
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True)
    except (OSError, AttributeError):
        return None


def _children() -> set[int]:
    found: set[int] = set()
    try:
        for task in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{task}/children") as handle:
                found.update(int(pid) for pid in handle.read().split())
    except OSError:
        pass
    return found


def _kill_new_children(before: set[int], rounds: int = 20) -> None:
    """Kill and reap the children that were not there before; a killed one's own orphans come next round."""
    for _ in range(rounds):
        new = _children() - before
        if not new:
            return
        for pid in new:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        for pid in new:
            try:
                os.waitpid(pid, 0)
            except OSError:
                pass  # reaped by its transport already
        time.sleep(0.01)


# --------------------------------------------------------------------------- errors

def _innermost(exc: BaseException) -> BaseException:
    """Task groups wrap failures in ExceptionGroups; the first leaf is the story."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def start_failure(exc: BaseException, label: str, program: str | None) -> str | None:
    """Why a server's command could not be started at all, in words (`lint --server` and `proxy` say it
    the same way), or None for any other failure."""
    exc = _innermost(exc)
    if program is None:
        return None
    if isinstance(exc, FileNotFoundError):
        return f"{label}: cannot start {program!r}: no such command (is it installed and on PATH?)"
    if isinstance(exc, PermissionError):
        return f"{label}: cannot start {program!r}: permission denied"
    return None


def _explain(exc: BaseException, label: str, phase: str, timeout: float | None, errlog: IO[str] | None,
             program: str | None) -> str:
    if isinstance(exc, LiveServerError):
        return f"{label}: {exc}"
    stderr = _stderr_tail(errlog)
    if isinstance(exc, TimeoutError):
        asked = "started" if phase == "start" else f"answered {phase}"
        waited = f" after {timeout:g} s" if timeout is not None else " in time"
        return f"{label} had not {asked}{waited} (raise --timeout if it is just slow){stderr}"
    cannot_start = start_failure(exc, label, program) if phase == "start" else None
    if cannot_start is not None:
        return cannot_start
    if isinstance(exc, MCPError):
        if "connection closed" in str(exc).lower():
            if program is not None:
                return f"{label} exited before it answered {phase}{stderr}"
            return f"{label} closed the connection before it answered {phase}"
        hint = " (is the URL's path right? servers usually answer at /mcp)" if (
            program is None and phase == "initialize" and "not found" in str(exc).lower()) else ""
        return f"{label} answered {phase} with an error: {exc}{hint}"
    if isinstance(exc, OSError):
        return f"{label}: {phase} failed: {exc.strerror or exc}{stderr}"
    name = type(exc).__name__
    if "Connect" in name or "HTTP" in name or "Transport" in name:
        return f"{label}: cannot connect: {_one_line(str(exc)) or name}"
    return f"{label}: {phase} failed: {name}: {_one_line(str(exc))}{stderr}"


def _stderr_tail(errlog: IO[str] | None) -> str:
    if errlog is None:
        return ""
    try:
        errlog.flush()
        errlog.seek(0)
        lines = [line.strip() for line in errlog.read().splitlines() if line.strip()]
    except (OSError, ValueError):
        return ""
    return f"; its stderr ends: {_one_line(lines[-1])!r}" if lines else ""


def _unparsed_text(exc: Exception) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        try:
            found = errors()
        except Exception:  # noqa: BLE001 - only a nicer message is at stake
            found = []
        for error in found:
            if isinstance(error.get("input"), str):
                return error["input"]
    return str(exc)


def _garbage_message(label: str, text: str) -> str:
    return (f"{label} printed something that is not JSON-RPC on its standard output: {_one_line(text)!r} "
            f"(a stdio server must write only MCP messages there; logs belong on stderr)")


def _one_line(text: str, limit: int = 160) -> str:
    return printable(text, limit)


def printable(text: str, limit: int) -> str:
    """One line of text safe for a terminal: control and format characters (ESC, CR, BEL, bidi
    overrides) become spaces, runs of white space one space, and at most `limit` characters."""
    text = "".join(" " if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") else ch for ch in text[: limit * 4])
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


@contextmanager
def _quiet_sdk() -> Iterator[None]:
    """The SDK logs parse failures with tracebacks; our error line says it better."""
    loggers = [logging.getLogger(name) for name in _SDK_LOGGERS]
    saved = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)  # the SDK's child loggers inherit it
    try:
        yield
    finally:
        for logger, level in zip(loggers, saved, strict=True):
            logger.setLevel(level)


__all__ = ["DEFAULT_TIMEOUT", "ListingTooLarge", "LiveServerError", "Work", "list_tools", "load_server", "load_url",
           "printable", "run_server", "run_url", "snapshot_server", "snapshot_url"]
