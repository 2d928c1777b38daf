"""examples/food: its contracts lint clean, its server (a real `toolclause serve` process, driven by the
official MCP client over stdio) lists every tool with its contract and answers every error the app
can produce with `isError` and the envelope, and `make demo`'s script passes end to end (two HTTP
replicas on one store: a retry storm makes one order)."""

from __future__ import annotations

import json
import os
import shlex
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import anyio
import pytest
from click.testing import CliRunner
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from toolclause.cli.main import cli

FOOD = Path(__file__).resolve().parents[1] / "examples" / "food"
SERVE = [sys.executable, "-m", "toolclause.cli.main", "serve", str(FOOD / "app.py") + ":box"]
CART = {"restaurant_id": "r_napoli", "items": [{"item_id": "m_margherita", "quantity": 2}],
        "address": "12 Teheran-ro, gangnam"}


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "FOOD_DB": str(tmp_path / "food.db"), "TOOLCLAUSE_STORE": f"sqlite:///{tmp_path / 's.db'}",
            "TOOLCLAUSE_CONFIRMATION_SECRET": "x" * 32}


def test_the_contracts_have_no_finding_at_warning_level_for_any_target():
    result = CliRunner().invoke(cli, ["lint", str(FOOD / "contracts"), "--target", "all", "--format", "json",
                                      "--fail-on", "warning"])
    report = json.loads(result.stdout)
    assert result.exit_code == 0 and report["tools"] == 6
    assert [d for d in report["diagnostics"] if d["severity"] != "info"] == []


def test_the_live_server_has_no_finding_at_warning_level(env, monkeypatch):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    result = CliRunner().invoke(cli, ["lint", "--server", shlex.join(SERVE), "--format", "json", "--fail-on",
                                      "warning"])
    report = json.loads(result.stdout)
    assert result.exit_code == 0, result.output
    assert report["tools"] == 6
    assert [d for d in report["diagnostics"] if d["severity"] != "info"] == []


def test_every_tool_is_listed_and_every_error_arrives_as_a_tool_error(env):
    async def session_run() -> tuple[list[dict[str, Any]], dict[str, Any]]:
        params = StdioServerParameters(command=SERVE[0], args=SERVE[1:], env=env)
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            tools = [t.model_dump(by_alias=True, exclude_none=True) for t in (await session.list_tools()).tools]
            call = session.call_tool
            preview = await call("create_order_preview", CART)
            token = preview.meta["toolclause/confirmation"]["token"]
            key = str(uuid.uuid4())
            placed = await call("place_order", {**CART, "confirmation_token": token, "idempotency_key": key})
            order_id = placed.structured_content["order_id"]
            errors = {
                "UNKNOWN_TOOL": await call("search_restaurant", {"query": "pizza"}),
                "VALIDATION_ERROR": await call("search_restaurants", {"query": "pizza", "location": "Gangnam Station",
                                                                      "price_level": None}),
                "RESTAURANT_NOT_FOUND": await call("get_menu_items", {"restaurant_id": "r_nowhere"}),
                "RESTAURANT_CLOSED": await call("create_order_preview", {
                    **CART, "restaurant_id": "r_truffle", "items": [{"item_id": "m_truffle", "quantity": 1}]}),
                "ITEM_NOT_FOUND": await call("create_order_preview", {
                    **CART, "items": [{"item_id": "m_bibimbap", "quantity": 1}]}),
                "ITEM_UNAVAILABLE": await call("create_order_preview", {
                    **CART, "items": [{"item_id": "m_quattro", "quantity": 1}]}),
                "ADDRESS_NOT_SERVED": await call("create_order_preview", {**CART, "address": "3 Wausan-ro, hongdae"}),
                "CONFIRMATION_REQUIRED": await call("place_order", {**CART, "confirmation_token": "forged",
                                                                    "idempotency_key": str(uuid.uuid4())}),
                "CONFIRMATION_MISMATCH": await call("place_order", {
                    **CART, "items": [{"item_id": "m_margherita", "quantity": 3}], "confirmation_token": token,
                    "idempotency_key": str(uuid.uuid4())}),
                "CONFIRMATION_USED": await call("place_order", {**CART, "confirmation_token": token,
                                                                "idempotency_key": str(uuid.uuid4())}),
                "ORDER_NOT_FOUND": await call("get_order_status", {"order_id": "ord_0000000000"}),
            }
            errors["quantity"] = await call("create_order_preview", {
                **CART, "items": [{"item_id": "m_margherita", "quantity": 0}]})
            replay = await call("place_order", {**CART, "confirmation_token": token, "idempotency_key": key})
            status = await call("get_order_status", {"order_id": order_id})
            cancelled = await call("cancel_order", {"order_id": order_id, "reason": "changed_mind"})
            again = await call("cancel_order", {"order_id": order_id, "reason": "changed_mind"})
            return tools, {"errors": errors, "placed": placed, "replay": replay, "status": status,
                           "cancelled": cancelled, "again": again}

    tools, seen = anyio.run(session_run)
    by_name = {t["name"]: t for t in tools}
    assert list(by_name) == ["search_restaurants", "get_menu_items", "create_order_preview", "place_order",
                             "get_order_status", "cancel_order"]
    contracts = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in (FOOD / "contracts" / "tools").glob("*")}
    for name, tool in by_name.items():
        assert tool["annotations"] == contracts[name]["annotations"], name
        assert tool["outputSchema"]["type"] == "object" and tool["inputSchema"]["type"] == "object", name
        assert tool["description"].startswith(contracts[name]["description"]), name
    assert by_name["search_restaurants"]["_meta"]["openai/outputTemplate"] == "ui://widget/restaurants.html"

    for code, result in seen["errors"].items():
        assert result.is_error and result.structured_content is None, code  # the envelope is the text
        envelope = json.loads(result.content[0].text)
        expected = "VALIDATION_ERROR" if code == "quantity" else code
        assert envelope["ok"] is False and envelope["error"]["code"] == expected, (code, envelope)
        assert envelope["traceId"] and isinstance(envelope["error"]["retryable"], bool)
    assert "'items/0/quantity' must be 1 to 20" in json.loads(seen["errors"]["quantity"].content[0].text)["error"][
        "message"]

    assert not seen["placed"].is_error and seen["replay"].structured_content == seen["placed"].structured_content
    assert seen["replay"].meta == {"toolclause/replayed": True} and seen["placed"].meta is None
    assert seen["status"].structured_content["status"] == "placed"
    assert seen["cancelled"].structured_content["refunded"] == 35000
    assert seen["again"].structured_content == {"order_id": seen["placed"].structured_content["order_id"],
                                                "status": "cancelled", "already_cancelled": True, "refunded": 0}
    with sqlite3.connect(env["FOOD_DB"]) as conn:
        assert conn.execute("SELECT COUNT(*) FROM orders").fetchone()[0] == 1


def test_make_demo_runs_the_whole_story_and_each_check_holds():
    done = subprocess.run([sys.executable, str(FOOD / "demo.py")], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "1 order id, 1 row in the orders table" in done.stdout
    assert "FAILED" not in done.stdout
