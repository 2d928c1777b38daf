"""A live lint is bounded as a whole: --timeout covers starting, listing and linting; a huge listing is refused."""

from __future__ import annotations

import shlex
import sys
import threading
import time
from pathlib import Path

from click.testing import CliRunner

from test_hardening_live import SERVE  # answers initialize, then every request with ANSWER(msg)
from toolclause.cli import running
from toolclause.cli.main import cli
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
    lint_loaded_result = running.lint_loaded_result
    released = threading.Event()

    def slow_lint(*args, **kwargs):  # a lint slower than --timeout (a rule that takes minutes on one text)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not released.is_set():
            time.sleep(0.05)
        return lint_loaded_result(*args, **kwargs)

    monkeypatch.setattr(running, "lint_loaded_result", slow_lint)
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
