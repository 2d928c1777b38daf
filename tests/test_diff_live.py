"""`toolclause snapshot` and `diff` against a live server: the lock-file workflow, with real server processes."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from click.testing import CliRunner

from toolclause.cli.main import cli

SERVERS = Path(__file__).parent / "fixtures" / "servers"


def command(name: str) -> str:
    return shlex.join([sys.executable, str(SERVERS / f"{name}.py")])


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_a_snapshot_diffs_clean_against_its_server_and_catches_drift(tmp_path: Path):
    saved = tmp_path / "tools.snapshot.json"
    made = run("snapshot", "--server", command("clean"), "-o", str(saved))
    assert made.exit_code == 0, made.output
    document = json.loads(saved.read_text())
    assert len(document["tools"]) == 3 and f"wrote {saved}" in made.output
    assert run("lint", str(saved), "--fail-on", "error").exit_code == 0
    same = run("diff", str(saved), f"server:{command('clean')}", "--fail-on", "any")
    assert same.exit_code == 0, same.output
    # the committed snapshot knew a tool the server no longer lists: a breaking drift, either way round
    gone = dict(document["tools"][0], name="retired_tool")
    saved.write_text(json.dumps({**document, "tools": [*document["tools"], gone]}))
    drift = run("diff", str(saved), f"server:{command('clean')}")
    assert drift.exit_code == 1 and "tool-removed" in drift.output and "retired_tool" in drift.output
    added = run("diff", f"server:{command('clean')}", str(saved), "--format", "json")
    assert [c["kind"] for c in json.loads(added.stdout)["changes"]] == ["tool-added"]


def test_a_live_side_that_cannot_be_listed_is_an_error_before_any_change(tmp_path: Path):
    saved = tmp_path / "tools.json"
    saved.write_text(json.dumps([{"name": "t", "inputSchema": {"type": "object"}}]))
    for args in ([str(saved), f"server:{command('crash')}"], ["url:http://127.0.0.1:9/mcp", str(saved)]):
        result = run("diff", *args)
        assert result.exit_code == 2 and "toolclause: error:" in result.output
        assert "tool-" not in result.output


def test_snapshot_usage_errors(tmp_path: Path):
    out = str(tmp_path / "s.json")
    assert run("snapshot", "-o", out).exit_code == 2
    assert run("snapshot", "--server", "x", "--url", "http://localhost:1/mcp", "-o", out).exit_code == 2
    assert run("snapshot", "--server", "x", "--header", "A: b", "-o", out).exit_code == 2
    assert run("snapshot", "--server", command("clean")).exit_code == 2  # no -o
    missing = run("snapshot", "--server", "no-such-command-here", "-o", out)
    assert missing.exit_code == 2 and missing.output.startswith("toolclause: error:")
    assert not Path(out).exists()
