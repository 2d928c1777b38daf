"""A confirmation the model cannot forge, against a real `toolclause serve` process (examples/food) driven by
the official MCP client over stdio.

A scripted "model" sees only what a model is given — each result's `content` and `structuredContent` — and
tries everything it could do with that: it never places an order.  The user's side can, once: the widget
(which reads the preview result's `_meta`) through its confirm button, and, in a client without widgets, the
user answering the server's elicitation.
"""

from __future__ import annotations

import json
import re
import shlex
import sqlite3
import sys
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
import mcp_types as types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

import test_food_example as food_example

CART, SERVE = food_example.CART, food_example.SERVE
env = food_example.env  # the same fixture: a fresh database, store and confirmation secret per test


@asynccontextmanager
async def connected(env: dict[str, str], elicit: Callable[..., Any] | None = None) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(command=SERVE[0], args=SERVE[1:], env=env)
    async with stdio_client(params) as (read, write), ClientSession(read, write, elicitation_callback=elicit) as s:
        await s.initialize()
        yield s


def model_view(result: Any) -> str:
    """All a model is given of a tool result: its text blocks and its structuredContent."""
    texts = [block.text for block in result.content if isinstance(block, types.TextContent)]
    return json.dumps({"content": texts, "structuredContent": result.structured_content}, ensure_ascii=False)


def code_of(result: Any) -> tuple[str, str] | None:
    if not result.is_error:
        return None
    error = json.loads(result.content[0].text)["error"]
    return error["code"], error["userAction"]


def orders(env: dict[str, str]) -> int:
    with sqlite3.connect(env["FOOD_DB"]) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM orders").fetchone()[0])


def test_a_model_that_reads_only_content_and_structured_content_cannot_order(env):
    async def scripted_model() -> tuple[str, str, list[Any]]:
        async with connected(env) as session:
            preview = await session.call_tool("create_order_preview", CART)
            seen = model_view(preview)
            token = preview.meta["toolclause/confirmation"]["token"]  # what the model never gets
            # everything the model could pass as a token: nothing, text from what it read, a made-up one
            guesses: list[Any] = [None, "forged", "tc1.eyJpZCI6IngifQ.AAAA", *re.findall(r"[\w.-]{20,}", seen)]
            attempts = [await session.call_tool("place_order", {**CART, "confirmation_token": guess,
                                                                "idempotency_key": str(uuid.uuid4())})
                        for guess in guesses]
            return seen, token, attempts

    seen, token, attempts = anyio.run(scripted_model)
    assert token not in seen and token.split(".")[-1] not in seen
    assert json.loads(seen)["structuredContent"]["confirmation"]["confirmedBy"] == "user"
    assert len(attempts) >= 3
    for attempt in attempts:
        assert code_of(attempt) == ("CONFIRMATION_REQUIRED", "ask_user"), model_view(attempt)
    assert orders(env) == 0


def test_the_widget_places_the_order_once_with_the_token_in_meta(env):
    async def widget() -> dict[str, Any]:
        async with connected(env) as session:
            tools = {t.name: t for t in (await session.list_tools()).tools}
            preview = await session.call_tool("create_order_preview", CART)
            confirmation = preview.meta["toolclause/confirmation"]
            key = str(uuid.uuid4())  # the widget's one order attempt
            click = {**confirmation["arguments"], "idempotency_key": key}
            placed = await session.call_tool(confirmation["commitTool"], click)
            double_click = await session.call_tool(confirmation["commitTool"], click)
            other_key = await session.call_tool(confirmation["commitTool"], {**click, "idempotency_key": "k2"})
            return {"tools": tools, "placed": placed, "again": double_click, "other": other_key}

    seen = anyio.run(widget)
    assert seen["tools"]["place_order"].meta["openai/widgetAccessible"] is True
    assert seen["tools"]["create_order_preview"].meta["openai/outputTemplate"] == "ui://widget/order-preview.html"
    assert not seen["placed"].is_error and seen["placed"].structured_content["status"] == "placed"
    assert seen["again"].structured_content == seen["placed"].structured_content
    assert seen["again"].meta == {"toolclause/replayed": True}
    assert code_of(seen["other"]) == ("CONFIRMATION_USED", "re_prepare")
    assert orders(env) == 1


def test_without_widgets_the_user_confirms_through_elicitation_once(env):
    asked: list[types.ElicitRequestParams] = []

    async def user_says_yes(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params)
        return types.ElicitResult(action="accept", content={"confirm": True})

    async def user_says_no(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params)
        return types.ElicitResult(action="decline")

    async def chat() -> dict[str, Any]:
        key = str(uuid.uuid4())
        call = {**CART, "confirmation_token": None, "idempotency_key": key}
        async with connected(env, user_says_yes) as session:
            placed = await session.call_tool("place_order", call)
            retried = await session.call_tool("place_order", call)  # the model retries: the same order
        async with connected(env, user_says_no) as session:
            declined = await session.call_tool("place_order", {**call, "idempotency_key": str(uuid.uuid4())})
        return {"placed": placed, "retried": retried, "declined": declined}

    seen = anyio.run(chat)
    assert not seen["placed"].is_error, model_view(seen["placed"])
    assert seen["retried"].structured_content["order_id"] == seen["placed"].structured_content["order_id"]
    assert seen["retried"].meta == {"toolclause/replayed": True}
    assert code_of(seen["declined"]) == ("CONFIRMATION_REQUIRED", "ask_user")
    assert "declined" in json.loads(seen["declined"].content[0].text)["error"]["message"]
    assert orders(env) == 1
    # the user was shown the preview itself: what is ordered, where, and the total
    assert len(asked) == 3
    assert "2 × Margherita" in asked[0].message and "35,000 won" in asked[0].message
    assert asked[0].requested_schema["required"] == ["confirm"]


def test_a_widget_tool_answers_summary_data_and_widget_only_meta(env):
    async def search() -> dict[str, Any]:
        async with connected(env) as session:
            found = await session.call_tool("search_restaurants", {"query": "pizza", "location": "gangnam",
                                                                    "price_level": None})
            none = await session.call_tool("search_restaurants", {"query": "sushi", "location": "gangnam",
                                                                   "price_level": None})
            failed = await session.call_tool("create_order_preview", {**CART, "restaurant_id": "r_nowhere"})
            return {"found": found, "none": none, "failed": failed}

    seen = anyio.run(search)
    found = seen["found"]
    assert found.content[0].text.startswith("Found 3 restaurants for 'pizza' near gangnam")
    listed = found.structured_content["restaurants"]
    assert [r["id"] for r in listed] == list(found.meta["restaurantsById"])
    assert "menu" in found.meta["restaurantsById"][listed[0]["id"]] and "menu" not in model_view(found)
    assert re.fullmatch(r"[0-9a-f-]{36}", found.meta["traceId"])
    none = seen["none"]  # nothing found is not an error: an empty list and why
    assert not none.is_error and none.structured_content["restaurants"] == []
    assert "sushi" in none.structured_content["no_results_reason"] and none.content[0].text.startswith("No ")
    failed = seen["failed"]  # a failure of a widget's tool gives the widget the envelope for its error state
    assert failed.is_error and failed.meta["toolclause/error"] == json.loads(failed.content[0].text)
    assert failed.meta["toolclause/error"]["error"]["code"] == "RESTAURANT_NOT_FOUND"


def test_the_proxy_relays_the_summary_and_the_widget_only_meta(env, tmp_path):
    argv = ["-m", "toolclause.cli.main", "proxy", "--server", " ".join(shlex.quote(a) for a in SERVE),
            "--store", f"sqlite:///{tmp_path / 'proxy.db'}"]

    async def through_the_proxy() -> Any:
        params = StdioServerParameters(command=sys.executable, args=argv, env=env)
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return await session.call_tool("search_restaurants", {"query": "pizza", "location": "gangnam",
                                                                  "price_level": None})

    found = anyio.run(through_the_proxy)
    assert not found.is_error and found.content[0].text.startswith("Found 3 restaurants")
    assert set(found.meta["restaurantsById"]) == {r["id"] for r in found.structured_content["restaurants"]}
