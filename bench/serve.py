"""tools/call over Streamable HTTP: the food app's read tool served through the gate, beside the SDK's plain server.

The servers, each in a process of its own, on this machine:

  toolclause serve      `toolclause serve examples/food/app.py:box --transport http` (the SDK's low-level
                        Server answering through the gate: parse, validate, run, check the output, envelope)
  SDK MCPServer         the same function (`search_restaurants` from examples/food/app.py, on the same SQLite
                        data) registered with `mcp.server.mcpserver.MCPServer.tool()` (the SDK's own
                        argument model and output schema), run with its streamable-http transport
  fastmcp               the same function registered with `fastmcp.FastMCP.tool()`, run with its HTTP
                        transport (when fastmcp is installed: `pip install fastmcp`; else left out, said why)

One client (the official SDK's ClientSession over streamable_http_client) calls each the same way:
warm-up calls, then N sequential calls (round-trip latency: median, p95) and N calls from C concurrent
sessions (calls/s).  Target: toolclause serve at most 1.2× the plain server's latency.
Figures only, nothing asserts.

    .venv/bin/python bench/serve.py [--calls 300] [--concurrency 4]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOOD = ROOT / "examples" / "food"
ARGUMENTS = {"query": "pizza", "location": "gangnam", "price_level": None}


def plain_server(port: int) -> None:
    """The SDK's MCPServer with the app's own function: what a server without toolclause looks like."""
    sys.path.insert(0, str(FOOD))
    from app import search_restaurants  # the same function, the same data
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("plain-food", log_level="WARNING")
    server.tool(name="search_restaurants", description="Find restaurants that deliver in one area.")(
        search_restaurants)
    server.run("streamable-http", host="127.0.0.1", port=port)


def fastmcp_server(port: int) -> None:
    """fastmcp's server with the app's own function."""
    sys.path.insert(0, str(FOOD))
    from app import search_restaurants
    from fastmcp import FastMCP

    server = FastMCP("fastmcp-food")
    server.tool(search_restaurants, name="search_restaurants",
                description="Find restaurants that deliver in one area.")
    server.run("http", host="127.0.0.1", port=port, show_banner=False, log_level="warning")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def plain_process(port: int, env: dict[str, str], kind: str = "--plain-server") -> Iterator[str]:
    """A server of this file (`kind`) in a process of its own, polled until it answers; yields its URL."""
    process = subprocess.Popen([sys.executable, __file__, kind, str(port)], env=env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    said = process.stderr.read()[-500:] if process.stderr else ""
                    raise SystemExit(f"the {kind[2:]} did not start: {said}") from None
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()


async def measure(url: str, calls: int, concurrency: int) -> dict[str, float]:
    import anyio
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    async def one_session(n: int, times: list[float]) -> None:
        async with streamable_http_client(url) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await session.list_tools()
            for _ in range(n):
                t = time.perf_counter()
                result = await session.call_tool("search_restaurants", ARGUMENTS)
                times.append(time.perf_counter() - t)
                assert not result.is_error, result

    await one_session(30, [])  # warm-up: imports, connection pools, SQLite pages
    latencies: list[float] = []
    await one_session(calls, latencies)
    started = time.perf_counter()
    async with anyio.create_task_group() as group:
        for _ in range(concurrency):
            group.start_soon(one_session, calls // concurrency, [])
    elapsed = time.perf_counter() - started
    latencies.sort()
    return {"median_ms": statistics.median(latencies) * 1000,
            "p95_ms": latencies[int(len(latencies) * 0.95) - 1] * 1000,
            "calls_per_s": (calls // concurrency) * concurrency / elapsed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--plain-server", type=int, metavar="PORT", help=argparse.SUPPRESS)
    parser.add_argument("--fastmcp-server", type=int, metavar="PORT", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.plain_server is not None:
        plain_server(options.plain_server)
        return
    if options.fastmcp_server is not None:
        fastmcp_server(options.fastmcp_server)
        return

    import anyio

    with tempfile.TemporaryDirectory(prefix="toolclause-bench-") as tmp:
        env = {**os.environ, "FOOD_DB": str(Path(tmp) / "food.db"),
               "TOOLCLAUSE_STORE": f"sqlite:///{Path(tmp) / 'state.db'}", "TOOLCLAUSE_CONFIRMATION_SECRET": "b" * 32}
        from toolclause.mcp.serving import http_process

        servers = {"toolclause serve": lambda: http_process(f"{FOOD / 'app.py'}:box", env=env),
                   "SDK MCPServer": lambda: plain_process(free_port(), env)}
        if importlib.util.find_spec("fastmcp") is not None:
            servers["fastmcp"] = lambda: plain_process(free_port(), env, "--fastmcp-server")
        else:
            print("fastmcp: not installed, left out (pip install fastmcp to compare with it too)")
        figures = {}
        for name, start in servers.items():
            with start() as url:
                figures[name] = anyio.run(measure, url, options.calls, options.concurrency)
    print(f"tools/call search_restaurants over Streamable HTTP, {options.calls} sequential calls "
          f"and {options.calls} from {options.concurrency} sessions\n")
    print(f"{'server':<20}{'median ms':>11}{'p95 ms':>10}{'calls/s':>10}")
    for name, f in figures.items():
        print(f"{name:<20}{f['median_ms']:>11.2f}{f['p95_ms']:>10.2f}{f['calls_per_s']:>10.0f}")
    ours, plain = figures["toolclause serve"], figures["SDK MCPServer"]
    print(f"\nlatency ratio (median): {ours['median_ms'] / plain['median_ms']:.2f}× (target ≤ 1.2×); "
          f"throughput ratio: {ours['calls_per_s'] / plain['calls_per_s']:.2f}×")
    if "fastmcp" in figures:
        fast = figures["fastmcp"]
        print(f"against fastmcp: latency {ours['median_ms'] / fast['median_ms']:.2f}× (target ≤ 1.2×); "
              f"throughput {ours['calls_per_s'] / fast['calls_per_s']:.2f}×")


if __name__ == "__main__":
    main()
