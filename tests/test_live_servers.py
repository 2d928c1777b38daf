"""`toolclause lint --server CMD` and `--url URL` against real MCP servers the tests start.

The servers (tests/fixtures/servers/) are written with the official SDK: a clean one
with a declared widget, one whose widgets are wired wrong, a poisoned one, one that
pages its tools/list, one behind a bearer token, and three broken ones (crashes on start, prints garbage on
stdout, never answers).  Each server records its pid so the tests can prove that
the linter reaps every process it starts, whatever happened.
"""

from __future__ import annotations

import json
import os
import shlex
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

import toolclause
import toolclause.mcp  # the live-server API (imported on demand by the CLI, explicitly here)
from toolclause.cli.main import cli

SERVERS = Path(__file__).parent / "fixtures" / "servers"


def command(name: str) -> str:
    return shlex.join([sys.executable, str(SERVERS / f"{name}.py")])


def lint(*args: str):
    return CliRunner().invoke(cli, ["lint", *args])


def lint_json(*args: str) -> dict:
    result = lint(*args, "--format", "json")
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


@pytest.fixture
def pids(tmp_path, monkeypatch):
    """The pids of the servers started during the test (the fixtures append theirs to this file)."""
    path = tmp_path / "pids"
    monkeypatch.setenv("TOOLCLAUSE_FIXTURE_PIDFILE", str(path))

    def read() -> list[int]:
        return [int(line) for line in path.read_text().split()] if path.exists() else []

    return read


def assert_reaped(pid_list: list[int]) -> None:
    assert pid_list, "the server never started"
    for pid in pid_list:
        # a process that is gone — not even a zombie waiting for its parent — was reaped
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def codes(report: dict) -> set[str]:
    return {d["code"] for d in report["diagnostics"]}


# --------------------------------------------------------------------------- stdio

def test_a_clean_server_over_stdio(pids):
    report = lint_json("--server", command("clean"), "--fail-on", "error")
    assert report["tools"] == 3 and report["files"] == 1
    assert not {c for c in codes(report) if c.startswith("W") or c == "X007"}
    assert report["summary"]["error"] == 0
    file = {d["file"] for d in report["diagnostics"]}
    assert file == {f"server:{command('clean')}"}
    assert_reaped(pids())


def test_every_page_of_tools_list_is_read(pids):
    report = lint_json("--server", command("paged"), "--select", "S")
    assert report["tools"] == 5  # the server pages two at a time
    loaded = toolclause.mcp.load_server(command("paged"))
    assert [t.name for t in loaded.tools] == [f"lookup_{n}" for n in range(5)]
    assert loaded.tools[0].origin.resources == ()  # no resources capability: it declares none
    assert_reaped(pids())


def test_a_live_servers_safe_fixes_point_to_a_saved_file(pids):
    # --fix cannot write into a running server: the hint must not promise it would
    result = lint("--server", command("paged"), "--select", "C001")
    assert result.exit_code == 0, result.output  # C001 is a warning
    assert "[safe: --fix applies it to a saved file]" in result.output
    assert "[safe: --fix applies it]" not in result.output


def test_a_poisoned_server_is_caught(pids):
    result = lint("--server", command("poisoned"), "--select", "X007")
    assert result.exit_code == 1
    assert "X007" in result.output and "add" in result.output
    assert_reaped(pids())


def test_widget_rules_see_the_servers_resources(pids):
    report = lint_json("--server", command("widgets_broken"), "--select", "W")
    found = {d["code"]: d for d in report["diagnostics"]}
    assert set(found) == {"W001", "W002", "W003", "W004", "W005"}
    widget_settings = [d["message"] for d in report["diagnostics"] if d["code"] == "W005"]
    assert any('"chatgpt.com/widgets", not an origin' in m for m in widget_settings), widget_settings
    assert "did you mean 'ui://widget/board.html'?" in found["W001"]["message"]
    assert found["W001"]["pointer"] == "/tools/0/_meta/openai~1outputTemplate"
    assert "served as 'text/html'" in found["W002"]["message"]
    assert "connect_domains '*'" in found["W003"]["message"]


def test_a_live_server_and_its_saved_snapshot_lint_alike(tmp_path):
    snapshot = toolclause.mcp.snapshot_server(command("widgets_broken"))
    (chart,) = [r for r in snapshot["resources"] if r["uri"] == "ui://widget/chart.html"]
    assert chart["contents"] and all("text" not in c for c in chart["contents"])  # read for its _meta, HTML dropped
    saved = tmp_path / "snapshot.json"
    saved.write_text(json.dumps(snapshot))
    from_file = [(d.code, d.pointer, d.message) for d in toolclause.lint(str(saved), select=["W"])]
    live = toolclause.mcp.load_server(command("widgets_broken"))
    from_server = [(d.code, d.pointer, d.message) for d in toolclause.lint(live.tools, select=["W"])]
    assert from_file == from_server and len(from_file) == 6  # W001–W004, and W005 twice (domain, description)


# --------------------------------------------------------------------------- broken servers

def one_line_error(result) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith("toolclause: error: ")
    return lines[0]


def test_a_server_that_crashes_on_start(pids):
    line = one_line_error(lint("--server", command("crash")))
    assert f"server '{command('crash')}' exited before it answered initialize" in line
    assert "DATABASE_URL is not set" in line  # the last line of its stderr says why
    assert_reaped(pids())


def test_a_server_that_prints_garbage_on_stdout(pids):
    line = one_line_error(lint("--server", command("garbage")))
    assert "not JSON-RPC on its standard output: 'Starting demo server v1.2 ...'" in line
    assert_reaped(pids())


def test_a_command_that_does_not_exist():
    line = one_line_error(lint("--server", "toolclause-no-such-server --stdio"))
    assert "cannot start 'toolclause-no-such-server': no such command" in line


def test_a_server_that_never_answers_is_timed_out_and_killed(pids):
    started = time.monotonic()
    line = one_line_error(lint("--server", command("silent"), "--timeout", "1"))
    assert "had not answered initialize after 1 s" in line and "--timeout" in line
    assert time.monotonic() - started < 15  # 1 s, then stdin closed, SIGTERM (ignored), SIGKILL
    assert_reaped(pids())


@pytest.mark.parametrize("args, says", [
    (["--server", "x", "--url", "http://localhost:1/mcp"], "not both"),
    (["--server", "x", "tools.json"], "not both"),
    (["--server", "'unclosed"], "cannot split the command line"),
    (["--server", ""], "the command is empty"),
    (["--url", "localhost:8000/mcp"], "http:// or https://"),
    (["--timeout", "0", "--server", "x"], "--timeout"),
])
def test_usage_errors(args, says):
    result = lint(*args)
    assert result.exit_code == 2 and says in result.output and "Traceback" not in result.output


def test_fix_is_refused_for_a_live_server():
    line = one_line_error(lint("--server", command("clean"), "--fix"))
    assert "--fix edits files" in line


def test_the_package_does_not_shadow_the_sdk():
    import mcp

    import toolclause.mcp.live as live

    # the SDK is found as itself, not as the package's own `toolclause/mcp` (the test must not depend on
    # the folder the project was cloned into, which may well be called toolclause)
    sdk, package = Path(mcp.__file__).resolve().parent, Path(toolclause.__file__).resolve().parent
    assert sdk.name == "mcp" and not sdk.is_relative_to(package)
    assert live.ClientSession.__module__ == "mcp.client.session"


# --------------------------------------------------------------------------- Streamable HTTP

def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def http_server(*argv: str) -> Iterator[str]:
    """A fixture server run as `python SCRIPT ... PORT` on a free localhost port; yields its /mcp URL."""
    port = _free_port()
    process = subprocess.Popen([sys.executable, *argv, str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 20
        while True:
            if process.poll() is not None:
                pytest.fail(f"the HTTP fixture server exited: {process.stderr.read().decode()[-500:]}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("the HTTP fixture server did not listen within 20 s")
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def http_url():
    """widgets_broken served over Streamable HTTP, for the whole module."""
    with http_server(str(SERVERS / "widgets_broken.py"), "http") as url:
        yield url


@pytest.fixture(scope="module")
def guarded_url():
    """A server behind a bearer token (401 without it), for the whole module."""
    with http_server(str(SERVERS / "guarded.py")) as url:
        yield url


def test_a_server_over_streamable_http(http_url):
    report = lint_json("--url", http_url, "--select", "W,S,X007")
    assert report["tools"] == 2
    assert {"W001", "W002", "W003", "W004"} <= codes(report)  # resources were listed and read over HTTP
    assert {d["file"] for d in report["diagnostics"]} == {http_url}


def test_the_python_api_over_http(http_url):
    loaded = toolclause.mcp.load_url(http_url)
    assert [t.name for t in loaded.tools] == ["show_board", "show_chart"]
    assert all(t.origin.format == "mcp" and t.origin.file == http_url for t in loaded.tools)
    assert {r["uri"] for r in loaded.tools[0].origin.resources} == {"ui://widget/board.html", "ui://widget/chart.html"}


def test_a_wrong_path_and_a_closed_port(http_url):
    line = one_line_error(lint("--url", http_url.replace("/mcp", "/nope")))
    assert "answered initialize with an error" in line and "/mcp" in line
    closed = f"http://127.0.0.1:{_free_port()}/mcp"
    line = one_line_error(lint("--url", closed))
    assert f"server {closed}: cannot connect" in line


# --------------------------------------------------------------------------- credentials

GUARD_TOKEN = "fixture-secret-7f3a"  # tests/fixtures/servers/guarded.py


def test_a_server_behind_a_token_is_linted_with_header(guarded_url):
    report = lint_json("--url", guarded_url, "--header", f"Authorization: Bearer {GUARD_TOKEN}")
    assert report["tools"] == 1
    assert {d["tool"] for d in report["diagnostics"]} <= {"list_invoices"}
    loaded = toolclause.mcp.load_url(guarded_url, headers={"Authorization": f"Bearer {GUARD_TOKEN}"})
    assert [t.name for t in loaded.tools] == ["list_invoices"]


def test_a_401_says_credentials_are_needed_and_how_to_pass_them(guarded_url):
    line = one_line_error(lint("--url", guarded_url))
    assert f"server {guarded_url} needs credentials (HTTP 401 Unauthorized)" in line
    assert "--header 'Authorization: Bearer <token>'" in line


def test_refused_credentials_are_named_but_never_echoed(guarded_url):
    line = one_line_error(lint("--url", guarded_url, "--header", "Authorization: Bearer wrong-token-9d1c"))
    assert "refused the credentials given with --header (HTTP 401" in line
    assert "wrong-token-9d1c" not in line


def test_header_usage_errors_never_echo_the_value():
    result = lint("--url", "http://127.0.0.1:1/mcp", "--header", "Bearer s3cret-only-value")
    assert result.exit_code == 2 and "'Name: value'" in result.output
    assert "s3cret-only-value" not in result.output
    result = lint("tools.json", "--header", "Authorization: Bearer x")
    assert result.exit_code == 2 and "--header goes with --url" in result.output
