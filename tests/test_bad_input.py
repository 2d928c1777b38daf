"""Bad input never crashes: each case gets a clear message naming the file, and bounded work."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import toolclause
from toolclause.loading import MAX_DOCUMENT_BYTES, load_paths, load_text


def test_malformed_json_names_line_and_column(tmp_path: Path):
    path = tmp_path / "broken.json"
    path.write_text('{\n  "name": "a",\n  "inputSchema": {"type": "object",}\n}\n')
    result = load_paths([path])
    assert not result.tools
    (problem,) = result.unreadable
    assert problem.file == str(path)
    assert "invalid JSON at line 3" in problem.message


def test_malformed_jsonl_record_is_counted_and_the_rest_read():
    text = '{"name": "a", "inputSchema": {}}\n{"name": "b", \n{"name": "c", "inputSchema": {}}\n'
    result = load_text(text, "x.jsonl")
    assert [t.name for t in result.tools] == ["a", "c"]
    assert [(u.line, u.message.startswith("invalid JSON")) for u in result.unreadable] == [(2, True)]


def test_malformed_yaml(tmp_path: Path):
    path = tmp_path / "bad.yaml"
    path.write_text("name: a\ninputSchema: {type: object\n")
    result = load_paths([path])
    assert "invalid YAML" in result.unreadable[0].message


def test_not_utf8(tmp_path: Path):
    path = tmp_path / "bin.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    assert "not UTF-8" in load_paths([path]).unreadable[0].message


def test_document_nested_10000_deep_is_refused_with_a_message(tmp_path: Path):
    path = tmp_path / "deep.json"
    path.write_text('{"name": "a", "inputSchema": ' + '{"items": ' * 10_000 + "{}" + "}" * 10_001)
    result = load_paths([path])
    assert not result.tools
    assert "nested deeper than" in result.unreadable[0].message


def test_yaml_nested_10000_deep(tmp_path: Path):
    path = tmp_path / "deep.yaml"
    path.write_text("name: a\ninputSchema: " + "[" * 10_000 + "]" * 10_000 + "\n")
    result = load_paths([path])
    assert result.unreadable and "nested" in result.unreadable[0].message


def test_schema_deeper_than_the_walk_limit_is_reported_not_recursed():
    schema = {"type": "object"}
    node = schema
    for _ in range(300):
        child = {"type": "object"}
        node["properties"] = {"x": child}
        node = child
    tool = {"name": "deep", "description": "A tool with an absurdly deep schema, for testing.", "inputSchema": schema}
    diags = toolclause.lint(tool, select=["S001"])
    assert any("nested deeper than" in d.message for d in diags)


def test_a_50_mb_file_is_refused_before_reading(tmp_path: Path):
    path = tmp_path / "huge.json"
    with path.open("w") as handle:
        handle.write('[')
        chunk = json.dumps({"name": "x", "description": "y" * 1000, "inputSchema": {}})
        count = (50 * 1024 * 1024) // len(chunk) + 1
        handle.write(",".join([chunk] * count))
        handle.write(']')
    assert path.stat().st_size > MAX_DOCUMENT_BYTES
    tracemalloc.start()
    result = load_paths([path])
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert not result.tools
    assert "MiB" in result.unreadable[0].message and "not read" in result.unreadable[0].message
    assert peak < 5 * 1024 * 1024  # the file was never read into memory


def test_non_object_where_a_schema_belongs_is_a_finding_not_a_crash():
    for bad in ("string", 5, None, [1, 2], True):
        tool = {"name": "t", "description": "Looks up a thing and returns its details.", "inputSchema": bad}
        toolclause.lint(tool)  # must not raise
    weird = {"name": "t", "description": "Looks up a thing and returns its details.",
             "inputSchema": {"type": 5, "required": "x", "properties": [1, 2], "items": "string",
                             "enum": 3, "minimum": "a", "pattern": 7, "$ref": 9, "default": object.__name__}}
    toolclause.lint(weird)


def test_ref_cycle_does_not_hang():
    tool = {"name": "t", "description": "Walks a tree of nodes and returns each node's label.",
            "inputSchema": {"type": "object", "properties": {"node": {"$ref": "#/$defs/Node"}},
                            "$defs": {"Node": {"type": "object", "properties": {"child": {"$ref": "#/$defs/Node"}},
                                               "allOf": [{"$ref": "#/$defs/Node"}]}}}}
    toolclause.lint(tool, targets=["all"])


def test_catastrophic_pattern_is_bounded():
    tool = {"name": "t", "description": "Checks a code against a pattern and returns the verdict.",
            "inputSchema": {"type": "object", "properties": {"code": {
                "type": "string", "pattern": "^(a+)+$", "default": "a" * 5000 + "!", "description": "Code"}}}}
    toolclause.lint(tool, targets=["all"])


def test_an_empty_object_and_a_tab_in_yaml_say_what_to_do(tmp_path):
    from toolclause.loading import load_file

    empty = tmp_path / "empty.json"
    empty.write_text("{}")
    (problem,) = load_file(empty).unreadable
    assert "an empty object" in problem.message and "no keys" not in problem.message
    tabbed = tmp_path / "tool.yaml"
    tabbed.write_text("name: t\ndescription: x\ninputSchema:\n\ttype: object\n")
    (problem,) = load_file(tabbed).unreadable
    assert "line 4, column 1" in problem.message and "replace the tab with spaces" in problem.message
