"""What keeps `serve --transport http` answering under slow clients and session floods (docs/serving.md).

What the parts underneath do alone (measured, docs/serving.md): uvicorn's h11 protocol has no
timeout before a request is complete, so a connection that sends nothing, or one header line
every 5 s, is kept for ever (h11's 16 KiB header cap would end a trickle after about an hour).
asyncio's accept loop takes up to uvicorn's backlog (2048) connections per wake-up before any
can be counted, so a few hundred such connections use up every open file, the store's and the
tools' included; it then logs a traceback per failed accept and reschedules itself as often
(CPython gh-151615, in 3.11 to 3.13: a million lines in 15 s under `ulimit -n 64`).  The MCP
SDK's session manager has a session cap and an idle timeout, but at the cap it refuses every
new client (503) until some session idles out, 30 minutes by default.  So, along the request's path:

- `ConnectionGuard.accept` takes connections one at a time, never past the open-file limit
  less a reserve (`connection_budget`): at that budget it first closes the connection waiting
  longest for a request (one never answered before one that was), or, when every connection is
  busy answering, leaves new ones in the listen queue until one is free.
- `guarded_h11`, uvicorn's h11 protocol with a clock: a request must arrive whole, headers and
  body, within `read_timeout` of the connection's opening or of its own first byte, or the
  connection is closed.
- `evict_idle_sessions`: at the SDK's `max_sessions`, a client that initializes ends the
  session idle longest (the SDK's own idle expiry, brought forward) instead of being refused;
  only when no session is idle does the SDK answer 503.
- `quiet_logs`: one line per kind of failure per `LOG_INTERVAL`, the next one saying how many
  were left out.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import math
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import asyncio
    import socket

logger = logging.getLogger("toolclause.mcp.http")

READ_TIMEOUT = 10.0  # seconds a connection has to send a whole request (headers and body)
KEEP_ALIVE = 5  # seconds an idle keep-alive connection is kept between requests (uvicorn's default)
MAX_SESSIONS = 1000  # sessions kept at once; at the cap the one idle longest gives way
SESSION_IDLE = 1800.0  # seconds a session may go without a request before it ends (the SDK's default)
LOG_INTERVAL = 60.0  # one line per kind of failure per this many seconds
FILE_RESERVE = 32  # open files kept out of the connection budget (the store, logs, the tools' own)
ACCEPT_RETRY = 1.0  # seconds before accepting again when the process is out of files (asyncio's delay)


# --------------------------------------------------------------------------- connections


def connection_budget() -> int | None:
    """How many connections fit in the open-file limit, less a reserve for everything else the
    process opens (an eighth of the limit, at least FILE_RESERVE); None without a limit."""
    try:
        import resource
    except ImportError:  # not on this platform (Windows)
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return None
    return max(1, soft - max(FILE_RESERVE, soft // 8))


class ConnectionGuard:
    """The connections of one server: how many are open, which are waiting for a request (oldest
    first), and the loop that accepts new ones within the budget."""

    def __init__(self, read_timeout: float = READ_TIMEOUT, max_connections: int | None = None,
                 accept_retry: float = ACCEPT_RETRY) -> None:
        if not (math.isfinite(read_timeout) and read_timeout > 0):
            raise ValueError(f"read_timeout is a positive number of seconds (got {read_timeout!r})")
        self.read_timeout = read_timeout
        self.max_connections = max_connections
        self.accept_retry = accept_retry
        self.open: set[Any] = set()  # the connections (GuardedH11Protocol)
        # waiting for a request, in the order they began to wait (dicts keep it): those that never sent one
        # whole, then those that did and are between requests (a client that has been answered goes last)
        self.waiting_first: dict[Any, None] = {}
        self.waiting_again: dict[Any, None] = {}
        self._room: asyncio.Event | None = None  # set when a connection closes or waits: the budget may have room

    def protocol(self) -> type[asyncio.Protocol]:
        """uvicorn's h11 protocol bound to this guard (`uvicorn.Config(http=guard.protocol())`)."""
        return type("GuardedH11Protocol", (guarded_h11(),), {"guard": self})

    async def accept(self, sock: socket.socket, protocol_factory: Callable[[], asyncio.Protocol]) -> None:
        """Accept connections on `sock` for ever, one at a time, never past the budget.

        In place of asyncio's own accept loop (the module's docstring says why).  A connection is
        taken only when there is room: at the budget the one waiting longest for a request is
        closed first, or, when every connection is busy answering, the new ones wait in the
        listen queue until one closes or waits.  Out of files all the same (the tools opened
        them), it says so in one line and tries again after `accept_retry` seconds.
        """
        import asyncio

        loop = asyncio.get_running_loop()
        self._room = asyncio.Event()
        sock.setblocking(False)
        while True:
            await self._make_room()
            try:
                conn, _ = await loop.sock_accept(sock)
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                continue
            except OSError as exc:
                if exc.errno not in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                    raise
                logger.warning("cannot accept connections: %s; trying again every %g s", exc.strerror or exc,
                               self.accept_retry)
                await asyncio.sleep(self.accept_retry)
                continue
            try:
                await loop.connect_accepted_socket(protocol_factory, conn)
            except OSError:  # the client went away already
                conn.close()

    async def _make_room(self) -> None:
        while self.max_connections is not None and len(self.open) >= self.max_connections:
            victim = next(iter(self.waiting_first), None)
            if victim is None:
                victim = next(iter(self.waiting_again), None)
            if victim is not None:
                self.forget(victim)
                victim.transport.abort()
                logger.warning("%d connections open, the most the open-file limit allows: closed the one from %s, "
                               "waiting longest for a request, to take a new one", self.max_connections,
                               _peer(victim))
                return
            logger.warning("%d connections open, the most the open-file limit allows, each one busy answering a "
                           "request: new connections wait until one closes", self.max_connections)
            assert self._room is not None
            self._room.clear()
            await self._room.wait()

    def wait(self, connection: Any, answered_before: bool) -> None:
        """The connection waits for a request (from now, unless it was waiting already)."""
        if connection not in self.waiting_first and connection not in self.waiting_again:
            (self.waiting_again if answered_before else self.waiting_first)[connection] = None
            if self._room is not None:
                self._room.set()

    def busy(self, connection: Any) -> None:
        self.waiting_first.pop(connection, None)
        self.waiting_again.pop(connection, None)

    def forget(self, connection: Any) -> None:
        self.open.discard(connection)
        self.busy(connection)
        if self._room is not None:
            self._room.set()


def guarded_server(server_class: type, guard: ConnectionGuard, sock: socket.socket) -> type:
    """uvicorn's Server (or a subclass), accepting on `sock` through `guard.accept`: run it with
    `serve(sockets=[])`, so that uvicorn starts its app, protocol and shutdown but no listener."""

    class GuardedServer(server_class):
        _accepting: asyncio.Task[None] | None = None

        async def startup(self, sockets: Any = None) -> None:
            import asyncio
            import functools

            await super().startup(sockets=[])
            factory = functools.partial(self.config.http_protocol_class, config=self.config,
                                        server_state=self.server_state, app_state=self.lifespan.state)
            self._accepting = asyncio.get_running_loop().create_task(guard.accept(sock, factory))
            self._accepting.add_done_callback(self._stopped_accepting)

        def _stopped_accepting(self, task: asyncio.Task[None]) -> None:
            if not task.cancelled() and task.exception() is not None:
                logger.error("stopped accepting connections: %s", task.exception())
                self.should_exit = True

        async def shutdown(self, sockets: Any = None) -> None:
            import asyncio

            if self._accepting is not None:  # no new connections, as uvicorn's shutdown does
                self._accepting.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._accepting
            await super().shutdown(sockets=[])

    return GuardedServer


def _peer(connection: Any) -> str:
    return connection.client[0] if connection.client else "an unknown address"


@cache
def guarded_h11() -> type[asyncio.Protocol]:
    """The protocol class, made when first served (uvicorn is imported only by a server that runs)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class GuardedH11Protocol(H11Protocol):
        """uvicorn's h11 protocol, with a deadline for each request to arrive whole.

        A connection is *waiting* from when it opens, or answers a request, until its next request
        has arrived whole; waiting, it is the first to go when the connection budget is reached.
        Its request must arrive whole within `guard.read_timeout` of the connection's opening, or
        of the request's first byte on a connection answered before (trickling more bytes does not
        restart the clock); the quiet between requests is uvicorn's keep-alive (KEEP_ALIVE).
        """

        guard: ConnectionGuard
        _read_deadline: asyncio.TimerHandle | None = None
        _answered = False  # a response was sent on this connection

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.guard.open.add(self)
            self._follow()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._follow(receiving=True)

        def on_response_complete(self) -> None:
            self._answered = True
            super().on_response_complete()
            self._follow()

        def connection_lost(self, exc: Exception | None) -> None:
            self.guard.forget(self)
            self._stop_timer()
            super().connection_lost(exc)

        def _follow(self, receiving: bool = False) -> None:
            """Start or stop waiting (and the clock), as the request in progress, if any, says."""
            if self.transport.is_closing() or self not in self.guard.open:
                self._stop_timer()
                return
            cycle = self.cycle
            if cycle is not None and not cycle.response_complete and not cycle.more_body:  # read whole: busy
                self.guard.busy(self)
                self._stop_timer()
                return
            self.guard.wait(self, self._answered)
            if self._read_deadline is None and (receiving or not self._answered):
                self._read_deadline = self.loop.call_later(self.guard.read_timeout, self._too_slow)

        def _stop_timer(self) -> None:
            if self._read_deadline is not None:
                self._read_deadline.cancel()
                self._read_deadline = None

        def _too_slow(self) -> None:
            self._read_deadline = None
            if self.transport.is_closing():
                return
            self.guard.forget(self)
            logger.warning("closed a connection from %s that sent no whole request within %g s (read timeout)",
                           _peer(self), self.guard.read_timeout)
            self.transport.abort()

    return GuardedH11Protocol


# --------------------------------------------------------------------------- sessions


def evict_idle_sessions(manager: Any) -> bool:
    """Make the SDK's session manager end the session idle longest, rather than refuse a new
    client, when `max_sessions` are open.  False (and nothing changed) if this SDK's manager
    lacks what it needs.

    Idle is the SDK's own notion: no request in flight and no open GET stream; the transport's
    idle scope then has a finite deadline (last activity + idle timeout), so the smallest
    deadline is the session idle longest.  Ending it is the SDK's idle expiry brought forward:
    its scope is cancelled, its message loop ends, and its ID answers 404 at once, so the client
    initializes again as the protocol says.  It happens in the SDK's admission step, under its
    lock, so the room made is the room taken: concurrent clients cannot race for it.
    """
    admit = getattr(manager, "_admit_session", None)
    sessions = getattr(manager, "_server_instances", None)
    owners = getattr(manager, "_session_owners", {})
    if not callable(admit) or not isinstance(sessions, dict) or manager.max_sessions is None:
        return False

    def admitting(requestor: Any) -> Any:
        while len(sessions) >= manager.max_sessions:
            idle = [(t.idle_scope.deadline, sid) for sid, t in sessions.items()
                    if t.idle_scope is not None and not t.idle_scope.cancel_called
                    and math.isfinite(t.idle_scope.deadline)]
            if not idle:
                break  # every session is busy: the SDK refuses this one (503)
            deadline, sid = min(idle)
            transport = sessions.pop(sid)
            owners.pop(sid, None)
            transport.idle_scope.cancel()  # its message loop ends and the SDK terminates the transport
            idle_for = max(0.0, _current_time() - (deadline - manager.session_idle_timeout))
            logger.warning("%d sessions open, the most allowed: ended the one idle longest (%.0f s) to admit a "
                           "new client", manager.max_sessions, idle_for)
        return admit(requestor)

    manager._admit_session = admitting
    return True


def _current_time() -> float:
    import anyio

    return anyio.current_time()


# --------------------------------------------------------------------------- logs


class OncePerInterval(logging.Filter):
    """Lets one record of each kind through per `interval` seconds; the next one that passes says
    how many were left out.  A kind is the logger, the level and the message with its numbers
    and hex IDs blanked, so `Session 3fa9… crashed` is one kind however many sessions crash."""

    def __init__(self, interval: float = LOG_INTERVAL, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.interval = interval
        self.clock = clock
        self.kinds: dict[tuple[str, int, str], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return True  # shown only to whoever asked for them
        key = (record.name, record.levelno, _NUMBERS.sub("#", str(record.msg)))
        now = self.clock()
        last = self.kinds.get(key)
        if last is not None and now - last[0] < self.interval:
            self.kinds[key] = (last[0], last[1] + 1)
            return False
        self.kinds[key] = (now, 0)
        if last is not None and last[1]:
            record.msg = f"{record.msg} ({last[1]} more like this in the last {now - last[0]:.0f} s)"
        return True


_NUMBERS = re.compile(r"\b[0-9a-f]{8,}\b|\d+")
# the loggers (and their children) of the HTTP server whose repeats are dropped: this module's, uvicorn's and the
# SDK's server side (not the proxy's, nor the SDK client's it uses: their lines are about calls, not clients)
QUIETED = ("toolclause.mcp.http", "uvicorn", "mcp.server")


@contextmanager
def quiet_logs(interval: float = LOG_INTERVAL) -> Iterator[OncePerInterval]:
    """While the server runs, the repeats of each kind of warning from the HTTP server's loggers
    (QUIETED: this module's, uvicorn's one per bad request, the SDK's one per refused session)
    are dropped (OncePerInterval)."""
    repeats = OncePerInterval(interval)
    quieted = [logging.getLogger(name) for name in QUIETED]
    quieted += [item for name, item in logging.root.manager.loggerDict.items()
                if isinstance(item, logging.Logger) and name.startswith(tuple(n + "." for n in QUIETED))]
    for item in quieted:
        item.addFilter(repeats)
    try:
        yield repeats
    finally:
        for item in quieted:
            item.removeFilter(repeats)


__all__ = ["KEEP_ALIVE", "LOG_INTERVAL", "MAX_SESSIONS", "READ_TIMEOUT", "SESSION_IDLE", "ConnectionGuard",
           "OncePerInterval", "connection_budget", "evict_idle_sessions", "guarded_h11", "guarded_server", "quiet_logs"]
