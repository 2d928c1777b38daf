"""Tool files in JSON with comments (`.jsonc`): read by the CLI with comments and trailing commas, every finding
at its line and column in the file as written; --fix leaves them alone and says why; `.json` stays strict."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from toolclause.cli.main import cli

TEXT = '''// the weather tools
[
  {
    /* one tool, "quoted" in a comment, with a comma, ] and a brace } */
    "name": "get_weather", // 😀 a trailing comment
    "description": "Current weather for one city // not a comment, in metric units.",
    "inputSchema": {"type": "object",
                    "properties": {"city": {"type": "str", "description": "City name",},},
                    "required": ["city",],},
  },
]
'''


def _lint(*argv: str) -> tuple[int, dict]:
    result = CliRunner().invoke(cli, ["lint", *argv, "--format", "json", "--fail-on", "never"])
    return result.exit_code, json.loads(result.stdout)


def test_comments_and_trailing_commas_are_read_and_positions_are_the_files(tmp_path: Path):
    (tmp_path / "weather.jsonc").write_text(TEXT, encoding="utf-8")
    code, report = _lint(str(tmp_path / "weather.jsonc"), "--select", "S002")
    assert code == 0 and report["unreadable"] == []
    (finding,) = report["diagnostics"]
    line = TEXT.splitlines()[finding["line"] - 1]
    assert line[finding["column"] - 1:].startswith('"str"')
    assert finding["pointer"] == "/0/inputSchema/properties/city/type"


def test_a_folder_search_reads_jsonc_files(tmp_path: Path):
    (tmp_path / "weather.jsonc").write_text(TEXT, encoding="utf-8")
    code, report = _lint(str(tmp_path), "--select", "S002")
    assert report["tools"] == 1 and [d["code"] for d in report["diagnostics"]] == ["S002"]


def test_fix_leaves_a_jsonc_file_as_it_is_and_says_why(tmp_path: Path):
    path = tmp_path / "weather.jsonc"
    path.write_text(TEXT, encoding="utf-8")
    result = CliRunner().invoke(cli, ["lint", str(path), "--select", "S002", "--fix"])
    assert path.read_text(encoding="utf-8") == TEXT
    assert result.exit_code == 1 and "does not write JSON with comments (.jsonc) yet" in result.output


def test_a_json_file_with_comments_is_still_not_json(tmp_path: Path):
    (tmp_path / "weather.json").write_text(TEXT, encoding="utf-8")
    code, report = _lint(str(tmp_path / "weather.json"))
    assert code == 2 and report["unreadable"][0]["message"].startswith("invalid JSON at line 1, column 1")
