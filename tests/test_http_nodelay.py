"""Every HTTP server the project starts answers without the 40 ms delayed-ACK stall.

A server whose accepted connections lack TCP_NODELAY holds the last small write of each
response until the client's delayed ACK (about 40 ms on Linux).  Clients that read a response
to its end (http.client, httpx, gateways) see every call 40 ms late; the official MCP client,
which reads events as they arrive, does not, so these tests use a raw client.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import socket
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from toolclause._sockets import listening_socket
from toolclause.mcp.serving import http_process

APPS = Path(__file__).parent / "fixtures" / "serving"
STALL = 0.030  # the stall is at least 40 ms per call; a healthy call on loopback takes a few ms

HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


@pytest.mark.parametrize("host", ["127.0.0.1", "::1"])
def test_connections_accepted_by_asyncio_on_the_listening_socket_have_nodelay(host):
    if host == "::1" and not socket.has_ipv6:
        pytest.skip("this machine has no IPv6")

    async def accepted_option() -> int:
        seen: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        def on_connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            sock = writer.get_extra_info("socket")
            seen.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        try:
            sock = listening_socket(host, 0)
        except OSError as exc:
            pytest.skip(f"cannot listen on {host}: {exc}")
        server = await asyncio.start_server(on_connection, sock=sock)
        async with server:
            _, writer = await asyncio.open_connection(host, sock.getsockname()[1])
            option = await asyncio.wait_for(seen, 10)
            writer.close()
        return option

    assert asyncio.run(asyncio.wait_for(accepted_option(), 20)) != 0


def post(connection: http.client.HTTPConnection, path: str, message: dict,
         session: str | None) -> tuple[int, dict, bytes]:
    headers = dict(HEADERS, **({"Mcp-Session-Id": session} if session else {}))
    connection.request("POST", path, body=json.dumps(message), headers=headers)
    response = connection.getresponse()
    return response.status, dict(response.getheaders()), response.read()  # read to the end, as gateways do


def test_a_tool_call_to_serve_over_http_is_not_held_by_delayed_ack(tmp_path):
    env = {**os.environ, "TOOLCLAUSE_STORE": f"sqlite:///{tmp_path / 'state.db'}",
           "SERVE_TEST_LOG": str(tmp_path / "runs.log")}
    with http_process("app.py:server", env=env, cwd=str(APPS)) as url:
        parts = urlsplit(url)
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
        init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                           "clientInfo": {"name": "raw", "version": "1"}}}
        status, headers, _ = post(connection, parts.path, init, None)
        assert status == 200
        session = {k.lower(): v for k, v in headers.items()}.get("mcp-session-id")
        status, _, _ = post(connection, parts.path, {"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
        assert status == 202
        timings, bodies = [], []
        for n in range(7):
            call = {"jsonrpc": "2.0", "id": 10 + n, "method": "tools/call",
                    "params": {"name": "echo", "arguments": {"text": "hi"}}}
            started = time.perf_counter()
            status, _, body = post(connection, parts.path, call, session)
            timings.append(time.perf_counter() - started)
            bodies.append(body)
        connection.close()
    assert status == 200 and all(b'"length\\":2' in b or b'"length":2' in b for b in bodies)
    # the best of seven: load on the machine can slow any one call, but the stall delays every call
    assert min(timings) < STALL, f"every call took 40 ms or more: {[round(t * 1000, 1) for t in timings]} ms"
