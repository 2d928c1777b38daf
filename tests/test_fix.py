"""--fix: the pure edits (linting/fix.py) and text rewrites (linting/fix_text.py), the file side
(cli/fixing.py), and the CLI end to end."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from toolclause.cli.fixing import fix_file
from toolclause.cli.main import cli
from toolclause.linting import config, engine
from toolclause.linting.fix import EditError, apply_edit, apply_fix, apply_fixes
from toolclause.linting.fix_text import fix_text, json_dump_like, yaml_layout
from toolclause.model import Diagnostic, Edit, Fix, Severity
from toolclause.rules import BY_CODE, RuleEntry
from toolclause.rules.base import Finding, Rule

FIXTURES = Path(__file__).parent / "fixtures" / "cli"


def diag(*edits: Edit, safe: bool = True, line: int | None = None, file: str = "f.json") -> Diagnostic:
    return Diagnostic("X901", "test-rule", Severity.ERROR, "m", tool="t", file=file, pointer=edits[0].pointer,
                      line=line, fix=Fix("do it", safe, edits))


# --------------------------------------------------------------------------- pure edits

def test_set_adds_a_key_at_the_end_and_undo_removes_it():
    doc = {"a": 1, "b": {"c": 2}}
    undo = apply_edit(doc, Edit("set", "/b/d", False))
    assert list(doc["b"].items()) == [("c", 2), ("d", False)]
    undo()
    assert doc == {"a": 1, "b": {"c": 2}}


def test_remove_and_undo_keep_key_order():
    doc = {"a": 1, "b": 2, "c": 3}
    undo = apply_edit(doc, Edit("remove", "/b"))
    assert doc == {"a": 1, "c": 3}
    undo()
    assert list(doc) == ["a", "b", "c"]


def test_edits_on_lists_and_escaped_tokens():
    doc = {"x/y": [1, 2, 3]}
    apply_edit(doc, Edit("set", "/x~1y/1", 20))
    apply_edit(doc, Edit("remove", "/x~1y/0"))
    apply_edit(doc, Edit("set", "/x~1y/-", 4))
    assert doc == {"x/y": [20, 3, 4]}


@pytest.mark.parametrize("edit", [Edit("set", "/missing/child", 1), Edit("remove", "/a/nope"),
                                  Edit("set", "/a/b/c", 1), Edit("remove", "/list/5"), Edit("set", "", 1),
                                  Edit("bogus", "/a/x", 1)])
def test_a_pointer_that_does_not_exist_is_an_edit_error(edit):
    doc = {"a": {"b": "text"}, "list": [1]}
    with pytest.raises(EditError):
        apply_edit(doc, edit)


def test_a_fix_is_applied_whole_or_not_at_all():
    doc = {"s": {"type": "object"}}
    with pytest.raises(EditError):
        apply_fix(doc, [Edit("set", "/s/properties", {}), Edit("set", "/gone/x", 1)])
    assert doc == {"s": {"type": "object"}}


def test_apply_fixes_reports_applied_skipped_and_deferred():
    doc = {"s": {"type": "str"}}
    ok = diag(Edit("set", "/s/type", "string"))
    same = diag(Edit("set", "/s/type", "string"))
    overlapping = diag(Edit("remove", "/s"))
    stale = diag(Edit("set", "/t/type", "string"))
    unsafe = diag(Edit("set", "/s/x", 1), safe=False)
    outcome = apply_fixes(doc, [ok, same, overlapping, stale, unsafe])
    assert doc == {"s": {"type": "string"}}
    assert outcome.applied == [ok, same]
    assert [s.diagnostic for s in outcome.skipped] == [stale]
    assert "no longer exists" in outcome.skipped[0].reason
    assert outcome.deferred == [overlapping]


def test_list_removals_run_from_the_end():
    doc = {"l": ["a", "b", "c", "d"]}
    outcome = apply_fixes(doc, [diag(Edit("remove", "/l/1")), diag(Edit("remove", "/l/3"))])
    assert doc == {"l": ["a", "c"]}
    assert len(outcome.applied) == 2


# --------------------------------------------------------------------------- writing JSON like the user

@pytest.mark.parametrize("indent", [2, 4, "\t"])
def test_json_layout_keeps_the_indent(indent):
    value = {"name": "조회", "list": [1, {"a": None}]}
    original = json.dumps(value, indent=indent, ensure_ascii=False)
    assert json_dump_like(value, original) == original


def test_json_layout_keeps_compact_and_escaped_text():
    assert json_dump_like({"a": [1, 2]}, '{"a":[1,2]}') == '{"a":[1,2]}'
    assert json_dump_like({"a": "é"}, '{"a": "\\u00e9"}') == '{"a": "\\u00e9"}'
    assert json_dump_like({"a": "é"}, '{"a": "é"}') == '{"a": "é"}'


def test_yaml_layout_is_measured_from_the_file():
    assert yaml_layout("a:\n  b:\n    - x\n") == (2, 4, 2)
    assert yaml_layout("a:\n    b: 1\nc:\n- x\n") == (4, 2, 0)


def test_text_is_fixed_without_any_file():
    """What a web page needs: the pasted text in, the fixed text out, in the text's own layout."""
    import toolclause

    text = '\ufeff{\r\n    "name": "t", "description": "Looks up one record by id and returns it.",\r\n' \
           '    "inputSchema": {"type": "object", "properties": {"id": {"type": "int"}}}\r\n}'
    findings = [d for d in toolclause.lint(text.lstrip("\ufeff"), select=["S002"]) if d.fix and d.fix.safe]
    fixed = fix_text(text, "pasted.json", findings)
    assert fixed.applied == findings and fixed.skipped == []
    assert fixed.text.startswith("\ufeff{\r\n    ") and not fixed.text.endswith("\n")
    assert json.loads(fixed.text.lstrip("\ufeff"))["inputSchema"]["properties"]["id"] == {"type": "integer"}


def test_a_fix_that_changes_nothing_is_reported_not_applied():
    text = '{"name": "t", "inputSchema": {"type": "object"}}'
    fixed = fix_text(text, "t.json", [diag(Edit("set", "/inputSchema/type", "object"))])
    assert fixed.text == text and fixed.applied == []
    assert [s.reason for s in fixed.skipped] == ["the fix changes nothing in the file"]


# --------------------------------------------------------------------------- files

def _schema_file(tmp_path: Path, indent: int | str, newline: bool = True) -> Path:
    doc = {"name": "검색", "description": "레스토랑 검색",
           "inputSchema": {"type": "object", "properties": {"q": {"type": "str"}}}}
    path = tmp_path / "tool.json"
    path.write_text(json.dumps(doc, indent=indent, ensure_ascii=False) + ("\n" if newline else ""), encoding="utf-8")
    return path


@pytest.mark.parametrize("indent", [2, 4])
@pytest.mark.parametrize("newline", [True, False])
def test_fix_file_json_keeps_indent_text_and_trailing_newline(tmp_path, indent, newline):
    path = _schema_file(tmp_path, indent, newline)
    d = diag(Edit("set", "/inputSchema/properties/q/type", "string"), file=str(path))
    fixed, skipped, written = fix_file(path, [d])
    assert (fixed, skipped, written) == ([d], [], True)
    expected = {"name": "검색", "description": "레스토랑 검색",
                "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}
    written = json.dumps(expected, indent=indent, ensure_ascii=False) + ("\n" if newline else "")
    assert path.read_text(encoding="utf-8") == written


def test_fix_file_jsonl_touches_only_the_named_record(tmp_path):
    path = tmp_path / "tools.jsonl"
    first = '{"name":"a",  "inputSchema":{"type":"object"}}\n'
    second = '{"name": "b", "inputSchema": {"type": "object"}}\r\n'
    path.write_bytes((first + second).encode())
    d = diag(Edit("set", "/inputSchema/additionalProperties", False), line=2, file=str(path))
    fixed, skipped, written = fix_file(path, [d])
    assert written and fixed == [d]
    assert path.read_bytes().decode() == first + \
        '{"name": "b", "inputSchema": {"type": "object", "additionalProperties": false}}\r\n'


def test_fix_file_yaml_keeps_comments(tmp_path):
    path = tmp_path / "tools.yaml"
    shutil.copy(FIXTURES / "tools.yaml", path)
    d = diag(Edit("set", "/tools/0/inputSchema/additionalProperties", False), file=str(path))
    fixed, skipped, written = fix_file(path, [d])
    assert written
    text = path.read_text()
    assert text.startswith("# Tools for the order desk\n")
    assert "- name: get_order  # looked up by id" in text
    assert "- ordr_id   # a typo S003 reports" in text
    assert "      additionalProperties: false\n" in text


def test_fix_file_skips_a_stale_pointer_and_leaves_the_file(tmp_path):
    path = _schema_file(tmp_path, 2)
    before = path.read_text()
    d = diag(Edit("set", "/inputSchema/properties/gone/type", "string"), file=str(path))
    fixed, skipped, written = fix_file(path, [d])
    assert (fixed, written) == ([], False)
    assert "/inputSchema/properties/gone no longer exists" in skipped[0].reason
    assert path.read_text() == before


# --------------------------------------------------------------------------- CLI end to end

class _TypeTypo(Rule):
    """test rule: `"type": "str"` → "string", a safe fix."""

    code, name, severity, fixable = "X901", "test-str-type", Severity.ERROR, True
    keywords = frozenset({"type"})

    def check_node(self, node, tool, ctx):
        if node.schema.get("type") == "str":
            yield Finding(node.pointer + "/type", "type 'str' is not a JSON Schema type; did you mean 'string'?",
                          Fix("replace 'str' with 'string'", True, (Edit("set", node.pointer + "/type", "string"),)))


@pytest.fixture
def with_test_rule(monkeypatch):
    monkeypatch.setattr(engine, "INDEX", (*engine.INDEX, RuleEntry.of(_TypeTypo)))
    monkeypatch.setattr(config, "CODES", (*config.CODES, "X901"))


def test_cli_fix_rewrites_the_file_and_reports_what_was_fixed(tmp_path, monkeypatch, with_test_rule):
    path = _schema_file(tmp_path, 4)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["lint", "tool.json", "--select", "X901", "--fix"])
    assert result.exit_code == 0, result.output
    assert "Fixed 1 finding in 1 file: tool.json" in result.output
    assert json.loads(path.read_text())["inputSchema"]["properties"]["q"]["type"] == "string"
    assert '\n    "name"' in path.read_text()


def test_cli_without_fix_leaves_the_file_and_fails(tmp_path, monkeypatch, with_test_rule):
    path = _schema_file(tmp_path, 2)
    before = path.read_text()
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["lint", "tool.json", "--select", "X901"])
    assert result.exit_code == 1
    assert "[safe: --fix applies it]" in result.output
    assert path.read_text() == before


def test_cli_never_writes_standard_input_back(with_test_rule):
    text = json.dumps({"name": "t", "description": "d",
                       "inputSchema": {"type": "object", "properties": {"q": {"type": "str"}}}})
    result = CliRunner().invoke(cli, ["lint", "-", "--select", "X901", "--fix"], input=text)
    assert result.exit_code == 1
    assert "standard input is never written back" in result.output
    assert "[safe: --fix applies it to a saved file]" in result.output


def test_cli_fix_edits_a_value_in_a_parameter_record_in_place(tmp_path, monkeypatch, with_test_rule):
    # the record's "type" key is the canonical property's "type": replacing it is safe
    path = tmp_path / "docker.json"
    path.write_text(json.dumps({"name": "search_items", "description": "Search items",
                                "arguments": [{"name": "q", "type": "str", "desc": "query"}]}))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["lint", "docker.json", "--select", "X901", "--fix"])
    assert result.exit_code == 0, result.output
    assert json.loads(path.read_text())["arguments"][0] == {"name": "q", "type": "string", "desc": "query"}


@pytest.mark.skipif("C001" not in BY_CODE, reason="C001 (open-object) is not registered yet")
def test_cli_fix_end_to_end_with_c001(tmp_path, monkeypatch):
    for name in ("openai_weather.json", "users.jsonl", "tools.yaml"):
        shutil.copy(FIXTURES / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["lint", ".", "--select", "C001", "--fix"])
    assert result.exit_code == 0, result.output
    assert "Fixed 4 findings in 3 files" in result.output
    again = CliRunner().invoke(cli, ["lint", ".", "--select", "C001"])
    assert again.exit_code == 0 and "0 warnings" in again.output
    assert "# looked up by id" in (tmp_path / "tools.yaml").read_text()
    records = [json.loads(line) for line in (tmp_path / "users.jsonl").read_text().splitlines()]
    assert all(r["inputSchema"]["additionalProperties"] is False for r in records)


@pytest.mark.skipif("S002" not in BY_CODE, reason="S002 (unknown-type) is not registered yet")
def test_cli_fix_end_to_end_with_s002(tmp_path, monkeypatch):
    path = _schema_file(tmp_path, 2)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["lint", "tool.json", "--select", "S002", "--fix"])
    assert result.exit_code == 0, result.output
    assert json.loads(path.read_text())["inputSchema"]["properties"]["q"]["type"] == "string"
