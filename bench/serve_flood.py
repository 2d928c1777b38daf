"""Memory of `toolclause serve --transport http` under a flood of sessions that are never closed.

A raw HTTP client opens N sessions (initialize, then nothing: no DELETE, no GET stream) from T
threads, twice; the server's resident memory (VmRSS) is read before, after each flood, and a
new client (the official SDK's ClientSession) then initializes and calls a tool.  Once per
`--max-sessions` value given, each in a server process of its own (the food example's app):
the default (1000), a small cap, and the MCP SDK's own default (10,000) for what the memory
would be without toolclause's cap.  Figures only, nothing asserts; Linux only (/proc).

    .venv/bin/python bench/serve_flood.py [--sessions 3000] [--threads 8] [--caps 100,1000,10000]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
FOOD = ROOT / "examples" / "food"
READY = re.compile(r"at (http://\S+) \(Streamable HTTP\)")
HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
INITIALIZE = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                         "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "flood", "version": "1"}}})


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def flood(url: str, sessions: int, threads: int) -> dict[int, int]:
    """`sessions` initializes, none closed; how many got each HTTP status."""
    parts = urlsplit(url)

    def some(n: int) -> list[int]:
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        statuses = []
        for _ in range(n):
            connection.request("POST", parts.path, body=INITIALIZE, headers=HEADERS)
            answer = connection.getresponse()
            answer.read()
            statuses.append(answer.status)
        connection.close()
        return statuses

    counts: dict[int, int] = {}
    with ThreadPoolExecutor(threads) as pool:
        for status in (s for part in pool.map(some, [sessions // threads] * threads) for s in part):
            counts[status] = counts.get(status, 0) + 1
    return counts


def new_client(url: str) -> float:
    """Seconds for the official client to initialize and call a tool."""
    import anyio
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    async def run() -> float:
        started = time.perf_counter()
        async with streamable_http_client(url) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            result = await session.call_tool("search_restaurants", {"query": "pizza", "location": "gangnam",
                                                                    "price_level": None})
            assert not result.is_error, result
            return time.perf_counter() - started

    return anyio.run(run)


def measure(cap: int, sessions: int, threads: int, env: dict[str, str]) -> dict[str, object]:
    process = subprocess.Popen([sys.executable, "-m", "toolclause.cli.main", "serve", f"{FOOD / 'app.py'}:box",
                                "--transport", "http", "--port", "0", "--max-sessions", str(cap)], env=env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        for line in process.stderr:
            found = READY.search(line)
            if found:
                url = found.group(1)
                break
        else:
            raise SystemExit("the server did not start")
        threading.Thread(target=process.stderr.read, daemon=True).start()
        new_client(url)  # warm: imports, the first session
        figures: dict[str, object] = {"before": rss_mib(process.pid)}
        figures["first"] = flood(url, sessions, threads)
        figures["after_first"] = rss_mib(process.pid)
        figures["second"] = flood(url, sessions, threads)
        figures["after_second"] = rss_mib(process.pid)
        figures["new_client_s"] = new_client(url)
        return figures
    finally:
        process.terminate()
        process.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sessions", type=int, default=3000)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--caps", default="100,1000,10000", help="the --max-sessions values, comma-separated")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="toolclause-bench-") as tmp:
        env = {**os.environ, "FOOD_DB": str(Path(tmp) / "food.db"),
               "TOOLCLAUSE_STORE": f"sqlite:///{Path(tmp) / 'state.db'}", "TOOLCLAUSE_CONFIRMATION_SECRET": "b" * 32}
        rows = {int(cap): measure(int(cap), options.sessions, options.threads, env)
                for cap in options.caps.split(",")}
    print(f"{options.sessions} sessions opened and never closed, twice, from {options.threads} threads; "
          f"resident memory of the server (MiB)\n")
    print(f"{'--max-sessions':>15}{'before':>9}{'after 1st':>11}{'after 2nd':>11}{'statuses':>22}{'new client':>12}")
    for cap, f in rows.items():
        both: dict[int, int] = {}
        for counts in (f["first"], f["second"]):
            for status, n in counts.items():  # type: ignore[attr-defined]
                both[status] = both.get(status, 0) + n
        statuses = ", ".join(f"{status}×{n}" for status, n in sorted(both.items()))
        print(f"{cap:>15}{f['before']:>9.0f}{f['after_first']:>11.0f}{f['after_second']:>11.0f}{statuses:>22}"
              f"{f['new_client_s']:>11.2f}s")


if __name__ == "__main__":
    main()
