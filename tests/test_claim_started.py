"""A run that started is never repeated; a claim that never started never blocks the key.

On every store: a tool that changes state and raises something unexpected after it started has
its answer stored (OUTCOME_UNKNOWN) and replayed, while a tool that says nothing happened (a
retryable ToolError) frees its key; a claim its claimant gave up on (CLAIMED, never marked
started) is taken over once its short window has passed, and the tool then runs once.
"""

from __future__ import annotations

import asyncio
import threading
import time
import uuid

import pytest

from toolclause import Toolbox, ToolError
from toolclause.stores import CLAIMED, IN_PROGRESS, Record, RecordKey


class Effects:
    """What the tools did, counted outside the store: the truth the answers must agree with."""

    def __init__(self) -> None:
        self.charged: list[str] = []
        self.lock = threading.Lock()

    def charge(self, order_id: str) -> None:
        with self.lock:
            self.charged.append(order_id)


def make_box(url: str, effects: Effects) -> Toolbox:
    box = Toolbox(url, lint="off")

    @box.tool(idempotency="key", errors=[{"code": "BANK_BUSY", "retryable": True}])
    def charge(order_id: str, failure: str = "") -> dict:
        """Charges the customer's card for an order and returns the payment."""
        if failure == "busy_before":
            raise ToolError("BANK_BUSY", "The bank is busy; nothing was charged.")
        if failure == "said_retryable":
            raise ToolError("GATEWAY_DOWN", "The gateway is down; nothing was charged.", retryable=True)
        effects.charge(order_id)
        if failure == "key_error":
            raise KeyError("customer_secret_4242")
        if failure == "connection":
            raise ConnectionError("receipt service at 10.0.0.7 refused")
        return {"charged": order_id}

    @box.tool(idempotency="key")
    async def charge_async(order_id: str) -> dict:
        """Charges the customer's card for an order (async) and returns the payment."""
        effects.charge(order_id)
        await asyncio.sleep(0)
        raise RuntimeError("the receipt could not be rendered")

    @box.tool(idempotency="key", idempotent=True)
    def set_status(order_id: str) -> dict:
        """Sets an order's status to shipped (repeating it changes nothing more) and returns the order."""
        effects.charge(order_id)
        raise RuntimeError("the audit log is unavailable")

    @box.tool(idempotency="content", read_only=True)
    def quote(order_id: str) -> dict:
        """Prices an order without placing it and returns the quote."""
        effects.charge(order_id)
        raise RuntimeError("the price list is unavailable")

    return box


@pytest.fixture
def setup(store_url):
    """A toolbox on each store, and the effects its tools had."""
    effects = Effects()
    made = make_box(store_url, effects)
    yield made, effects
    made.close()


def key() -> str:
    return f"k-{uuid.uuid4().hex}"


@pytest.mark.parametrize("failure", ["key_error", "connection"])
def test_an_unexpected_exception_after_the_effect_is_recorded_and_replayed_never_rerun(setup, failure):
    box, effects = setup
    k = key()
    first = box.call("charge", {"order_id": "o-1", "failure": failure, "idempotency_key": k})
    assert first.error.code == "OUTCOME_UNKNOWN"
    assert first.error.user_action == "reconcile" and not first.error.retryable and not first.replayed
    shown = str(first.to_dict())
    assert "customer_secret" not in shown and "10.0.0.7" not in shown  # nothing the exception said leaks
    for _ in range(3):
        again = box.call("charge", {"order_id": "o-1", "failure": failure, "idempotency_key": k})
        assert again.error.code == "OUTCOME_UNKNOWN" and again.replayed
    assert effects.charged == ["o-1"]


def test_an_async_tool_that_raises_after_its_effect_is_not_rerun(setup):
    box, effects = setup
    k = key()

    async def twice():
        return [await box.acall("charge_async", {"order_id": "o-2", "idempotency_key": k}) for _ in range(2)]

    first, again = asyncio.run(twice())
    assert first.error.code == "OUTCOME_UNKNOWN" and again.error.code == "OUTCOME_UNKNOWN" and again.replayed
    assert effects.charged == ["o-2"]


@pytest.mark.parametrize("failure", ["busy_before", "said_retryable"])
def test_a_tool_that_says_nothing_happened_frees_its_key(setup, failure):
    box, effects = setup
    k = key()
    for _ in range(2):
        answer = box.call("charge", {"order_id": "o-3", "failure": failure, "idempotency_key": k})
        assert answer.error.retryable and not answer.replayed
    assert box.call("charge", {"order_id": "o-3", "idempotency_key": k}).ok  # the key was never used up
    assert effects.charged == ["o-3"]


def test_tools_that_may_safely_run_again_are_run_again_after_a_crash(setup):
    box, effects = setup
    k = key()
    for _ in range(2):  # annotated idempotent: repeating it changes nothing more
        assert box.call("set_status", {"order_id": "o-4", "idempotency_key": k}).error.code == "INTERNAL_ERROR"
    for _ in range(2):  # read-only: nothing to repeat
        assert box.call("quote", {"order_id": "o-5"}).error.code == "INTERNAL_ERROR"
    assert effects.charged == ["o-4", "o-4", "o-5", "o-5"]


# --------------------------------------------------------------------------- claimed, never started


def plant_claim(box: Toolbox, order_id: str, *, claimed_at: float, window: float) -> str:
    """Write a CLAIMED record for charge(order_id) into the store, as a claimant that never started would; its key."""
    from toolclause.schema.fingerprint import fingerprint

    k = key()
    fp = fingerprint(box.registry.policies["charge"].fingerprinted({"order_id": order_id, "failure": ""}))
    end = claimed_at + window
    box.state_store.claim(Record("", "charge", k, fp, CLAIMED, "claimant", claimed_at, claimed_at, end, end),
                          claimed_at)
    return k


def test_a_claim_whose_claimant_gave_up_is_taken_over_once_its_window_passed(setup):
    # What a claim that reached the store after its claimant answered PERSISTENCE_ERROR looks like:
    # CLAIMED (never marked started), its window over.  The retry runs the tool, once.
    box, effects = setup
    k = plant_claim(box, "o-6", claimed_at=time.time() - 6, window=5)
    retried = box.call("charge", {"order_id": "o-6", "idempotency_key": k})
    assert retried.ok and not retried.replayed
    assert box.call("charge", {"order_id": "o-6", "idempotency_key": k}).replayed
    assert effects.charged == ["o-6"]


def test_a_claim_still_in_its_window_is_in_progress_not_unknown(setup):
    box, effects = setup
    k = plant_claim(box, "o-7", claimed_at=time.time(), window=60)
    answer = box.call("charge", {"order_id": "o-7", "idempotency_key": k})
    assert answer.error.code == "IDEMPOTENCY_IN_PROGRESS" and answer.error.retryable
    assert effects.charged == []


def test_a_run_is_marked_started_in_the_store_before_the_tool_runs(setup):
    box, _ = setup
    seen: list[str] = []
    k = key()

    @box.tool(idempotency="key")
    def look(order_id: str) -> dict:
        """Reads back its own claim from the store while it runs and returns the order."""
        seen.append(box.state_store.get(RecordKey("", "look", k)).status)
        return {"order_id": order_id}

    assert box.call("look", {"order_id": "o-8", "idempotency_key": k}).ok
    assert seen == [IN_PROGRESS]


def test_a_claim_taken_over_before_it_was_started_does_not_run(setup):
    box, effects = setup
    # The claimant was slow past its window; another call took the key over first. Marking started
    # compares the owner, so the slow claimant answers IN_PROGRESS and never runs.
    from toolclause.runtime.claim import CallContext

    stage = box._claim
    policy = box.registry.policies["charge"]
    k = key()
    args = {"order_id": "o-9", "failure": "", "idempotency_key": k}
    context = CallContext("charge", args, None, None, policy=policy, mutating=True)
    granted = stage._claim(context)
    claimed = granted.state["record"]
    later = claimed.created_at + stage.claim_window + 1
    taker = claimed.evolve(owner="taker", created_at=later, updated_at=later, lease_until=later + 5,
                           expires_at=later + 5)
    assert box.state_store.claim(taker, later) is None  # the window passed: the store hands the key over
    answer = stage._start(context, granted)
    assert answer.error.code == "IDEMPOTENCY_IN_PROGRESS"
    assert box.state_store.get(claimed.ident).owner == "taker"
