"""Servers written with the official MCP SDK, behind the gate (toolclause.mcp.sdk): an MCPServer and a
low-level Server, as users write them.  The tests drive them in memory and over stdio.

    python tests/sdk_app.py               # the MCPServer over stdio (store: TOOLCLAUSE_STORE, else memory://)
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

import anyio
import mcp_types as mt
from mcp.server.lowlevel.server import Server
from mcp.server.mcpserver import MCPServer

from shop_models import Address
from toolclause.mcp.sdk import gate


def build_mcpserver(store: str = "memory://", *, gated: bool = True) -> tuple[MCPServer, Counter[str]]:
    """An MCPServer and the count of runs of each tool."""
    server = MCPServer("shop")
    runs: Counter[str] = Counter()

    @server.tool()
    def ship(order_id: str, address: Address, days: int = 3) -> dict[str, Any]:
        """Ship an order to an address."""
        runs["ship"] += 1
        return {"shipped": order_id, "city": address.city, "days": days}

    @server.tool()
    def search(query: str, limit: int = 10) -> list[str]:
        """Search the catalogue (a misspelt limit would silently fall back to 10 without the gate)."""
        runs["search"] += 1
        return [f"{query}-{i}" for i in range(limit)]

    @server.tool()
    async def place_order(item: str, quantity: int) -> dict[str, Any]:
        """Place an order; listed as keyed: one order per idempotency key."""
        runs["place_order"] += 1
        await anyio.sleep(0.3)
        return {"item": item, "quantity": quantity}

    @server.tool()
    def run_counts() -> dict[str, int]:
        """How often each tool ran in this process."""
        return dict(runs)

    if gated:
        gate(server, store=store, idempotency={"place_order": "key"})
    return server, runs


NOTE_TOOLS = [
    mt.Tool(name="add_note", description="Add a note.", input_schema={
        "type": "object", "properties": {"text": {"type": "string"}, "request_id": {"type": "string"}},
        "required": ["text", "request_id"]},
        output_schema={"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}),
    mt.Tool(name="bad_output", description="Breaks its own outputSchema.", input_schema={"type": "object"},
            output_schema={"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}),
    mt.Tool(name="fails", description="Answers with an error of its own.", input_schema={"type": "object"}),
]


def build_lowlevel(store: str = "memory://") -> tuple[Server[Any], list[str]]:
    """A low-level Server (it validates nothing itself) and the notes it added."""
    notes: list[str] = []

    async def list_tools(ctx: Any, params: Any) -> mt.ListToolsResult:
        return mt.ListToolsResult(tools=NOTE_TOOLS)

    async def call_tool(ctx: Any, params: mt.CallToolRequestParams) -> mt.CallToolResult:
        arguments = params.arguments or {}
        if params.name == "add_note":
            notes.append(str(arguments.get("text")))
            return mt.CallToolResult(content=[mt.TextContent(type="text", text="added")],
                                     structured_content={"id": len(notes)})
        if params.name == "bad_output":
            return mt.CallToolResult(content=[], structured_content={"id": "one"})
        return mt.CallToolResult(content=[mt.TextContent(type="text", text="disk full")], is_error=True)

    server: Server[Any] = Server("notes", on_list_tools=list_tools, on_call_tool=call_tool)
    gate(server, store=store)
    return server, notes


if __name__ == "__main__":
    served, _ = build_mcpserver(os.environ.get("TOOLCLAUSE_STORE") or "memory://")
    served.run("stdio")
