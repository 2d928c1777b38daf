"""A key an object repeats in a JSON file is reported (an S001 warning naming file, pointer and line)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from toolclause.cli.main import cli
from toolclause.loading.positions import json_duplicate_keys

TOOL = """{"name": "get_order", "description": "Returns one order by its id, with its items and status.",
 "inputSchema": {"type": "object", "additionalProperties": false, "required": ["order_id"],
  "properties": {"order_id": {"type": "string", "description": "The order id."},
                 "order_id": {"type": "integer", "description": "The order number."}}}}
"""


def _lint(path: Path, *options: str) -> list[dict]:
    result = CliRunner().invoke(cli, ["lint", str(path), "--format", "json", "--fail-on", "never", *options])
    assert result.exit_code == 0, result.output
    return [d for d in json.loads(result.output)["diagnostics"] if d["code"] == "S001"]


def test_a_repeated_key_is_a_warning_with_file_pointer_and_line(tmp_path: Path):
    path = tmp_path / "tool.json"
    path.write_text(TOOL, encoding="utf-8")
    [found] = _lint(path)
    assert found["severity"] == "warning" and found["file"] == str(path) and found["line"] == 4
    assert found["tool"] == "get_order" and found["pointer"] == "/inputSchema/properties/order_id"
    assert "'order_id' appears more than once" in found["message"]
    assert _lint(path, "--ignore", "S001") == []


def test_jsonl_records_are_named_by_their_line(tmp_path: Path):
    path = tmp_path / "tools.jsonl"
    second = '{"name": "a", "name": "b", "description": "x"}'
    path.write_text(" ".join(TOOL.split()) + "\n" + second + "\n", encoding="utf-8")
    found = _lint(path)
    assert [(d["line"], d["pointer"]) for d in found] == [(1, "/inputSchema/properties/order_id"), (2, "/name")]


def test_the_tokenizer_finds_every_repeat_and_escapes_pointers():
    text = '{"a/b": {"k": 1, "k": 2, "k": 3}, "list": [{"x": 1}, {"x": 1, "x": 2}], "a/b": 0}'
    assert json_duplicate_keys(text) == [("/a~1b", "k", 1), ("/a~1b", "k", 1), ("/list/1", "x", 1), ("", "a/b", 1)]
    assert json_duplicate_keys('{"a": {"a": 1}, "b": "\\"a\\": 1"}') == []


def test_the_python_api_reports_them_as_the_command_line_does(tmp_path: Path):
    import toolclause

    path = tmp_path / "tool.json"
    path.write_text(TOOL, encoding="utf-8")
    cli_found = _lint(path)
    for source in (path, str(path), TOOL):
        found = [d for d in toolclause.lint(source) if d.code == "S001"]
        assert [(d.severity.label, d.tool, d.pointer, d.line) for d in found] == [
            ("warning", "get_order", "/inputSchema/properties/order_id", 4)], source
        assert found[0].message == cli_found[0]["message"]
    assert [d.file for d in toolclause.lint(path) if d.code == "S001"] == [str(path)]
    assert not [d for d in toolclause.lint(path, ignore=["S001"]) if d.code == "S001"]
    assert not [d for d in toolclause.lint(path, select=["D"]) if d.code == "S001"]
    # parsed objects cannot repeat a key: nothing to report
    assert not [d for d in toolclause.lint(json.loads(TOOL)) if d.code == "S001"]
