"""tools/call latency of a FastMCP server with the gate (toolclause.mcp.fastmcp.gate) beside the same server without it.

The same FastMCP server, built twice in one process: once plain, once gated (the misspelt-argument
tool of docs/integrations.md: a pydantic model argument and a default).  FastMCP's own client calls
each with valid arguments, in memory (FastMCP's in-process transport: nothing but the two servers'
own work is timed, so the gate's share is as large as it can be) and, with `--stdio`, over stdio to a
process of its own (what a host sees).  Rounds alternate gated and plain so a loaded machine slows both
alike; each round is N sequential calls after a warm-up, and the figure is the median round-trip.
Target: gated ≤ 1.15× plain.  Figures only, nothing asserts.

    .venv/bin/python bench/fastmcp_gate.py [--calls 400] [--rounds 5] [--stdio]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel

ROOT = Path(__file__).resolve().parents[1]
ARGUMENTS = {"order_id": "o-1", "address": {"street": "Teheran-ro 427", "city": "Seoul"}, "days": 2}


class Address(BaseModel):
    street: str
    city: str


def build(gated: bool) -> Any:
    from fastmcp import FastMCP

    mcp = FastMCP("bench")

    @mcp.tool
    def ship(order_id: str, address: Address, days: int = 3) -> dict[str, Any]:
        """Ship an order to an address."""
        return {"shipped": order_id, "city": address.city, "days": days}

    if gated:
        from toolclause.mcp.fastmcp import gate

        gate(mcp, store="memory://")
    return mcp


async def round_trip(client: Any, calls: int) -> list[float]:
    times = []
    for _ in range(calls):
        started = time.perf_counter()
        result = await client.call_tool("ship", ARGUMENTS)
        times.append(time.perf_counter() - started)
        assert not result.is_error
    return times


async def measure(clients: dict[str, Any], calls: int, rounds: int) -> dict[str, list[float]]:
    for client in clients.values():
        await round_trip(client, max(calls // 10, 20))  # warm-up: imports, caches, the gate's first build
    times: dict[str, list[float]] = {name: [] for name in clients}
    for _ in range(rounds):
        for name, client in clients.items():
            times[name] += await round_trip(client, calls)
    return times


async def in_memory(calls: int, rounds: int) -> dict[str, list[float]]:
    from fastmcp import Client

    async with Client(build(False)) as plain, Client(build(True)) as gated:
        return await measure({"plain": plain, "gated": gated}, calls, rounds)


async def over_stdio(calls: int, rounds: int) -> dict[str, list[float]]:
    from fastmcp import Client
    from fastmcp.client.transports import StdioTransport

    def transport(gated: bool) -> Any:
        return StdioTransport(sys.executable, [__file__, "--serve", "gated" if gated else "plain"], cwd=str(ROOT))

    async with Client(transport(False)) as plain, Client(transport(True)) as gated:
        return await measure({"plain": plain, "gated": gated}, calls, rounds)


def report(label: str, times: dict[str, list[float]]) -> None:
    plain, gated = (statistics.median(times[name]) * 1e6 for name in ("plain", "gated"))
    p95 = {name: statistics.quantiles(values, n=20)[18] * 1e6 for name, values in times.items()}
    print(f"{label}: plain median {plain:,.0f} µs (p95 {p95['plain']:,.0f}), gated median {gated:,.0f} µs "
          f"(p95 {p95['gated']:,.0f}) → {gated / plain:.3f}× (target ≤ 1.15×)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--stdio", action="store_true", help="also over stdio, each server in a process of its own")
    parser.add_argument("--serve", choices=["plain", "gated"], help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.serve:
        build(options.serve == "gated").run(show_banner=False)
        return
    import logging

    logging.getLogger("toolclause").setLevel(logging.WARNING)  # a call's INFO line is the host's choice
    report("in memory", asyncio.run(in_memory(options.calls, options.rounds)))
    if options.stdio:
        report("over stdio", asyncio.run(over_stdio(options.calls, options.rounds)))


if __name__ == "__main__":
    main()
