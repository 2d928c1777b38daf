"""The gate inside servers written with the official MCP SDK (toolclause.mcp.sdk): an MCPServer and a
low-level Server, driven by the SDK's own client in memory and over stdio."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client.client import Client
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from sdk_app import build_lowlevel, build_mcpserver
from sep_requests import call_with_key, call_with_text, envelope, text_of
from shop_models import ADDRESS_CITY
from toolclause.mcp.sdk import gate
from toolclause.mcp.serving import REPLAYED

APP = Path(__file__).with_name("sdk_app.py")
ROOT = Path(__file__).resolve().parents[1]
ADDRESS = {"street": "Jongno 1", "city": ADDRESS_CITY}


def test_without_the_gate_mcpserver_runs_a_misspelt_call_with_the_default() -> None:
    """The 'before' of docs/integrations.md (python-sdk #3067): `limt` is ignored, the tool runs with 10."""
    server, runs = build_mcpserver(gated=False)

    async def scenario() -> Any:
        async with Client(server, mode="legacy") as client:
            return await client.call_tool("search", {"query": "tea", "limt": 2})

    result = anyio.run(scenario)
    assert not result.is_error and len(result.structured_content["result"]) == 10 and runs["search"] == 1


def test_mcpserver_a_misspelt_argument_gets_did_you_mean_and_the_tool_does_not_run() -> None:
    server, runs = build_mcpserver()

    async def scenario() -> tuple[Any, ...]:
        async with Client(server, mode="legacy") as client:
            return (await client.call_tool("search", {"query": "tea", "limt": 2}),
                    await client.call_tool("ship", {"order_id": "o-1", "address": {**ADDRESS, "zip": "SECRET-1"}}),
                    await client.call_tool("search", {"query": "tea", "limit": 2}))

    misspelt, extra, valid = anyio.run(scenario)
    assert "'limt' is not a parameter; did you mean 'limit'?" in envelope(misspelt)["error"]["message"]
    assert envelope(extra)["error"]["details"][0]["path"].startswith("/address/")
    assert "SECRET-1" not in text_of(extra) and ADDRESS_CITY not in text_of(extra)
    assert valid.structured_content == {"result": ["tea-0", "tea-1"]}
    assert runs == {"search": 1}


def test_mcpserver_keyed_calls_run_once_per_sep_key_and_double_encoded_arguments_are_repaired() -> None:
    server, runs = build_mcpserver()

    async def scenario() -> dict[str, Any]:
        async with Client(server, mode="legacy") as client:
            results: list[Any] = []

            async def one() -> None:
                results.append(await call_with_key(client.session, "place_order", {"item": "tea", "quantity": 1},
                                                   "k-9"))

            async with anyio.create_task_group() as group:
                for _ in range(20):
                    group.start_soon(one)
            return {"concurrent": results,
                    "replayed": await call_with_key(client.session, "place_order", {"quantity": 1.0, "item": "tea"},
                                                    "k-9"),
                    "conflict": await call_with_key(client.session, "place_order", {"item": "tea", "quantity": 5},
                                                    "k-9"),
                    "text": await call_with_text(client.session, "search", '{"query": "tea", "limit": 1}')}

    seen = anyio.run(scenario)
    # one ran; on a loaded machine a duplicate may arrive after it finished and get its outcome replayed
    assert [(r.meta or {}).get(REPLAYED) for r in seen["concurrent"] if not r.is_error].count(None) == 1
    assert runs["place_order"] == 1
    assert {envelope(r)["error"]["details"][0]["type"] for r in seen["concurrent"] if r.is_error} == \
        {"idempotency_key_in_progress"}
    assert (seen["replayed"].meta or {}).get(REPLAYED) is True
    assert envelope(seen["conflict"])["error"]["details"][0]["type"] == "idempotency_key_conflict"
    assert seen["text"].structured_content == {"result": ["tea-0"]}


def test_a_lowlevel_server_gets_validation_keys_output_checks_and_its_own_errors() -> None:
    server, notes = build_lowlevel()

    async def scenario() -> dict[str, Any]:
        async with Client(server, mode="legacy") as client:
            call = client.call_tool
            return {"missing": await call("add_note", {"request_id": "r-1"}),
                    "first": await call("add_note", {"text": "milk", "request_id": "r-1"}),
                    "retry": await call("add_note", {"text": "milk", "request_id": "r-1"}),
                    "meta": await call("add_note", {"text": "eggs", "request_id": "r-2"},
                                       meta={"idempotencyKey": "m-1"}),
                    "bad_output": await call("bad_output", {}),
                    "fails": await call("fails", {})}

    seen = anyio.run(scenario)
    assert envelope(seen["missing"])["error"]["details"][0] == {"path": "/text", "problem": "required",
                                                                 "expected": "string"}
    assert seen["first"].structured_content == {"id": 1}
    assert seen["retry"].structured_content == {"id": 1} and (seen["retry"].meta or {}).get(REPLAYED) is True
    assert seen["meta"].structured_content == {"id": 2}
    assert envelope(seen["bad_output"])["error"]["code"] == "OUTPUT_CONTRACT_VIOLATION"
    assert seen["bad_output"].structured_content is None
    fails = envelope(seen["fails"])["error"]
    assert (fails["code"], fails["message"]) == ("TOOL_ERROR", "fails: disk full")
    assert notes == ["milk", "eggs"]


def test_a_server_is_gated_once_and_only_once_its_handler_exists() -> None:
    from mcp.server.lowlevel.server import Server

    with pytest.raises(ValueError, match="no tools/call handler"):
        gate(Server("empty"))
    server, _ = build_lowlevel()
    with pytest.raises(ValueError, match="already gated"):
        gate(server)


@pytest.mark.timeout(120)
def test_mcpserver_over_stdio_with_a_sqlite_store(tmp_path: Path) -> None:
    env = {"TOOLCLAUSE_STORE": f"sqlite:///{tmp_path / 'state.db'}", "PYTHONPATH": str(ROOT)}

    async def scenario() -> dict[str, Any]:
        params = StdioServerParameters(command=sys.executable, args=[str(APP)], env=env, cwd=str(ROOT))
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return {"misspelt": await session.call_tool("ship", {"order_id": "o-1", "adress": ADDRESS}),
                    "first": await call_with_key(session, "place_order", {"item": "rice", "quantity": 2}, "s-1"),
                    "again": await call_with_key(session, "place_order", {"item": "rice", "quantity": 2}, "s-1"),
                    "counts": await session.call_tool("run_counts", {})}

    seen = anyio.run(scenario)
    assert "'adress' given, 'address' expected" in envelope(seen["misspelt"])["error"]["message"]
    assert ADDRESS_CITY not in text_of(seen["misspelt"])
    assert not seen["first"].is_error and (seen["again"].meta or {}).get(REPLAYED) is True
    assert seen["counts"].structured_content == {"place_order": 1}


def test_the_after_docs_integrations_shows_is_what_the_model_reads() -> None:
    doc = (ROOT / "docs" / "integrations.md").read_text(encoding="utf-8")
    shown = next(json.loads(line) for line in doc.splitlines() if line.startswith('{"ok":false') and "search:" in line)
    server, _ = build_mcpserver()

    async def scenario() -> Any:
        async with Client(server, mode="legacy") as client:
            return await client.call_tool("search", {"query": "tea", "limt": 2})

    assert envelope(anyio.run(scenario))["error"] == shown["error"]
