"""A food-ordering ChatGPT app: six tools over SQLite, each bound to its contract, served through the gate.

    toolclause serve examples/food/app.py:box                      # stdio
    toolclause serve examples/food/app.py:box --transport http     # http://127.0.0.1:8000/mcp

- search_restaurants, get_menu_items, get_order_status: read-only.
- search_restaurants answers with a `Reply`: the short list for the model, a sentence for the chat,
  and each restaurant's full record for the widget only (`_meta`); nothing found is an empty list
  with `no_results_reason`, never an error.
- create_order_preview: checks the cart and the address and prices the order (prepare); the gate
  adds a signed, single-use confirmation token to its result's `_meta`, which only the widget reads.
- place_order: the commit; it runs only with the token of a preview of the same cart — sent by the
  preview widget's confirm button, or obtained by asking the user (MCP elicitation) — once per
  idempotency key, however many times (and on however many replicas) it is retried.
- cancel_order: destructive, idempotent.

The contracts in contracts/tools/ are the source of truth (lint, export and diff read them); the
functions here only do the work.  Data: $FOOD_DB (see food_data.py).  Idempotency records:
$TOOLCLAUSE_STORE, else .toolclause/state.db in the working folder.  Confirmation tokens are signed with
$TOOLCLAUSE_CONFIRMATION_SECRET (give every replica the same one), else a per-process secret.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import food_data as data

from toolclause import Reply, Toolbox, ToolError
from toolclause.mcp.serving import Widget, add_widgets

HERE = Path(__file__).resolve().parent
TOOLS = HERE / "contracts" / "tools"

box = Toolbox(development=True)  # records: $TOOLCLAUSE_STORE, else .toolclause/state.db, opened by the first order


# --------------------------------------------------------------------------- reading

def search_restaurants(query: str, location: str, price_level: str | None) -> Reply:
    query = _text(query, "query", 1, 100)
    rows = data.search(query, location, price_level)
    found = [{"id": r["id"], "name": r["name"], "cuisine": r["cuisine"], "area": r["area"],
              "price_level": r["price_level"], "rating": r["rating"], "open_now": bool(r["open"])} for r in rows]
    # the model gets the short list (structuredContent) and a sentence (content); the widget alone gets each
    # restaurant's full record by id and a trace id (_meta), which the model never reads
    widget_only = {"restaurantsById": {r["id"]: {**dict(r), "menu": [dict(m) for m in data.menu(r["id"])]}
                                       for r in rows},
                   "traceId": str(uuid.uuid4())}
    if not found:  # nothing found is not an error: an empty list and why (the widget's empty state)
        reason = (f"No restaurant near {location} matches '{query}'"
                  + (f" at the {price_level} price level" if price_level else "")
                  + "; try another food, a nearby area or no price level.")
        return Reply({"restaurants": [], "count": 0, "no_results_reason": reason}, summary=reason, meta=widget_only)
    open_now = sum(1 for r in found if r["open_now"])
    return Reply({"restaurants": found, "count": len(found)},
                 summary=f"Found {len(found)} restaurants for '{query}' near {location} ({open_now} open now).",
                 meta=widget_only)


def get_menu_items(restaurant_id: str) -> dict[str, Any]:
    place = _restaurant(restaurant_id)
    items = [{"id": m["id"], "name": m["name"], "price": m["price"], "available": bool(m["available"])}
             for m in data.menu(place["id"])]
    return {"restaurant_id": place["id"], "restaurant_name": place["name"], "open_now": bool(place["open"]),
            "items": items}


def get_order_status(order_id: str) -> dict[str, Any]:
    row, lines = data.order(order_id)
    if row is None:
        raise ToolError("ORDER_NOT_FOUND", "get_order_status: no order with that id; use the order_id place_order "
                                           "returned")
    return {"order_id": row["id"], "status": row["status"], "restaurant_id": row["restaurant_id"],
            "total": row["total"], "placed_at": row["placed_at"],
            "lines": [{"item_id": x["item_id"], "name": x["name"], "quantity": x["quantity"]} for x in lines]}


# --------------------------------------------------------------------------- ordering

def create_order_preview(restaurant_id: str, items: list[dict[str, Any]], address: str) -> Reply:
    priced = _price("create_order_preview", restaurant_id, items, address)
    lines = ", ".join(f"{x['quantity']} × {x['name']}" for x in priced["lines"])
    # the gate adds the confirmation: a note for the model here, the token for the widget in _meta
    return Reply(priced, summary=f"{lines} from {priced['restaurant_name']} to {priced['address']}: "
                                 f"{priced['total']:,} won with delivery. Nothing is ordered until the user "
                                 f"confirms this preview in the app.")


def place_order(restaurant_id: str, items: list[dict[str, Any]], address: str, confirmation_token: str,
                idempotency_key: str) -> dict[str, Any]:
    # the gate checked the token against the preview and claimed the key before this runs
    # checked again: the restaurant may have closed, or an item sold out, since the preview
    priced = _price("place_order", restaurant_id, items, address)
    lines = [(x["item_id"], x["name"], x["quantity"], x["unit_price"]) for x in priced["lines"]]
    with data.write() as conn:
        order_id, placed = data.new_order(conn, restaurant_id, priced["address"], priced["total"], lines)
    return {"order_id": order_id, "status": "placed", "total": priced["total"], "currency": "KRW",
            "placed_at": placed}


def cancel_order(order_id: str, reason: str) -> dict[str, Any]:
    with data.write() as conn:
        row = conn.execute("SELECT status, total FROM orders WHERE id = ?", (order_id,)).fetchone()
        if row is None:
            raise ToolError("ORDER_NOT_FOUND", "cancel_order: no order with that id; use the order_id place_order "
                                               "returned")
        if row["status"] == "cancelled":
            return {"order_id": order_id, "status": "cancelled", "already_cancelled": True, "refunded": 0}
        conn.execute("UPDATE orders SET status = 'cancelled' WHERE id = ?", (order_id,))
    return {"order_id": order_id, "status": "cancelled", "already_cancelled": False, "refunded": row["total"]}


def _price(tool: str, restaurant_id: str, items: list[dict[str, Any]], address: str) -> dict[str, Any]:
    place = _restaurant(restaurant_id)
    if not place["open"]:
        raise ToolError("RESTAURANT_CLOSED", f"{tool}: {place['name']} is closed now; choose another restaurant "
                                             f"with search_restaurants")
    address = _text(address, "address", 5, 200)
    if place["area"] not in address.lower():
        raise ToolError("ADDRESS_NOT_SERVED", f"{tool}: {place['name']} delivers in {place['area']} only; give an "
                                              f"address in {place['area']}, or choose a restaurant in its area")
    if len(items) > 20:
        raise ToolError("VALIDATION_ERROR", f"{tool}: at most 20 entries in 'items'")
    menu = {m["id"]: m for m in data.menu(place["id"])}
    lines = []
    for n, item in enumerate(items):
        found = menu.get(item["item_id"])
        if found is None:
            raise ToolError("ITEM_NOT_FOUND", f"{tool}: 'items/{n}/item_id' is not on {place['name']}'s menu; "
                                              f"get_menu_items lists it")
        if not found["available"]:
            raise ToolError("ITEM_UNAVAILABLE", f"{tool}: {found['name']} is sold out today; remove it or choose "
                                                f"another item")
        if not 1 <= item["quantity"] <= 20:
            raise ToolError("VALIDATION_ERROR", f"{tool}: 'items/{n}/quantity' must be 1 to 20")
        lines.append({"item_id": found["id"], "name": found["name"], "quantity": item["quantity"],
                      "unit_price": found["price"], "line_total": found["price"] * item["quantity"]})
    subtotal = sum(line["line_total"] for line in lines)
    return {"restaurant_id": place["id"], "restaurant_name": place["name"], "lines": lines, "subtotal": subtotal,
            "delivery_fee": data.DELIVERY_FEE, "total": subtotal + data.DELIVERY_FEE, "currency": "KRW",
            "address": address}


def _restaurant(restaurant_id: str) -> Any:
    place = data.restaurant(restaurant_id)
    if place is None:
        raise ToolError("RESTAURANT_NOT_FOUND", "no restaurant with that id; use an id search_restaurants returned")
    return place


def _text(value: str, name: str, least: int, most: int) -> str:
    value = value.strip()
    if not least <= len(value) <= most:
        raise ToolError("VALIDATION_ERROR", f"'{name}' must be {least} to {most} characters")
    return value


box.add(TOOLS / "search_restaurants.json", search_restaurants)
box.add(TOOLS / "get_menu_items.json", get_menu_items)
box.add(TOOLS / "create_order_preview.json", create_order_preview, idempotency="content")
box.add(TOOLS / "place_order.json", place_order, idempotency="key", confirm="create_order_preview")
box.add(TOOLS / "get_order_status.json", get_order_status)
box.add(TOOLS / "cancel_order.json", cancel_order)

def widget_html(name: str) -> str:
    """A widget's HTML with what the widgets share (widget/host.js, host.css) inlined: one file, nothing to load."""
    html = (HERE / "widget" / name).read_text(encoding="utf-8")
    for shared in ("host.js", "host.css"):
        html = html.replace(f"/* {shared} */", (HERE / "widget" / shared).read_text(encoding="utf-8"), 1)
    return html


# the widgets load nothing from elsewhere and call no API but the tools: the strictest CSP there is
NO_ORIGINS = {"connect_domains": [], "resource_domains": []}
add_widgets(box, Widget(
    "ui://widget/restaurants.html", widget_html("restaurants.html"),
    "Restaurant list", description="The restaurants search_restaurants found, best rated first.",
    meta={"openai/widgetDescription": "A list of restaurants with cuisine, price level, rating and whether each "
                                      "is open; the user picks one to see its menu.",
          "openai/widgetPrefersBorder": True, "openai/widgetCSP": NO_ORIGINS}), Widget(
    "ui://widget/order-preview.html", widget_html("order-preview.html"),
    "Order preview", description="The priced order, with the button that places it.",
    meta={"openai/widgetDescription": "The order's lines and total; the user places it with the confirm button.",
          "openai/widgetPrefersBorder": True, "openai/widgetCSP": NO_ORIGINS}))
