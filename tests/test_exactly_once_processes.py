"""Exactly once with real processes on SQLite, Redis and PostgreSQL: contention, SIGKILL, a store that stops.

Sized for a small machine: 4 processes × 25 threads, a tool that takes 0.2 s.  The processes are
released together at one moment, after their imports.  Executions are counted by the tool itself
in a ledger file, outside the store.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

import pytest

from conftest import url_for
from toolclause import Toolbox

WORKER = Path(__file__).with_name("exactly_once_worker.py")
PROCESSES, THREADS = 4, 25


@pytest.fixture(params=["sqlite", "redis", "postgresql"])
def shared_url(request, tmp_path):
    return url_for(request, request.param, tmp_path)


def spawn(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(WORKER), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONPATH": str(WORKER.parent)})


def ledger_lines(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []


def contend(url: str, ledger: Path, plans_per_process: list[list[list[str]]]) -> list[dict]:
    start_at = time.time() + 4  # every process imported and ready before the first call
    procs = [spawn("contend", url, str(ledger), str(start_at), json.dumps(plans)) for plans in plans_per_process]
    envelopes = []
    for proc in procs:
        out, err = proc.communicate(timeout=180)
        assert proc.returncode == 0, err[-2000:]
        envelopes += [e for thread in json.loads(out) for e in thread]
    return envelopes


def outcome(envelope: dict) -> str:
    if envelope["ok"]:
        return "replayed" if envelope.get("replayed") else "executed"
    return envelope["error"]["code"]


def test_one_key_from_4_processes_and_100_threads_runs_once(shared_url, tmp_path):
    key = f"order-{uuid.uuid4().hex[:12]}"
    ledger = tmp_path / "ledger"
    envelopes = contend(shared_url, ledger, [[[key]] * THREADS for _ in range(PROCESSES)])
    assert len(ledger_lines(ledger)) == 1  # one execution, counted by the tool itself
    tally = Counter(outcome(e) for e in envelopes)
    print(f"\n{shared_url.split(':')[0]}: 100 callers, one key: {dict(tally)}")
    assert set(tally) <= {"executed", "replayed", "IDEMPOTENCY_IN_PROGRESS"} and tally["executed"] == 1
    assert len({json.dumps(e["data"]) for e in envelopes if e["ok"]}) == 1  # everyone saw the same result


def test_100_distinct_keys_each_called_from_two_processes_run_100_times(shared_url, tmp_path):
    run = uuid.uuid4().hex[:8]
    keys = [f"order-{run}-{i}" for i in range(PROCESSES * THREADS)]
    plans = [[[keys[p * THREADS + t], keys[((p + 1) % PROCESSES) * THREADS + t]] for t in range(THREADS)]
             for p in range(PROCESSES)]
    ledger = tmp_path / "ledger"
    envelopes = contend(shared_url, ledger, plans)
    executed = Counter(line.split()[1] for line in ledger_lines(ledger))
    tally = Counter(outcome(e) for e in envelopes)
    print(f"\n{shared_url.split(':')[0]}: 100 keys, 200 calls: {len(executed)} keys executed, {dict(tally)}")
    assert len(executed) == 100 and set(executed.values()) == {1}
    assert set(tally) <= {"executed", "replayed", "IDEMPOTENCY_IN_PROGRESS"} and tally["executed"] == 100


def _tools(url: str, ledger: Path) -> Toolbox:
    sys.path.insert(0, str(WORKER.parent))
    try:
        import exactly_once_worker
    finally:
        sys.path.remove(str(WORKER.parent))
    return exactly_once_worker.build(url, str(ledger), pause=0.0)


def _wait_for_line(ledger: Path, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not ledger_lines(ledger):
        assert time.monotonic() < deadline, "the worker never started its call"
        time.sleep(0.05)


@pytest.mark.parametrize("tool", ["charge", "set_status"])
def test_a_process_killed_mid_execution(shared_url, tmp_path, tool):
    key = f"order-{uuid.uuid4().hex[:12]}"
    ledger = tmp_path / "ledger"
    worker = spawn("hold", shared_url, str(ledger), tool, key)
    try:
        _wait_for_line(ledger)
        worker.send_signal(signal.SIGKILL)
        worker.wait(10)
    finally:
        if worker.poll() is None:
            worker.kill()
    box = _tools(shared_url, ledger)
    args = {"order_id": key, "idempotency_key": key, **({"amount": 1} if tool == "charge" else {"status": "shipped"})}
    assert box.call(tool, args).error.code == "IDEMPOTENCY_IN_PROGRESS"  # its lease still holds
    time.sleep(1.6)  # the lease (1 s, no longer renewed by the dead process) has run out
    after = box.call(tool, args)
    if tool == "charge":  # irreversible: never a second run
        assert after.error.code == "OUTCOME_UNKNOWN" and after.error.user_action == "reconcile"
        assert len(ledger_lines(ledger)) == 1
    else:  # annotated idempotent: one fresh run, then replays
        assert after.ok and not after.replayed and len(ledger_lines(ledger)) == 2
        assert box.call(tool, args).replayed
    box.close()


# --------------------------------------------------------------------------- a store stopped mid-run

@pytest.fixture(params=["redis", "postgresql"])
def private_server(request):
    import store_servers

    try:
        server = (store_servers.PrivateRedis() if request.param == "redis" else store_servers.PrivatePostgres())
    except (RuntimeError, OSError, subprocess.SubprocessError) as exc:
        pytest.skip(f"no private {request.param} server can be started here: {exc}")
    try:
        server.start()
        yield server
    finally:
        server.close()  # stopped and removed, whatever the test did


def test_a_store_stopped_between_calls(private_server, tmp_path):
    ledger = tmp_path / "ledger"
    box = _tools(private_server.url, ledger)
    first = {"order_id": "o1", "amount": 1, "idempotency_key": "k-1"}
    second = {"order_id": "o2", "amount": 1, "idempotency_key": "k-2"}
    assert box.call("charge", first).ok
    private_server.stop()
    try:
        down = box.call("charge", second)
        assert down.error.code == "PERSISTENCE_ERROR" and not down.error.retryable
        assert "127.0.0.1" not in down.error.message and str(private_server.port) not in down.error.message
        assert len(ledger_lines(ledger)) == 1  # fail closed: nothing ran
    finally:
        private_server.start()
    back = box.call("charge", second)
    assert back.ok and not back.replayed and len(ledger_lines(ledger)) == 2
    fresh = _tools(private_server.url, ledger)  # no in-process cache: the answer comes from the store
    assert fresh.call("charge", first).replayed and fresh.call("charge", second).replayed
    box.close(), fresh.close()


def test_a_store_stopped_while_the_tool_runs(private_server, tmp_path):
    ledger = tmp_path / "ledger"
    sys.path.insert(0, str(WORKER.parent))
    import exactly_once_worker

    sys.path.remove(str(WORKER.parent))
    box = exactly_once_worker.build(private_server.url, str(ledger), pause=1.0)
    args = {"order_id": "o3", "amount": 1, "idempotency_key": "k-3"}
    answers = []
    caller = threading.Thread(target=lambda: answers.append(box.call("charge", args)))
    caller.start()
    _wait_for_line(ledger)
    private_server.stop()
    try:
        caller.join()
        unsaved = answers[0]
        assert unsaved.error.code == "PERSISTENCE_ERROR" and unsaved.error.user_action == "reconcile"
    finally:
        private_server.start()
    time.sleep(1.6)  # the claim was not renewed while the store was down; its lease has expired
    again = box.call("charge", args)
    assert again.error.code == "OUTCOME_UNKNOWN"  # the charge may have happened: never run twice
    assert len(ledger_lines(ledger)) == 1
    box.close()
