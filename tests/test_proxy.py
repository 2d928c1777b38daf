"""`toolclause proxy`: the gate in front of an MCP server written without toolclause
(tests/fixtures/serving/upstream.py, the SDK's low-level Server), driven by the official client over stdio."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from click.testing import CliRunner
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from toolclause.cli.main import cli
from toolclause.mcp.proxy import key_parameter
from toolclause.runtime.envelope import envelope_in

UPSTREAM = Path(__file__).parent / "fixtures" / "serving" / "upstream.py"


def test_the_proxy_validates_checks_and_runs_a_keyed_call_once(tmp_path):
    log = tmp_path / "upstream.log"
    env = {**os.environ, "SERVE_TEST_LOG": str(log)}
    argv = ["-m", "toolclause.cli.main", "proxy", "--server", shlex.join([sys.executable, str(UPSTREAM)]),
            "--store", f"sqlite:///{tmp_path / 'state.db'}"]

    async def session_run() -> dict[str, Any]:
        params = StdioServerParameters(command=sys.executable, args=argv, env=env)
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            listed = (await session.list_tools()).tools
            call = session.call_tool
            return {
                "names": [t.name for t in listed],
                "first": await call("add_note", {"text": "milk", "request_id": "r-1"}),
                "retry": await call("add_note", {"text": "milk", "request_id": "r-1"}),
                "meta": await call("add_note", {"text": "eggs", "request_id": "r-2"}, meta={"idempotencyKey": "m-1"}),
                "meta_retry": await call("add_note", {"text": "eggs", "request_id": "r-3"},
                                         meta={"idempotencyKey": "m-1"}),
                "invalid": await call("add_note", {"txt": "milk", "request_id": "r-4"}),
                "bad_output": await call("bad_output", {}),
                "fails": await call("fails", {}),
                # add_tag's own schema makes its key optional: without one it runs, as the server allows
                "tag": [await call("add_tag", {"tag": "urgent"}) for _ in range(2)],
                "keyed_tag": [await call("add_tag", {"tag": "later", "client_token": "t-1"}) for _ in range(2)],
            }

    seen = anyio.run(session_run)
    assert seen["names"] == ["add_note", "add_tag", "bad_output", "fails"]
    assert not seen["first"].is_error and seen["first"].structured_content == {"id": 1}
    assert seen["retry"].structured_content == {"id": 1} and seen["retry"].meta == {"toolclause/replayed": True}
    assert seen["meta"].structured_content == {"id": 2}
    # the request's _meta key wins over the argument: the same key with other arguments is a reuse
    assert envelope_in(seen["meta_retry"])["error"]["code"] == "IDEMPOTENCY_KEY_REUSED"
    errors = {name: envelope_in(seen[name])["error"] for name in ("invalid", "bad_output", "fails")}
    # the envelope is the text: an error carries no structuredContent
    assert all(seen[name].is_error and seen[name].structured_content is None for name in errors)
    assert errors["invalid"]["code"] == "VALIDATION_ERROR" and "'txt' given, 'text' expected" in \
        errors["invalid"]["message"]
    assert errors["bad_output"]["code"] == "OUTPUT_CONTRACT_VIOLATION"
    assert errors["fails"]["code"] == "UPSTREAM_TOOL_ERROR" and "disk full" in errors["fails"]["message"]
    assert [r.structured_content for r in seen["tag"]] == [{"id": 3}, {"id": 4}]
    assert [r.structured_content for r in seen["keyed_tag"]] == [{"id": 5}, {"id": 5}]
    assert seen["keyed_tag"][1].meta == {"toolclause/replayed": True}
    # the rest never reached it
    assert log.read_text().splitlines() == ["add_note milk", "add_note eggs", "add_tag urgent", "add_tag urgent",
                                            "add_tag later"]


@pytest.mark.parametrize(("schema", "found"), [
    ({"type": "object", "properties": {"request_id": {"type": "string"}}}, "request_id"),
    ({"type": "object", "properties": {"Idempotency-Key": {"type": "string"}}}, "Idempotency-Key"),
    ({"type": "object", "properties": {"request_id": {"type": "integer"}}}, None),
    ({"type": "object", "properties": {"text": {"type": "string"}}}, None),
    (None, None),
])
def test_the_key_parameter_is_a_top_level_string_x002_knows(schema, found):
    assert key_parameter(schema) == found


@pytest.mark.parametrize(("argv", "message"), [
    (["proxy"], "give --server CMD or --url URL"),
    (["proxy", "--server", "x", "--url", "http://localhost:1/mcp"], "give --server CMD or --url URL"),
    (["proxy", "--server", "x", "--header", "A: b"], "--header goes with --url"),
    (["proxy", "--server", "definitely-not-a-command-here"], "no such command (is it installed and on PATH?)"),
])
def test_a_proxy_that_cannot_start_says_why_in_one_line(argv, message):
    result = CliRunner().invoke(cli, argv)
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


def test_a_proxy_in_front_of_a_server_over_http_keeps_its_error_codes(tmp_path):
    from toolclause.mcp.serving import http_process

    apps = UPSTREAM.parent
    env = {**os.environ, "TOOLCLAUSE_STORE": f"sqlite:///{tmp_path / 'upstream.db'}",
           "SERVE_TEST_LOG": str(tmp_path / "runs.log")}

    async def session_run(url: str) -> dict[str, Any]:
        argv = ["-m", "toolclause.cli.main", "proxy", "--url", url, "--store", f"sqlite:///{tmp_path / 'proxy.db'}"]
        params = StdioServerParameters(command=sys.executable, args=argv, env=env)
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return {"names": [t.name for t in (await session.list_tools()).tools],
                    "ok": await session.call_tool("echo", {"text": "hi"}),
                    "empty": await session.call_tool("echo", {"text": ""})}

    with http_process("app.py:server", env=env, cwd=str(apps)) as url:
        seen = anyio.run(session_run, url)
    assert seen["names"] == ["echo", "record", "wait", "record_slowly"]
    assert seen["ok"].structured_content == {"text": "hi", "length": 2}
    assert seen["empty"].is_error and envelope_in(seen["empty"])["error"]["code"] == "EMPTY_TEXT"


def test_clients_reach_the_proxy_over_streamable_http(tmp_path):
    from mcp.client.streamable_http import streamable_http_client

    from toolclause.mcp.serving import http_process

    env = {**os.environ, "SERVE_TEST_LOG": str(tmp_path / "upstream.log")}

    async def session_run(url: str) -> list[Any]:
        async with streamable_http_client(url) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return [await session.call_tool("add_note", {"text": "tea", "request_id": "h-1"}) for _ in range(3)]

    with http_process("--server", shlex.join([sys.executable, str(UPSTREAM)]), "--store",
                      f"sqlite:///{tmp_path / 'proxy.db'}", command="proxy", env=env) as url:
        results = anyio.run(session_run, url)
    assert [r.structured_content for r in results] == [{"id": 1}] * 3
    assert (tmp_path / "upstream.log").read_text().splitlines() == ["add_note tea"]
