"""Every error code of the input, business, infrastructure and contract layers; sync and async; the log."""

from __future__ import annotations

import asyncio
import logging
import re
import socket
import time
from pathlib import Path

import pytest

from toolclause import Toolbox, ToolError
from toolclause.runtime import CODES, PersistenceError
from toolclause.runtime.claim import Ticket

SEMANTICS = Path(__file__).resolve().parents[1] / "docs" / "runtime.md"


ERRORS = [{"code": "ORDER_NOT_FOUND", "retryable": False, "userAction": "check_order_id"},
          {"code": "OUT_OF_STOCK", "retryable": True, "userAction": "retry_later"}]


def make_box(**options) -> Toolbox:
    box = Toolbox("memory://", lint="off", **options)

    @box.tool(errors=ERRORS)
    def get_order(order_id: str, mode: str = "ok") -> dict:
        """Returns one order by its id."""
        return _behave(order_id, mode)

    @box.tool(errors=ERRORS)
    async def get_order_async(order_id: str, mode: str = "ok") -> dict:
        """Returns one order by its id (async)."""
        await asyncio.sleep(0)
        return _behave(order_id, mode)

    @box.tool(timeout=0.05)
    def slow_sync(seconds: float) -> dict:
        """Sleeps, then answers."""
        time.sleep(seconds)
        return {"slept": seconds}

    @box.tool(timeout=0.05)
    async def slow_async(seconds: float) -> dict:
        """Sleeps, then answers (async)."""
        await asyncio.sleep(seconds)
        return {"slept": seconds}

    return box


def _behave(order_id: str, mode: str) -> dict:
    if mode == "missing":
        raise ToolError("ORDER_NOT_FOUND", "No order with that id.")
    if mode == "stock":
        raise ToolError("OUT_OF_STOCK", "Sold out for now.")
    if mode == "undeclared":
        raise ToolError("WAREHOUSE_CLOSED", "The warehouse is closed today.")
    if mode == "rate":
        raise ToolError("RATE_LIMITED", "Too many requests.")
    if mode == "timeout":
        raise TimeoutError("read timed out from db-7.internal")
    if mode == "conn":
        raise ConnectionRefusedError("connect to 10.0.0.7:5432 refused")
    if mode == "dns":
        raise socket.gaierror("Name or service not known: payments.internal")
    if mode == "bug":
        raise KeyError("customer_secret")
    if mode == "file":
        raise FileNotFoundError("/srv/app/config.yaml")
    if mode == "bad_output":
        return ["not", "an", "object"]  # type: ignore[return-value]
    return {"order_id": order_id}


def run(box: Toolbox, tool: str, args, is_async: bool):
    if is_async:
        return asyncio.run(box.acall(tool, args))
    return box.call(tool, args)


MODES = [
    ("missing", "ORDER_NOT_FOUND", False, "check_order_id"),
    ("stock", "OUT_OF_STOCK", True, "retry_later"),
    ("undeclared", "WAREHOUSE_CLOSED", False, "contact_support"),
    ("rate", "RATE_LIMITED", True, "retry_later"),
    ("timeout", "UPSTREAM_TIMEOUT", True, "retry_later"),
    ("conn", "UPSTREAM_UNAVAILABLE", True, "retry_later"),
    ("dns", "UPSTREAM_UNAVAILABLE", True, "retry_later"),
    ("bug", "INTERNAL_ERROR", False, "contact_support"),
    ("file", "INTERNAL_ERROR", False, "contact_support"),
    ("bad_output", "OUTPUT_CONTRACT_VIOLATION", False, "contact_support"),
]


@pytest.mark.parametrize("is_async", [False, True], ids=["call", "acall"])
@pytest.mark.parametrize("tool", ["get_order", "get_order_async"])
@pytest.mark.parametrize("mode, code, retryable, action", MODES, ids=[m[0] for m in MODES])
def test_business_infrastructure_and_contract_codes(tool, is_async, mode, code, retryable, action):
    result = run(make_box(), tool, {"order_id": "o1", "mode": mode}, is_async)
    assert not result.ok
    assert (result.error.code, result.error.retryable, result.error.user_action) == (code, retryable, action)
    assert result.error.message.startswith(tool) or code in ("ORDER_NOT_FOUND", "OUT_OF_STOCK", "WAREHOUSE_CLOSED",
                                                             "RATE_LIMITED")
    assert result.trace_id and result.to_dict()["traceId"] == result.trace_id


@pytest.mark.parametrize("is_async", [False, True], ids=["call", "acall"])
@pytest.mark.parametrize("tool", ["get_order", "get_order_async"])
def test_sync_and_async_tools_succeed_through_both_entry_points(tool, is_async):
    result = run(make_box(), tool, '{"order_id": "o1"}', is_async)
    assert result.ok and result.data == {"order_id": "o1"}
    assert result.to_dict() == {"ok": True, "data": {"order_id": "o1"}}


@pytest.mark.parametrize("is_async", [False, True], ids=["call", "acall"])
@pytest.mark.parametrize("tool", ["slow_sync", "slow_async"])
def test_a_tool_past_its_own_timeout_is_upstream_timeout(tool, is_async):
    box = make_box()
    result = run(box, tool, {"seconds": 1.0}, is_async)
    assert result.error.code == "UPSTREAM_TIMEOUT" and result.error.retryable
    assert "did not finish within 0.05 s" in result.error.message
    assert run(box, tool, {"seconds": 0.0}, is_async).ok
    box.close()


def test_sync_call_of_an_async_tool_inside_a_running_loop():
    box = make_box()

    async def inside():
        return box.call("get_order_async", {"order_id": "o9"})

    assert asyncio.run(inside()).data == {"order_id": "o9"}
    box.close()


def test_unknown_tool_with_did_you_mean():
    result = make_box().call("get_ordr", {})
    assert result.error.code == "UNKNOWN_TOOL" and "did you mean 'get_order'?" in result.error.message
    assert not result.error.retryable
    assert make_box().call(None, {}).error.code == "UNKNOWN_TOOL"


def test_repeated_invalid_call_and_the_correction_budget():
    box = make_box()
    first = box.call("get_order", {"orderid": "o1"}, run="r1")
    assert first.error.code == "VALIDATION_ERROR"
    again = box.call("get_order", '{"orderid": "o1"}', run="r1")
    assert again.error.code == "REPEATED_INVALID_CALL"
    assert "same invalid arguments" in again.error.message and "'orderid' given, 'order_id' expected" in \
        again.error.message
    # another run has its own state
    assert box.call("get_order", {"orderid": "o1"}, run="r2").error.code == "VALIDATION_ERROR"
    # three more different mistakes are corrections; the next one exhausts the budget
    for attempt in range(3):
        assert box.call("get_order", {"order": attempt}, run="r3").error.code == "VALIDATION_ERROR"
    assert box.call("get_order", {"order": 99}, run="r3").error.code == "VALIDATION_ERROR"
    exhausted = box.call("get_order", {"order": 100}, run="r3")
    assert exhausted.error.code == "REPEATED_INVALID_CALL" and "stop guessing" in exhausted.error.message
    # a valid call ends the episode
    assert box.call("get_order", {"order_id": "o1"}, run="r3").ok
    assert box.call("get_order", {"order": 100}, run="r3").error.code == "VALIDATION_ERROR"


def test_repeated_unparseable_text_counts_too():
    box = make_box()
    assert box.call("get_order", "{oops", run="r").error.code == "INVALID_ARGUMENTS_JSON"
    assert box.call("get_order", "{oops", run="r").error.code == "REPEATED_INVALID_CALL"


class _FailingStore:
    active = True

    def __init__(self, when: str) -> None:
        self.when = when

    def claim(self, call):
        if self.when == "claim":
            raise PersistenceError("db-7.internal: connection reset")
        return Ticket(call)

    def complete(self, ticket, result):
        if self.when == "complete":
            raise PersistenceError("disk full at /var/lib/state.db")

    def release(self, ticket):
        return None


@pytest.mark.parametrize("when, action", [("claim", "retry_later"), ("complete", "reconcile")])
def test_persistence_error_from_the_claim_stage(when, action):
    box = make_box(claim_stage=_FailingStore(when))
    result = box.call("get_order", {"order_id": "o1"})
    assert result.error.code == "PERSISTENCE_ERROR" and result.error.user_action == action
    assert not result.error.retryable
    assert "db-7" not in result.error.message and "/var/lib" not in result.error.message


def test_one_structured_log_record_per_call_with_the_exception_only_there(caplog):
    box = make_box()
    caplog.set_level(logging.INFO, logger="toolclause.runtime")
    ok = box.call("get_order", {"order_id": "o1"})
    bug = box.call("get_order", {"order_id": "o1", "mode": "bug"})
    records = [r for r in caplog.records if r.name == "toolclause.runtime" and hasattr(r, "outcome")]
    assert [r.outcome for r in records] == ["ok", "INTERNAL_ERROR"]
    assert records[0].trace_id == ok.trace_id and records[0].tool == "get_order" and records[0].duration_ms >= 0
    assert records[1].trace_id == bug.trace_id and records[1].exc_info and records[1].levelno == logging.ERROR
    assert "customer_secret" in caplog.text and "customer_secret" not in str(bug.to_dict())


def test_output_contract_violation_is_logged_loudly(caplog):
    caplog.set_level(logging.INFO, logger="toolclause.runtime")
    result = make_box().call("get_order", {"order_id": "o1", "mode": "bad_output"})
    assert result.error.code == "OUTPUT_CONTRACT_VIOLATION"
    assert any(r.levelno == logging.ERROR and "OUTPUT_CONTRACT_VIOLATION" in r.getMessage() for r in caplog.records)


def test_undeclared_business_error_is_returned_and_logged_as_a_contract_gap(caplog):
    caplog.set_level(logging.WARNING, logger="toolclause.runtime")
    result = make_box().call("get_order", {"order_id": "o1", "mode": "undeclared"})
    assert result.error.code == "WAREHOUSE_CLOSED" and result.error.message == "The warehouse is closed today."
    assert "contract gap" in caplog.text


def test_the_code_table_matches_the_runtime_documentation():
    text = SEMANTICS.read_text()
    table = text[text.index("## Error codes"):text.index("## Idempotency")]
    documented = set(re.findall(r"`([A-Z][A-Z_]+)`", table)) - {"ORDER_NOT_FOUND", "OUT_OF_STOCK"}
    assert documented == set(CODES)
    for code in ("UPSTREAM_UNAVAILABLE", "UPSTREAM_TIMEOUT", "RATE_LIMITED", "IDEMPOTENCY_IN_PROGRESS"):
        assert CODES[code].retryable
    assert not any(CODES[c].retryable for c in CODES if CODES[c].layer in ("input", "contract"))
    from toolclause.rules.result.r001_unstructured_error import STANDARD_CODES

    assert STANDARD_CODES == set(CODES)


def test_an_unknown_tool_name_is_not_repeated_back():
    from toolclause import Toolbox

    box = Toolbox()

    @box.tool(read_only=True)
    def echo(text: str) -> dict:
        """Return the text unchanged. Changes nothing."""
        return {"text": text}

    sent = "ecoh\x1b[31m sk-live-0123456789abcdef"
    result = box.call(sent, {"text": "x"})
    text = str(result.to_dict())
    assert result.error.code == "UNKNOWN_TOOL" and "sk-live" not in text and "\x1b" not in text
    assert "the tools are: echo" in result.error.message and result.tool == ""
    near = box.call("ecoh", {"text": "x"})
    assert "did you mean 'echo'?" in near.error.message and near.tool == "ecoh"
