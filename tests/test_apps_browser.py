"""The food app's widgets in a real browser (Chromium driven by Playwright, as the playground's tests do).

The widgets' HTML is what a real `toolclause serve` process serves (resources/read over the official MCP
client), and each state is rendered from that server's real answers.  The page plays the ChatGPT host:
`window.openai` holds the tool's structuredContent and `_meta`, and its `callTool` goes to the same server —
so the confirm button places a real order, once.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

import anyio.from_thread
import pytest

import test_apps_confirmation as apps
import test_playground_browser as playground

browser = playground.browser  # the same fixture: the system's Chromium, or a skip that says why
env = apps.env
CART = apps.CART

HOST = """
window.openai = {
  toolOutput: %(output)s, toolResponseMetadata: %(meta)s, toolInput: {},
  callTool: (name, args) => window.hostCallTool(name, args),
};
"""


class Host:
    """The server's session, driven from the test's thread (the MCP client runs on a loop of its own)."""

    def __init__(self, portal: Any, session: Any) -> None:
        self.portal, self.session = portal, session

    def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        result = self.portal.call(self.session.call_tool, name, arguments)
        return result.model_dump(by_alias=True, exclude_none=True, mode="json")

    def widget(self, uri: str) -> str:
        read = self.portal.call(self.session.read_resource, uri)
        return read.contents[0].text


@pytest.fixture
def host(env) -> Iterator[Host]:
    with anyio.from_thread.start_blocking_portal() as portal, \
            portal.wrap_async_context_manager(apps.connected(env)) as session:
        yield Host(portal, session)


def show(browser, host: Host, uri: str, answer: dict[str, Any]):
    """A page showing the widget at `uri` for one tool answer, its callTool wired to the server."""
    import json

    context = browser.new_context(viewport={"width": 600, "height": 500})
    context.add_init_script(HOST % {"output": json.dumps(answer.get("structuredContent")),
                                    "meta": json.dumps(answer.get("_meta"))})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.expose_function("hostCallTool", host.call)
    page.set_content(host.widget(uri))
    page.wait_for_selector("body[data-ready=true]")
    return context, page, errors


def test_the_confirm_button_places_the_order_once(browser, host, env):
    preview = host.call("create_order_preview", CART)
    context, page, errors = show(browser, host, "ui://widget/order-preview.html", preview)
    assert "35,000 won" in page.inner_text("#total") and page.is_visible("#confirm")
    page.click("#confirm")
    page.wait_for_selector("#placed:not([hidden])")
    assert page.inner_text("#placed").startswith("Order ord_") and not page.is_visible("#confirm")
    context.close()
    assert errors == []
    with sqlite3.connect(env["FOOD_DB"]) as conn:
        assert conn.execute("SELECT COUNT(*) FROM orders").fetchone()[0] == 1


def test_a_failed_preview_shows_the_error_with_a_retry_hint_when_retryable(browser, host):
    closed = host.call("create_order_preview", {**CART, "restaurant_id": "r_truffle",
                                                "items": [{"item_id": "m_truffle", "quantity": 1}]})
    context, page, errors = show(browser, host, "ui://widget/order-preview.html", closed)
    assert "closed now" in page.inner_text("#error-message")
    assert page.is_visible("#error-retry")  # RESTAURANT_CLOSED is declared retryable
    assert not page.is_visible("#preview") and not page.is_visible("#confirm")
    context.close()
    assert errors == []


def test_the_restaurant_list_has_a_list_an_empty_state_and_an_error_state(browser, host):
    states = {
        "found": host.call("search_restaurants", {"query": "pizza", "location": "gangnam", "price_level": None}),
        "empty": host.call("search_restaurants", {"query": "sushi", "location": "gangnam", "price_level": None}),
        "failed": host.call("search_restaurants", {"query": " ", "location": "gangnam", "price_level": None}),
    }
    seen = {}
    for name, answer in states.items():
        context, page, errors = show(browser, host, "ui://widget/restaurants.html", answer)
        seen[name] = {"rows": page.locator("li").count(), "empty": page.is_visible("#empty"),
                      "error": page.is_visible("#error"), "retry": page.is_visible("#error-retry"),
                      "text": page.inner_text("body"), "errors": errors}
        context.close()
    assert seen["found"]["rows"] == 3 and not seen["found"]["empty"] and not seen["found"]["error"]
    assert "dishes" in seen["found"]["text"]  # from the widget-only restaurantsById
    assert seen["empty"]["rows"] == 0 and seen["empty"]["empty"] and not seen["empty"]["error"]
    assert "try another food" in seen["empty"]["text"]
    assert seen["failed"]["rows"] == 0 and seen["failed"]["error"] and not seen["failed"]["empty"]
    assert not seen["failed"]["retry"]  # a bad query is not retryable as it is
    assert "Could not search restaurants" in seen["failed"]["text"]
    assert all(state["errors"] == [] for state in seen.values())
