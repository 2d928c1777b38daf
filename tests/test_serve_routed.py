"""`toolclause serve --route-k K` / `box.mcp_server(route_k=K)`: each session lists only the tools routed for it.

Driven by the official MCP client against real `toolclause serve` processes of the food example
(six tools): over stdio, and over Streamable HTTP with two sessions at once.
"""

from __future__ import annotations

import json
import os
import sys
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from click.testing import CliRunner
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from toolclause import Toolbox
from toolclause.cli.main import cli
from toolclause.mcp.serving import FIND_TOOLS, http_process, lint_served
from toolclause.model import Severity

FOOD = Path(__file__).resolve().parents[1] / "examples" / "food" / "app.py"
SERVE = [sys.executable, "-m", "toolclause.cli.main", "serve"]


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "FOOD_DB": str(tmp_path / "food.db"), "TOOLCLAUSE_STORE": "memory://"}


class Client:
    """A client session that counts the tools/list_changed notifications it got."""

    def __init__(self) -> None:
        self.changed = 0
        self.session: ClientSession | None = None

    async def on_message(self, message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            self.changed += 1

    async def names(self) -> list[str]:
        assert self.session is not None
        return [t.name for t in (await self.session.list_tools()).tools]

    async def find(self, request: Any) -> Any:
        assert self.session is not None
        before = self.changed
        result = await self.session.call_tool(FIND_TOOLS, {"request": request} if request is not None else {})
        await anyio.sleep(0.05)  # a notification sent before the answer has been read with it; give it a moment
        return result, self.changed - before


@asynccontextmanager
async def stdio(env: dict[str, str], *extra: str):
    client = Client()
    params = StdioServerParameters(command=SERVE[0], args=[*SERVE[1:], f"{FOOD}:box", *extra], env=env)
    async with stdio_client(params) as (read, write), \
            ClientSession(read, write, message_handler=client.on_message) as session:
        client.session = session
        initialized = await session.initialize()
        assert initialized.capabilities.tools is not None and initialized.capabilities.tools.list_changed is True
        yield client


@asynccontextmanager
async def http(url: str):
    client = Client()
    async with streamable_http_client(url) as (read, write), \
            ClientSession(read, write, message_handler=client.on_message) as session:
        client.session = session
        await session.initialize()
        yield client


def test_a_stdio_client_lists_find_tools_then_the_tools_routed_for_its_request(env):
    async def scenario() -> None:
        async with stdio(env, "--route-k", "2") as client:
            assert await client.names() == [FIND_TOOLS]
            result, changed = await client.find("강남역 근처 피자집 찾아줘")
            assert not result.is_error and changed == 1
            found = [t["name"] for t in result.structured_content["tools"]]
            assert found[0] == "search_restaurants" and len(found) == 2
            assert json.loads(result.content[0].text) == result.structured_content
            assert await client.names() == [FIND_TOOLS, *found]
            searched = await client.session.call_tool("search_restaurants", {"query": "pizza", "location": "gangnam",
                                                                             "price_level": None})
            assert not searched.is_error and searched.structured_content["count"] >= 1

            result, changed = await client.find("where is my order? check its status")
            assert changed == 1 and result.structured_content["tools"][0]["name"] == "get_order_status"
            assert (await client.names())[:2] == [FIND_TOOLS, "get_order_status"]

            # nothing fits: none found, the list stays as it was and no notification
            listed = await client.names()
            result, changed = await client.find("what is the capital of France")
            assert result.structured_content == {"tools": []} and changed == 0 and await client.names() == listed

            # a bad request is the gate's kind of refusal, naming the path
            result, changed = await client.find(None)
            assert result.is_error and changed == 0
            assert result.structured_content is None  # the envelope is the text: nothing to check against outputSchema
            refused = json.loads(result.content[0].text)
            assert refused["error"]["code"] == "VALIDATION_ERROR" and refused["traceId"]
            assert refused["error"]["details"] == [{"path": "/request", "problem": "required"}]

            # routing narrows what is listed, not what may be called
            menu = await client.session.call_tool("get_menu_items", {"restaurant_id": "r-nope"})
            assert menu.is_error and json.loads(menu.content[0].text)["error"]["code"] == "RESTAURANT_NOT_FOUND"

    anyio.run(scenario)


def test_over_http_each_session_has_its_own_list(env):
    async def scenario(url: str) -> None:
        async with http(url) as first, http(url) as second:
            _, changed = await first.find("cancel my order")
            listed = await first.names()
            assert changed == 1 and "cancel_order" in listed and len(listed) == 4
            assert await second.names() == [FIND_TOOLS]
            _, changed = await second.find("show me the menu items of restaurant r-1")
            assert changed == 1 and (await second.names())[1] == "get_menu_items"
            assert await first.names() == listed  # the other session's routing changed nothing here
            assert first.changed == 1             # and told this one nothing

    with http_process(f"{FOOD}:box", "--route-k", "3", env=env) as url:
        anyio.run(scenario, url)


def test_a_routed_server_fuzzes_clean_and_its_find_tools_passes_lint(env, monkeypatch):
    for key in ("FOOD_DB", "TOOLCLAUSE_STORE"):
        monkeypatch.setenv(key, env[key])
    command = " ".join([*SERVE, f"{FOOD}:box", "--route-k", "3"])
    out = CliRunner().invoke(cli, ["fuzz", "--server", command, "--seed", "4", "--examples", "8", "--format", "json"])
    report = json.loads(out.stdout)
    assert out.exit_code == 0, report["tools"]
    assert [t["tool"] for t in report["tools"]] == [FIND_TOOLS] and report["findings"] == 0
    assert report["totals"]["missing-required"]["sent"] > 0 and report["totals"]["extra-key"]["sent"] > 0

    import importlib.util

    spec = importlib.util.spec_from_file_location("food_app_routed", FOOD)
    assert spec is not None and spec.loader is not None
    sys.path.insert(0, str(FOOD.parent))
    try:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(FOOD.parent))
    server = module.box.mcp_server(route_k=3)
    findings = [d for d in lint_served(server) if d.tool == FIND_TOOLS and d.severity >= Severity.WARNING]
    assert findings == []
    assert server.snapshot()["tools"][0]["name"] == FIND_TOOLS


def test_route_k_is_checked_where_it_is_given(env):
    box = Toolbox(store="memory://")

    @box.tool(read_only=True)
    def find_tools(request: str) -> str:
        """Look up tool catalog entries by free text. Read-only."""
        return request

    with pytest.raises(ValueError, match="has one by that name"):
        box.mcp_server(route_k=3)
    with pytest.raises(ValueError, match="at least 1"):
        box.mcp_server(route_k=0)
    result = CliRunner().invoke(cli, ["serve", f"{FOOD}:box", "--route-k", "3", "--stateless",
                                      "--transport", "http"])
    assert result.exit_code == 2 and "--route-k keeps each session's list of tools" in result.stderr
