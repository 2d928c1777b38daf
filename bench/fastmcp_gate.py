"""tools/call cost of a FastMCP server with the gate (toolclause.mcp.fastmcp.gate) beside the same server without it.

The same FastMCP server, built twice in one process: once plain, once gated (the misspelt-argument
tool of docs/integrations.md: a pydantic model argument and a default), both called with valid
arguments:

  server side   `FastMCP.call_tool` itself, no transport: the server's own work per call, middleware
                included, where the gate's added microseconds show plainly
  in memory     FastMCP's own client over its in-process transport: a whole tools/call round trip,
                client and server in this process (target: gated ≤ 1.15× plain)
  over stdio    (--stdio) FastMCP's client to each server in a process of its own: what a host sees

Rounds alternate gated and plain, each N sequential calls after a warm-up; the figure is the median
over rounds of the mean cost of a call.  `--clock cpu` (the default) times this process's CPU
(`time.process_time`: client and server together, all threads), which other work on a shared machine
does not inflate; `--clock wall` times elapsed time (over stdio it always is: the server's CPU is in
another process).  Figures only, nothing asserts.

    .venv/bin/python bench/fastmcp_gate.py [--calls 400] [--rounds 7] [--clock cpu|wall] [--stdio]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
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


Call = Callable[[], Awaitable[Any]]


async def measure(calls_of: dict[str, Call], calls: int, rounds: int, clock: Callable[[], float]) -> dict[str, float]:
    """The median over rounds of the mean cost of one call, in µs, for each of `calls_of`."""
    for call in calls_of.values():
        for _ in range(max(calls // 10, 20)):  # warm-up: imports, caches, the gate's first build
            await call()
    means: dict[str, list[float]] = {name: [] for name in calls_of}
    for _ in range(rounds):
        for name, call in calls_of.items():
            started = clock()
            for _ in range(calls):
                await call()
            means[name].append((clock() - started) / calls * 1e6)
    return {name: statistics.median(values) for name, values in means.items()}


def calling(target: Any) -> Call:
    async def call() -> None:
        result = await target.call_tool("ship", ARGUMENTS)
        assert not result.is_error
    return call


async def server_side(calls: int, rounds: int, clock: Callable[[], float]) -> dict[str, float]:
    return await measure({"plain": calling(build(False)), "gated": calling(build(True))}, calls, rounds, clock)


async def in_memory(calls: int, rounds: int, clock: Callable[[], float]) -> dict[str, float]:
    from fastmcp import Client

    async with Client(build(False)) as plain, Client(build(True)) as gated:
        return await measure({"plain": calling(plain), "gated": calling(gated)}, calls, rounds, clock)


async def over_stdio(calls: int, rounds: int) -> dict[str, float]:
    from fastmcp import Client
    from fastmcp.client.transports import StdioTransport

    def transport(gated: bool) -> Any:
        return StdioTransport(sys.executable, [__file__, "--serve", "gated" if gated else "plain"], cwd=str(ROOT))

    async with Client(transport(False)) as plain, Client(transport(True)) as gated:
        return await measure({"plain": calling(plain), "gated": calling(gated)}, calls, rounds, time.perf_counter)


def report(label: str, cost: dict[str, float], unit: str, target: bool) -> None:
    plain, gated = cost["plain"], cost["gated"]
    verdict = " (target ≤ 1.15×)" if target else f", the gate's work: {gated - plain:+,.0f} µs a call"
    print(f"{label:<12} plain {plain:>7,.0f} µs {unit}, gated {gated:>7,.0f} µs → {gated / plain:.3f}×{verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--clock", choices=["cpu", "wall"], default="cpu")
    parser.add_argument("--stdio", action="store_true", help="also over stdio, each server in a process of its own")
    parser.add_argument("--serve", choices=["plain", "gated"], help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.serve:
        build(options.serve == "gated").run(show_banner=False)
        return
    import logging

    logging.getLogger("toolclause").setLevel(logging.WARNING)  # a call's INFO line is the host's choice
    clock, unit = (time.process_time, "CPU") if options.clock == "cpu" else (time.perf_counter, "wall")
    report("server side", asyncio.run(server_side(options.calls, options.rounds, clock)), unit, target=False)
    report("in memory", asyncio.run(in_memory(options.calls, options.rounds, clock)), unit, target=True)
    if options.stdio:
        report("over stdio", asyncio.run(over_stdio(options.calls, options.rounds)), "wall", target=True)


if __name__ == "__main__":
    main()
