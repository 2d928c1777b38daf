"""SEP-3182's `params.idempotencyKey` on tools/call, honoured by `serve` and `proxy` (the SDK's typed params
drop it; the servers lift it from the raw request), with the SEP's `type` in the refusals' first detail."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path
from typing import Any

import anyio
import mcp_types as mt
from mcp.client.client import Client
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from sep_requests import KeyedCall, KeyedParams, call_with_key, envelope
from toolclause import Toolbox
from toolclause.mcp.serving import REPLAYED, ToolboxServer

UPSTREAM = Path(__file__).parent / "fixtures" / "serving" / "upstream.py"


def test_serve_runs_a_tool_once_per_params_idempotency_key() -> None:
    box = Toolbox("memory://")
    orders: list[int] = []

    @box.tool(idempotency="key")
    def place_order(item: str, quantity: int) -> dict[str, Any]:
        """Place an order for an item; reuse the same key when retrying."""
        orders.append(quantity)
        return {"order": len(orders)}

    async def scenario() -> list[Any]:
        async with Client(ToolboxServer(box), mode="legacy") as client:
            session = client.session
            return [await call_with_key(session, "place_order", {"item": "tea", "quantity": 1}, "sep-1"),
                    # the same call written otherwise: another key order, 1.0 for 1
                    await call_with_key(session, "place_order", {"quantity": 1.0, "item": "tea"}, "sep-1"),
                    await call_with_key(session, "place_order", {"item": "tea", "quantity": 2}, "sep-1"),
                    # params.idempotencyKey wins over _meta's
                    await session.send_request(
                        _keyed_with_meta("place_order", {"item": "tea", "quantity": 1}, "sep-1", "meta-9"),
                        mt.CallToolResult)]

    first, again, conflict, both = anyio.run(scenario)
    assert first.structured_content == {"order": 1}
    assert again.structured_content == {"order": 1} and (again.meta or {}).get(REPLAYED) is True
    error = envelope(conflict)["error"]
    assert error["code"] == "IDEMPOTENCY_KEY_REUSED" and error["details"][0]["type"] == "idempotency_key_conflict"
    assert (both.meta or {}).get(REPLAYED) is True
    assert orders == [1]


def test_proxy_honours_params_idempotency_key_over_the_key_argument(tmp_path: Path) -> None:
    log = tmp_path / "upstream.log"
    env = {**os.environ, "SERVE_TEST_LOG": str(log)}
    argv = ["-m", "toolclause.cli.main", "proxy", "--server", shlex.join([sys.executable, str(UPSTREAM)]),
            "--store", f"sqlite:///{tmp_path / 'state.db'}"]

    async def scenario() -> list[Any]:
        params = StdioServerParameters(command=sys.executable, args=argv, env=env)
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return [await call_with_key(session, "add_note", {"text": "milk", "request_id": "r-1"}, "sep-7"),
                    await call_with_key(session, "add_note", {"text": "milk", "request_id": "r-1"}, "sep-7"),
                    # a new request_id, but the request's key is the one already used: refused, not run
                    await call_with_key(session, "add_note", {"text": "bread", "request_id": "r-2"}, "sep-7")]

    first, again, reused = anyio.run(scenario)
    assert first.structured_content == {"id": 1}
    assert again.structured_content == {"id": 1} and (again.meta or {}).get(REPLAYED) is True
    assert envelope(reused)["error"]["details"][0]["type"] == "idempotency_key_conflict"
    assert log.read_text().splitlines() == ["add_note milk"]



def _keyed_with_meta(name: str, arguments: dict[str, Any], key: str, meta_key: str) -> KeyedCall:
    return KeyedCall(params=KeyedParams.model_validate(
        {"name": name, "arguments": arguments, "idempotencyKey": key, "_meta": {"idempotencyKey": meta_key}}))
