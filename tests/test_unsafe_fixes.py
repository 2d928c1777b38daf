"""--unsafe-fixes: a fix that could reject a documented value is applied only when the user asks by name.

Ruff's split: `--fix` applies the safe fixes; a fix marked unsafe (T004 widens a bound
to the value the text documents, which is right only if the function accepts it) is
shown with its hint and left alone until `--fix --unsafe-fixes` (or `--diff
--unsafe-fixes` to see it first).
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from toolclause.cli.main import cli

TOOL = {"name": "search_logs", "description": "Search the service's logs for a text and return matching lines.",
        "inputSchema": {"type": "object", "additionalProperties": False, "required": ["query"],
                        "properties": {"query": {"type": "string", "description": "Text to find."},
                                       "limit": {"type": "integer", "minimum": 1, "maximum": 100,
                                                 "description": "Lines to return, up to 500."}}}}


def _write(tmp_path: Path) -> Path:
    path = tmp_path / "search_logs.json"
    path.write_text(json.dumps(TOOL, indent=2) + "\n", encoding="utf-8")
    return path


def _lint(path: Path, *flags: str):
    return CliRunner().invoke(cli, ["lint", str(path), "--no-cache", "--select", "T004", *flags])


def test_fix_leaves_an_unsafe_fix_alone_and_says_how_to_apply_it(tmp_path):
    path = _write(tmp_path)
    before = path.read_text(encoding="utf-8")
    result = _lint(path, "--fix")
    assert path.read_text(encoding="utf-8") == before
    assert "T004" in result.output and "--unsafe-fixes" in result.output


def test_unsafe_fixes_applies_it(tmp_path):
    path = _write(tmp_path)
    result = _lint(path, "--fix", "--unsafe-fixes")
    fixed = json.loads(path.read_text(encoding="utf-8"))
    assert fixed["inputSchema"]["properties"]["limit"]["maximum"] == 500
    assert result.exit_code == 0, result.output
    assert "T004" not in _lint(path).output


def test_diff_with_unsafe_fixes_shows_it_and_writes_nothing(tmp_path):
    path = _write(tmp_path)
    before = path.read_text(encoding="utf-8")
    assert '"maximum": 500' not in _lint(path, "--diff").stdout
    result = _lint(path, "--diff", "--unsafe-fixes")
    assert path.read_text(encoding="utf-8") == before
    changed = [" ".join(line.split()) for line in result.stdout.splitlines() if line.startswith(("-  ", "+  "))]
    assert changed == ['- "maximum": 100,', '+ "maximum": 500,']
    assert result.exit_code == 1


def test_unsafe_fixes_without_fix_is_a_usage_error(tmp_path):
    result = _lint(_write(tmp_path), "--unsafe-fixes")
    assert result.exit_code == 2
    assert "--unsafe-fixes goes with --fix or --diff" in result.output
