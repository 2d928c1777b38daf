"""Family C (contract tightness): behaviour beyond the documentation examples."""

from __future__ import annotations

import pytest

import toolclause
from toolclause.model import ToolContract


def _tool(schema, **extra):
    return {"name": "t", "description": "Does one well-described thing for the tests.", "inputSchema": schema, **extra}


def _codes(obj, code, **kw):
    return [d for d in toolclause.lint(obj, select=[code], **kw) if d.code == code]


# --------------------------------------------------------------------------- C001

def test_c001_reports_nested_and_item_objects_with_a_safe_fix():
    schema = {"type": "object", "additionalProperties": False,
              "properties": {"filter": {"type": "object", "properties": {"q": {"type": "string"}}},
                             "rows": {"type": "array",
                                      "items": {"type": "object", "properties": {"x": {"type": "string"}}}}}}
    found = _codes(_tool(schema), "C001")
    assert sorted(d.pointer for d in found) == ["/inputSchema/properties/filter", "/inputSchema/properties/rows/items"]
    assert all(d.fix.safe and d.fix.edits[0].value is False for d in found)
    assert "'filter'" in found[0].message


def test_c001_no_arguments_root_gets_properties_and_closing_edit():
    (d,) = _codes(_tool({"type": "object"}), "C001")
    assert d.fix.safe
    assert {(e.pointer, str(e.value)) for e in d.fix.edits} == {("/inputSchema/properties", "{}"),
                                                                 ("/inputSchema/additionalProperties", "False")}


def test_c001_free_form_nested_object_is_reported_without_a_safe_fix():
    schema = {"type": "object", "additionalProperties": False, "properties": {"meta": {"type": "object"}}}
    (d,) = _codes(_tool(schema), "C001")
    assert not d.fix.safe and not d.fix.edits


def test_c001_empty_properties_beside_additional_true_is_a_bag_of_the_callers_keys():
    # desktop-commander's write_pdf options: {"properties": {}, "additionalProperties": true} is open on
    # purpose; closing it (the open-object advice) would accept only {}
    bag = {"type": "object", "properties": {}, "additionalProperties": True}
    schema = {"type": "object", "additionalProperties": False, "properties": {
        "options": bag, "described": {**bag, "description": "Renderer options: any of its keys"},
        "empty": {"type": "object", "properties": {}}}}
    found = {d.pointer.rsplit("/", 1)[-1]: d for d in _codes(_tool(schema), "C001")}
    assert set(found) == {"options", "empty"}
    assert "free-form by design" in found["options"].message and not found["options"].fix.edits
    # "properties": {} declares no key: closing it would accept only {}, so --fix never does
    assert not found["empty"].fix.safe and not found["empty"].fix.edits
    assert "free-form object" in found["empty"].message


def test_c001_fix_never_closes_a_nested_object_that_declares_no_properties():
    schema = {"type": "object", "properties": {
        "labels": {"type": "object", "description": "Labels to set."},
        "meta": {"type": "object", "properties": {}, "description": "Set these."},
        "address": {"type": "object", "properties": {"city": {"type": "string", "description": "City."}}}}}
    fixes = {d.pointer.rsplit("/", 1)[-1]: d.fix for d in _codes(_tool(schema), "C001")}
    closed = {name for name, fix in fixes.items() if fix is not None and fix.safe and fix.edits}
    assert closed == {"inputSchema", "address"}  # the root and the object with a declared property
    # a tool without arguments ("properties": {} at the root) is closed: it accepts only {} already
    (root,) = _codes(_tool({"type": "object", "properties": {}}), "C001")
    assert root.fix.safe and [(e.pointer.rsplit("/", 1)[-1], e.value) for e in root.fix.edits] == [
        ("additionalProperties", False)]


@pytest.mark.parametrize("schema", [
    {"type": "object", "properties": {}, "additionalProperties": False},
    {"type": "object", "properties": {}, "additionalProperties": {"type": "string"}},   # a typed map
    {"type": "object", "properties": {}, "unevaluatedProperties": False},
    {"type": "dict", "properties": {}},                                                # S002's business
    {"type": "object", "additionalProperties": False, "properties": {"a": {"type": "string"}},
     "allOf": [{"type": "object", "properties": {"b": {"type": "string"}}}]},           # branches share the instance
])
def test_c001_quiet_cases(schema):
    found = _codes(_tool(schema), "C001")
    assert [d for d in found if d.pointer != "/inputSchema"] == [] or schema.get("additionalProperties") is not False
    if schema.get("additionalProperties") is False or "unevaluatedProperties" in schema or schema["type"] == "dict":
        assert found == []


def test_c001_explicit_true_is_not_a_safe_fix_and_ref_siblings_suggest_unevaluated():
    explicitly_open = {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": True}
    (explicit,) = _codes(_tool(explicitly_open), "C001")
    assert not explicit.fix.safe
    composed = _tool({"type": "object", "properties": {"a": {"type": "string"}},
                      "allOf": [{"properties": {"b": {"type": "string"}}}]})
    (d,) = _codes(composed, "C001")
    assert "unevaluatedProperties" in d.message and not d.fix.safe


def test_c001_skips_objects_the_loader_built_from_a_property_map():
    seal = {"api_name": "getWeather", "api_description": "Weather for a city.",
            "parameters": {"city": {"type": "string", "description": "City"}}, "required": ["city"]}
    assert _codes(seal, "C001") == []


# --------------------------------------------------------------------------- C002 / C003

def test_c002_uses_default_to_suggest_the_item_type():
    schema = {"type": "object", "properties": {"tags": {"type": "array", "default": ["a", "b"]}}}
    (d,) = _codes(_tool(schema), "C002")
    assert d.fix.edits[0].value == {"type": "string"} and not d.fix.safe


def test_c002_quiet_when_items_come_from_prefix_items_or_a_ref():
    schema = {"type": "object", "properties": {"p": {"type": "array", "prefixItems": [{"type": "string"}]},
                                               "r": {"$ref": "#/$defs/x", "type": "array"}},
              "$defs": {"x": {"type": "array", "items": {"type": "string"}}}}
    assert _codes(_tool(schema), "C002") == []


def test_c003_exact_bound_for_unique_enum_items():
    schema = {"type": "object", "properties": {"days": {"type": "array", "uniqueItems": True,
                                                        "items": {"type": "string", "enum": ["mon", "tue", "wed"]}}}}
    (d,) = _codes(_tool(schema), "C003")
    assert "\"maxItems\": 3" in d.message and d.fix.edits[0].value == 3


# --------------------------------------------------------------------------- C004

def test_c004_top_level_default_names_the_function_parameter():
    schema = {"type": "object", "properties": {"unit": {"type": "string", "default": "celsius"}}}
    (d,) = _codes({**_tool(schema), "version": "1.0.0"}, "C004")  # a contract, bound to a function
    assert d.pointer == "/inputSchema/properties/unit/default"
    assert "unit='celsius'" in d.message and "R003" in d.message


def test_c004_nested_default_is_applied_by_the_function_not_a_parameter():
    schema = {"type": "object", "properties": {"headers": {"type": "object", "properties": {
        "Content-Type": {"type": "string", "default": "application/json"}}}}}
    (d,) = _codes({**_tool(schema), "version": "1.0.0"}, "C004")
    assert "Content-Type=" not in d.message and "'headers'" in d.message


def test_c004_default_on_a_required_property_never_applies():
    schema = {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer", "default": 3}}}
    (d,) = _codes(_tool(schema), "C004")
    assert "never applies" in d.message


# --------------------------------------------------------------------------- C005

@pytest.mark.parametrize("name,description,word", [
    ("max_results", "", "results"), ("topK", "", "top_k"), ("page", "", "page"), ("offset", "", "offset"),
    ("n", "조회할 결과 개수", "개수"), ("p", "조회할 페이지 번호", "페이지"),
    ("x", "Number of rooms to book", "Number of"),
])
def test_c005_triggers_and_names_the_word(name, description, word):
    schema = {"type": "object", "properties": {name: {"type": "integer", "description": description}}}
    (d,) = _codes(_tool(schema), "C005")
    assert f"'{word}'" in d.message


@pytest.mark.parametrize("name,description", [
    ("num1", "The first number"),            # an operand, not a count (regression)
    ("cage_size", "Size of the cage in cm"),  # a dimension, not a count (regression)
    ("page_id", "ID of the page"),
    ("limit", ""),                           # bounded below
    ("phone_number", "The number of the phone"),
])
def test_c005_quiet_cases(name, description):
    prop = {"type": "integer", "description": description}
    if name == "limit":
        prop["minimum"] = 1
    schema = {"type": "object", "properties": {name: prop}}
    assert _codes(_tool(schema), "C005") == []


def test_c005_leaves_a_bound_the_description_states_to_t007():
    schema = {"type": "object", "properties": {"limit": {"type": "integer", "description": "결과 수, 최대 50"}}}
    assert _codes(_tool(schema), "C005") == []
    (d,) = _codes(_tool(schema), "T007")
    assert "\"maximum\": 50" in d.message and "최대 50" in d.message


# --------------------------------------------------------------------------- robustness

MALFORMED = [
    {"type": 5, "properties": [], "required": "x"},
    {"type": ["object", 3], "properties": {"a": None, "b": {"type": "array", "items": 7, "maxItems": "x"}}},
    {"type": "object", "properties": {"a": {"type": "integer", "description": 12, "default": {"x": [1]}}},
     "additionalProperties": "no"},
    {"type": "object", "properties": {"a": {"type": [None, "integer"], "enum": "x"}}, "required": [1, None]},
]


@pytest.mark.parametrize("schema", MALFORMED)
def test_malformed_values_never_crash(schema):
    toolclause.lint(_tool(schema), select=["C"])


def deep_schema(levels: int) -> dict:
    root: dict = {"type": "object", "properties": {}}
    node = root
    for _ in range(levels):
        child: dict = {"type": "object", "properties": {}}
        node["properties"]["a"] = child
        node = child
    return root


def test_a_schema_ten_thousand_levels_deep_is_walked_to_the_limit_only():
    tool = ToolContract(name="deep", description="A tool with a very deep schema.", input_schema=deep_schema(10_000))
    found = toolclause.lint([tool], select=["C", "P"], targets=["all"])
    # the walker stops at 64 levels, so C001 sees at most 65 objects
    assert 0 < sum(d.code == "C001" for d in found) <= 65


def test_c005_is_quiet_where_negative_values_are_documented_and_names_only_real_mistakes():
    # desktop-commander's read_file: "'offset' (start line) … Negative: Read last N lines from end"
    tail = {"name": "read_file", "description": "Reads a file.\n- 'offset' (start line, default: 0)\n"
                                                "  * Positive: Start from line N\n  * Negative: Read last N lines",
            "inputSchema": {"type": "object", "properties": {"offset": {"type": "number", "default": 0}}}}
    assert _codes(tail, "C005") == []
    example = _tool({"type": "object", "properties": {
        "skip": {"type": "integer", "description": "skip: -5 → the last 5"}}})
    assert _codes(example, "C005") == []
    # negatives refused are no meaning: still a missing bound, and 0 is not named as the mistake for an offset
    for words in ("Must be a non-negative integer.", "Must not be negative.", "Negative values are rejected."):
        (d,) = _codes(_tool({"type": "object", "properties": {"offset": {"type": "integer", "description": words}}}),
                      "C005")
        assert '"minimum": 0' in d.message and "may send a negative number or a huge one" in d.message
        assert "may send 0" not in d.message
    (d,) = _codes(_tool({"type": "object", "properties": {"limit": {"type": "integer"}}}), "C005")
    assert "may send 0, a negative number" in d.message  # for a limit, 0 is a mistake
