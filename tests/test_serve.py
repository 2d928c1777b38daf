"""`toolclause serve` and `Toolbox.mcp_server()`, driven by the official MCP client.

End to end: a real `toolclause serve` process over stdio (the SDK's stdio client starts it) and
over Streamable HTTP (one or two processes sharing one SQLite store).  In process: the SDK's
`Client` talks to the server object `box.mcp_server()` returns.  The served app is
tests/fixtures/serving/app.py; every run of a tool that changes something appends a line to a
log file, so the tests count executions across processes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from click.testing import CliRunner
from mcp.client.client import Client
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.server.lowlevel.server import Server

from toolclause import Toolbox, ToolError
from toolclause.cli.main import cli
from toolclause.mcp.serving import ToolboxServer, Widget, http_process

APPS = Path(__file__).parent / "fixtures" / "serving"
SERVE = [sys.executable, "-m", "toolclause.cli.main", "serve"]


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return served_env(tmp_path)


def served_env(tmp_path: Path) -> dict[str, str]:
    """The served app's environment: a shared SQLite store and the execution log, both in tmp_path."""
    return {**os.environ, "TOOLCLAUSE_STORE": f"sqlite:///{tmp_path / 'state.db'}",
            "SERVE_TEST_LOG": str(tmp_path / "runs.log"), "TOOLCLAUSE_CONFIRMATION_SECRET": "s" * 32}


def runs(env: dict[str, str]) -> list[str]:
    log = Path(env["SERVE_TEST_LOG"])
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []


def wire(model: Any) -> dict[str, Any]:
    return model.model_dump(by_alias=True, mode="json", exclude_none=True)


def envelope(result: Any) -> dict[str, Any]:
    """A failed call's envelope: the JSON of its one text block (an error carries no structuredContent,
    which a client would check against the tool's outputSchema)."""
    assert result.is_error and result.structured_content is None and len(result.content) == 1
    return json.loads(result.content[0].text)


@asynccontextmanager
async def stdio_session(env: dict[str, str], target: str = "app.py:server", *extra: str):
    params = StdioServerParameters(command=SERVE[0], args=[*SERVE[1:], target, *extra], env=env, cwd=str(APPS))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


def http_server(env: dict[str, str], target: str = "app.py:server", *extra: str):
    """`toolclause serve --transport http --port 0` in a process of its own; yields its URL."""
    return http_process(target, *extra, env=env, cwd=str(APPS))


@asynccontextmanager
async def http_session(url: str):
    async with streamable_http_client(url) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


async def all_tools(session: ClientSession) -> list[dict[str, Any]]:
    tools, cursor = [], None
    while True:
        from mcp_types import PaginatedRequestParams

        page = await session.list_tools(params=PaginatedRequestParams(cursor=cursor) if cursor else None)
        tools += [wire(t) for t in page.tools]
        cursor = page.next_cursor
        if cursor is None:
            return tools


# --------------------------------------------------------------------------- stdio, end to end

def test_stdio_lists_every_tool_with_its_contract_and_calls_through_the_gate(env):
    async def session_run() -> None:
        async with stdio_session(env) as session:
            tools = {t["name"]: t for t in await all_tools(session)}  # pages of two: three pages
            assert list(tools) == ["echo", "record", "wait", "record_slowly"]
            echo = tools["echo"]
            assert echo["title"] == "Echo text" and echo["annotations"]["readOnlyHint"] is True
            assert echo["_meta"] == {"openai/outputTemplate": "ui://widget/echo.html"}
            assert echo["inputSchema"]["required"] == ["text"]
            assert echo["outputSchema"]["properties"]["length"] == {"type": "integer"}
            assert "errors" not in echo  # the MCP export strips toolclause's own keys
            assert "idempotency_key" in tools["record"]["inputSchema"]["properties"]
            assert tools["record"]["annotations"] == {"title": "Record a note", "destructiveHint": False}

            ok = await session.call_tool("echo", {"text": "hi"})  # the client checks it against outputSchema
            assert not ok.is_error and ok.structured_content == {"text": "hi", "length": 2}
            assert [c.text for c in ok.content] == ['{"text":"hi","length":2}']

            failures = {
                "EMPTY_TEXT": await session.call_tool("echo", {"text": ""}),
                "VALIDATION_ERROR": await session.call_tool("echo", {"txt": "hi"}),
                "UNKNOWN_TOOL": await session.call_tool("ecoh", {"text": "hi"}),
            }
            for code, result in failures.items():
                said = envelope(result)
                assert said["ok"] is False and said["error"]["code"] == code and said["traceId"]
                assert said["error"]["retryable"] is False and said["error"]["userAction"] == "fix_arguments"
                assert result.content[0].text == json.dumps(said, ensure_ascii=False, separators=(",", ":"))
            assert envelope(failures["EMPTY_TEXT"])["error"]["message"] == \
                "echo: the text is empty; send at least one character"
            assert "'txt' given, 'text' expected" in envelope(failures["VALIDATION_ERROR"])["error"]["message"]
            assert "did you mean 'echo'" in envelope(failures["UNKNOWN_TOOL"])["error"]["message"]

    anyio.run(session_run)
    assert runs(env) == []  # nothing that failed reached a tool


def test_the_idempotency_key_comes_from_the_requests_meta(env, tmp_path):
    store = tmp_path / "given.db"

    async def session_run() -> list[Any]:
        async with stdio_session(env, "app.py:server", "--store", f"sqlite:///{store}") as session:
            first = await session.call_tool("record", {"note": "a"}, meta={"idempotencyKey": "k-1"})
            again = await session.call_tool("record", {"note": "a"}, meta={"idempotencyKey": "k-1"})
            other = await session.call_tool("record", {"note": "a"}, meta={"idempotencyKey": "k-2"})
            reused = await session.call_tool("record", {"note": "b"}, meta={"idempotencyKey": "k-1"})
            return [first, again, other, reused]

    first, again, other, reused = anyio.run(session_run)
    assert not first.is_error and again.structured_content == first.structured_content
    assert not other.is_error
    assert envelope(reused)["error"]["code"] == "IDEMPOTENCY_KEY_REUSED"
    assert runs(env) == ["record a", "record a"]  # k-1 once, k-2 once
    assert store.is_file() and not Path(env["TOOLCLAUSE_STORE"].removeprefix("sqlite:///")).exists()  # --store won


def test_a_cancelled_read_only_call_stops_and_the_server_goes_on(env):
    async def session_run() -> Any:
        async with stdio_session(env) as session:
            with anyio.move_on_after(1.0) as scope:
                await session.call_tool("wait", {"seconds": 30})
            assert scope.cancelled_caught
            for _ in range(100):  # the SDK sent notifications/cancelled; the tool sees CancelledError
                if runs(env):
                    break
                await anyio.sleep(0.05)
            return await session.call_tool("echo", {"text": "still here"})

    started = time.monotonic()
    after = anyio.run(session_run)
    assert runs(env) == ["wait cancelled"]
    assert not after.is_error and time.monotonic() - started < 20


def test_a_cancelled_call_that_changes_state_finishes_and_its_retry_gets_the_outcome(env):
    async def session_run() -> Any:
        async with stdio_session(env) as session:
            meta = {"idempotencyKey": "slow-1"}
            with anyio.move_on_after(0.5):
                await session.call_tool("record_slowly", {"note": "x", "seconds": 1.5}, meta=meta)
            for _ in range(100):
                if runs(env):
                    break
                await anyio.sleep(0.05)
            return await session.call_tool("record_slowly", {"note": "x", "seconds": 1.5}, meta=meta)

    retry = anyio.run(session_run)
    assert runs(env) == ["record_slowly x"]  # not torn in half, and not run twice
    assert not retry.is_error and retry.structured_content == {"note": "x", "run": 1}


def test_a_long_call_sends_progress_when_the_client_asks(env):
    seen: list[tuple[float, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, message))

    async def session_run() -> Any:
        async with stdio_session(env) as session:
            return await session.call_tool("wait", {"seconds": 2.3}, progress_callback=on_progress)

    result = anyio.run(session_run)
    assert not result.is_error and result.structured_content == {"waited": 2.3}
    assert [p for p, _ in seen] == [1.0, 2.0] and seen[0][1] == "running for 1 s"


# --------------------------------------------------------------------------- Streamable HTTP, end to end

@pytest.mark.parametrize("options", [(), ("--stateless",)])
def test_http_serves_the_same_tools_and_widgets(env, options):
    async def session_run(url: str) -> None:
        async with http_session(url) as session:
            tools = await all_tools(session)
            assert [t["name"] for t in tools] == ["echo", "record", "wait", "record_slowly"]
            ok = await session.call_tool("echo", {"text": "über"})
            assert ok.structured_content == {"text": "über", "length": 4}
            bad = await session.call_tool("echo", {"text": 5})
            assert envelope(bad)["error"]["code"] == "VALIDATION_ERROR"
            listed = [wire(r) for r in (await session.list_resources()).resources]
            assert listed == [{"uri": "ui://widget/echo.html", "name": "Echo", "description": "Shows the echoed text.",
                               "mimeType": "text/html+skybridge",
                               "_meta": {"openai/widgetDescription": "Shows the echoed text and its length.",
                                         "openai/widgetPrefersBorder": True,
                                         "openai/widgetCSP": {"connect_domains": [], "resource_domains": []}}}]
            read = wire((await session.read_resource("ui://widget/echo.html")).contents[0])
            assert read["mimeType"] == "text/html+skybridge" and "<div id='echo'>" in read["text"]

    with http_server(env, "app.py:server", *options) as url:
        assert url.startswith("http://127.0.0.1:") and url.endswith("/mcp")
        anyio.run(session_run, url)


@pytest.mark.parametrize("backend", ["sqlite", "redis", "postgres"])
def test_two_http_replicas_on_one_store_run_a_key_once(backend, env, request):
    if backend != "sqlite":  # the shared servers, with a namespace or database of this run's own
        env = {**env, "TOOLCLAUSE_STORE": request.getfixturevalue(f"{backend}_url")}

    async def storm(urls: list[str]) -> list[Any]:
        results: list[Any] = []

        async def one(url: str) -> None:
            async with http_session(url) as session:
                results.append(await session.call_tool("record", {"note": "order"},
                                                        meta={"idempotencyKey": "storm-1"}))

        async with anyio.create_task_group() as group:
            for i in range(6):
                group.start_soon(one, urls[i % 2])
        return results

    with http_server(env) as first, http_server(env) as second:
        results = anyio.run(storm, [first, second])
    assert runs(env) == ["record order"]
    answers = [r.structured_content for r in results if not r.is_error]
    in_progress = [r for r in results if r.is_error]
    assert answers and all(a == answers[0] for a in answers)
    assert all(envelope(r)["error"]["code"] == "IDEMPOTENCY_IN_PROGRESS" for r in in_progress)
    assert all(envelope(r)["error"]["retryable"] is True for r in in_progress)


# --------------------------------------------------------------------------- refusing to start

def test_a_server_whose_tools_fail_lint_refuses_to_start_naming_the_findings():
    refused = subprocess.run([*SERVE, "broken_app.py:box"], cwd=APPS, stdin=subprocess.DEVNULL, capture_output=True,
                             text=True, timeout=60)
    assert refused.returncode == 1 and refused.stdout == ""
    assert "S003 forecast: required names 'citty'" in refused.stderr
    assert "refused to start: 1 lint error(s)" in refused.stderr and "--allow-lint-errors" in refused.stderr
    started = subprocess.run([*SERVE, "broken_app.py:box", "--allow-lint-errors"], cwd=APPS,
                             stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert started.returncode == 0 and "lint: 1 error(s)" in started.stderr  # stdin closed: it served and left


def test_a_tool_naming_a_widget_the_server_does_not_serve_is_a_lint_error(env):
    refused = subprocess.run([*SERVE, "app.py:box"], cwd=APPS, env=env, stdin=subprocess.DEVNULL,
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 1 and "W001 echo:" in refused.stderr


@pytest.mark.parametrize(("target", "message"), [
    ("nowhere.py:box", "no file nowhere.py"),
    ("app.py", "give TARGET as path/to/app.py:box or package.module:box"),
    ("app.py:boxx", "app.py has no attribute 'boxx'"),
    ("broken_app.py:not_a_box", "names a int, not a toolclause Toolbox"),
    ("no_such_package.app:box", "no module named 'no_such_package'"),
])
def test_a_target_that_names_no_toolbox_is_one_line(target, message, monkeypatch):
    monkeypatch.chdir(APPS)
    result = CliRunner().invoke(cli, ["serve", target])
    assert result.exit_code == 2
    assert result.output.startswith("toolclause: error: ") and message in result.output
    assert "Traceback" not in result.output


def test_a_module_that_raises_on_import_is_reported(tmp_path, monkeypatch):
    (tmp_path / "explodes.py").write_text("raise RuntimeError('no database configured')\n")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["serve", "explodes.py:box"])
    assert result.exit_code == 2
    assert "importing explodes.py failed: RuntimeError: no database configured" in result.output


# --------------------------------------------------------------------------- in process: box.mcp_server()

def make_box() -> Toolbox:
    box = Toolbox("memory://")

    @box.tool(read_only=True, errors=["NOT_FOUND"])
    def lookup(item_id: str) -> dict:
        """Look up one item by its id and return its name; read-only."""
        if item_id != "1":
            raise ToolError("NOT_FOUND", "lookup: no item with that id")
        return {"name": "one"}

    @box.tool(read_only=True, name="math.sum")
    def sum_of(a: int, b: int) -> dict:
        """Return the sum of two whole numbers; read-only."""
        return {"sum": a + b}

    return box


def test_mcp_server_is_the_sdks_server_and_calls_go_through_the_gate():
    box = make_box()
    server = box.mcp_server(name="items")
    assert isinstance(server, Server) and isinstance(server, ToolboxServer) and server.toolbox is box

    async def session_run() -> None:
        async with Client(server, mode="legacy") as client:
            assert client.session is not None
            listed = await client.list_tools()
            assert [t.name for t in listed.tools] == ["lookup", "math.sum"] and listed.next_cursor is None
            found = await client.call_tool("lookup", {"item_id": "1"})
            assert found.structured_content == {"name": "one"}
            missing = await client.call_tool("lookup", {"item_id": "2"})
            assert envelope(missing)["error"]["code"] == "NOT_FOUND"
            added = await client.call_tool("math.sum", {"a": 2, "b": "3"})
            assert envelope(added)["error"]["code"] == "VALIDATION_ERROR"

    anyio.run(session_run)


def test_tools_list_pages_and_refuses_a_cursor_it_never_gave():
    from mcp.shared.exceptions import MCPError
    from mcp_types import PaginatedRequestParams

    server = make_box().mcp_server(page_size=1)

    async def session_run() -> None:
        async with Client(server, mode="legacy") as client:
            session = client.session
            first = await session.list_tools()
            second = await session.list_tools(params=PaginatedRequestParams(cursor=first.next_cursor))
            assert [t.name for t in first.tools + second.tools] == ["lookup", "math.sum"]
            assert first.next_cursor == "1" and second.next_cursor is None
            for cursor in ("x", "99", "-1"):
                with pytest.raises(MCPError, match="cursor was not given by this server"):
                    await session.list_tools(params=PaginatedRequestParams(cursor=cursor))

    anyio.run(session_run)


def test_a_resource_the_server_does_not_have_is_a_protocol_error():
    from mcp.shared.exceptions import MCPError

    server = make_box().mcp_server(widgets=[Widget("ui://widget/items.html", "<p>items</p>", "Items",
                                                   mime_type="text/html;profile=mcp-app")])

    async def session_run() -> None:
        async with Client(server, mode="legacy") as client:
            read = await client.read_resource("ui://widget/items.html")
            assert wire(read.contents[0])["mimeType"] == "text/html;profile=mcp-app"
            with pytest.raises(MCPError, match="no resource"):
                await client.read_resource("ui://widget/other.html")

    anyio.run(session_run)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"uri": "https://x/w.html"}, "starts with ui://"),
    ({"mime_type": "text/html"}, "mime_type is one of"),
])
def test_a_widget_is_checked_when_it_is_made(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Widget(**{"uri": "ui://widget/w.html", "html": "<p/>", "name": "W", **kwargs})


def test_mcp_server_refuses_what_is_not_a_widget_or_a_page_size():
    with pytest.raises(TypeError, match="Widget objects"):
        make_box().mcp_server(widgets=[{"uri": "ui://widget/w.html"}])
    with pytest.raises(ValueError, match="page_size"):
        make_box().mcp_server(page_size=0)


def test_widgets_added_to_a_box_are_served_by_every_server_made_from_it():
    from toolclause.mcp.serving import add_widgets

    box = make_box()
    add_widgets(box, Widget("ui://widget/items.html", "<p>items</p>", "Items"))
    assert list(box.mcp_server().widgets) == ["ui://widget/items.html"]
    assert list(box.mcp_server(widgets=[]).widgets) == []  # given explicitly, they replace the box's
    assert make_box().mcp_server().widgets == {}
    with pytest.raises(TypeError, match="Widget objects"):
        add_widgets(box, "ui://widget/other.html")


# --------------------------------------------------------------------------- lint and export TARGET

def test_lint_reads_a_python_toolbox_like_a_folder_of_contracts(monkeypatch, env):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.chdir(APPS)
    refused = CliRunner().invoke(cli, ["lint", "broken_app.py:box", "--format", "json"])
    report = json.loads(refused.stdout)
    assert refused.exit_code == 1 and report["tools"] == 1
    s003 = [d for d in report["diagnostics"] if d["code"] == "S003"]
    assert s003 and s003[0]["file"] == "broken_app.py:box" and s003[0]["pointer"] == "/tools/0/inputSchema/required/0"
    served = CliRunner().invoke(cli, ["lint", "app.py:server", str(APPS / "broken_app.py"), "--format", "json",
                                      "--select", "W,S"])
    both = json.loads(served.stdout)
    assert both["tools"] == 4  # the .py file itself is no TARGET: a path, holding no tool file
    assert not [d for d in both["diagnostics"] if d["code"].startswith("W")]  # the widget is served


def test_export_reads_a_python_toolbox(monkeypatch, env):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.chdir(APPS)
    done = CliRunner().invoke(cli, ["export", "app.py:server", "--target", "mcp"])
    assert done.exit_code == 0, done.output
    exported = json.loads(done.stdout)
    assert [t["name"] for t in exported] == ["echo", "record", "wait", "record_slowly"]
    assert exported[0]["outputSchema"]["properties"]["length"] == {"type": "integer"}


@pytest.mark.parametrize("argv", [["lint", "app.py:nothing"], ["export", "app.py:nothing", "--target", "mcp"]])
def test_a_target_that_cannot_be_read_stops_lint_and_export(argv, monkeypatch):
    monkeypatch.chdir(APPS)
    result = CliRunner().invoke(cli, argv)
    assert result.exit_code == 2 and "app.py has no attribute 'nothing'" in result.output
