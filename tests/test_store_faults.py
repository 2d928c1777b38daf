"""Stores that hang: private Redis and PostgreSQL servers of the test's own, stopped with SIGSTOP.

A call whose claim the store never answered answers PERSISTENCE_ERROR without running, within
the store's own client timeout; when the server resumes, the claim it was still holding may
land, and the retry must run the tool, once (the late claim was never marked started).  The
shared servers are never stopped.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
import uuid
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

from store_servers import PrivatePostgres, PrivateRedis, postgres_unreachable, redis_unreachable
from toolclause import Toolbox
from toolclause.stores import CLAIMED, RecordKey, StoreConfigError, open_store


def _poll(check, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return False


def _in_thread(work, seconds: float):
    """Run `work()` in a thread; (finished, its result or exception): a hang shows as not finished."""
    outcome: list = []

    def run() -> None:
        try:
            outcome.append(work())
        except Exception as exc:  # noqa: BLE001 - the exception is the outcome
            outcome.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    return (not thread.is_alive()), (outcome[0] if outcome else None)


class ChargeBox:
    """A Toolbox with one keyed tool that counts its runs: the truth the answers must agree with."""

    def __init__(self, url: str) -> None:
        self.runs: list[str] = []
        self.box = Toolbox(url, lint="off")

        @self.box.tool(idempotency="key")
        def charge(order_id: str) -> dict:
            """Charges the customer's card for an order and returns the payment."""
            self.runs.append(order_id)
            return {"charged": order_id, "run": len(self.runs)}

    def call(self, order_id: str, key: str):
        return self.box.call("charge", {"order_id": order_id, "idempotency_key": key})


@pytest.fixture
def private_redis():
    if redis_unreachable() is not None:
        pytest.skip(redis_unreachable())
    try:
        server = PrivateRedis().start()
    except RuntimeError as exc:
        pytest.skip(str(exc))
    yield server
    if server.process is not None:
        server.process.send_signal(signal.SIGCONT)  # never leave it stopped, whatever failed
    server.close()


@pytest.mark.timeout(120)
def test_a_claim_that_lands_after_redis_resumes_does_not_block_the_retry(private_redis):
    charging = ChargeBox(f"{private_redis.url}?socket_timeout=2")  # the client's timeout, from the URL
    assert charging.box.state_store.timeout == 2.0  # and so the window a claim has to be started in
    assert charging.call("warm-up", "k-warm").ok  # connected, scripts loaded
    k = f"k-{uuid.uuid4().hex}"
    private_redis.process.send_signal(signal.SIGSTOP)
    try:
        hung = charging.call("o-1", k)  # the claim waits in Redis's socket until the client gives up
    finally:
        private_redis.process.send_signal(signal.SIGCONT)
    assert hung.error.code == "PERSISTENCE_ERROR" and hung.error.user_action == "retry_later"
    assert charging.runs == ["warm-up"]
    # the claim Redis was holding lands now: CLAIMED, never started, its window already over
    store = charging.box.state_store
    assert _poll(lambda: store.get(RecordKey("", "charge", k)) is not None, 30), "the late claim never landed"
    assert store.get(RecordKey("", "charge", k)).status == CLAIMED
    _retry_runs_once(charging, k)


def _retry_runs_once(charging: ChargeBox, k: str) -> None:
    retried = charging.call("o-1", k)
    assert retried.ok and not retried.replayed, retried.to_dict()
    again = charging.call("o-1", k)
    assert again.ok and again.replayed and again.data == retried.data
    assert charging.runs == ["warm-up", "o-1"]
    charging.box.close()


# --------------------------------------------------------------------------- PostgreSQL


@pytest.fixture(scope="module")
def private_postgres():
    if postgres_unreachable() is not None:
        pytest.skip(postgres_unreachable())
    try:
        server = PrivatePostgres().start()
    except (RuntimeError, OSError, subprocess.SubprocessError) as exc:
        pytest.skip(f"cannot start a private PostgreSQL: {exc}")
    yield server
    server.close()


def _server_processes(data_dir: str) -> list[int]:
    """The postmaster (from postmaster.pid) and every process it started (its backends)."""
    postmaster = int(Path(data_dir, "postmaster.pid").read_text().split()[0])
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        if int(fields[1]) == postmaster:
            children.append(int(stat.parent.name))
    return [postmaster, *children]


@contextmanager
def stopped(pids: list[int]):
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        for pid in pids:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)


@pytest.mark.timeout(180)
def test_a_hung_postgres_answers_within_the_store_timeout_and_the_retry_runs_once(private_postgres):
    url = f"{private_postgres.url}?timeout=2&connect_timeout=2"  # the client's own timeouts, from the URL
    charging = ChargeBox(url)
    assert charging.box.state_store.timeout == 2.0
    assert charging.call("warm-up", "k-warm").ok  # a pooled connection to a backend
    k = f"k-{uuid.uuid4().hex}"
    with stopped(_server_processes(private_postgres.data)):
        finished, hung = _in_thread(lambda: charging.call("o-1", k), 60)
        assert finished, "a keyed call waited on a stopped PostgreSQL for a minute"
        assert hung.error.code == "PERSISTENCE_ERROR" and hung.error.user_action == "retry_later"
        assert "127.0.0.1" not in str(hung.to_dict()) and "SELECT" not in str(hung.to_dict())
        # a store opened while the server hangs gives up too (the connect timeout)
        finished, opening = _in_thread(lambda: open_store(url), 60)
        assert finished and isinstance(opening, StoreConfigError)
    assert charging.runs == ["warm-up"]
    _retry_runs_once(charging, k)


@pytest.mark.parametrize("url", ["postgresql://postgres@127.0.0.1:1/db?timeout=0",
                                 "postgresql://postgres@127.0.0.1:1/db?timeout=soon",
                                 "postgresql://postgres@127.0.0.1:1/db?connect_timeout=-1",
                                 "postgresql://postgres@127.0.0.1:1/db?timeout=nan",
                                 "redis://127.0.0.1:1/0?socket_timeout=0"])
def test_store_timeouts_in_the_url_are_checked_when_opened(url):
    with pytest.raises(StoreConfigError, match="number of seconds"):
        open_store(url)


@pytest.mark.timeout(60)
def test_a_deadline_wakes_a_blocked_read_and_spares_a_finished_one():
    import socket

    from toolclause.stores._deadline import Deadlines

    deadlines = Deadlines(0.2)
    hung, peer = socket.socketpair()
    with hung, peer:
        with deadlines.watch(hung.fileno) as watch:
            assert hung.recv(1) == b""  # nothing was sent: only the shut-down socket ends this read
        assert watch.cut
    quick, answer = socket.socketpair()
    with quick, answer:
        answer.sendall(b"x")
        with deadlines.watch(quick.fileno) as watch:
            assert quick.recv(1) == b"x"
        time.sleep(0.5)  # past the deadline it no longer has: the socket is left alone
        answer.sendall(b"y")
        assert not watch.cut and quick.recv(1) == b"y"
