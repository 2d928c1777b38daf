"""A FastMCP server behind the gate, as a user writes one: the tests drive it in memory and over stdio.

    python tests/fastmcp_app.py            # serves over stdio (store: TOOLCLAUSE_STORE, else memory://)
    python tests/fastmcp_app.py --http PORT   # over Streamable HTTP at http://127.0.0.1:PORT/mcp
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections import Counter
from typing import Any

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

from shop_models import Address
from toolclause.mcp.fastmcp import gate


def build(store: str | None = "memory://", *, gated: bool = True) -> tuple[FastMCP, Counter[str]]:
    """The server and the count of runs of each tool (what a test asserts ran, or did not)."""
    mcp = FastMCP("shop")
    runs: Counter[str] = Counter()

    @mcp.tool
    def ship(order_id: str, address: Address, days: int = 3) -> dict[str, Any]:
        """Ship an order to an address."""
        runs["ship"] += 1
        return {"shipped": order_id, "city": address.city, "days": days}

    @mcp.tool
    async def place_order(item: str, quantity: int) -> dict[str, Any]:
        """Place an order; listed as keyed: one order per idempotency key."""
        runs["place_order"] += 1
        await asyncio.sleep(0.3)  # long enough for concurrent duplicates to arrive while it runs
        return {"item": item, "quantity": quantity}

    @mcp.tool
    def send_receipt(order_id: str, request_id: str) -> dict[str, Any]:
        """Send a receipt; its request_id argument is its key, found without being listed."""
        runs["send_receipt"] += 1
        return {"sent": order_id}

    @mcp.tool
    def add_note(text: str, request_id: str):  # no return annotation: FastMCP lists no outputSchema
        """Add a note; answers in words (no outputSchema), keyed by its request_id."""
        runs["add_note"] += 1
        return f"noted ({runs['add_note']})"

    @mcp.tool(output_schema={"type": "object", "properties": {"total": {"type": "number"}}, "required": ["total"]})
    def broken_total() -> dict[str, Any]:
        """Breaks its own outputSchema."""
        runs["broken_total"] += 1
        return {"total": "many"}

    @mcp.tool
    def find_order(order_id: str) -> dict[str, Any]:
        """Answers with a ToolError of its own for an unknown order."""
        raise ToolError(f"No order {order_id} exists; list the orders first.")

    @mcp.tool
    def crash() -> dict[str, Any]:
        """Fails unexpectedly, with internals in the exception."""
        raise RuntimeError("connection to db.internal:5432 failed for user admin")

    @mcp.tool
    def run_counts() -> dict[str, int]:
        """How often each tool ran in this process."""
        return dict(runs)

    if gated:
        gate(mcp, store=store, idempotency={"place_order": "key"})
    return mcp, runs


if __name__ == "__main__":
    server, _ = build(os.environ.get("TOOLCLAUSE_STORE") or "memory://")
    if len(sys.argv) == 3 and sys.argv[1] == "--http":  # Streamable HTTP on 127.0.0.1:PORT/mcp
        server.run("http", host="127.0.0.1", port=int(sys.argv[2]), show_banner=False)
    else:
        server.run(show_banner=False)
