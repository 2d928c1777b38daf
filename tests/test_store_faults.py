"""Stores that hang: private Redis and PostgreSQL servers of the test's own, stopped with SIGSTOP.

A call whose claim the store never answered answers PERSISTENCE_ERROR without running; when
the server resumes, the claim it was still holding lands, and the retry must run the tool, once
(the late claim was never marked started).  The shared servers are never stopped.
"""

from __future__ import annotations

import signal
import threading
import time
import uuid

import pytest

from store_servers import PrivateRedis, redis_unreachable
from toolclause import Toolbox
from toolclause.stores import CLAIMED, RecordKey


def _poll(check, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return False


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
    runs: list[str] = []
    lock = threading.Lock()
    box = Toolbox(private_redis.url, lint="off")

    @box.tool(idempotency="key")
    def charge(order_id: str) -> dict:
        """Charges the customer's card for an order and returns the payment."""
        with lock:
            runs.append(order_id)
        return {"charged": order_id, "run": len(runs)}

    assert box.call("charge", {"order_id": "warm-up", "idempotency_key": "k-warm"}).ok  # connected, scripts loaded
    k = f"k-{uuid.uuid4().hex}"
    call = {"order_id": "o-1", "idempotency_key": k}
    private_redis.process.send_signal(signal.SIGSTOP)
    try:
        hung = box.call("charge", call)  # the claim waits in Redis's socket until the client gives up
    finally:
        private_redis.process.send_signal(signal.SIGCONT)
    assert hung.error.code == "PERSISTENCE_ERROR" and hung.error.user_action == "retry_later"
    assert runs == ["warm-up"]
    # the claim Redis was holding lands now: CLAIMED, never started, its window already over
    store = box.state_store
    assert _poll(lambda: store.get(RecordKey("", "charge", k)) is not None, 30), "the late claim never landed"
    assert store.get(RecordKey("", "charge", k)).status == CLAIMED
    retried = box.call("charge", call)
    assert retried.ok and not retried.replayed, retried.to_dict()
    again = box.call("charge", call)
    assert again.ok and again.replayed and again.data == retried.data
    assert runs == ["warm-up", "o-1"]
    box.close()
