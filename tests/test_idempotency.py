"""Idempotent calls through the gate, on every store: one execution per key, and honest answers otherwise."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid

import pytest

from toolclause import Toolbox, ToolError
from toolclause.stores import IN_PROGRESS, Record, RecordKey


class Ledger:
    """Counts executions outside the store: the truth the store must agree with."""

    def __init__(self) -> None:
        self.runs: list[dict] = []
        self.lock = threading.Lock()

    def add(self, **entry) -> int:
        with self.lock:
            self.runs.append(entry)
            return len(self.runs)


def make_box(url: str, ledger: Ledger, **options) -> Toolbox:
    box = Toolbox(url, lint="off", **options)

    @box.tool(idempotency="key", errors=[{"code": "CARD_DECLINED", "retryable": False},
                                         {"code": "BANK_BUSY", "retryable": True}])
    def charge(order_id: str, amount: int, pause: float = 0.0) -> dict:
        """Charges the customer's card for an order and returns the payment."""
        n = ledger.add(tool="charge", order_id=order_id)
        time.sleep(pause)
        if order_id == "declined":
            raise ToolError("CARD_DECLINED", "The card was declined.")
        if order_id == "busy":
            raise ToolError("BANK_BUSY", "The bank is busy; try again.")
        return {"payment": n, "amount": amount}

    @box.tool(idempotency="key")
    def count_nothing(order_id: str) -> int:
        """Returns zero for an order (a falsy result must be stored and replayed too)."""
        ledger.add(tool="count_nothing")
        return 0

    @box.tool(idempotency="host")
    def send_email(to: str, body: str) -> dict:
        """Sends one email and returns its message id."""
        return {"message": ledger.add(tool="send_email", to=to)}

    @box.tool(idempotency="content", read_only=True)
    def quote(items: list[str]) -> dict:
        """Prices a basket of items and returns the quote."""
        return {"quote": ledger.add(tool="quote"), "items": items}

    @box.tool(idempotency="key", idempotent=True)
    def set_status(order_id: str, status: str) -> dict:
        """Sets an order's status (repeating it changes nothing more) and returns the order."""
        ledger.add(tool="set_status")
        return {"order_id": order_id, "status": status}

    return box


@pytest.fixture
def ledger():
    return Ledger()


@pytest.fixture
def box(store_url, ledger):
    made = make_box(store_url, ledger)
    yield made
    made.close()


def key() -> str:
    return f"k-{uuid.uuid4().hex}"


def test_the_same_key_runs_once_and_replays_the_stored_result(box, ledger):
    k = key()
    first = box.call("charge", {"order_id": "o1", "amount": 500, "idempotency_key": k})
    again = box.call("charge", {"order_id": "o1", "amount": 500, "idempotency_key": k})
    assert first.ok and not first.replayed and first.to_dict() == {"ok": True, "data": {"payment": 1, "amount": 500}}
    assert again.to_dict() == {"ok": True, "data": {"payment": 1, "amount": 500}, "replayed": True}
    assert len(ledger.runs) == 1
    zero = key()
    assert box.call("count_nothing", {"order_id": "o", "idempotency_key": zero}).data == 0
    replayed = box.call("count_nothing", {"order_id": "o", "idempotency_key": zero})
    assert replayed.data == 0 and replayed.replayed and replayed.to_mcp()["structuredContent"] == {"result": 0}
    assert len(ledger.runs) == 2


def test_a_replay_survives_a_new_toolbox_on_the_same_store(store_url, ledger):
    if store_url == "memory://":
        pytest.skip("memory:// keeps records in one Toolbox only")
    k = key()
    one, two = make_box(store_url, ledger), make_box(store_url, ledger)
    assert one.call("charge", {"order_id": "o1", "amount": 5, "idempotency_key": k}).ok
    assert two.call("charge", {"order_id": "o1", "amount": 5, "idempotency_key": k}).replayed
    assert len(ledger.runs) == 1
    one.close(), two.close()


def test_the_same_key_with_other_arguments_is_refused(box, ledger):
    k = key()
    assert box.call("charge", {"order_id": "o1", "amount": 500, "idempotency_key": k}).ok
    reused = box.call("charge", {"order_id": "o1", "amount": 900, "idempotency_key": k})
    assert reused.error.code == "IDEMPOTENCY_KEY_REUSED" and not reused.error.retryable
    # the same arguments written differently are the same operation
    assert box.call("charge", f'{{"amount": 500.0, "idempotency_key": "{k}", "order_id": "o1"}}').replayed
    assert len(ledger.runs) == 1


def test_business_failures_are_stored_and_replayed_transient_ones_are_not(box, ledger):
    k = key()
    declined = box.call("charge", {"order_id": "declined", "amount": 1, "idempotency_key": k})
    assert declined.error.code == "CARD_DECLINED" and not declined.replayed
    again = box.call("charge", {"order_id": "declined", "amount": 1, "idempotency_key": k})
    assert again.error.code == "CARD_DECLINED" and again.to_dict()["replayed"] is True
    assert len(ledger.runs) == 1
    busy = key()
    for _ in range(2):  # retryable: nothing stored, so the retry runs
        assert box.call("charge", {"order_id": "busy", "amount": 1, "idempotency_key": busy}).error.code == "BANK_BUSY"
    assert len(ledger.runs) == 3


def test_key_sources_and_their_precedence(box, ledger):
    host, header, meta, arg = key(), key(), key(), key()
    base = {"order_id": "o1", "amount": 1}
    assert box.call("charge", {**base, "idempotency_key": arg}, idempotency_key=host,
                    headers={"Idempotency-Key": header}, meta={"idempotencyKey": meta}).ok
    assert box.call("charge", {**base, "idempotency_key": "other"}, idempotency_key=host).replayed  # the host's wins
    assert box.call("charge", {**base, "idempotency_key": arg}, headers={"idempotency-key": header},
                    meta={"idempotencyKey": meta}).ok  # no host key: the header's, a new operation
    assert box.call("charge", {**base, "idempotency_key": arg}, headers={"IDEMPOTENCY-KEY": header}).replayed
    assert box.call("charge", base, meta={"idempotencyKey": meta}).ok  # the host's key fills the required argument
    assert box.call("charge", {**base, "idempotency_key": meta}).replayed
    assert len(ledger.runs) == 3


def test_host_supplied_keys_never_appear_in_the_schema(box, ledger):
    schema = box.contract("send_email").input_schema
    assert "idempotency_key" not in schema["properties"]
    args = {"to": "a@example.com", "body": "hi"}
    missing = box.call("send_email", args)
    assert missing.error.code == "IDEMPOTENCY_KEY_REQUIRED" and "pass idempotency_key" in missing.error.message
    assert box.call("send_email", args, idempotency_key="run-7/call 3").ok  # any host id: hashed into a valid key
    assert box.call("send_email", args, idempotency_key="run-7/call 3").replayed
    call_id = f"call_{uuid.uuid4().hex}"
    assert box.call("send_email", args, call_id=call_id).ok  # an agent framework's call id is the key
    assert box.call("send_email", args, call_id=call_id).replayed
    assert box.call("send_email", {**args, "idempotency_key": "x"}).error.code == "VALIDATION_ERROR"
    assert len(ledger.runs) == 2


def test_content_keys_make_the_same_arguments_the_same_call(box, ledger):
    first = box.call("quote", {"items": ["a", "b"]})
    assert box.call("quote", {"items": ["a", "b"]}).to_dict() == {**first.to_dict(), "replayed": True}
    assert not box.call("quote", {"items": ["b", "a"]}).replayed
    assert len(ledger.runs) == 2


def test_principals_never_share_a_key(box, ledger):
    k = key()
    for principal in ("alice", "bob", "alice"):
        assert box.call("charge", {"order_id": "o1", "amount": 1, "idempotency_key": k}, principal=principal).ok
    assert len(ledger.runs) == 2


def test_a_duplicate_of_a_running_call_is_told_so_or_waits(box, ledger):
    k = key()
    args = {"order_id": "o1", "amount": 1, "pause": 0.6, "idempotency_key": k}
    results = {}
    worker = threading.Thread(target=lambda: results.setdefault("first", box.call("charge", args)))
    worker.start()
    time.sleep(0.2)
    busy = box.call("charge", args)
    assert busy.error.code == "IDEMPOTENCY_IN_PROGRESS" and busy.error.retryable
    assert busy.error.details[0]["retryAfterMs"] == 1000
    waited = box.call("charge", args, wait=5)
    worker.join()
    assert waited.replayed and waited.data == results["first"].data
    assert len(ledger.runs) == 1


def test_async_calls_claim_too(box, ledger):
    k = key()

    async def twice():
        args = {"order_id": "o1", "amount": 1, "idempotency_key": k}
        return await box.acall("charge", args), await box.acall("charge", args)

    first, second = asyncio.run(twice())
    assert first.ok and second.replayed and len(ledger.runs) == 1


def test_records_expire_after_their_retention(store_url, ledger):
    box = make_box(store_url, ledger, retention=0.3)
    k = key()
    assert box.call("charge", {"order_id": "o1", "amount": 1, "idempotency_key": k}).ok
    time.sleep(0.5)
    fresh = box.call("charge", {"order_id": "o1", "amount": 1, "idempotency_key": k})
    assert fresh.ok and not fresh.replayed and len(ledger.runs) == 2
    box.close()


def test_the_lease_is_renewed_while_the_tool_runs(store_url, ledger):
    box = make_box(store_url, ledger, lease=0.3)
    k = key()
    args = {"order_id": "o1", "amount": 1, "pause": 1.2, "idempotency_key": k}
    worker = threading.Thread(target=box.call, args=("charge", args))
    worker.start()
    time.sleep(0.9)  # three leases later, the claim still holds: it was renewed
    assert box.call("charge", args).error.code == "IDEMPOTENCY_IN_PROGRESS"
    worker.join()
    assert box.call("charge", args).replayed and len(ledger.runs) == 1
    box.close()


def _stale_claim(box: Toolbox, tool: str, k: str, arguments: dict) -> None:
    """An in-progress record whose owner stopped long ago (its lease expired): what a crashed process leaves."""
    from toolclause.schema.fingerprint import fingerprint

    now = time.time()
    fp = fingerprint({a: v for a, v in arguments.items() if a != "idempotency_key"})
    record = Record("", tool, k, fp, IN_PROGRESS, "crashed-owner", now - 60, now - 60, now - 30, now + 3600)
    assert box.state_store.claim(record, now) is None


def test_an_expired_lease_is_outcome_unknown_unless_the_tool_is_idempotent(box, ledger):
    k = key()
    args = {"order_id": "o1", "amount": 1, "idempotency_key": k}
    _stale_claim(box, "charge", k, {**args, "pause": 0.0})
    unknown = box.call("charge", args)
    assert unknown.error.code == "OUTCOME_UNKNOWN" and unknown.error.user_action == "reconcile"
    assert not unknown.error.retryable and box.call("charge", args).error.code == "OUTCOME_UNKNOWN"
    rerun = {"order_id": "o1", "status": "shipped", "idempotency_key": k}
    _stale_claim(box, "set_status", k, rerun)
    assert box.call("set_status", rerun).ok  # annotated idempotent: a fresh run
    assert box.call("set_status", rerun).replayed
    assert [r["tool"] for r in ledger.runs] == ["set_status"]
    assert box.state_store.get(RecordKey("", "set_status", k)).status == "COMPLETED"


def test_an_unusable_store_fails_closed(tmp_path, ledger):
    import sqlite3

    box = make_box(f"sqlite:///{tmp_path}/state.db", ledger)
    conn = sqlite3.connect(tmp_path / "state.db")
    conn.execute("DROP TABLE toolclause_records")
    conn.commit()
    failed = box.call("charge", {"order_id": "o1", "amount": 1, "idempotency_key": key()})
    assert failed.error.code == "PERSISTENCE_ERROR" and "toolclause_records" not in failed.error.message
    assert ledger.runs == []  # nothing ran
    assert box.call("quote", {"items": []}).error.code == "PERSISTENCE_ERROR"
