"""`toolclause proxy`: exactly once in front of a real, stateful server that dies at the worst moment.

The upstream is tests/fixtures/proxy_upstreams/orders.py, a real process (stdio, or Streamable HTTP
on a port of its own): each order it places is one line in orders.log, written before it answers,
and files in its control folder make it kill itself (os._exit) right after the side effect, hang,
or refuse to start.  The proxy runs as `python -m toolclause.cli.main proxy …`, driven by the
official client.  No mocks: every failure here is a process dying or a socket closing.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from toolclause.mcp.proxy import Upstream, UpstreamGone
from toolclause.mcp.proxy_link import answered_id

ORDERS = Path(__file__).parent / "fixtures" / "proxy_upstreams" / "orders.py"
NOTES = Path(__file__).parent / "fixtures" / "serving" / "upstream.py"
MIB = 1024 * 1024


# --------------------------------------------------------------------------- helpers


def envelope(result: Any) -> dict[str, Any]:
    """The error envelope of a failed call (JSON text; `structuredContent` from servers that send it there)."""
    assert result.is_error, result
    sent = result.structured_content
    if isinstance(sent, dict) and sent.get("ok") is False:
        return sent["error"]
    return json.loads(result.content[0].text)["error"]


def orders(control: Path) -> list[str]:
    log = control / "orders.log"
    return log.read_text().splitlines() if log.exists() else []


def starts(control: Path) -> int:
    log = control / "starts.log"
    return len(log.read_text().splitlines()) if log.exists() else 0


def wait_for(condition: Any, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.05)


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def kill_upstream(control: Path) -> int:
    pid = int((control / "pid").read_text())
    os.kill(pid, signal.SIGKILL)
    wait_for(lambda: gone(pid), 10)  # the proxy, its parent, has reaped it: it knows
    return pid


def proxy_argv(tmp_path: Path, *upstream: str, extra: tuple[str, ...] = ()) -> list[str]:
    return ["-m", "toolclause.cli.main", "proxy", *upstream, "--store", f"sqlite:///{tmp_path / 'proxy.db'}", *extra]


def stdio_upstream(script: Path = ORDERS) -> tuple[str, str]:
    return "--server", shlex.join([sys.executable, str(script)])


@asynccontextmanager
async def proxied(tmp_path: Path, control: Path, *upstream: str, extra: tuple[str, ...] = ()
                  ) -> AsyncIterator[ClientSession]:
    env = {**os.environ, "ORDERS_CONTROL": str(control), "SERVE_TEST_LOG": str(tmp_path / "notes.log")}
    params = StdioServerParameters(command=sys.executable, args=proxy_argv(tmp_path, *upstream, extra=extra), env=env)
    with (tmp_path / "proxy.err").open("a") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            yield session


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def http_upstream(control: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    """orders.py over Streamable HTTP on `port`, until the block ends (or the test kills it)."""
    env = {**os.environ, "ORDERS_CONTROL": str(control)}
    process = subprocess.Popen([sys.executable, str(ORDERS), "--http", str(port)], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def listening() -> bool:
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
            except OSError:
                assert process.poll() is None, "the HTTP upstream stopped before listening"
                return False
            return True

        wait_for(listening, 30)
        yield process
    finally:
        process.kill()
        process.wait(10)


# --------------------------------------------------------------------------- stdio: the upstream dies


@pytest.mark.timeout(120)
def test_a_keyed_call_whose_server_died_after_the_side_effect_is_placed_once_however_often_retried(tmp_path):
    control = tmp_path / "control"
    control.mkdir()

    async def scenario() -> dict[str, Any]:
        async with proxied(tmp_path, control, *stdio_upstream()) as session:
            call = session.call_tool
            first = await call("place_order", {"item": "tea", "request_id": "order-1"})
            (control / "crash").touch()  # from now on the server dies right after placing an order
            crashed = await call("place_order", {"item": "cake", "request_id": "order-2"})
            retries = [await call("place_order", {"item": "cake", "request_id": "order-2"}) for _ in range(5)]
            # the server is started again; the key still never reaches it, even with the crash switch off
            await anyio.to_thread.run_sync(wait_for, lambda: starts(control) == 2)
            (control / "crash").unlink()
            later = [await call("place_order", {"item": "cake", "request_id": "order-2"}) for _ in range(5)]
            fresh = await call("place_order", {"item": "pie", "request_id": "order-3"})
            return {"first": first, "crashed": crashed, "retries": retries, "later": later, "fresh": fresh}

    seen = anyio.run(scenario)
    assert seen["first"].structured_content == {"order": 1}
    error = envelope(seen["crashed"])
    assert error["code"] == "OUTCOME_UNKNOWN" and error["retryable"] is False and error["userAction"] == "reconcile"
    assert "reached the server" in error["message"]
    for retry in seen["retries"] + seen["later"]:
        again = envelope(retry)
        assert (again["code"], again["retryable"], again["userAction"]) == ("OUTCOME_UNKNOWN", False, "reconcile")
        assert retry.meta == {"toolclause/replayed": True}  # the stored outcome: it was not sent again
    # ten retries of order-2, two of them after the server came back: it was placed exactly once
    assert orders(control) == ["order-1 tea", "order-2 cake", "order-3 pie"]
    assert seen["fresh"].structured_content == {"order": 3}


@pytest.mark.timeout(120)
def test_a_call_the_dead_server_never_received_is_retryable_and_stores_nothing(tmp_path):
    control = tmp_path / "control"
    control.mkdir()

    async def scenario() -> dict[str, Any]:
        async with proxied(tmp_path, control, *stdio_upstream()) as session:
            (control / "refuse-start").touch()  # it will not come back until this goes
            await anyio.to_thread.run_sync(kill_upstream, control)
            down = [await session.call_tool("place_order", {"item": "tea", "request_id": "order-9"})
                    for _ in range(3)]
            (control / "refuse-start").unlink()
            answers = []
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:  # the same key, until the server is back
                answer = await session.call_tool("place_order", {"item": "tea", "request_id": "order-9"})
                answers.append(answer)
                if not answer.is_error:
                    break
                await anyio.sleep(0.2)
            replay = await session.call_tool("place_order", {"item": "tea", "request_id": "order-9"})
            return {"down": down, "answers": answers, "replay": replay}

    seen = anyio.run(scenario)
    for answer in seen["down"] + seen["answers"][:-1]:
        error = envelope(answer)
        assert (error["code"], error["retryable"], error["userAction"]) == \
            ("UPSTREAM_UNAVAILABLE", True, "retry_later")
        assert "not sent" in error["message"] and answer.meta is None  # nothing stored, nothing replayed
    # once the server was back, the same key ran — so no outcome had been stored for it — and only once
    last = seen["answers"][-1]
    assert not last.is_error and last.structured_content == {"order": 1} and last.meta is None
    assert seen["replay"].structured_content == {"order": 1} and seen["replay"].meta == {"toolclause/replayed": True}
    assert orders(control) == ["order-9 tea"]
    assert starts(control) >= 2


@pytest.mark.timeout(120)
def test_a_read_only_call_whose_answer_was_lost_is_retryable(tmp_path):
    control = tmp_path / "control"
    control.mkdir()

    async def scenario() -> tuple[Any, Any]:
        async with proxied(tmp_path, control, *stdio_upstream()) as session:
            (control / "crash").touch()
            lost = await session.call_tool("count_orders", {})
            (control / "crash").unlink()
            await anyio.to_thread.run_sync(wait_for, lambda: starts(control) == 2)
            for _ in range(100):
                again = await session.call_tool("count_orders", {})
                if not again.is_error:
                    break
                await anyio.sleep(0.1)
            return lost, again

    lost, again = anyio.run(scenario)
    error = envelope(lost)
    assert (error["code"], error["retryable"]) == ("UPSTREAM_UNAVAILABLE", True) and "read-only" in error["message"]
    assert again.structured_content == {"count": 0}


@pytest.mark.timeout(120)
def test_a_keyed_call_that_timed_out_is_outcome_unknown_and_never_sent_again(tmp_path):
    control = tmp_path / "control"
    control.mkdir()
    (control / "hang").touch()  # it places the order, then never answers

    async def scenario() -> list[Any]:
        async with proxied(tmp_path, control, *stdio_upstream(), extra=("--timeout", "1")) as session:
            return [await session.call_tool("place_order", {"item": "tea", "request_id": "slow-1"})
                    for _ in range(4)]

    started = time.monotonic()
    answers = anyio.run(scenario)
    assert time.monotonic() - started < 30
    for number, answer in enumerate(answers):
        error = envelope(answer)
        assert (error["code"], error["retryable"], error["userAction"]) == ("OUTCOME_UNKNOWN", False, "reconcile")
        assert "within 1 s" in error["message"]
        assert answer.meta == ({"toolclause/replayed": True} if number else None)
    assert orders(control) == ["slow-1 tea"]


@pytest.mark.timeout(120)
def test_a_server_that_keeps_stopping_ends_the_proxy_with_one_line(tmp_path):
    control = tmp_path / "control"
    control.mkdir()
    env = {**os.environ, "ORDERS_CONTROL": str(control)}
    argv = [sys.executable, *proxy_argv(tmp_path, *stdio_upstream(), extra=("--max-restarts", "2"))]
    with (tmp_path / "proxy.err").open("w") as errlog:
        # its standard input stays open (a client still connected) while the server keeps failing
        process = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errlog)
        try:
            wait_for(lambda: "over stdio" in (tmp_path / "proxy.err").read_text(), 30)  # it serves
            (control / "refuse-start").touch()
            kill_upstream(control)
            process.wait(60)
        finally:
            process.kill()
            process.wait()
    err = (tmp_path / "proxy.err").read_text()
    said = err.strip().splitlines()
    assert process.returncode == 3
    assert said[-1].startswith("toolclause: error: server '") and said[-1].endswith(
        "after 2 restart(s) within 60 s; giving up"), said
    assert "Traceback" not in err
    assert starts(control) == 1  # the two restarts were refused by the server itself


def test_restarts_back_off_and_are_bounded_within_the_window():
    upstream = Upstream("python server.py", max_restarts=5)
    upstream.why = "its process stopped (exit code 1)"
    assert [upstream._next_delay() for _ in range(5)] == [0.5, 1.0, 2.0, 4.0, 8.0]
    with pytest.raises(UpstreamGone, match=r"its process stopped \(exit code 1\), after 5 restart\(s\) within 60 s"):
        upstream._next_delay()
    over_http = Upstream(url="http://localhost:1/mcp")
    assert [over_http._next_delay() for _ in range(8)][-3:] == [10.0, 10.0, 10.0]  # a remote server: never gives up


# --------------------------------------------------------------------------- answers over the cap


def _high_water_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM")


@pytest.mark.timeout(120)
def test_a_50_mb_answer_is_refused_within_seconds_and_never_held_whole(tmp_path):
    control = tmp_path / "control"
    control.mkdir()

    async def scenario() -> dict[str, Any]:
        async with proxied(tmp_path, control, *stdio_upstream(), extra=("--max-answer-bytes", str(MIB))) as session:
            proxy_pid = _parent(int((control / "pid").read_text()))
            small = await session.call_tool("big_text", {"megabytes": 0.5})
            before = _high_water_kib(proxy_pid) if proxy_pid else 0
            started = time.monotonic()
            big = await session.call_tool("big_text", {"megabytes": 50})
            took = time.monotonic() - started
            after = _high_water_kib(proxy_pid) if proxy_pid else 0
            order = await session.call_tool("place_order", {"item": "tea", "request_id": "after-big"})
            return {"small": small, "big": big, "took": took, "grew_kib": after - before, "order": order,
                    "measured": bool(proxy_pid)}

    seen = anyio.run(scenario)
    assert len(seen["small"].structured_content["text"]) == MIB // 2  # a text answer, as the proxy shapes it
    error = envelope(seen["big"])
    assert error["code"] == "UPSTREAM_ANSWER_TOO_LARGE" and error["retryable"] is False
    assert error["userAction"] == "fix_arguments" and "1,048,576 bytes" in error["message"]
    assert seen["took"] < 10
    if seen["measured"]:  # the 50 MB went through the proxy a chunk at a time, never whole
        assert seen["grew_kib"] < 20 * 1024, seen["grew_kib"]
    # the connection survived: the next call is answered by the same server process
    assert seen["order"].structured_content == {"order": 1} and starts(control) == 1


def _parent(pid: int) -> int | None:
    status = Path(f"/proc/{pid}/status")
    if not status.exists():
        return None
    for line in status.read_text().splitlines():
        if line.startswith("PPid:"):
            return int(line.split()[1])
    return None


@pytest.mark.timeout(120)
def test_the_default_cap_is_16_mib(tmp_path):
    control = tmp_path / "control"
    control.mkdir()

    async def scenario() -> tuple[Any, Any]:
        async with proxied(tmp_path, control, *stdio_upstream()) as session:
            return (await session.call_tool("big_text", {"megabytes": 15}),
                    await session.call_tool("big_text", {"megabytes": 17}))

    under, over = anyio.run(scenario)
    assert len(under.structured_content["text"]) == 15 * MIB
    assert envelope(over)["code"] == "UPSTREAM_ANSWER_TOO_LARGE" and "16,777,216 bytes" in envelope(over)["message"]


@pytest.mark.parametrize(("head", "tail", "found"), [
    (b'{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"xxxx', b"", 7),
    (b'{"result":{"content":[{"type":"text","text":"xx', b'xxx"}]},"jsonrpc":"2.0","id":12}', 12),
    (b'{"result":{"x":{"id":3}}', b'xx"}]},"id":"12"}\n', 12),
    (b'{"jsonrpc":"2.0","id":4,"method":"sampling/createMessage","params":{"m', b'"}}', None),  # the server's request
    (b'{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"', b'","id":5}}', None),
    (b'{"result":{"text":"\\"id\\":9', b'xx"}}', None),
])
def test_the_request_an_oversized_answer_belongs_to_is_read_from_its_ends(head, tail, found):
    assert answered_id(head, tail) == found


# --------------------------------------------------------------------------- Streamable HTTP upstreams


@pytest.mark.timeout(120)
def test_over_http_a_connection_that_broke_after_the_side_effect_is_placed_once(tmp_path):
    control = tmp_path / "control"
    control.mkdir()
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"

    async def scenario() -> dict[str, Any]:
        async with proxied(tmp_path, control, "--url", url) as session:
            first = await session.call_tool("place_order", {"item": "tea", "request_id": "h-1"})
            (control / "crash").touch()
            crashed = await session.call_tool("place_order", {"item": "cake", "request_id": "h-2"})
            retries = [await session.call_tool("place_order", {"item": "cake", "request_id": "h-2"})
                       for _ in range(5)]
            return {"first": first, "crashed": crashed, "retries": retries}

    with http_upstream(control, port):
        seen = anyio.run(scenario)
    assert seen["first"].structured_content == {"order": 1}
    for answer in [seen["crashed"], *seen["retries"]]:
        error = envelope(answer)
        assert (error["code"], error["retryable"], error["userAction"]) == ("OUTCOME_UNKNOWN", False, "reconcile")
    assert all(r.meta == {"toolclause/replayed": True} for r in seen["retries"])
    assert orders(control) == ["h-1 tea", "h-2 cake"]


@pytest.mark.timeout(120)
def test_over_http_a_server_that_is_down_is_unavailable_and_the_key_runs_once_it_is_back(tmp_path):
    control = tmp_path / "control"
    control.mkdir()
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    upstream: dict[str, Any] = {}

    async def scenario() -> dict[str, Any]:
        async with proxied(tmp_path, control, "--url", url) as session:
            upstream["first"].kill()
            upstream["first"].wait(10)
            down = [await session.call_tool("place_order", {"item": "tea", "request_id": "h-9"}) for _ in range(3)]
            with http_upstream(control, port):  # a new process: the session the proxy had is unknown to it
                back = await session.call_tool("place_order", {"item": "tea", "request_id": "h-9"})
                replay = await session.call_tool("place_order", {"item": "tea", "request_id": "h-9"})
            return {"down": down, "back": back, "replay": replay}

    with http_upstream(control, port) as first:
        upstream["first"] = first
        seen = anyio.run(scenario)
    for answer in seen["down"]:
        error = envelope(answer)
        assert (error["code"], error["retryable"]) == ("UPSTREAM_UNAVAILABLE", True)
        assert "ConnectError" in error["message"] and "not sent" in error["message"]
    # the server refused the old session (404) without running the call; the proxy opened a new one and sent it
    assert seen["back"].structured_content == {"order": 1} and seen["back"].meta is None
    assert seen["replay"].meta == {"toolclause/replayed": True}
    assert orders(control) == ["h-9 tea"]
    assert "INTERNAL_ERROR" not in (tmp_path / "proxy.err").read_text()


@pytest.mark.timeout(120)
def test_over_http_a_50_mb_answer_is_refused_within_seconds(tmp_path):
    control = tmp_path / "control"
    control.mkdir()
    port = free_port()

    async def scenario() -> tuple[Any, float, Any]:
        async with proxied(tmp_path, control, "--url", f"http://127.0.0.1:{port}/mcp") as session:
            started = time.monotonic()
            big = await session.call_tool("big_text", {"megabytes": 50})
            took = time.monotonic() - started
            return big, took, await session.call_tool("count_orders", {})

    with http_upstream(control, port):
        big, took, after = anyio.run(scenario)
    error = envelope(big)
    assert error["code"] == "UPSTREAM_ANSWER_TOO_LARGE" and "16,777,216 bytes" in error["message"]
    assert took < 10
    assert after.structured_content == {"count": 0}


# --------------------------------------------------------------------------- the server's own errors


@pytest.mark.timeout(120)
def test_an_upstream_tool_error_is_in_the_code_table_and_not_a_contract_gap(tmp_path):
    async def scenario() -> Any:
        async with proxied(tmp_path, tmp_path, *stdio_upstream(NOTES)) as session:
            return await session.call_tool("fails", {})

    failed = anyio.run(scenario)
    error = envelope(failed)
    assert (error["code"], error["retryable"], error["userAction"]) == ("UPSTREAM_TOOL_ERROR", False,
                                                                       "contact_support")
    assert "disk full" in error["message"]
    said = (tmp_path / "proxy.err").read_text()
    assert "UPSTREAM_TOOL_ERROR" in said and "contract gap" not in said
