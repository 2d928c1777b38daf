"""The gate inside a FastMCP server (toolclause.mcp.fastmcp), driven by FastMCP's own client: in memory
and over stdio, with a real store.  Each test asserts what the model reads and what ran."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastmcp")

from fastmcp import Client  # noqa: E402
from fastmcp.client.transports import StdioTransport  # noqa: E402

from fastmcp_app import build  # noqa: E402
from sep_requests import call_with_key, call_with_text, envelope, text_of  # noqa: E402
from store_servers import free_port  # noqa: E402
from toolclause.mcp.fastmcp import GateMiddleware  # noqa: E402
from toolclause.mcp.serving import REPLAYED  # noqa: E402
from toolclause.runtime.errors import ToolboxConfigError  # noqa: E402

pytestmark = pytest.mark.anyio  # anyio's pytest plugin runs the async tests

APP = Path(__file__).with_name("fastmcp_app.py")
ADDRESS = {"street": "Teheran-ro 427", "city": "Seoul"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"  # FastMCP's in-memory transport and the tests' gather() run on asyncio


async def call(client: Client, name: str, arguments: dict[str, Any], **options: Any) -> Any:
    return await client.call_tool(name, arguments, raise_on_error=False, **options)


# --------------------------------------------------------------------------- arguments


async def test_a_misspelt_argument_gets_did_you_mean_and_the_tool_does_not_run() -> None:
    mcp, runs = build()
    async with Client(mcp) as client:
        result = await call(client, "ship", {"order_id": "o-1", "adress": ADDRESS})
    error = envelope(result)["error"]
    assert error["code"] == "VALIDATION_ERROR"
    assert "'adress' given, 'address' expected" in error["message"]
    assert runs["ship"] == 0
    shown = text_of(result)
    assert "Teheran" not in shown and "Seoul" not in shown  # no value echoed
    assert result.structured_content is None


async def test_without_the_gate_fastmcp_echoes_the_value_in_pydantic_text() -> None:
    """The 'before' of docs/integrations.md: what the gate replaces."""
    mcp, _ = build(gated=False)
    async with Client(mcp) as client:
        result = await call(client, "ship", {"order_id": "o-1", "adress": ADDRESS})
    assert result.is_error
    assert "Seoul" in text_of(result) and "did you mean" not in text_of(result)


async def test_an_extra_key_inside_a_model_is_refused_not_dropped() -> None:
    mcp, runs = build()
    async with Client(mcp) as client:
        result = await call(client, "ship", {"order_id": "o-1", "address": {**ADDRESS, "zip": "SECRET-06236"}})
    error = envelope(result)["error"]
    assert error["code"] == "VALIDATION_ERROR"
    assert error["details"][0]["path"].startswith("/address/")
    assert error["details"][0]["allowed"] == ["city", "street"]
    assert "SECRET-06236" not in text_of(result)
    assert runs["ship"] == 0


async def test_a_wrongly_typed_or_missing_argument_gets_the_envelope_never_pydantic_text() -> None:
    mcp, runs = build()
    async with Client(mcp) as client:
        wrong = await call(client, "ship", {"order_id": 8675309, "address": ADDRESS})
        missing = await call(client, "ship", {"address": ADDRESS})
    assert envelope(wrong)["error"]["details"] == [{"path": "/order_id", "problem": "type", "expected": "string"}]
    assert envelope(missing)["error"]["details"][0] == {"path": "/order_id", "problem": "required",
                                                         "expected": "string"}
    for result in (wrong, missing):
        shown = text_of(result)
        assert "8675309" not in shown and "input_value" not in shown and "pydantic" not in shown
    assert runs["ship"] == 0


async def test_double_encoded_arguments_are_repaired_and_bad_text_is_refused() -> None:
    mcp, runs = build()
    async with Client(mcp) as client:
        repaired = await call_with_text(client.session, "ship", '{"order_id": "o-1", "address": '
                                                                '{"street": "s", "city": "Busan"}}')
        refused = await call_with_text(client.session, "ship", '{"order_id": "o-1", ')
    assert not repaired.is_error and repaired.structured_content == {"shipped": "o-1", "city": "Busan", "days": 3}
    assert envelope(refused)["error"]["code"] == "INVALID_ARGUMENTS_JSON"
    assert runs["ship"] == 1


async def test_a_stringified_nested_object_is_refused_naming_the_parameter() -> None:
    mcp, runs = build()
    async with Client(mcp) as client:
        result = await call(client, "ship", {"order_id": "o-1", "address": '{"street": "s", "city": "Daegu"}'})
    assert envelope(result)["error"]["details"] == [{"path": "/address", "problem": "type", "expected": "object"}]
    assert "Daegu" not in text_of(result) and runs["ship"] == 0


# --------------------------------------------------------------------------- idempotency


# None: the default store (TOOLCLAUSE_STORE), opened by the first keyed calls, which all arrive at once
@pytest.mark.parametrize("store", ["memory://", None])
async def test_twenty_concurrent_calls_with_one_key_run_once_then_replay_and_refuse_a_conflict(store: Any) -> None:
    mcp, runs = build(store)
    async with Client(mcp) as client:
        first = await asyncio.gather(*(call_with_key(client.session, "place_order", {"item": "pizza", "quantity": 1},
                                                     "order-7") for _ in range(20)))
        # the same call written otherwise (key order, 1.0 for 1) is the same call: replayed
        again = await call_with_key(client.session, "place_order", {"quantity": 1.0, "item": "pizza"}, "order-7")
        other = await call_with_key(client.session, "place_order", {"item": "pizza", "quantity": 2}, "order-7")
    assert runs["place_order"] == 1
    # one ran; on a loaded machine a duplicate may arrive after it finished and get its outcome replayed
    done = [r for r in first if not r.is_error]
    assert [(r.meta or {}).get(REPLAYED) for r in done].count(None) == 1
    assert all(r.structured_content == {"item": "pizza", "quantity": 1} for r in done)
    for refused in (r for r in first if r.is_error):
        error = envelope(refused)["error"]
        assert error["code"] == "IDEMPOTENCY_IN_PROGRESS" and error["retryable"] is True
        assert error["details"][0]["type"] == "idempotency_key_in_progress"
    assert not again.is_error and (again.meta or {}).get(REPLAYED) is True
    assert again.structured_content == {"item": "pizza", "quantity": 1}
    conflict = envelope(other)["error"]
    assert conflict["code"] == "IDEMPOTENCY_KEY_REUSED" and conflict["details"][0]["type"] == "idempotency_key_conflict"


async def test_the_meta_key_is_honoured_and_a_keyed_tool_without_a_key_is_refused() -> None:
    mcp, runs = build()
    async with Client(mcp) as client:
        without = await call(client, "place_order", {"item": "tea", "quantity": 1})
        once = await call(client, "place_order", {"item": "tea", "quantity": 1}, meta={"idempotencyKey": "m-1"})
        twice = await call(client, "place_order", {"item": "tea", "quantity": 1}, meta={"idempotencyKey": "m-1"})
    assert envelope(without)["error"]["code"] == "IDEMPOTENCY_KEY_REQUIRED"
    assert "params.idempotencyKey" in envelope(without)["error"]["message"]
    assert not once.is_error and (twice.meta or {}).get(REPLAYED) is True
    assert runs["place_order"] == 1


async def test_a_key_argument_keys_a_tool_that_is_not_listed() -> None:
    mcp, runs = build()
    async with Client(mcp) as client:
        first = await call(client, "send_receipt", {"order_id": "o-1", "request_id": "r-1"})
        retry = await call(client, "send_receipt", {"order_id": "o-1", "request_id": "r-1"})
        reused = await call(client, "send_receipt", {"order_id": "o-2", "request_id": "r-1"})
    assert not first.is_error and (retry.meta or {}).get(REPLAYED) is True
    assert envelope(reused)["error"]["code"] == "IDEMPOTENCY_KEY_REUSED"
    assert runs["send_receipt"] == 1


async def test_a_replay_of_a_tool_without_output_schema_gives_its_content_again() -> None:
    mcp, runs = build()
    async with Client(mcp) as client:
        listed = {tool.name: tool for tool in await client.list_tools()}
        first = await call(client, "add_note", {"text": "milk", "request_id": "n-1"})
        again = await call(client, "add_note", {"text": "milk", "request_id": "n-1"})
    assert listed["add_note"].output_schema is None
    assert text_of(first) == text_of(again) == "noted (1)" and (again.meta or {}).get(REPLAYED) is True
    assert runs["add_note"] == 1


# --------------------------------------------------------------------------- answers


async def test_output_is_checked_against_the_output_schema() -> None:
    mcp, runs = build()
    async with Client(mcp) as client:
        result = await call(client, "broken_total", {})
    error = envelope(result)["error"]
    assert error["code"] == "OUTPUT_CONTRACT_VIOLATION"
    assert error["details"] == [{"path": "/total", "problem": "type", "expected": "number"}]
    assert result.structured_content is None and runs["broken_total"] == 1


async def test_a_tools_own_error_reaches_the_model_and_a_crash_shows_no_internals() -> None:
    mcp, _ = build()
    async with Client(mcp) as client:
        own = await call(client, "find_order", {"order_id": "o-404"})
        crashed = await call(client, "crash", {})
    assert envelope(own)["error"]["code"] == "TOOL_ERROR"
    assert "list the orders first" in envelope(own)["error"]["message"]
    assert envelope(crashed)["error"]["code"] == "INTERNAL_ERROR"
    assert "db.internal" not in text_of(crashed) and "admin" not in text_of(crashed)


async def test_a_tool_added_or_changed_later_is_gated_by_its_new_listing() -> None:
    mcp, runs = build()
    async with Client(mcp) as client:
        assert not (await call(client, "ship", {"order_id": "o-1", "address": ADDRESS})).is_error

        @mcp.tool
        def refund(order_id: str, amount: float) -> dict[str, Any]:
            """Refund an order."""
            runs["refund"] += 1
            return {"refunded": order_id}

        result = await call(client, "refund", {"order_id": "o-1", "amout": 3})
    assert "'amout' given, 'amount' expected" in envelope(result)["error"]["message"]
    assert runs["refund"] == 0


async def test_a_tool_replaced_under_its_name_is_gated_by_its_new_listing_once_the_client_lists_again() -> None:
    mcp, runs = build()

    def refund(order_id: str, amount: float) -> dict[str, Any]:
        """Refund an amount."""
        runs["refund"] += 1
        return {"refunded": order_id}

    def refund_in_cents(order_id: str, cents: int) -> dict[str, Any]:
        """Refund a number of cents."""
        runs["refund_in_cents"] += 1
        return {"refunded": order_id}

    mcp.tool(refund)
    async with Client(mcp) as client:
        assert not (await call(client, "refund", {"order_id": "o-1", "amount": 2.5})).is_error
        mcp.local_provider.remove_tool("refund")
        mcp.tool(refund_in_cents, name="refund")
        await client.list_tools()  # what a client does when told the tool list changed
        new = await call(client, "refund", {"order_id": "o-1", "cents": 250})
        old = await call(client, "refund", {"order_id": "o-1", "amount": 2.5})
    assert not new.is_error
    assert "'cents' is missing" in envelope(old)["error"]["message"]
    assert runs == {"refund": 1, "refund_in_cents": 1}


async def test_a_tool_removed_after_the_gate_looked_it_up_gets_unknown_tool_not_a_crash() -> None:
    from fastmcp.server.middleware import Middleware

    mcp, runs = build()

    class RemovesTheTool(Middleware):  # inside the gate: the tool goes between its lookup and the call
        async def on_call_tool(self, context: Any, call_next: Any) -> Any:
            mcp.local_provider.remove_tool(context.message.name)
            return await call_next(context)

    mcp.add_middleware(RemovesTheTool())
    async with Client(mcp) as client:
        gone = await call(client, "send_receipt", {"order_id": "o-2", "request_id": "r-10"})
    assert envelope(gone)["error"]["code"] == "UNKNOWN_TOOL"
    assert runs["send_receipt"] == 0


def test_middleware_options_are_checked_when_it_is_made() -> None:
    with pytest.raises(ValueError, match="idempotency"):
        GateMiddleware(idempotency={"place_order": "sometimes"})
    with pytest.raises(ToolboxConfigError):
        GateMiddleware(store="cassandra://nowhere")


# --------------------------------------------------------------------------- a real process, over stdio


@pytest.mark.timeout(120)
async def test_over_stdio_with_a_sqlite_store(tmp_path: Path) -> None:
    transport = StdioTransport(sys.executable, [str(APP)], cwd=str(Path(__file__).resolve().parents[1]),
                               env={"TOOLCLAUSE_STORE": f"sqlite:///{tmp_path / 'state.db'}",
                                    "PYTHONPATH": str(Path(__file__).resolve().parents[1])})
    async with Client(transport) as client:
        misspelt = await call(client, "ship", {"order_id": "o-1", "adress": ADDRESS})
        keyed = await asyncio.gather(*(call_with_key(client.session, "place_order", {"item": "rice", "quantity": 2},
                                                     "stdio-1") for _ in range(20)))
        conflict = await call_with_key(client.session, "place_order", {"item": "rice", "quantity": 3}, "stdio-1")
        counts = (await call(client, "run_counts", {})).structured_content
    assert "'adress' given, 'address' expected" in envelope(misspelt)["error"]["message"]
    assert "Seoul" not in text_of(misspelt)
    assert [(r.meta or {}).get(REPLAYED) for r in keyed if not r.is_error].count(None) == 1
    assert envelope(conflict)["error"]["details"][0]["type"] == "idempotency_key_conflict"
    assert counts == {"place_order": 1}


async def test_the_after_docs_integrations_shows_is_what_the_model_reads() -> None:
    doc = (Path(__file__).resolve().parents[1] / "docs" / "integrations.md").read_text(encoding="utf-8")
    shown = next(json.loads(line) for line in doc.splitlines() if line.startswith('{"ok":false') and "ship:" in line)
    mcp, _ = build()
    async with Client(mcp) as client:
        result = await call(client, "ship", {"order_id": "o-1", "adress": {"street": "Teheran-ro 427",
                                                                           "city": "Seoul"}})
    assert envelope(result)["error"] == shown["error"]


@pytest.mark.timeout(120)
async def test_over_http_two_replicas_share_one_store(tmp_path: Path) -> None:
    """Two server processes on one SQLite file, as replicas behind a balancer: one key, one run."""
    env = {**os.environ, "TOOLCLAUSE_STORE": f"sqlite:///{tmp_path / 'state.db'}",
           "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    ports = [free_port(), free_port()]
    replicas = [subprocess.Popen([sys.executable, str(APP), "--http", str(port)], env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for port in ports]
    try:
        clients = [Client(f"http://127.0.0.1:{port}/mcp") for port in ports]
        for client in clients:
            await _connect(client)
        try:
            keyed = await asyncio.gather(*(call_with_key(clients[i % 2].session, "place_order",
                                                         {"item": "soup", "quantity": 1}, "http-1") for i in range(10)))
            misspelt = await call(clients[1], "ship", {"order_id": "o-1", "adress": ADDRESS})
            counts = [(await call(client, "run_counts", {})).structured_content for client in clients]
        finally:
            for client in clients:
                await client.__aexit__(None, None, None)
    finally:
        for replica in replicas:
            replica.terminate()
            replica.wait(10)
    assert [(r.meta or {}).get(REPLAYED) for r in keyed if not r.is_error].count(None) == 1
    assert sum(count.get("place_order", 0) for count in counts) == 1
    assert "'adress' given, 'address' expected" in envelope(misspelt)["error"]["message"]


async def _connect(client: Client, seconds: float = 60.0) -> None:
    """Enter the client once its server listens (a process just started)."""
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        try:
            await client.__aenter__()
            return
        except Exception:  # noqa: BLE001 - not listening yet: try again until the deadline
            if asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(0.2)
