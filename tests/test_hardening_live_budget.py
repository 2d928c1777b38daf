"""A live lint is bounded as a whole: --timeout covers starting, listing and linting; a huge listing is refused."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from test_hardening_live import SERVE  # answers initialize, then every request with ANSWER(msg)
from toolclause.cli.main import cli
from toolclause.linting import run as lint_run
from toolclause.mcp import live

ONE_TOOL = '[{"name": "get_order", "description": "Returns one order by its id.", ' \
           '"inputSchema": {"type": "object", "properties": {}}}]'
# 2 MiB of tools/list; the test lowers the document limit to 1 MiB (it is 32 MiB: the same path, less to send)
HUGE = 'TOOLS = [{"name": f"tool_{i}", "description": "Returns one order by its id. " + "x" * 20_000, ' \
       '"inputSchema": {"type": "object", "properties": {}}} for i in range(100)]'


def _server(tmp_path: Path, tools: str) -> str:
    script = tmp_path / "server.py"
    listing = tools if tools.startswith("TOOLS") else f"TOOLS = {tools}"
    script.write_text(f"{listing}\ndef ANSWER(msg):\n    return {{'result': {{'tools': TOOLS}}}}\n{SERVE}")
    return shlex.join([sys.executable, str(script)])


def test_timeout_bounds_the_linting_too_not_only_the_listing(tmp_path: Path, monkeypatch):
    lint_loaded_result = lint_run.lint_loaded_result
    released = threading.Event()

    def slow_lint(*args, **kwargs):  # a lint slower than --timeout (a rule that takes minutes on one text)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not released.is_set():
            time.sleep(0.05)
        return lint_loaded_result(*args, **kwargs)

    monkeypatch.setattr(lint_run, "lint_loaded_result", slow_lint)  # the lint every door runs
    try:
        result = CliRunner().invoke(cli, ["lint", "--server", _server(tmp_path, ONE_TOOL), "--timeout", "8"])
    finally:
        released.set()
    assert result.exit_code == 2, result.output
    assert "did not finish within --timeout" in result.output


def test_a_live_lint_that_fits_its_timeout_is_unchanged(tmp_path: Path):
    result = CliRunner().invoke(cli, ["lint", "--server", _server(tmp_path, ONE_TOOL), "--timeout", "30"])
    assert result.exit_code in (0, 1), result.output
    assert "1 tool" in result.output


def test_a_listing_over_the_document_limit_is_refused_like_a_file(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(live, "MAX_DOCUMENT_BYTES", 1024 * 1024)
    result = CliRunner().invoke(cli, ["lint", "--server", _server(tmp_path, HUGE), "--timeout", "60"])
    assert result.exit_code == 2, result.output
    assert "tools/list sent more than 1 MiB" in result.output and "1 unreadable" in result.output


HUGE_SERVER = Path(__file__).parent / "fixtures" / "servers" / "huge_listing.py"
# a process of its own, so its peak memory is this listing's alone
# (VmHWM: the peak of this process's own memory; getrusage would report the forking test runner's)
MEASURE = """
import json, sys, time
from toolclause.mcp import live
started = time.perf_counter()
where, transport = sys.argv[1], sys.argv[2]
result = live.load_server(where, timeout=120) if transport == "stdio" else live.load_url(where, timeout=120)
status = open("/proc/self/status").read().split("VmHWM:")[1].split()
print(json.dumps({"seconds": time.perf_counter() - started, "unreadable": [u.message for u in result.unreadable],
                  "peak_mib": int(status[0]) / 1024}))
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads its peak memory from /proc")
@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_a_50_mib_listing_is_refused_before_it_is_parsed(transport: str):
    server = None
    where = shlex.join([sys.executable, str(HUGE_SERVER)])
    try:
        if transport == "http":
            server = subprocess.Popen([sys.executable, str(HUGE_SERVER), "--http"], stdout=subprocess.PIPE, text=True)
            assert server.stdout is not None
            where = f"http://127.0.0.1:{server.stdout.readline().strip()}/mcp"
        done = subprocess.run([sys.executable, "-c", MEASURE, where, transport], capture_output=True, text=True,
                              timeout=120, check=True)
    finally:
        if server is not None:
            server.kill()
            server.wait()
    seen = json.loads(done.stdout)
    assert len(seen["unreadable"]) == 1 and "tools/list sent more than 32 MiB" in seen["unreadable"][0]
    # read up to the limit and refused there: not the whole 50 MiB parsed (25 s, 330 MiB over stdio)
    assert seen["seconds"] < 10 and seen["peak_mib"] < 200, seen
