"""--fix keeps a JSON file's layout (only the values it changes move), and --diff shows the fixes unwritten."""

from __future__ import annotations

import difflib
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from toolclause.cli.main import cli
from toolclause.linting.fix_text import splice_json

EXAMPLES = Path(__file__).parents[1] / "examples"

COMPACT = ('{"tools":[{"name":"get_weather","description":"Current weather for one city; returns a reading.",'
           '"inputSchema":{"type":"object","properties":{"city":{"type":"str","description":"City."}}}}]}')

INLINE = """\
{
  "tools": [
    {
      "name": "search_orders",
      "description": "Search the user's orders by status; returns matching order ids.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "status": {"type": "str", "enum": ["open", "shipped"], "description": "Order status."},
          "limit": {"type": "integer", "minimum": 1, "maximum": 50, "description": "How many."}
        },
        "required": ["status"]
      },
      "annotations": {"readOnlyHint": true}
    },
    {
      "name": "ping",
      "description": "Check that the order service answers; returns pong.",
      "inputSchema": {"type": "object"},
      "annotations": {"readOnlyHint": true}
    }
  ]
}
"""


def lint(*args: str):
    return CliRunner().invoke(cli, ["lint", *args])


def test_compact_json_stays_compact_and_on_one_line(tmp_path: Path):
    path = tmp_path / "tools.json"
    path.write_text(COMPACT)
    assert lint(str(path), "--fix", "--select", "S002,C001").exit_code == 0
    assert path.read_text() == COMPACT.replace('"str"', '"string"').replace(
        '"description":"City."}}}', '"description":"City."}},"additionalProperties":false}')


def test_a_file_holding_nan_or_infinity_is_fixed_and_keeps_them(tmp_path: Path):
    # Python's json reads NaN and Infinity, so lint reads such a file; its fixes once failed with an empty reason
    path = tmp_path / "tools.json"
    text = ('[{"name":"get_item","description":"Get one item by id; returns the item record with its price.",'
            '"inputSchema":{"type":"object","properties":{"r":{"type":"number","default":NaN},'
            '"s":{"type":"number","default":-Infinity}}}}]')
    path.write_text(text)
    result = lint(str(path), "--fix", "--select", "C001")
    assert result.exit_code == 0, result.output
    assert path.read_text() == text[:-3] + ',"additionalProperties":false}}]'


def test_inline_objects_in_an_indented_file_keep_their_lines(tmp_path: Path):
    path = tmp_path / "tools.json"
    path.write_text(INLINE)
    assert lint(str(path), "--fix", "--select", "S002,C001").exit_code == 0
    changed = [line for line in difflib.ndiff(INLINE.splitlines(), path.read_text().splitlines())
               if line[:1] in "+-"]
    assert changed == [
        '-           "status": {"type": "str", "enum": ["open", "shipped"], "description": "Order status."},',
        '+           "status": {"type": "string", "enum": ["open", "shipped"], "description": "Order status."},',
        '-         "required": ["status"]',
        '+         "required": ["status"],',
        '+         "additionalProperties": false',
        '-       "inputSchema": {"type": "object"},',
        '+       "inputSchema": {"type": "object", "properties": {}, "additionalProperties": false},',
    ]


@pytest.mark.parametrize(("text", "new", "expected"), [
    # a removed member takes its comma along: first, middle, last, only
    ('{"a": 1, "b": 2, "c": 3}', {"b": 2, "c": 3}, '{"b": 2, "c": 3}'),
    ('{"a": 1, "b": 2, "c": 3}', {"a": 1, "c": 3}, '{"a": 1, "c": 3}'),
    ('{\n  "a": 1,\n  "b": 2\n}', {"a": 1}, '{\n  "a": 1\n}'),
    ('{"a": 1}', {}, '{}'),
    ('{"a": 1}', {"b": [2]}, '{"b": [2]}'),
    # added members follow the object's layout: compact, spaced, one per line, into an empty object
    ('{"a":{"b":1}}', {"a": {"b": 1, "c": [1, 2]}}, '{"a":{"b":1,"c":[1,2]}}'),
    ('{"a": {}}', {"a": {"k": {"x": True}}}, '{"a": {"k": {"x": true}}}'),
    ('{\n\t"a": 1\n}', {"a": 1, "b": {"c": 2}}, '{\n\t"a": 1,\n\t"b": {\n\t\t"c": 2\n\t}\n}'),
    # a list that changes length is written again where it is; \\u escapes stay escapes
    (r'{"r": ["x", "y"], "d": "caf\u00e9"}', {"r": ["x"], "d": "café", "né": "é"},
     r'{"r": ["x"], "d": "caf\u00e9", "n\u00e9": "\u00e9"}'),
])
def test_splice_changes_only_what_differs(text, new, expected):
    assert splice_json(text, json.loads(text), new) == expected
    assert json.loads(expected) == new


def test_diff_shows_the_fixes_and_writes_nothing(tmp_path: Path, monkeypatch):
    shutil.copytree(EXAMPLES, tmp_path / "fixed")
    shutil.copytree(EXAMPLES, tmp_path / "shown")
    monkeypatch.chdir(tmp_path / "shown")
    result = lint(".", "--diff")
    assert result.exit_code == 1
    assert "--fix would fix 16 finding(s) in 4 file(s); nothing was written" in result.stderr
    assert all(a.read_bytes() == b.read_bytes()
               for a, b in zip(sorted(EXAMPLES.rglob("*.json*")), sorted(Path(".").rglob("*.json*")), strict=True))
    monkeypatch.chdir(tmp_path / "fixed")
    assert lint(".", "--fix").exit_code in (0, 1)
    # the diff is exactly what --fix writes, file by file, as `git apply` reads it
    expected = ""
    for name in ("anthropic/support_tools.json", "bfcl_style.jsonl", "mcp/tools_list.json",
                 "openai/food_ordering.json"):
        before = (EXAMPLES / name).read_text().splitlines(keepends=True)
        after = (tmp_path / "fixed" / name).read_text().splitlines(keepends=True)
        expected += "".join(difflib.unified_diff(before, after, f"a/{name}", f"b/{name}"))
    assert result.stdout == expected
    assert expected.count("\n+") < 30  # only the fixed values moved, not every inline object
    # nothing to fix: exit 0, no diff
    clean = tmp_path / "clean.json"
    clean.write_text('{"name": "ping", "description": "Check that the service answers; returns pong."}')
    quiet = lint(str(clean), "--diff", "--select", "S002")
    assert quiet.exit_code == 0 and quiet.stdout == ""


def test_diff_of_standard_input_with_something_to_fix_says_so_and_exits_1():
    result = CliRunner().invoke(cli, ["lint", "-", "--diff"], input=COMPACT)
    assert result.exit_code == 1, result.output
    assert "standard input is never written back" in result.stderr
    clean = '{"name": "ping", "description": "Check that the service answers; returns pong."}'
    assert CliRunner().invoke(cli, ["lint", "-", "--diff", "--select", "S002"], input=clean).exit_code == 0
