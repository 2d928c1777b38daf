"""toolclause export: shapes per target, strict projections, names, the runtime half, drift, the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema_rs
from click.testing import CliRunner

import toolclause
from toolclause.cli.main import cli
from toolclause.exporting import export, structural_diff, to_canonical_arguments, to_strict_arguments
from toolclause.exporting.names import valid_names
from toolclause.targets import PROPERTY_NAME_RULES, TOOL_NAME_RULES

FIXTURES = Path(__file__).parent / "fixtures" / "export"
TOOLS = FIXTURES / "tools.json"


def _by_name(result, name):
    return next(t for t in result.payload if t.get("name", t.get("function", {}).get("name")) == name)


def _schema(result, name):
    tool = _by_name(result, name)
    return tool["function"]["parameters"] if "function" in tool else tool.get("parameters", tool.get("input_schema"))


# --------------------------------------------------------------------------- shapes

def test_each_target_writes_its_wire_shape():
    chat = export(TOOLS, "openai-chat").payload[0]
    assert chat["type"] == "function" and set(chat["function"]) == {"name", "description", "parameters"}
    flat = export(TOOLS, "openai-responses").payload[0]
    assert flat["type"] == "function" and flat["strict"] is False and "parameters" in flat
    claude = export(TOOLS, "anthropic").payload[0]
    assert set(claude) == {"name", "description", "input_schema"}
    gemini = export(TOOLS, "gemini").payload
    assert "parametersJsonSchema" in gemini[0]["functionDeclarations"][0]
    openapi = export(TOOLS, "gemini", settings={"schema": "openapi"}).payload
    assert "parameters" in openapi[0]["functionDeclarations"][0]
    mcp = export(TOOLS, "mcp", settings={"shape": "list"}).payload
    assert set(mcp) == {"tools"} and mcp["tools"][2]["outputSchema"]["required"] == ["order_id"]


def test_mcp_export_strips_toolclause_keys():
    contract = {"name": "t", "description": "Looks up one record by id and returns it.", "$id": "urn:x", "version": 2,
                "errors": [{"code": "NOT_FOUND"}], "inputSchema": {"type": "object", "properties": {}}}
    (tool,) = export(contract, "mcp").payload
    assert set(tool) == {"name", "description", "inputSchema"}


def test_strict_openai_makes_optional_nullable_and_closes_every_object():
    result = export(TOOLS, "openai-chat", strict=True)
    schema = _schema(result, "search_files")
    assert schema["required"] == list(schema["properties"]) and schema["additionalProperties"] is False
    assert schema["properties"]["limit"]["type"] == ["integer", "null"]
    assert "default" not in schema["properties"]["limit"] and "20" in schema["properties"]["limit"]["description"]
    assert schema["properties"]["Content-Type"]["enum"][-1] is None
    order = _schema(result, "create_order")
    delivery = order["properties"]["delivery"]
    assert delivery["type"] == ["object", "null"] or "anyOf" not in delivery
    assert "$ref" not in order["properties"]["delivery"], "a $ref with siblings is inlined"
    assert "allOf" not in json.dumps(order) and "oneOf" not in json.dumps(order)
    assert order["$defs"]["address"]["additionalProperties"] is False


def test_strict_losses_name_tool_pointer_and_keyword():
    result = export(TOOLS, "openai-chat", strict=True)
    found = {(loss.tool, loss.pointer, loss.keyword) for loss in result.losses}
    assert ("search files", "/inputSchema/properties/query/minLength", "minLength") in found
    assert ("create_order", "/inputSchema/properties/payment/oneOf", "oneOf") in found
    # a map of strings goes out as {key, value} pairs: nothing lost
    assert not any(loss.pointer.startswith("/inputSchema/properties/metadata") for loss in result.losses)
    assert all(loss.lost for loss in result.losses)


def test_plain_export_loses_nothing_it_does_not_have_to():
    assert export(TOOLS, "openai-chat").losses == []
    assert export(TOOLS, "mcp").losses == []


def test_anthropic_strict_subset_and_request_limits():
    result = export(TOOLS, "anthropic", strict=True)
    text = json.dumps(result.payload)
    assert '"minimum"' not in text and '"maxItems"' not in text and "$defs" not in text
    tree = _schema(result, "list_folders")
    assert any(loss.keyword == "$ref" and "unrolled" in loss.lost
               for loss in result.losses if loss.tool == "list_folders")
    assert tree["properties"]["root"]["type"] == "object"
    many = [{"name": f"t{i}", "description": "Looks up one record by id and returns it.",
             "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}} for i in range(30)]
    limited = export(many, "anthropic", strict=True)
    flags = [t["strict"] for t in limited.payload]
    assert flags[:20] == [True] * 20 and not any(flags[20:])  # 20 strict tools in one request
    assert sum(1 for loss in limited.losses if loss.keyword == "strict") == 10
    five = [{"name": f"t{i}", "description": "Looks up one record by id and returns it.",
             "inputSchema": {"type": "object", "properties": {f"p{j}": {"type": "string"} for j in range(5)}}}
            for i in range(6)]
    flags = [t["strict"] for t in export(five, "anthropic", strict=True).payload]
    assert flags == [True] * 4 + [False] * 2  # 24 optional properties across the strict tools


def test_gemini_openapi_uses_nullable_single_types_and_string_enums():
    result = export({"name": "f", "description": "Sets one level on the device and returns it.",
                     "inputSchema": {"type": "object",
                                     "properties": {"level": {"type": ["integer", "null"], "enum": [1, 2, None]},
                                                    "mode": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                                                    "kind": {"const": "x"}}}},
                    "gemini", settings={"schema": "openapi"})
    props = result.payload[0]["functionDeclarations"][0]["parameters"]["properties"]
    assert props["level"] == {"type": "integer", "enum": ["1", "2"], "nullable": True}
    assert props["mode"] == {"type": "string", "nullable": True}
    assert props["kind"] == {"enum": ["x"]}
    assert [loss.keyword for loss in result.losses] == ["enum"]


# --------------------------------------------------------------------------- names

def test_rejected_names_are_mapped_and_the_map_is_exported():
    result = export(TOOLS, "openai-chat")
    assert result.name_map == {"math_factorial": "math.factorial", "search_files": "search files"}
    assert result.routing()["nameMap"] == result.name_map
    assert result.document() == result.payload  # one shape, whatever was renamed
    assert export(TOOLS, "mcp").name_map == {"search_files": "search files"}  # MCP takes dots


def test_mapped_names_are_valid_unique_and_stable():
    names = ["a.b", "a_b", "a b", "검색", "조회", "x" * 80, "1st"]
    for family in ("openai", "gemini"):
        rule = TOOL_NAME_RULES[family]
        mapped = valid_names(names, rule)
        assert len(set(mapped.values())) == len(names)
        assert all(rule.pattern.fullmatch(v) for v in mapped.values())
        assert mapped == valid_names(names, rule)
    assert valid_names(["a_b", "a.b"], TOOL_NAME_RULES["openai"])["a_b"] == "a_b"  # valid names keep theirs


def test_property_names_a_target_rejects_are_renamed_and_routed_back():
    result = export(TOOLS, "gemini")
    assert result.property_map == {"search_files": {"": {"Content_Type": "Content-Type"}}}
    sent = {"query": "x", "Content_Type": "text/plain"}
    canonical = toolclause.load(TOOLS)[1].input_schema
    assert to_canonical_arguments(sent, canonical, result.property_map["search_files"]) == {
        "query": "x", "Content-Type": "text/plain"}
    assert PROPERTY_NAME_RULES["gemini"].pattern.fullmatch("Content_Type")


# --------------------------------------------------------------------------- the runtime half

def test_nulls_for_not_given_are_removed_only_where_the_canonical_schema_has_no_null():
    canonical = toolclause.load(TOOLS)[1].input_schema
    sent = {"query": "x", "limit": None, "Content-Type": None, "since": None, "note": None}
    # "note" says what null does ("null clears it"): the strict export sends {"set": null} for that
    assert to_canonical_arguments(sent, canonical) == {"query": "x"}
    assert to_canonical_arguments({**sent, "note": {"set": None}}, canonical) == {"query": "x", "note": None}
    assert sent["limit"] is None, "the input is not mutated"


def test_nulls_are_removed_recursively_through_refs_and_branches():
    canonical = toolclause.load(TOOLS)[2].input_schema
    sent = {"customer_id": "c", "lines": [{"sku": "a", "qty": 1}],
            "delivery": {"street": "s", "city": "c", "zip": None}, "billing": None,
            "payment": {"card": "4111"}, "metadata": None}
    assert to_canonical_arguments(sent, canonical) == {
        "customer_id": "c", "lines": [{"sku": "a", "qty": 1}], "delivery": {"street": "s", "city": "c"},
        "payment": {"card": "4111"}}


def test_strict_round_trip_on_the_fixture():
    for contract in toolclause.load(TOOLS):
        projection = export([contract], "openai-chat", strict=True).payload[0]["function"]["parameters"]
        strict_validator = jsonschema_rs.validator_for(projection)
        canonical_validator = jsonschema_rs.validator_for(contract.input_schema or {})
        example = {"ping": {}, "math.factorial": {"n": 5}, "search files": {"query": "q", "note": None},
                   "create_order": {"customer_id": "c", "lines": [{"sku": "a", "qty": 1}],
                                    "delivery": {"street": "s", "city": "c"}},
                   "list_folders": {"root": {"name": "r", "children": [{"name": "c"}]}}}[contract.name]
        sent = to_strict_arguments(example, projection)
        assert strict_validator.is_valid(sent), (contract.name, sent)
        assert canonical_validator.is_valid(to_canonical_arguments(sent, contract.input_schema))
        assert to_canonical_arguments(sent, contract.input_schema) == example


# --------------------------------------------------------------------------- drift

def test_structural_diff_names_pointers():
    changes = [str(c) for c in structural_diff({"a": [1, 2], "b": {"c": 1}}, {"a": [1], "b": {"c": 2, "d": 0}})]
    assert changes == ["- /a/1: 2", "~ /b/c: 1 → 2", "+ /b/d: 0"]


def test_cli_check_passes_when_fresh_and_fails_on_drift(tmp_path):
    runner = CliRunner()
    out = tmp_path / "build"
    args = ["export", str(TOOLS), "--target", "openai-chat", "--strict", "-o", str(out) + "/"]
    written = runner.invoke(cli, args)
    assert written.exit_code == 0, written.output
    assert sorted(p.name for p in out.iterdir()) == ["openai-chat-strict.json", "openai-chat-strict.names.json"]
    assert runner.invoke(cli, args + ["--check"]).exit_code == 0
    payload = json.loads((out / "openai-chat-strict.json").read_text())
    payload[0]["function"]["description"] = "edited by hand"
    (out / "openai-chat-strict.json").write_text(json.dumps(payload))
    drifted = runner.invoke(cli, args + ["--check"])
    assert drifted.exit_code == 1
    assert "~ /0/function/description" in drifted.stdout


def test_cli_prints_losses_on_stderr_and_the_document_on_stdout():
    result = CliRunner().invoke(cli, ["export", str(TOOLS), "--target", "anthropic", "--strict"])
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert isinstance(document, list) and document[0]["name"] == "math_factorial"
    assert "write with -o FILE to keep the nameMap" in result.stderr
    assert "math.factorial /inputSchema/properties/n/minimum" in result.stderr


def test_cli_usage_errors_exit_2(tmp_path):
    runner = CliRunner()
    assert runner.invoke(cli, ["export", str(TOOLS), "--target", "nope"]).exit_code == 2
    assert runner.invoke(cli, ["export", str(TOOLS), "--target", "mcp", "--check"]).exit_code == 2
    assert runner.invoke(cli, ["export", str(tmp_path / "missing.json"), "--target", "mcp"]).exit_code == 2


def test_structured_output_and_a2a():
    result = export(FIXTURES / "schemas", "structured-output", strict=True)
    handoff = result.payload["triage_to_billing"]
    assert handoff["openai"]["type"] == "json_schema" and handoff["openai"]["json_schema"]["strict"] is True
    assert handoff["anthropic"]["format"]["type"] == "json_schema"
    card = export(TOOLS, "a2a", settings={"name": "shop"}).payload
    assert card["name"] == "shop" and [s["id"] for s in card["skills"]][0] == "math.factorial"
    params = card["capabilities"]["extensions"][0]["params"]
    assert params["skills"]["create_order"] == {"inputSchema": "urn:toolclause:tool:create_order",
                                                "outputSchema": "urn:toolclause:tool:create_order#output"}
    assert set(params["schemas"]) >= {"urn:toolclause:tool:ping"}


def test_fix_types_reads_a_property_named_type_as_a_property():
    from toolclause.exporting.repair import fix_types

    schema = {"type": "dict", "properties": {"type": {"type": "str", "description": "kind"},
                                             "items": {"type": "list"}}}
    assert fix_types(schema) == {"type": "object", "properties": {"type": {"type": "string", "description": "kind"},
                                                                  "items": {"type": "array"}}}
