"""The calls a model really gets wrong, shared by every framework adapter's test.

Each framework's own test model sends MISTAKES then RIGHT to `search`; the
function must run once, and every error the model read must be toolclause's.
SECRET values stand in for personal data: no error may echo them.
"""

from __future__ import annotations

import json
from typing import Any

from toolclause import Toolbox, ToolError

SECRET = "4111-secret"
MISTAKES = [
    ("wrong type", json.dumps({"query": SECRET, "limit": "three"}), "'limit' must be integer"),
    ("missing field", json.dumps({"limit": 3}), "'query' is missing"),
    ("misspelt key", json.dumps({"querry": SECRET}), "'querry' given, 'query' expected"),
    ("broken JSON", '{"query": "' + SECRET + '", "limit": 3', "not valid JSON"),
]
RIGHT = json.dumps({"query": "pizza", "limit": 3})
CHARGE = json.dumps({"order_id": "o-1", "amount": 5, "idempotency_key": "order-o-1"})


class Ledger:
    """What really ran, counted outside the gate."""

    def __init__(self) -> None:
        self.runs: list[tuple[str, Any]] = []

    def of(self, tool: str) -> list[Any]:
        return [args for name, args in self.runs if name == tool]


def make_box(ledger: Ledger, **options: Any) -> Toolbox:
    box = Toolbox("memory://", lint="off", **options)

    @box.tool(read_only=True)
    def search(query: str, limit: int = 5) -> list[str]:
        """Finds restaurants whose name or dishes match the query."""
        ledger.runs.append(("search", (query, limit)))
        return [f"{query} {n}" for n in range(limit)]

    @box.tool(idempotency="key", errors=[{"code": "CARD_DECLINED", "retryable": False}])
    def charge(order_id: str, amount: int) -> dict:
        """Charges the customer's card for an order and returns the payment."""
        ledger.runs.append(("charge", order_id))
        if order_id == "declined":
            raise ToolError("CARD_DECLINED", "The card was declined; ask the customer for another card.")
        return {"payment": len(ledger.of("charge")), "amount": amount}

    @box.tool(idempotency="host")
    def send_receipt(order_id: str) -> dict:
        """Sends the receipt of an order to the customer by email."""
        ledger.runs.append(("send_receipt", order_id))
        return {"sent": True}

    @box.tool(name="orders.status", read_only=True)
    def order_status(order_id: str) -> dict:
        """Tells where an order is: placed, paid, shipped or delivered."""
        ledger.runs.append(("orders.status", order_id))
        return {"status": "shipped"}

    return box


STATUS = ("orders_status", json.dumps({"order_id": "o-1"}))  # the name every provider export gives orders.status


def assert_toolclause_errors(seen: list[str]) -> None:
    """`seen` holds what the model read after each mistake, in order."""
    assert len(seen) == len(MISTAKES), seen
    for text, (label, _, expected) in zip(seen, MISTAKES, strict=True):
        assert "search:" in text and expected in text, f"{label}: {text}"
        assert SECRET not in text and "three" not in text, f"{label} echoed an input value: {text}"
