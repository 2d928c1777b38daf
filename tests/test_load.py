"""Loaders: every shape read into the canonical model, with pointers into the user's file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import toolclause
from toolclause.linting.engine import locate_original
from toolclause.loading import contracts_from_document, load_paths, load_text

WEATHER_SCHEMA = {"type": "object", "properties": {"city": {"type": "string", "description": "City"}},
                  "required": ["citty"]}


def one(doc, **kw):
    tools, problems = contracts_from_document(doc, "t.json", **kw)
    assert not problems, problems
    assert len(tools) == 1
    return tools[0]


@pytest.mark.parametrize("doc, fmt, schema_pointer", [
    ({"name": "w", "description": "d", "inputSchema": WEATHER_SCHEMA}, "mcp", "/inputSchema"),
    ({"type": "function", "function": {"name": "w", "description": "d", "parameters": WEATHER_SCHEMA}},
     "openai-chat", "/function/parameters"),
    ({"type": "function", "name": "w", "description": "d", "parameters": WEATHER_SCHEMA, "strict": False},
     "openai-responses", "/parameters"),
    ({"name": "w", "description": "d", "parameters": WEATHER_SCHEMA}, "function", "/parameters"),
    ({"name": "w", "description": "d", "parameters": dict(WEATHER_SCHEMA, type="dict")}, "bfcl", "/parameters"),
    ({"name": "w", "description": "d", "input_schema": WEATHER_SCHEMA}, "anthropic", "/input_schema"),
    ({"name": "w", "description": "d", "arguments": WEATHER_SCHEMA}, "acebench", "/arguments"),
    ({"name": "w", "description": "d", "parametersJsonSchema": WEATHER_SCHEMA}, "gemini", "/parametersJsonSchema"),
    ({"name": "w", "modelDescription": "d", "inputSchema": WEATHER_SCHEMA}, "vscode", "/inputSchema"),
])
def test_schema_shapes_map_pointers_back(doc, fmt, schema_pointer):
    tool = one(doc)
    assert tool.origin.format == fmt
    assert tool.name == "w" and tool.description == "d"
    assert tool.input_schema["properties"]["city"]["type"] == "string"
    assert locate_original(tool, "/inputSchema/required/0") == schema_pointer + "/required/0"
    assert locate_original(tool, "/name").endswith("/name")


def test_seal_tools_bare_property_map():
    doc = {"api_name": "analyze", "api_description": "Analyze evidence", "parameters": {
        "kind": {"type": "str", "description": "Kind"}}, "required": ["kind"], "responses": {
        "result": {"type": "str", "description": "r"}}}
    tool = one(doc)
    assert tool.origin.format == "seal-tools"
    assert tool.name == "analyze" and tool.description == "Analyze evidence"
    assert tool.input_schema == {"type": "object", "properties": {"kind": {"type": "str", "description": "Kind"}},
                                 "required": ["kind"]}
    assert tool.output_schema["properties"]["result"]["type"] == "str"
    assert locate_original(tool, "/inputSchema/properties/kind/type") == "/parameters/kind/type"
    assert locate_original(tool, "/inputSchema/required/0") == "/required/0"
    assert locate_original(tool, "/description") == "/api_description"


def test_nestful_property_map_with_required_flags_and_allowed_values():
    doc = {"name": "Buses.FindBus", "description": "Find a bus", "arguments": {
        "origin": {"description": "Origin city", "required": True, "allowed_values": []},
        "fare": {"description": "Fare", "required": False, "default_value": "Economy",
                 "allowed_values": ["Economy", "Flexible"]}}}
    tool = one(doc)
    assert tool.origin.format == "property-map"
    schema = tool.input_schema
    assert schema["required"] == ["origin"]
    assert schema["properties"]["fare"] == {"description": "Fare", "default": "Economy",
                                            "enum": ["Economy", "Flexible"]}
    assert "required" not in schema["properties"]["origin"]
    assert locate_original(tool, "/inputSchema/properties/fare/enum") == "/arguments/fare/allowed_values"
    assert locate_original(tool, "/inputSchema/properties/fare/default") == "/arguments/fare/default_value"


def test_parameter_records_docker_and_taskbench():
    docker = {"name": "create_build", "description": "Trigger a build", "arguments": [
        {"name": "branch", "type": "string", "desc": "Branch"},
        {"name": "env", "type": "array", "items": {"type": "object"}, "desc": "Env", "optional": True}]}
    tool = one(docker)
    assert tool.origin.format == "parameter-list"
    assert tool.input_schema == {"type": "object", "properties": {
        "branch": {"type": "string", "description": "Branch"},
        "env": {"type": "array", "items": {"type": "object"}, "description": "Env"}}, "required": ["branch"]}
    assert locate_original(tool, "/inputSchema/properties/env/items") == "/arguments/1/items"
    assert locate_original(tool, "/inputSchema/properties/env/description") == "/arguments/1/desc"
    taskbench = {"id": "get_weather", "desc": "Get the weather", "parameters": [
        {"name": "date", "type": "date", "desc": "The date"}]}
    tool = one(taskbench)
    assert tool.name == "get_weather" and tool.description == "Get the weather"
    assert tool.input_schema["properties"]["date"]["type"] == "date"
    assert locate_original(tool, "/inputSchema/properties/date/type") == "/parameters/0/type"


def test_rapidapi_required_and_optional_lists():
    doc = {"category_name": "Logistics", "tool_name": "T", "api_name": "track", "api_description": "Track",
           "required_parameters": [{"name": "id", "type": "STRING", "description": "Id", "default": ""}],
           "optional_parameters": [{"name": "lang", "type": "STRING", "description": "Lang", "default": "en"}]}
    tool = one(doc)
    assert tool.origin.format == "rapidapi"
    assert tool.input_schema["required"] == ["id"]
    assert set(tool.input_schema["properties"]) == {"id", "lang"}
    assert locate_original(tool, "/inputSchema/properties/lang/type") == "/optional_parameters/0/type"


def test_input_format_override_wins_over_detection():
    doc = {"name": "w", "description": "d", "parameters": {"q": {"type": "string"}}}
    assert one(doc).origin.format == "property-map"
    assert one(doc, input_format="function").input_schema == {"q": {"type": "string"}}


@pytest.mark.parametrize("doc, count, pointer", [
    ([{"name": "a", "inputSchema": {}}, {"name": "b", "inputSchema": {}}], 2, "/1"),
    ({"tools": [{"name": "a", "inputSchema": {}}], "nextCursor": "x"}, 1, "/tools/0"),
    ({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a", "inputSchema": {}}]}}, 1, "/result/tools/0"),
    ({"functionDeclarations": [{"name": "a", "parameters": {"type": "OBJECT"}}]}, 1, "/functionDeclarations/0"),
    ([{"functionDeclarations": [{"name": "a"}]}], 1, "/0/functionDeclarations/0"),
    ({"id": "simple_0", "question": [], "function": [{"name": "a", "parameters": {"type": "dict"}}]}, 1, "/function/0"),
    ({"source": "s", "origin": "o", "format": "mcp", "tool": {"name": "a", "inputSchema": {}}}, 1, "/tool"),
])
def test_containers(doc, count, pointer):
    tools, problems = contracts_from_document(doc, "f.json")
    assert not problems
    assert len(tools) == count
    assert tools[-1].origin.base == pointer


def test_gemini_declarations_keep_their_format():
    tools, _ = contracts_from_document({"functionDeclarations": [{"name": "a", "parameters": {"type": "OBJECT"}}]}, "g")
    assert tools[0].origin.format == "gemini"
    assert locate_original(tools[0], "/inputSchema/type") == "/functionDeclarations/0/parameters/type"


def test_unreadable_records_are_reported_and_counted_not_fatal():
    tools, problems = contracts_from_document([{"name": "ok", "inputSchema": {}}, 42, {"foo": 1}], "f.json")
    assert [t.name for t in tools] == ["ok"]
    assert [(p.pointer, "not a tool" in p.message or "expected a tool" in p.message) for p in problems] == [
        ("/1", True), ("/2", True)]


def test_json_positions_land_on_the_users_line_and_column():
    text = '{\n  "name": "w",\n  "inputSchema": {\n    "type": "object",\n    "required": ["citty"]\n  }\n}\n'
    result = load_text(text, "w.json")
    diags = toolclause.lint(result.tools, select=["S003"])
    assert [(d.pointer, d.line, d.column, d.file) for d in diags] == [("/inputSchema/required/0", 5, 18, "w.json")]


def test_jsonl_positions_are_per_record_line():
    lines = [json.dumps({"name": "a", "inputSchema": {"type": "object"}}),
             json.dumps({"name": "b", "inputSchema": {"type": "object", "required": ["x"]}})]
    result = load_text("\n".join(lines) + "\n", "t.jsonl")
    diags = toolclause.lint(result.tools, select=["S003"])
    assert [(d.tool, d.line, d.pointer) for d in diags] == [("b", 2, "/inputSchema/required/0")]
    assert diags[0].column is None  # JSONL is located by record line and pointer


def test_yaml_positions():
    text = "name: w\ndescription: d\ninputSchema:\n  type: object\n  # why\n  required:\n    - citty\n"
    result = load_text(text, "w.yaml")
    diags = toolclause.lint(result.tools, select=["S003"])
    assert [(d.line, d.column) for d in diags] == [(7, 7)]


def test_stdin(monkeypatch):
    import io

    from toolclause.loading import load_stdin

    stream = io.BytesIO(json.dumps([{"name": "a", "inputSchema": {}}]).encode())
    result = load_stdin(stream)
    assert [t.name for t in result.tools] == ["a"] and result.tools[0].origin.file == "-"


def test_folder_skips_non_tool_files_but_reads_tool_files(tmp_path: Path):
    (tmp_path / "package.json").write_text('{"dependencies": {}}')
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "a.json").write_text('{"name": "a", "inputSchema": {"type": "object"}}')
    (tmp_path / "tools" / "b.yaml").write_text("name: b\ninputSchema:\n  type: object\n")
    result = load_paths([tmp_path])
    assert sorted(t.name for t in result.tools) == ["a", "b"]
    assert not result.unreadable


def test_missing_path_is_unreadable(tmp_path: Path):
    result = load_paths([tmp_path / "nope.json"])
    assert result.unreadable and "no such file" in result.unreadable[0].message
