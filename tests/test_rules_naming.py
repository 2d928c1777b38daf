"""Family N: tool and property names.  Positive and negative cases, Korean too, and bad input."""

from __future__ import annotations

import pytest

import toolclause

DESC = "Looks up one thing by its id and returns it with all of its fields."
KO_DESC = "주문 번호로 배송 상태와 예상 도착일을 조회하여 반환합니다."


def tool(name, description=DESC, properties=None, **extra):
    out = {"name": name, "description": description,
           "inputSchema": {"type": "object", "properties": properties or {}}}
    out.update(extra)
    return out


def lint(obj, code, targets=None):
    return [d for d in toolclause.lint(obj, select=[code], targets=targets) if d.code == code]


# --------------------------------------------------------------------------- N001

def test_n001_dot_in_name_names_the_character_and_suggests():
    [d] = lint(tool("math.factorial"), "N001")
    assert "'.'" in d.message and "math_factorial" in d.message
    assert d.fix is not None and not d.fix.safe


def test_n001_valid_names_pass():
    assert lint(tool("get_weather"), "N001") == []
    assert lint(tool("get-weather-2"), "N001") == []


def test_n001_target_rules_name_the_target():
    # Gemini and MCP accept dots; OpenAI does not.
    assert lint(tool("math.factorial"), "N001", targets=["gemini", "mcp"]) == []
    [d] = lint(tool("math.factorial"), "N001", targets=["openai", "gemini"])
    assert "openai" in d.message and "gemini" not in d.message
    [d] = lint(tool("1st_tool"), "N001", targets=["gemini"])
    assert "gemini" in d.message and "starts with '1'" in d.message


def test_n001_length_and_spaces():
    [d] = lint(tool("a" * 70), "N001")
    assert "70 characters" in d.message
    [d] = lint(tool("Search Files"), "N001")
    assert "a space" in d.message and "Search_Files" in d.message


def test_n001_non_ascii_name_gets_no_useless_suggestion():
    [d] = lint(tool("주문조회"), "N001")
    assert "'주'" in d.message and "rename it, e.g." not in d.message


def test_n001_accents_are_dropped_in_the_suggestion():
    [d] = lint(tool("año_total"), "N001")
    assert "ano_total" in d.message


@pytest.mark.parametrize("name", [None, "", "   "])
def test_n001_missing_name(name):
    [d] = lint(tool(name), "N001")
    assert "no name" in d.message


# --------------------------------------------------------------------------- N002

@pytest.mark.parametrize("name", ["run", "process", "execute", "submit", "handle_request", "do_action",
                                  "get_items", "process_data", "getData"])
def test_n002_generic_names(name):
    [d] = lint(tool(name), "N002")
    assert "generic" in d.message


@pytest.mark.parametrize("name", ["resize_image", "search_orders", "get_job", "submitJob", "makeCall",
                                  "getActionValue", "get_weather", "math.factorial"])
def test_n002_specific_names_pass(name):
    # job, call and "action value" are real objects in their domains
    assert lint(tool(name), "N002") == []


def test_n002_korean_description_does_not_rescue_a_generic_name():
    [d] = lint(tool("process_data", KO_DESC), "N002")
    assert "'process' + 'data'" in d.message
    assert lint(tool("get_delivery_status", KO_DESC), "N002") == []


# --------------------------------------------------------------------------- N003

@pytest.mark.parametrize("name, read, write", [
    ("search_and_order_food", "search", "order"),
    ("find_then_cancel_booking", "find", "cancel"),
    ("fetchThenDelete", "fetch", "delete"),
    ("BookingSystem_filterAndBookEquipment", "filter", "book"),
])
def test_n003_read_joined_with_write(name, read, write):
    [d] = lint(tool(name, KO_DESC), "N003")
    assert f"'{read}'" in d.message and f"'{write}'" in d.message


@pytest.mark.parametrize("name", [
    "get_user_and_order_details",  # 'order' is a noun here
    "create_or_update_file",       # two writes
    "search_or_list",              # two reads
    "getMenuAndReviews", "encryptAndStore", "list_orders", "read_write_file",
    "get_or_create_user",          # one job: make sure it exists, in one call a retry cannot race
])
def test_n003_negatives(name):
    assert lint(tool(name, KO_DESC), "N003") == []


# --------------------------------------------------------------------------- N004

def test_n004_mixed_tool_names_name_the_dominant_style():
    tools = [tool("get_user"), tool("list_orders"), tool("createInvoice")]
    [d] = lint(tools, "N004")
    assert d.tool == "createInvoice"
    assert "snake_case dominates" in d.message and "'createInvoice'" in d.message


def test_n004_tie_does_not_claim_dominance():
    [d] = lint([tool("get_user"), tool("createInvoice")], "N004")
    assert "none dominating" in d.message


def test_n004_consistent_or_neutral_names_pass():
    assert lint([tool("get_user"), tool("list_orders"), tool("search")], "N004") == []
    assert lint([tool("copilot_searchCodebase"), tool("copilot_readFile")], "N004") == []


def test_n004_property_names_in_one_tool():
    props = {"user_id": {"type": "string"}, "order_id": {"type": "string"}, "itemCount": {"type": "integer"}}
    [d] = lint(tool("get_order", KO_DESC, props), "N004")
    assert d.pointer.endswith("/itemCount") and "'itemCount'" in d.message


# --------------------------------------------------------------------------- N005

def test_n005_chinese_and_korean_property_names():
    props = {"城市": {"type": "string"}, "도시": {"type": "string"}, "city": {"type": "string"}}
    found = lint(tool("get_weather", KO_DESC, props), "N005")
    assert {d.pointer.rsplit("/", 1)[-1] for d in found} == {"도시", "城市"}


def test_n005_default_checks_top_level_only_and_gemini_every_level():
    props = {"address": {"type": "object", "properties": {"zip code": {"type": "string"}}},
             "sort.order": {"type": "string"}}
    assert lint(tool("t_x", properties=props), "N005") == []
    found = lint(tool("t_x", properties=props), "N005", targets=["gemini"])
    assert {d.pointer.rsplit("/", 1)[-1] for d in found} == {"zip code", "sort.order"}
    assert all("gemini" in d.message for d in found)
    assert lint(tool("t_x", properties=props), "N005", targets=["openai"]) == []


def test_n005_suggests_a_name():
    [d] = lint(tool("t_x", properties={"code:": {"type": "string"}}), "N005")
    assert "e.g. 'code'" in d.message


# --------------------------------------------------------------------------- bad input never crashes

@pytest.mark.parametrize("bad", [
    {"name": None, "description": 5, "inputSchema": {"type": "object", "properties": ["a", "b"]}},
    {"name": 5, "inputSchema": {"type": 5, "properties": {"x": 5, "y": {"type": ["string", 3]}}}},
    {"name": "x", "inputSchema": "not a schema"},
    {"name": "x", "description": ["a"], "inputSchema": {"properties": {"": {}, "a b": {"properties": 3}}}},
])
def test_bad_input_never_crashes(bad):
    for code in ("N001", "N002", "N003", "N004", "N005"):
        lint([bad, bad], code, targets=["gemini", "anthropic"])
        lint(bad, code)
