"""`serve --transport http` as a service manager and a browser see it: SIGTERM and DNS rebinding.

Real processes: `toolclause serve` started with subprocess, the official MCP client or a raw
http.client request against it, real signals.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

APPS = Path(__file__).parent / "fixtures" / "serving"
READY = re.compile(r"at (http://\S+) \(Streamable HTTP\)")


def start(tmp_path: Path, *extra: str) -> tuple[subprocess.Popen, str]:
    env = {**os.environ, "TOOLCLAUSE_STORE": f"sqlite:///{tmp_path / 'state.db'}",
           "SERVE_TEST_LOG": str(tmp_path / "runs.log")}
    process = subprocess.Popen([sys.executable, "-m", "toolclause.cli.main", "serve", "app.py:server", "--transport",
                                "http", "--port", "0", *extra], cwd=APPS, env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        found = READY.search(line)
        if found:
            return process, found.group(1)
        if not line and process.poll() is not None:
            break
    process.kill()
    raise AssertionError("serve did not start")


def test_sigterm_lets_the_call_in_flight_finish_and_exits_0(tmp_path):
    process, url = start(tmp_path)
    outcome: dict = {}

    async def call() -> None:
        async with streamable_http_client(url) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            outcome["started"] = time.monotonic()
            outcome["result"] = await session.call_tool("wait", {"seconds": 1.0})

    caller = threading.Thread(target=lambda: anyio.run(call), daemon=True)
    caller.start()
    deadline = time.monotonic() + 30
    while "started" not in outcome and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.3)  # the call is running in the server now
    process.send_signal(signal.SIGTERM)
    try:
        assert process.wait(timeout=30) == 0
    finally:
        process.kill()
    caller.join(timeout=30)
    result = outcome.get("result")
    assert result is not None and not result.is_error, result


@pytest.mark.parametrize("host", ["127.0.0.2"])
def test_any_loopback_host_keeps_dns_rebinding_protection(tmp_path, host):
    try:
        process, url = start(tmp_path, "--host", host)
    except AssertionError:
        pytest.skip(f"cannot listen on {host} here")
    try:
        port = int(url.rsplit(":", 1)[1].split("/")[0])
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                           "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                      "clientInfo": {"name": "raw", "version": "1"}}})
        statuses = {}
        for name, host_header in (("rebound", f"attacker.example:{port}"), ("local", f"{host}:{port}")):
            connection = http.client.HTTPConnection(host, port, timeout=10)
            connection.request("POST", "/mcp", body=body, headers={
                "Host": host_header, "Content-Type": "application/json",
                "Accept": "application/json, text/event-stream"})
            response = connection.getresponse()
            response.read()
            statuses[name] = response.status
            connection.close()
        assert statuses["local"] == 200
        assert statuses["rebound"] in (403, 421)  # a page on another domain resolving to this address is refused
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
