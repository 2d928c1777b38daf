"""What the official MCP clients accept from `toolclause serve`: every answer, error or not.

A client checks a result's `structuredContent` against the tool's listed `outputSchema` (the
TypeScript SDK's `Client.callTool`, and so MCP Inspector, even for `isError` results; the Python
SDK's `ClientSession.call_tool` for successes), so an error carries its envelope as JSON text and
no `structuredContent`, and a list or scalar result is listed and answered wrapped as
`{"result": …}`.  Both clients drive a real `toolclause serve` process over stdio and over
Streamable HTTP; the served app is tests/fixtures/serving/shapes.py.

The TypeScript client is tests/clients/mcp_client.mjs with the SDK pinned in
tests/clients/package.json (and its lock file); `npm ci` installs it once into a cache folder
outside the repository, keyed by those files' contents.  Without node or npm the test skips.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import jsonschema_rs
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from toolclause.mcp.serving import http_process
from toolclause.runtime.envelope import envelope_in

APPS = Path(__file__).parent / "fixtures" / "serving"
CLIENTS = Path(__file__).parent / "clients"
SERVE = [sys.executable, "-m", "toolclause.cli.main", "serve"]
TS_FILES = ("package.json", "package-lock.json", "mcp_client.mjs")

# label: (tool, arguments); what each must answer is in SUCCESSES and ERRORS
CALLS: dict[str, tuple[str, dict[str, Any]]] = {
    "object": ("find_note", {"note_id": "n1"}),
    "tool_error": ("find_note", {"note_id": "n9"}),
    "validation_error": ("find_note", {"note_ld": "n1"}),  # misspelt
    "unknown_tool": ("find_nots", {"note_id": "n1"}),
    "list": ("list_tags", {}),
    "scalar": ("count_notes", {}),
    "null": ("note_colour", {"note_id": "n2"}),
    "contract_list": ("list_shelves", {}),
    "free_form_list": ("free_form", {"kind": "list"}),
    "free_form_object": ("free_form", {"kind": "object"}),
}
SUCCESSES: dict[str, tuple[Any, str]] = {  # label: (structuredContent, text)
    "object": ({"id": "n1", "text": "buy milk"}, '{"id":"n1","text":"buy milk"}'),
    "list": ({"result": ["home", "work"]}, '["home","work"]'),
    "scalar": ({"result": 3}, "3"),
    "null": ({"result": None}, "null"),
    "contract_list": ({"result": [{"name": "kitchen"}, {"name": "desk"}]}, '[{"name":"kitchen"},{"name":"desk"}]'),
    "free_form_list": (None, '["a","b"]'),  # no outputSchema: no structuredContent for what is not an object
    "free_form_object": ({"kind": "object"}, '{"kind":"object"}'),
}
ERRORS: dict[str, tuple[str, bool, str, str]] = {  # label: (code, retryable, userAction, in the message)
    "tool_error": ("NOTE_NOT_FOUND", False, "fix_arguments", "find_note: no note has that id"),
    "validation_error": ("VALIDATION_ERROR", False, "fix_arguments", "'note_ld' given, 'note_id' expected"),
    "unknown_tool": ("UNKNOWN_TOOL", False, "fix_arguments", "did you mean 'find_note'"),
}
WRAPPED = {"list_tags": {"type": "array", "items": {"type": "string"}},
           "count_notes": {"type": "integer"},
           "list_shelves": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}},
                                                        "required": ["name"], "additionalProperties": False}}}


def check_listing(tools: list[dict[str, Any]]) -> None:
    """Every outputSchema is an object; a list or scalar result is described as {"result": <schema>}."""
    by_name = {t["name"]: t for t in tools}
    assert sorted(by_name) == sorted({"find_note", "list_tags", "count_notes", "note_colour", "list_shelves",
                                      "free_form"})
    for tool in tools:
        if "outputSchema" in tool:
            assert tool["outputSchema"]["type"] == "object", tool["name"]
    for name, inner in WRAPPED.items():
        listed = by_name[name]["outputSchema"]
        assert listed["required"] == ["result"] and listed["properties"] == {"result": inner}, name
    assert by_name["find_note"]["outputSchema"]["properties"] == {"id": {"type": "string"}, "text": {"type": "string"}}
    assert "outputSchema" not in by_name["free_form"]


def check_answers(answers: dict[str, dict[str, Any]], tools: list[dict[str, Any]]) -> None:
    """`answers`: label -> the CallToolResult as wire JSON (camelCase)."""
    assert sorted(answers) == sorted(CALLS)
    schemas = {t["name"]: t.get("outputSchema") for t in tools}
    for label, (structured, text) in SUCCESSES.items():
        answer = answers[label]
        assert answer.get("isError") in (False, None), label
        assert answer.get("structuredContent") == structured, label
        assert [c["text"] for c in answer["content"]] == [text], label
        schema = schemas[CALLS[label][0]]
        if schema is not None:  # what every client checks
            jsonschema_rs.validate(schema, answer["structuredContent"])
    for label, (code, retryable, action, said) in ERRORS.items():
        answer = answers[label]
        assert answer["isError"] is True and "structuredContent" not in answer, label  # nothing for a client to reject
        assert len(answer["content"]) == 1 and answer["content"][0]["type"] == "text"
        envelope = json.loads(answer["content"][0]["text"])  # the whole envelope, as compact JSON
        assert answer["content"][0]["text"] == json.dumps(envelope, ensure_ascii=False, separators=(",", ":"))
        assert envelope_in(answer) == envelope
        assert envelope["ok"] is False and envelope["traceId"], label
        error = envelope["error"]
        assert (error["code"], error["retryable"], error["userAction"]) == (code, retryable, action), label
        assert said in error["message"], label
    assert answers["validation_error"]["content"][0]["text"].count('"path":"/note_ld"') == 1


# --------------------------------------------------------------------------- the official Python client

def wire(model: Any) -> dict[str, Any]:
    return model.model_dump(by_alias=True, mode="json", exclude_none=True)


async def python_client_run(session: ClientSession) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    await session.initialize()
    tools = [wire(t) for t in (await session.list_tools()).tools]
    answers = {}
    for label, (name, arguments) in CALLS.items():
        result = await session.call_tool(name, arguments)  # raises when structuredContent breaks the outputSchema
        answers[label] = wire(result)
    return tools, answers


@asynccontextmanager
async def python_stdio(target: str = "shapes.py:server"):
    params = StdioServerParameters(command=SERVE[0], args=[*SERVE[1:], target], env=dict(os.environ), cwd=str(APPS))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        yield session


@asynccontextmanager
async def python_http(url: str):
    async with streamable_http_client(url) as (read, write), ClientSession(read, write) as session:
        yield session


def test_the_python_client_accepts_every_answer_over_stdio():
    async def run() -> Any:
        async with python_stdio() as session:
            return await python_client_run(session)

    tools, answers = anyio.run(run)
    check_listing(tools)
    check_answers(answers, tools)


def test_the_python_client_accepts_every_answer_over_http():
    async def run(url: str) -> Any:
        async with python_http(url) as session:
            return await python_client_run(session)

    with http_process("shapes.py:server", cwd=str(APPS)) as url:
        tools, answers = anyio.run(run, url)
    check_listing(tools)
    check_answers(answers, tools)


def test_the_python_client_accepts_a_routed_servers_refusal():
    async def run() -> Any:
        params = StdioServerParameters(command=SERVE[0], args=[*SERVE[1:], "shapes.py:box", "--route-k", "2"],
                                       env=dict(os.environ), cwd=str(APPS))
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await session.list_tools()
            refused = await session.call_tool("find_tools", {"reqest": "how many notes"})
            found = await session.call_tool("find_tools", {"request": "how many notes are there"})
            return wire(refused), wire(found)

    refused, found = anyio.run(run)
    assert refused["isError"] is True and "structuredContent" not in refused
    envelope = json.loads(refused["content"][0]["text"])
    assert envelope["error"]["code"] == "VALIDATION_ERROR" and envelope["traceId"]
    assert envelope["error"]["details"] == [{"path": "/reqest", "problem": "additionalProperties"}]
    assert not found.get("isError") and "count_notes" in [t["name"] for t in found["structuredContent"]["tools"]]


# --------------------------------------------------------------------------- the official TypeScript client

def ts_client() -> Path:
    """The TypeScript client, installed (`npm ci`) once per version of its files into a cache folder."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("the TypeScript MCP client needs node and npm on PATH (neither is a Python dependency)")
    digest = hashlib.sha256(b"".join((CLIENTS / f).read_bytes() for f in TS_FILES)).hexdigest()[:16]
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "toolclause-tests" / "mcp-clients"
    home = cache / digest
    if not (home / "node_modules" / "@modelcontextprotocol" / "sdk" / "package.json").is_file():
        cache.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f"{digest}-", dir=cache))
        for name in TS_FILES:
            shutil.copyfile(CLIENTS / name, staging / name)
        installed = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=staging,
                                   capture_output=True, text=True, timeout=600)
        assert installed.returncode == 0, f"npm ci failed in {staging}:\n{installed.stdout}\n{installed.stderr}"
        try:
            staging.rename(home)  # atomic: a concurrent run that won keeps its own
        except OSError:
            shutil.rmtree(staging, ignore_errors=True)
    return home / "mcp_client.mjs"


def ts_run(script: Path, plan: dict[str, Any]) -> dict[str, Any]:
    plan = {**plan, "calls": [{"label": label, "name": name, "arguments": arguments}
                              for label, (name, arguments) in plan.get("calls", CALLS).items()]}
    done = subprocess.run(["node", str(script), json.dumps(plan)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"the TypeScript client failed:\n{done.stderr[-3000:]}"
    said = json.loads(done.stdout)
    print(json.dumps(said, indent=1, ensure_ascii=False))  # what it got, for `pytest -s`
    rejected = {label: got["rejected"] for label, got in said["calls"].items() if "rejected" in got}
    assert rejected == {}, f"the TypeScript client rejected answers: {rejected}"
    return said


def ts_stdio_plan(target: str = "shapes.py:server", *extra: str) -> dict[str, Any]:
    return {"transport": "stdio", "command": SERVE[0], "args": [*SERVE[1:], target, *extra],
            "cwd": str(APPS), "env": dict(os.environ)}


@pytest.mark.timeout(900)
def test_the_typescript_client_accepts_every_answer_over_stdio_and_http():
    script = ts_client()
    over_stdio = ts_run(script, ts_stdio_plan())
    with http_process("shapes.py:server", cwd=str(APPS)) as url:
        over_http = ts_run(script, {"transport": "http", "url": url})
    for said in (over_stdio, over_http):
        assert said["server"]["name"] == "shapes-fixture"
        check_listing(said["tools"])
        check_answers({label: got["result"] for label, got in said["calls"].items()}, said["tools"])


@pytest.mark.timeout(900)
def test_the_typescript_client_accepts_a_routed_servers_refusal():
    script = ts_client()
    said = ts_run(script, {**ts_stdio_plan("shapes.py:box", "--route-k", "2"), "calls": {
        "refused": ("find_tools", {"reqest": "how many notes"}),
        "found": ("find_tools", {"request": "how many notes are there"}),
    }})
    assert [t["name"] for t in said["tools"]] == ["find_tools"]
    refused = said["calls"]["refused"]["result"]
    assert refused["isError"] is True and "structuredContent" not in refused
    assert json.loads(refused["content"][0]["text"])["error"]["code"] == "VALIDATION_ERROR"
    found = said["calls"]["found"]["result"]
    assert "count_notes" in [t["name"] for t in found["structuredContent"]["tools"]]


# --------------------------------------------------------------------------- in process: a replayed wrapped result

def test_a_replayed_result_of_a_wrapped_contract_is_wrapped_as_listed():
    from mcp.client.client import Client

    from toolclause import Toolbox

    box = Toolbox("memory://")
    runs: list[str] = []

    def tag(name: str) -> list[str]:
        runs.append(name)
        return [name, f"{name}-2"]

    box.add({"name": "add_tags", "description": "Add a tag and its twin to the board; returns both tags.",
             "inputSchema": {"type": "object", "properties": {"name": {"type": "string", "description": "The tag."}},
                             "required": ["name"], "additionalProperties": False},
             "outputSchema": {"type": "array", "items": {"type": "string"}},
             "annotations": {"readOnlyHint": False, "destructiveHint": False}}, tag, idempotency="host")

    async def run() -> Any:
        async with Client(box.mcp_server(), mode="legacy") as client:
            listed = (await client.list_tools()).tools[0].output_schema
            meta = {"idempotencyKey": "t-1"}
            first = await client.call_tool("add_tags", {"name": "red"}, meta=meta)  # validated by the client
            again = await client.call_tool("add_tags", {"name": "red"}, meta=meta)
            return listed, wire(first), wire(again)

    listed, first, again = anyio.run(run)
    assert listed == {"type": "object", "properties": {"result": {"type": "array", "items": {"type": "string"}}},
                      "required": ["result"]}
    assert first["structuredContent"] == again["structuredContent"] == {"result": ["red", "red-2"]}
    assert again["_meta"] == {"toolclause/replayed": True} and runs == ["red"]
