"""Family S: the schema itself (S001–S011, S003 tested by its documentation)."""

from __future__ import annotations

import glob
import json
import time

import pytest

import toolclause
from toolclause.linting.config import LintConfig
from toolclause.linting.engine import lint_contracts
from toolclause.model import Edit, ToolContract
from toolclause.rules.schema import RULES

DESCRIPTION = "Looks up one thing by its id and returns it."


def tool(schema, name="lookup", **extra):
    return {"name": name, "description": DESCRIPTION, "inputSchema": schema, **extra}


def obj(**properties):
    return {"type": "object", "properties": properties}


def found(source, code, targets=None):
    return [d for d in toolclause.lint(source, select=[code], targets=targets) if d.code == code]


def test_family_is_registered_in_code_order():
    codes = [rule.code for rule in RULES]
    assert codes == sorted(codes)
    assert codes == [f"S{n:03d}" for n in range(1, 12)]


# --------------------------------------------------------------------------- S001


def test_s001_draft3_required_moves_every_marked_name_into_the_parent():
    schema = {"type": "object", "required": ["a"],
              "properties": {"a": {"type": "string"}, "q": {"type": "string", "required": True},
                             "r": {"type": "integer", "required": True}}}
    diags = found(tool(schema), "S001")
    assert [d.pointer for d in diags] == ["/inputSchema/properties/q/required", "/inputSchema/properties/r/required"]
    assert "draft-3" in diags[0].message and "'q'" in diags[0].message
    for d in diags:
        assert d.fix.safe
        assert Edit("set", "/inputSchema/required", ["a", "q", "r"]) in d.fix.edits


def test_s001_required_false_is_removed():
    [d] = found(tool(obj(q={"type": "string", "required": False})), "S001")
    assert "required: false" in d.message and d.fix.safe
    assert d.fix.edits == (Edit("remove", "/inputSchema/properties/q/required"),)


def test_s001_string_where_a_schema_belongs():
    [d] = found(tool(obj(paths={"type": "array", "items": "string"})), "S001")
    assert d.pointer == "/inputSchema/properties/paths/items"
    assert "'items' must be a schema" in d.message and 'write {"type": "string"}' in d.message


def test_s001_property_written_as_a_type_name():
    [d] = found(tool(obj(city="string")), "S001")
    assert d.pointer == "/inputSchema/properties/city"
    assert "property 'city' must be a schema" in d.message


def test_s001_properties_as_a_list_and_required_as_a_string():
    schema = {"type": "object", "properties": [{"name": "x", "type": "string"}], "required": "x"}
    diags = {d.pointer: d for d in found(tool(schema), "S001")}
    assert "parameter records" in diags["/inputSchema/properties"].message
    fix = diags["/inputSchema/required"].fix
    assert fix.safe and fix.edits == (Edit("set", "/inputSchema/required", ["x"]),)


def test_s001_names_the_keyword_and_what_it_must_be():
    schema = obj(n={"type": "number", "minimum": "5", "maxLength": -1}, d={"description": ["a"]},
                 e={"additionalProperties": "false"})
    messages = {d.pointer: d.message for d in found(tool(schema), "S001")}
    assert "'minimum' must be a number" in messages["/inputSchema/properties/n/minimum"]
    assert "without quotes" in messages["/inputSchema/properties/n/minimum"]
    assert "non-negative integer" in messages["/inputSchema/properties/n/maxLength"]
    assert "'description' must be a string" in messages["/inputSchema/properties/d/description"]
    assert "write false without quotes" in messages["/inputSchema/properties/e/additionalProperties"]


def test_s001_leaves_type_pattern_and_empty_enum_to_their_rules():
    schema = {"$schema": "http://json-schema.org/draft-04/schema#", "type": "dict",
              "properties": {"a": {"type": 5}, "b": {"type": "str", "pattern": "("}, "c": {"enum": []}}}
    assert found(tool(schema), "S001") == []


def test_s001_reads_the_declared_dialect():
    tuple_items = obj(pair={"type": "array", "items": [{"type": "string"}, {"type": "number"}]})
    [d] = found(tool(tuple_items), "S001")
    assert "prefixItems" in d.message
    draft7 = dict(tuple_items, **{"$schema": "http://json-schema.org/draft-07/schema#"})
    assert found(tool(draft7), "S001") == []
    draft4_bool = {"$schema": "http://json-schema.org/draft-04/schema#", "type": "object",
                   "properties": {"n": {"type": "number", "minimum": 0, "exclusiveMinimum": True}}}
    assert found(tool(draft4_bool), "S001") == []
    [d] = found(tool(obj(n={"type": "number", "minimum": 0, "exclusiveMinimum": True})), "S001")
    assert "draft-04 syntax" in d.message


def test_s001_output_schema_is_checked_too():
    diags = found(tool(obj(), outputSchema="string"), "S001")
    assert [d.pointer for d in diags] == ["/outputSchema"]
    diags = found(tool(obj(), outputSchema=obj(x={"items": 3})), "S001")
    assert [d.pointer for d in diags] == ["/outputSchema/properties/x/items"]


def test_s001_valid_schema_is_clean():
    schema = {"type": "object", "properties": {"a": {"type": ["string", "null"], "format": "date"},
                                               "b": {"$ref": "#/$defs/B"}}, "$defs": {"B": {"type": "integer"}},
              "required": ["a"], "additionalProperties": False}
    assert found(tool(schema), "S001") == []


# --------------------------------------------------------------------------- S002


@pytest.mark.parametrize("written, meant", [
    ("str", "string"), ("int", "integer"), ("long", "integer"), ("float", "number"), ("double", "number"),
    ("bool", "boolean"), ("dict", "object"), ("map", "object"), ("HashMap", "object"), ("list", "array"),
    ("tuple", "array"), ("Array", "array"), ("String", "string"), ("STRING", "string"),
])
def test_s002_safe_aliases(written, meant):
    [d] = found(tool(obj(x={"type": written})), "S002")
    assert d.message == (f"type '{written}' is not a JSON Schema type; did you mean '{meant}'?"
                         + (" (type names are lower-case)" if written.lower() == meant else ""))
    assert d.fix.safe
    assert d.fix.edits == (Edit("set", "/inputSchema/properties/x/type", meant),)


def test_s002_any_means_drop_type():
    [d] = found(tool(obj(x={"type": "any"})), "S002")
    assert "remove 'type'" in d.message
    assert d.fix.safe and d.fix.edits == (Edit("remove", "/inputSchema/properties/x/type"),)


def test_s002_inside_type_lists():
    [d] = found(tool(obj(x={"type": ["str", "null"]})), "S002")
    assert d.pointer == "/inputSchema/properties/x/type/0"
    assert d.fix.edits == (Edit("set", "/inputSchema/properties/x/type/0", "string"),)
    [d] = found(tool(obj(x={"type": ["string", "String"]})), "S002")
    assert not d.fix.safe  # replacing would repeat 'string'


@pytest.mark.parametrize("written, advice", [
    ("date", '"format": "date"'), ("Date (yyyy-mm-dd)", '"format": "date"'), ("Enum", '"enum"'),
    ("", "the type is empty"), ("strnig", "did you mean 'string'"), ("List[str]", '"items": {"type": "string"}'),
])
def test_s002_names_without_a_safe_mapping(written, advice):
    [d] = found(tool(obj(x={"type": written})), "S002")
    assert advice in d.message
    assert not d.fix.safe and not d.fix.edits


@pytest.mark.parametrize("value", [5, {"type": "string"}, [], [1], None])
def test_s002_malformed_type_values(value):
    [d] = found(tool(obj(x={"type": value})), "S002")
    assert "type" in d.message


def test_s002_native_capitals_are_not_mistakes():
    gemini = {"functionDeclarations": [{"name": "f", "description": DESCRIPTION,
                                        "parameters": {"type": "OBJECT", "properties": {"a": {"type": "STRING"}}}}]}
    assert found(gemini, "S002") == []
    gemini_json = {"functionDeclarations": [{"name": "f", "description": DESCRIPTION,
                                             "parametersJsonSchema": {"type": "OBJECT", "properties": {}}}]}
    assert len(found(gemini_json, "S002")) == 1
    rapidapi = {"api_name": "search", "api_description": DESCRIPTION,
                "required_parameters": [{"name": "q", "type": "STRING", "description": "query", "default": ""}],
                "optional_parameters": [{"name": "n", "type": "NUMBER", "description": "count", "default": "10"}]}
    assert found(rapidapi, "S002") == [] and found(rapidapi, "S008") == []


# --------------------------------------------------------------------------- S003 (regression)


def test_s003_required_beside_items_says_to_move_it():
    schema = obj(rows={"type": "array", "items": obj(date={"type": "string"}), "required": ["date"]})
    [d] = found(tool(schema), "S003")
    assert d.pointer == "/inputSchema/properties/rows/required/0"
    assert "on an array" in d.message and "into 'items'" in d.message


# --------------------------------------------------------------------------- S004


def test_s004_root_types():
    assert found(tool({"type": "dict", "properties": {}}), "S004") == []  # S002's finding
    assert found(tool({"type": "Object", "properties": {}}), "S004") == []
    [d] = found(tool({"type": "string"}), "S004")
    assert d.pointer == "/inputSchema/type" and "not \"object\"" in d.message
    [d] = found(tool({"type": ["object", "null"], "properties": {}}), "S004")
    assert "exactly" in d.message


def test_s004_missing_type_has_a_safe_fix():
    [d] = found(tool({"properties": {"a": {"type": "string"}}}), "S004")
    assert d.fix.safe and d.fix.edits == (Edit("set", "/inputSchema/type", "object"),)


@pytest.mark.parametrize("schema", ["string", ["a", "b"], 5])
def test_s004_non_object_schema(schema):
    [d] = found(tool(schema), "S004")
    assert d.pointer == "/inputSchema" and "must be a JSON Schema object" in d.message


def test_s004_no_parameters_is_fine():
    assert found({"name": "ping", "description": DESCRIPTION}, "S004") == []


# --------------------------------------------------------------------------- S005

ADDRESS = {"type": "object", "properties": {"street": {"type": "string"}}}


def test_s005_dangling_pointer_suggests_the_name():
    schema = {"type": "object", "properties": {"a": {"$ref": "#/$defs/Adress"}}, "$defs": {"Address": ADDRESS}}
    [d] = found(tool(schema), "S005")
    assert d.pointer == "/inputSchema/properties/a/$ref"
    assert "#/$defs/Address" in d.message


@pytest.mark.parametrize("ref", ["#/$defs/Address", "#/$defs/A%20ddress", "#home", "#", "https://x.test/t.json#/$defs/Address",
                                 "https://x.test/inner.json", "#/properties/b"])
def test_s005_resolvable_refs(ref):
    schema = {"$id": "https://x.test/t.json", "type": "object",
              "properties": {"a": {"$ref": ref}, "b": {"type": "string"}},
              "$defs": {"Address": ADDRESS, "A ddress": ADDRESS, "Home": {"$anchor": "home", "type": "string"},
                        "Inner": {"$id": "https://x.test/inner.json", "type": "string"}}}
    assert found(tool(schema), "S005") == []


@pytest.mark.parametrize("ref, words", [
    ("#nowhere", "anchor 'nowhere'"), ("https://example.com/schemas/address.json", "network reference"),
    ("common.json#/Address", "another document"), ("#/properties/b/description", "not at a schema"),
    ("#/properties/zz", "has no 'zz'"),
])
def test_s005_unresolvable_refs(ref, words):
    schema = {"type": "object", "properties": {"a": {"$ref": ref}, "b": {"type": "string", "description": "d"}}}
    [d] = found(tool(schema), "S005")
    assert words in d.message


def test_s005_non_string_ref_is_not_its_finding():
    assert found(tool(obj(a={"$ref": 5})), "S005") == []


TREE = {"type": "object", "properties": {"root": {"$ref": "#/$defs/node"}},
        "$defs": {"node": {"type": "object", "properties": {
            "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}}}


def test_s005_recursion_only_for_targets_that_reject_it():
    assert found(tool(TREE), "S005") == []
    [d] = found(tool(TREE), "S005", targets=["anthropic-strict"])
    assert "recursive" in d.message and d.pointer == "/inputSchema/$defs/node/properties/children/items/$ref"
    self_root = obj(child={"$ref": "#"})
    assert len(found(tool(self_root), "S005", targets=["anthropic-strict"])) == 1
    unused = {"type": "object", "properties": {}, "$defs": {"loop": {"$ref": "#"}}}
    assert found(tool(unused), "S005", targets=["anthropic-strict"]) == []


# --------------------------------------------------------------------------- S006


@pytest.mark.parametrize("key, meant, value", [
    ("require", "required", ["a"]), ("properites", "properties", {}), ("enums", "enum", ["x"]),
    ("minimun", "minimum", 1), ("additionalProperty", "additionalProperties", False),
    ("max_length", "maxLength", 5), ("Description", "description", "text"),
])
def test_s006_near_keywords(key, meant, value):
    [d] = found(tool({"type": "object", key: value}), "S006")
    assert f"did you mean '{meant}'?" in d.message
    assert d.pointer == f"/inputSchema/{key}"


@pytest.mark.parametrize("key, value", [
    ("example_value", "x"), ("optional", []), ("x-internal", True), ("units", "cm"),
    # longer words built on a keyword are extensions, not typos
    ("required_if", ["a"]), ("contentType", "text/plain"), ("ifThen", {}), ("examplesList", ["a"]),
    ("multiple", 2), ("contains_any", {}),
    ("Type", {"type": "string"}),  # the value cannot be meant for `type`: a misplaced property
])
def test_s006_leaves_extensions_alone(key, value):
    assert found(tool({"type": "object", "properties": {}, key: value}), "S006") == []


def test_s006_never_reads_property_names_as_keywords():
    assert found(tool(obj(require={"type": "string"}, enums={"type": "array"})), "S006") == []


def test_s006_real_keyword_present_too():
    assert found(tool({"type": "string", "enum": ["a"], "enums": ["b"]}), "S006") == []


def test_s006_gemini_snake_case():
    gemini = {"functionDeclarations": [{"name": "f", "description": DESCRIPTION, "parameters": {
        "type": "OBJECT", "properties": {"a": {"type": "ARRAY", "max_items": 3}}}}]}
    assert found(gemini, "S006") == []
    [d] = found(tool(obj(a={"type": "array", "max_items": 3})), "S006")
    assert "'maxItems'" in d.message


# --------------------------------------------------------------------------- S007


def test_s007_quoted_numbers_and_booleans():
    [d] = found(tool(obj(n={"type": "integer", "enum": ["1", "2"]})), "S007")
    assert d.pointer == "/inputSchema/properties/n/enum/0" and "as numbers" in d.message
    [d] = found(tool(obj(b={"type": "boolean", "enum": ["true", "false"]})), "S007")
    assert "without quotes" in d.message


def test_s007_null_and_nullable():
    [d] = found(tool(obj(s={"type": "string", "enum": ["a", None]})), "S007")
    assert d.pointer == "/inputSchema/properties/s/enum/1" and "null" in d.message
    assert found(tool(obj(s={"type": "string", "nullable": True, "enum": ["a", None]})), "S007") == []
    assert found(tool(obj(s={"type": ["string", "null"], "enum": ["a", None]})), "S007") == []


def test_s007_json_number_semantics():
    assert found(tool(obj(n={"type": "int", "enum": [1, 2.0]})), "S007") == []
    [d] = found(tool(obj(n={"type": "integer", "enum": [1, True]})), "S007")
    assert "true" in d.message
    [d] = found(tool(obj(n={"type": "number", "const": "3"})), "S007")
    assert d.pointer == "/inputSchema/properties/n/const"


def test_s007_enum_on_an_array_belongs_in_items():
    [d] = found(tool(obj(tags={"type": "array", "items": {"type": "string"}, "enum": ["a", "b"]})), "S007")
    assert "move the enum into 'items'" in d.message


@pytest.mark.parametrize("schema", [{"type": "integer", "enum": "1,2"}, {"type": 5, "enum": ["a"]},
                                    {"enum": ["a", 1]}, {"type": "date", "enum": ["x"]}])
def test_s007_malformed_or_untyped(schema):
    assert found(tool(obj(x=schema)), "S007") == []


# --------------------------------------------------------------------------- S008


def test_s008_null_default_on_a_string_says_how_to_fix():
    [d] = found(tool(obj(label={"type": "string", "default": None})), "S008")
    assert d.pointer == "/inputSchema/properties/label/default"
    assert 'make it nullable ("type": ["string", "null"]) or drop the default' in d.message
    assert found(tool(obj(label={"type": ["string", "null"], "default": None})), "S008") == []
    assert found(tool(obj(label={"type": "string", "nullable": True, "default": None})), "S008") == []


def test_s008_wrong_type_enum_and_examples():
    schema = obj(closed={"type": "boolean", "default": "false"},
                 color={"type": "string", "enum": ["red"], "default": "blue"},
                 n={"type": "integer", "examples": [1, "two", 3]},
                 rate={"type": "float", "default": "3.5"}, ok={"type": "float", "default": 3.5})
    messages = {d.pointer: d.message for d in found(tool(schema), "S008")}
    assert set(messages) == {"/inputSchema/properties/closed/default", "/inputSchema/properties/color/default",
                             "/inputSchema/properties/n/examples/1", "/inputSchema/properties/rate/default"}
    assert "without quotes" in messages["/inputSchema/properties/closed/default"]
    assert "enum" in messages["/inputSchema/properties/color/default"]


def test_s008_resolves_local_definitions():
    schema = {"type": "object", "$defs": {"Color": {"type": "string", "enum": ["red", "green"]}},
              "properties": {"bad": {"$ref": "#/$defs/Color", "default": "purple"},
                             "good": {"$ref": "#/$defs/Color", "default": "red"},
                             "elsewhere": {"$ref": "#/properties/good", "default": 5}}}
    assert [d.pointer for d in found(tool(schema), "S008")] == ["/inputSchema/properties/bad/default"]


def test_s008_catastrophic_pattern_finishes_quickly():
    schema = obj(s={"type": "string", "pattern": "(a+)+$", "default": "a" * 50_000 + "!"},
                 t={"type": "string", "pattern": "^(a+)+\\1$", "default": "a" * 50_000 + "!"})
    started = time.perf_counter()
    diags = found(tool(schema), "S008")
    assert time.perf_counter() - started < 2.0
    assert all(len(d.message) < 300 for d in diags)


# --------------------------------------------------------------------------- S009


@pytest.mark.parametrize("schema, pointer_end", [
    ({"type": "number", "minimum": 9, "maximum": 1}, "minimum"),
    ({"type": "number", "exclusiveMinimum": 5, "maximum": 5}, "exclusiveMinimum"),
    ({"type": "integer", "exclusiveMinimum": 1, "exclusiveMaximum": 2}, "exclusiveMinimum"),
    ({"type": "number", "minimum": 5, "maximum": 5, "exclusiveMaximum": True}, "minimum"),
    ({"type": "string", "minLength": 10, "maxLength": 3}, "minLength"),
    ({"type": "array", "minItems": 4, "maxItems": 2}, "minItems"),
    ({"type": "object", "minProperties": 3, "maxProperties": 1}, "minProperties"),
    ({"type": "string", "enum": []}, "enum"),
    ({"type": "string", "enum": ["a", "b"], "const": "c"}, "const"),
])
def test_s009_impossible(schema, pointer_end):
    [d] = found(tool(obj(x=schema)), "S009")
    assert d.pointer == f"/inputSchema/properties/x/{pointer_end}"


@pytest.mark.parametrize("schema", [
    {"type": "number", "minimum": 5, "maximum": 5},
    {"type": "number", "exclusiveMinimum": 1, "exclusiveMaximum": 2},
    {"type": "integer", "minimum": 1.5, "maximum": 2},
    {"enum": [1], "const": 1.0},
    {"type": "number", "minimum": "9", "maximum": 1},
    {"type": "number", "minimum": True, "maximum": 0},
    {"type": "string", "minLength": "5", "maxLength": 1},
])
def test_s009_possible_or_malformed(schema):
    assert found(tool(obj(x=schema)), "S009") == []


def test_s009_const_true_is_not_one():
    [d] = found(tool(obj(x={"enum": [1], "const": True})), "S009")
    assert "true" in d.message


# --------------------------------------------------------------------------- S010


@pytest.mark.parametrize("pattern, hint", [
    ("^(?P<id>\\d+)$", "(?<name>…)"), ("(?i)abc", "inline flags"), ("(", "Unbalanced"), ("[z-a]", "reversed"),
])
def test_s010_invalid(pattern, hint):
    [d] = found(tool(obj(x={"type": "string", "pattern": pattern})), "S010")
    assert d.pointer == "/inputSchema/properties/x/pattern" and hint in d.message


@pytest.mark.parametrize("pattern", ["^\\p{L}+$", "\\d{2,}", "[\\w-.]", "^[a-z]{", "(?<y>\\d{4})-\\k<y>", "\\/"])
def test_s010_valid_in_some_ecma_mode(pattern):
    assert found(tool(obj(x={"type": "string", "pattern": pattern})), "S010") == []


def test_s010_pattern_property_keys_and_non_strings():
    schema = {"type": "object", "patternProperties": {"^a/(": {"type": "string"}, "^ok$": {}},
              "properties": {"n": {"type": "string", "pattern": 5}}}
    [d] = found(tool(schema), "S010")
    assert d.pointer == "/inputSchema/patternProperties/^a~1("


# --------------------------------------------------------------------------- S011


def test_s011_reports_each_duplicate_after_the_first():
    tools = [tool(obj(), name="search"), tool(obj(), name="other"), tool(obj(), name="search"),
             tool(obj(), name="search")]
    diags = found(tools, "S011")
    assert [d.pointer for d in diags] == ["/2/name", "/3/name"]
    assert all("tool #1" in d.message for d in diags)


def test_s011_only_within_one_tool_set(tmp_path):
    from toolclause.linting.config import config_from_mapping

    for folder, name in (("one", "a.json"), ("one", "b.json"), ("two", "c.json")):
        (tmp_path / folder).mkdir(exist_ok=True)
        (tmp_path / folder / name).write_text(json.dumps([tool(obj(), name="search")]))
    paths = [str(tmp_path / "one" / "a.json"), str(tmp_path / "one" / "b.json"), str(tmp_path / "two" / "c.json")]
    # a folder is one tool set; another folder is another
    assert [d.file for d in found(paths, "S011")] == [paths[1]]
    by_file = config_from_mapping({"select": ["S011"], "toolset": "file"})
    assert toolclause.lint(paths, config=by_file) == []


# --------------------------------------------------------------------------- robustness


def _deep(levels):
    schema = {"type": "string"}
    for _ in range(levels):
        schema = {"type": "object", "properties": {"a": schema}}
    return schema


def test_ten_thousand_levels_do_not_crash():
    contract = ToolContract(name="deep", description=DESCRIPTION, input_schema=_deep(10_000))
    deep_default = {"type": "object", "properties": {"a": {"type": "array", "default": []}}}
    value = deep_default["properties"]["a"]["default"]
    for _ in range(10_000):
        value.append([])
        value = value[0]
    other = ToolContract(name="deep_default", description=DESCRIPTION, input_schema=deep_default)
    diags = lint_contracts([contract, other], LintConfig(select=("S",)))
    assert any(d.code == "S001" and "deeper than" in d.message for d in diags)


def test_self_containing_schema_does_not_hang():
    schema = {"type": "object", "properties": {}}
    schema["properties"]["me"] = schema
    schema["default"] = schema
    contract = ToolContract(name="loop", description=DESCRIPTION, input_schema=schema)
    lint_contracts([contract], LintConfig(select=("S",)))


@pytest.mark.parametrize("schema", [
    {"type": "object", "required": "x", "properties": ["a"]},
    {"type": "object", "properties": {"a": None, "b": 5, "c": []}, "required": [1, None]},
    {"type": "object", "properties": {"a": {"enum": None, "const": [], "default": {}, "examples": "e",
                                            "pattern": None, "patternProperties": [], "$ref": None,
                                            "minimum": [], "maximum": {}, "items": 7}}},
    {"type": ["object"], "allOf": "x", "$defs": [], "if": 3, "not": "x", "$schema": 5},
])
def test_malformed_values_never_crash(schema):
    diags = toolclause.lint(tool(schema), select=["S"], targets=["all"])
    assert all(d.code.startswith("S") for d in diags)


def test_corpus_bfcl_finds_the_known_problems():
    paths = glob.glob("/work/shared/corpora/bfcl/tools.jsonl")
    if not paths:
        pytest.skip("corpus not available")
    diags = toolclause.lint(paths, select=["S002", "S004", "S008"])
    null_string_defaults = [d for d in diags if d.code == "S008" and "type 'string'" in d.message
                            and d.message.startswith("default null")]
    assert len(null_string_defaults) >= 358
    assert not [d for d in diags if d.code == "S004"]  # every root is "dict": S002's finding
    assert sum(1 for d in diags if d.code == "S002" and "'dict'" in d.message) >= 3541
