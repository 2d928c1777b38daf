"""Timeouts that tell the truth: queued calls past their deadline never start; a started mutation is unknown."""

from __future__ import annotations

import asyncio
import threading
import time

from toolclause import Toolbox


def make_box(runs: list, **options) -> Toolbox:
    box = Toolbox("memory://", lint="off", **options)

    @box.tool(read_only=True, timeout=0.3, max_concurrency=1)
    def slow_report(name: str) -> dict:
        """Builds a report slowly and returns it."""
        runs.append(("slow_report", name))
        time.sleep(0.8)
        return {"report": name}

    @box.tool(read_only=True, timeout=0.3, max_concurrency=2)
    def fast_lookup(name: str) -> dict:
        """Looks a name up and returns its entry."""
        runs.append(("fast_lookup", name))
        return {"entry": name}

    @box.tool(destructive=True, timeout=0.3)
    def charge(amount: int) -> dict:
        """Charges the card slowly and returns the payment."""
        runs.append(("charge", amount))
        time.sleep(0.8)
        return {"charged": amount}

    @box.tool(idempotency="key", timeout=0.3)
    def ship(order_id: str) -> dict:
        """Ships an order slowly and returns the shipment."""
        runs.append(("ship", order_id))
        time.sleep(0.8)
        return {"shipped": order_id}

    @box.tool(destructive=True, timeout=0.2)
    async def send(text: str) -> dict:
        """Sends a message slowly and returns its id."""
        runs.append(("send", text))
        await asyncio.sleep(0.8)
        return {"sent": text}

    return box


def test_queued_calls_whose_deadline_passed_never_start():
    runs: list = []
    box = make_box(runs)
    results = []
    threads = [threading.Thread(target=lambda i=i: results.append(box.call("slow_report", {"name": f"r{i}"})))
               for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    time.sleep(1.0)  # long enough for any queued call to have run, had it been left queued
    assert [r for r in runs if r[0] == "slow_report"] == [("slow_report", runs[0][1])]
    messages = sorted(r.error.message for r in results)
    assert all(r.error.code == "UPSTREAM_TIMEOUT" and r.error.retryable for r in results)
    assert sum("did not start" in m for m in messages) == 2 and sum("did not finish" in m for m in messages) == 1
    box.close()


def test_a_slow_tool_does_not_starve_a_fast_one():
    runs: list = []
    box = make_box(runs)
    threads = [threading.Thread(target=box.call, args=("slow_report", {"name": f"r{i}"})) for i in range(4)]
    for t in threads:
        t.start()
    time.sleep(0.05)
    assert box.call("fast_lookup", {"name": "x"}).data == {"entry": "x"}  # its own workers, not the slow tool's
    for t in threads:
        t.join()
    box.close()


def test_a_started_mutation_that_timed_out_is_outcome_unknown():
    runs: list = []
    box = make_box(runs)
    unknown = box.call("charge", {"amount": 5})
    assert unknown.error.code == "OUTCOME_UNKNOWN" and not unknown.error.retryable
    assert unknown.error.user_action == "reconcile" and "check whether it took effect" in unknown.error.message
    async_unknown = asyncio.run(box.acall("send", {"text": "hi"}))
    assert async_unknown.error.code == "OUTCOME_UNKNOWN" and not async_unknown.error.retryable
    box.close()


def test_with_a_key_the_retry_gets_the_late_outcome_instead_of_a_second_run():
    runs: list = []
    box = make_box(runs)
    first = box.call("ship", {"order_id": "o1", "idempotency_key": "k1"})
    assert first.error.code == "OUTCOME_UNKNOWN" and first.error.retryable
    assert "same idempotency key" in first.error.message
    assert box.call("ship", {"order_id": "o1", "idempotency_key": "k1"}).error.code == "IDEMPOTENCY_IN_PROGRESS"
    time.sleep(0.8)  # the run ends in its worker thread and its outcome is stored
    late = box.call("ship", {"order_id": "o1", "idempotency_key": "k1"})
    assert late.replayed and late.data == {"shipped": "o1"}
    assert runs.count(("ship", "o1")) == 1
    box.close()


def test_acall_keeps_the_same_promises():
    runs: list = []
    box = make_box(runs)

    async def go():
        return await asyncio.gather(*(box.acall("slow_report", {"name": f"r{i}"}) for i in range(3)))

    results = asyncio.run(go())
    time.sleep(1.0)
    assert len([r for r in runs if r[0] == "slow_report"]) == 1
    assert sum("did not start" in r.error.message for r in results) == 2
    box.close()
