"""`serve --transport http` under slow clients and session floods (docs/serving.md, toolclause._http_limits).

Real `toolclause serve` processes over real sockets: raw sockets trickle headers, raw HTTP opens
sessions it never closes, and the official MCP client must still initialize and call a tool.
Nothing here asserts a duration: on a loaded two-core machine anything can be slow, so each wait
is generous and each assertion is about what happened (closed, served, how many sessions live).
"""

from __future__ import annotations

import errno
import http.client
import json
import logging
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

import anyio
import pytest
from click.testing import CliRunner
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from toolclause._http_limits import ConnectionGuard, OncePerInterval, quiet_logs
from toolclause.cli.main import cli

APPS = Path(__file__).parent / "fixtures" / "serving"
READY = re.compile(r"at (http://\S+) \(Streamable HTTP\)")
HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
INITIALIZE = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                         "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "flood", "version": "1"}}})


class Served:
    """A `toolclause serve … --transport http --port 0` process, its URL and what it said on stderr."""

    def __init__(self, tmp_path: Path, *extra: str, open_files: int | None = None) -> None:
        env = {**os.environ, "TOOLCLAUSE_STORE": f"sqlite:///{tmp_path / 'state.db'}",
               "SERVE_TEST_LOG": str(tmp_path / "runs.log")}

        def limit_files() -> None:  # `ulimit -n` for the server alone
            if open_files is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))

        self.process = subprocess.Popen(
            [sys.executable, "-m", "toolclause.cli.main", "serve", "app.py:server", "--transport", "http",
             "--port", "0", *extra], cwd=APPS, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, text=True, preexec_fn=limit_files)
        self.said: list[str] = []
        self.url = ""
        listening = threading.Event()

        def read() -> None:
            assert self.process.stderr is not None
            for line in self.process.stderr:
                self.said.append(line)
                found = READY.search(line)
                if found:
                    self.url = found.group(1)
                    listening.set()
            listening.set()

        self.reader = threading.Thread(target=read, daemon=True)
        self.reader.start()
        if not listening.wait(90) or not self.url:
            self.process.kill()
            raise AssertionError("serve did not start:\n" + "".join(self.said))
        parts = urlsplit(self.url)
        self.host, self.port, self.path = parts.hostname, parts.port, parts.path

    def stop(self) -> str:
        """SIGTERM, then everything it said."""
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=60)
        finally:
            self.process.kill()
        self.reader.join(30)  # to the end of its standard error
        return "".join(self.said)


def call_echo(url: str, text: str) -> dict:
    """The official client, from initialize to a tool call; the structured result."""

    async def run() -> dict:
        with anyio.fail_after(120):
            async with streamable_http_client(url) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                result = await session.call_tool("echo", {"text": text})
                assert not result.is_error, result
                return dict(result.structured_content or {})

    return anyio.run(run)


def lines_like(said: str, fragment: str) -> int:
    return sum(1 for line in said.splitlines() if fragment in line)


# --------------------------------------------------------------------------- slow clients


class Tricklers:
    """`count` connections that each send a request line, then one header line every `every` seconds and
    never the blank line that ends the headers; `reopen` keeps `count` of them open (a sustained attack)."""

    def __init__(self, host: str, port: int, count: int, every: float = 1.0) -> None:
        self.host, self.port, self.every = host, port, every
        self.reopen = True
        self.opened = 0
        self.sockets = [self.connect() for _ in range(count)]
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.trickle, daemon=True)
        self.thread.start()

    def connect(self) -> socket.socket | None:
        try:
            sock = socket.create_connection((self.host, self.port), timeout=10)
            sock.settimeout(None)  # blocking, so that a recv with MSG_DONTWAIT never waits
            sock.sendall(f"POST /mcp HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n".encode())
        except OSError:
            return None
        self.opened += 1
        return sock

    @staticmethod
    def closed(sock: socket.socket | None) -> bool:
        if sock is None:
            return True
        try:
            return sock.recv(1024, socket.MSG_DONTWAIT) == b""  # the server closed it (an answer would be bytes)
        except BlockingIOError:
            return False
        except OSError:  # reset by the server
            return True

    def trickle(self) -> None:
        line = 0
        while not self.stopping.wait(self.every):
            line += 1
            for n, sock in enumerate(self.sockets):
                if sock is not None and not self.closed(sock):
                    try:
                        sock.sendall(f"X-Trickle-{line}: one more line\r\n".encode())
                        continue
                    except OSError:
                        pass
                if sock is not None:
                    sock.close()
                self.sockets[n] = self.connect() if self.reopen else None

    def open_count(self) -> int:
        return sum(1 for sock in list(self.sockets) if not self.closed(sock))

    def close(self) -> None:
        self.stopping.set()
        self.thread.join(30)
        for sock in self.sockets:
            if sock is not None:
                sock.close()


@pytest.mark.timeout(400)
def test_trickling_connections_are_closed_and_a_real_client_is_served_during_the_attack(tmp_path):
    # 128 open files: room for about 96 connections, so 300 tricklers are three times what fits
    served = Served(tmp_path, "--read-timeout", "3", open_files=128)
    attack = Tricklers(served.host, served.port, 300)
    try:
        time.sleep(2)  # the attack is on: every connection the server can hold is trickling
        assert call_echo(served.url, "during the attack") == {"text": "during the attack", "length": 17}
        assert call_echo(served.url, "and again") == {"text": "and again", "length": 9}
        attack.reopen = False  # the attackers stop reconnecting; the server closes every one still trickling
        deadline = time.monotonic() + 120
        while attack.open_count() and time.monotonic() < deadline:
            time.sleep(1)
        still_open = attack.open_count()
    finally:
        attack.close()
        said = served.stop()
    assert still_open == 0, f"{still_open} of the trickling connections were never closed\n{said}"
    assert attack.opened >= 300
    assert "Traceback" not in said, said
    # one line per kind of failure per minute (two if the test ran across a minute's boundary)
    for kind in ("(read timeout)", "waiting longest for a request", "cannot accept connections"):
        assert lines_like(said, kind) <= 2, (kind, said)
    assert len(said.splitlines()) <= 12, said


def test_a_connection_that_sends_nothing_is_closed_and_one_that_is_quick_is_answered(tmp_path):
    served = Served(tmp_path, "--read-timeout", "2")
    try:
        silent = socket.create_connection((served.host, served.port), timeout=60)
        quick = http.client.HTTPConnection(served.host, served.port, timeout=60)
        quick.request("POST", served.path, body=INITIALIZE, headers=HEADERS)
        answer = quick.getresponse()
        answer.read()
        assert answer.status == 200
        silent.settimeout(60)
        try:
            assert silent.recv(1024) == b""  # closed by the server, nothing sent
        except ConnectionResetError:
            pass
        silent.close()
        quick.close()
    finally:
        said = served.stop()
    assert lines_like(said, "sent no whole request within 2 s (read timeout)") == 1, said


# --------------------------------------------------------------------------- sessions


def open_sessions(served: Served, count: int, threads: int = 4) -> list[str]:
    """`count` sessions initialized with raw HTTP and never closed, in order; their IDs."""

    def some(n: int) -> list[tuple[float, str]]:
        connection = http.client.HTTPConnection(served.host, served.port, timeout=60)
        opened = []
        for _ in range(n):
            connection.request("POST", served.path, body=INITIALIZE, headers=HEADERS)
            answer = connection.getresponse()
            answer.read()
            assert answer.status == 200, answer.status
            opened.append((time.monotonic(), answer.getheader("mcp-session-id")))
        connection.close()
        return opened

    with ThreadPoolExecutor(threads) as pool:
        found = [pair for part in pool.map(some, [count // threads] * threads) for pair in part]
    return [session for _, session in sorted(found)]


def live(served: Served, sessions: list[str]) -> list[bool]:
    """Which of these sessions the server still knows (a ping answers; a forgotten session is 404)."""
    connection = http.client.HTTPConnection(served.host, served.port, timeout=60)
    alive = []
    for session in sessions:
        connection.request("POST", served.path, body=json.dumps({"jsonrpc": "2.0", "id": 2, "method": "ping"}),
                           headers=dict(HEADERS, **{"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-06-18"}))
        answer = connection.getresponse()
        answer.read()
        assert answer.status in (200, 404), answer.status
        alive.append(answer.status == 200)
    connection.close()
    return alive


@pytest.mark.timeout(400)
def test_a_flood_of_unclosed_sessions_ends_the_idle_ones_and_a_new_client_gets_in(tmp_path):
    cap = 40
    served = Served(tmp_path, "--max-sessions", str(cap), "--session-idle", "600")
    busy: dict = {}

    running = threading.Event()

    async def busy_client() -> None:  # a session with a call in flight all through the flood
        async def progress(done: float, total: float | None, message: str | None) -> None:
            running.set()  # the server reports progress: the call is running there

        async with streamable_http_client(served.url) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            busy["result"] = await session.call_tool("wait", {"seconds": 30.0},  # longer than any flood here
                                                     progress_callback=progress)
            busy["after"] = await session.call_tool("echo", {"text": "still here"})

    try:
        worker = threading.Thread(target=lambda: anyio.run(busy_client), daemon=True)
        worker.start()
        assert running.wait(90), "the busy client's call never started"
        flood = open_sessions(served, 400)  # ten times the cap, none closed
        assert call_echo(served.url, "after the flood") == {"text": "after the flood", "length": 15}
        alive = live(served, flood)
        worker.join(120)
    finally:
        said = served.stop()
    assert sum(alive) <= cap - 1, f"{sum(alive)} flood sessions live beside the busy one; the cap is {cap}"
    assert not any(alive[:len(flood) // 2]), "an older idle session outlived the newest ones"
    assert alive[-1], "the newest session was ended"
    # the session with a call in flight was never the one to go: its call, and the next, were answered
    assert busy.get("result") is not None and not busy["result"].is_error, busy
    assert busy.get("after") is not None and not busy["after"].is_error, busy
    assert lines_like(said, "the most allowed: ended the one idle longest") <= 2, said
    assert "Traceback" not in said, said


def test_session_flags_are_checked():
    runner = CliRunner()
    for argv, message in (
            (["--max-sessions", "0"], "--max-sessions"),
            (["--session-idle", "0"], "--session-idle"),
            (["--read-timeout", "-1"], "--read-timeout"),
            (["--stateless", "--max-sessions", "5"], "--stateless keeps none")):
        result = runner.invoke(cli, ["serve", "app.py:server", "--transport", "http", *argv])
        assert result.exit_code == 2 and message in result.output, (argv, result.output)


# --------------------------------------------------------------------------- logs


def test_one_line_per_kind_of_failure_per_interval_then_how_many_were_left_out():
    now = [0.0]
    repeats = OncePerInterval(60, clock=lambda: now[0])

    def record(msg: str, *args: object, level: int = logging.WARNING, name: str = "toolclause.mcp"):
        return logging.LogRecord(name, level, __file__, 1, msg, args, None)

    first = record("closed a connection from %s", "10.0.0.1")
    assert repeats.filter(first)
    assert not any(repeats.filter(record("closed a connection from %s", "10.0.0.2")) for _ in range(999))
    assert repeats.filter(record("another kind"))
    assert repeats.filter(record("Session 3fa9c1d2e4b5 crashed"))
    assert not repeats.filter(record("Session 77aa00bb11cc crashed"))  # the same kind: IDs are blanked
    assert repeats.filter(record("closed a connection from %s", "x", level=logging.INFO))  # not a failure
    now[0] = 61.0
    later = record("closed a connection from %s", "10.0.0.3")
    assert repeats.filter(later)
    assert later.getMessage() == "closed a connection from 10.0.0.3 (999 more like this in the last 61 s)"


class OutOfFiles(socket.socket):
    """A listening socket whose first `failures` accepts fail as they do when the process has no file left."""

    failures = 0

    def accept(self):
        if self.failures:
            self.failures -= 1
            raise OSError(errno.EMFILE, "Too many open files")
        return super().accept()


def test_an_accept_that_fails_for_want_of_files_is_one_line_and_accepting_goes_on(caplog):
    async def run() -> bytes:
        import asyncio

        sock = OutOfFiles(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.bind(("127.0.0.1", 0))
        sock.listen(16)
        sock.failures = 500
        answered = asyncio.get_running_loop().create_future()

        class Hello(asyncio.Protocol):
            def connection_made(self, transport):
                transport.write(b"hello")
                transport.close()
                answered.set_result(None)

        guard = ConnectionGuard(max_connections=4, accept_retry=0.001)
        with quiet_logs():
            accepting = asyncio.get_running_loop().create_task(guard.accept(sock, Hello))
            reader, writer = await asyncio.open_connection(*sock.getsockname())
            said = await asyncio.wait_for(reader.read(), 60)
            await asyncio.wait_for(answered, 60)
            accepting.cancel()
            writer.close()
        sock.close()
        return said

    with caplog.at_level(logging.WARNING):
        assert anyio.run(run) == b"hello"
    lines = [r for r in caplog.records if "accept" in r.getMessage()]
    assert [r.getMessage() for r in lines] == ["cannot accept connections: Too many open files; trying again every "
                                               "0.001 s"]
    assert lines[0].exc_info is None
