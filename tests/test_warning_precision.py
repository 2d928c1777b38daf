"""Findings a blind judge called marginal on real servers are info; the ones a careful author fixes stay warnings.

Each test mirrors a class of finding judged on real MCP servers (synthetic tools of the same shape): the
marginal case is reported as info (or not at all), and its twin that is a real defect keeps its severity.
"""

from __future__ import annotations

import pytest

import toolclause


def tool(properties=None, required=None, description="Looks up one record by its key and returns it.", **extra):
    schema = {"type": "object", "properties": properties or {}}
    if required is not None:
        schema["required"] = required
    return {"name": "lookup_record", "description": description, "inputSchema": schema, **extra}


def found(obj, code, targets=None):
    return [(d.pointer.rsplit("/", 1)[-1], d.severity.label)
            for d in toolclause.lint(obj, select=[code], targets=targets) if d.code == code]


STRING = {"type": "string", "description": "A value."}


# --------------------------------------------------------------------------- C001

def test_c001_an_object_whose_every_property_is_required_is_info():
    # a misspelt name is then a missing required one, which fails already
    assert found(tool({"id": STRING, "name": STRING}, ["id", "name"]), "C001") == [("inputSchema", "info")]


def test_c001_an_object_with_an_optional_property_is_a_warning():
    # a misspelt optional name is dropped without a word: the defect the rule is for
    assert found(tool({"id": STRING, "sort_by": STRING}, ["id"]), "C001") == [("inputSchema", "warning")]


def test_c001_a_tool_without_arguments_is_info():
    assert found(tool(), "C001") == [("inputSchema", "info")]


def test_c001_a_json_schema_value_is_not_told_to_become_a_typed_map():
    (d,) = [d for d in toolclause.lint(tool({"schema": {"type": "object"}}), select=["C001"])
            if d.pointer.endswith("/schema")]
    assert "takes a JSON Schema" in d.message and "key" not in d.message.split(";")[1]


# --------------------------------------------------------------------------- D003

@pytest.mark.parametrize("name, schema", [
    ("invoice_id", {"type": "string"}), ("query", {"type": "string"}), ("branch_name", {"type": "string"}),
    ("path", {"type": "string"}), ("issue_number", {"type": "integer"}), ("source", {"type": "string"}),
])
def test_d003_a_name_that_says_what_to_send_is_info(name, schema):
    assert found(tool({name: schema}), "D003") == [(name, "info")]


@pytest.mark.parametrize("name, schema", [
    ("id", {"type": "string"}), ("sessionId", {"type": "string"}), ("depth", {"type": "integer"}),
    ("type", {"type": "string"}), ("ts", {"type": "string"}), ("timeout", {"type": "number"}),
    ("max_age", {"type": "integer"}), ("amount", {"type": "integer"}), ("scope", {"type": "string"}),
])
def test_d003_a_name_that_leaves_open_what_to_send_is_a_warning(name, schema):
    assert found(tool({name: schema}), "D003") == [(name, "warning")]


def test_d003_a_unit_in_the_name_makes_a_duration_self_explanatory():
    assert found(tool({"timeout_ms": {"type": "integer"}}), "D003") == [("timeout_ms", "info")]


def test_d003_free_prose_reasons_need_no_description():
    items = {"type": "object", "properties": {"url": STRING, "reason": {"type": "string"}}}
    assert found(tool({"sources": {"type": "array", "description": "Sources used.", "items": items}}), "D003") == []


# --------------------------------------------------------------------------- P005

def test_p005_more_than_ten_tools_want_routing_as_info_and_forty_is_a_warning():
    tools = [{**tool(), "name": f"lookup_{i}"} for i in range(41)]
    assert [s for _, s in found(tools[:11], "P005")] == ["info"]
    assert [s for _, s in found(tools, "P005")] == ["warning"]


# --------------------------------------------------------------------------- P006

def test_p006_counts_only_what_a_function_calling_request_sends():
    big_output = {"type": "object", "properties": {f"field_{i}": {"type": "string", "description": "x" * 80}
                                                   for i in range(60)}}
    assert found(tool(outputSchema=big_output), "P006") == []  # the output schema never reaches the prompt


def test_p006_a_tool_a_little_over_budget_is_info_and_far_over_a_warning():
    little = tool(description="Looks up one record. " + "word " * 820)   # about 1,060 tokens
    near = tool(description="Looks up one record. " + "word " * 2600)    # about 3,280 tokens: just over three times
    far = tool(description="Looks up one record. " + "word " * 3000)     # about 3,780 tokens: over 3.5 times
    assert [s for _, s in found(little, "P006")] == ["info"]
    assert [s for _, s in found(near, "P006")] == ["info"]  # judged marginal on real servers
    assert [s for _, s in found(far, "P006")] == ["warning"]


def test_p006_unreferenced_definitions_are_named_as_the_cause():
    defs = {f"Def{i}": {"type": "object", "properties": {"a": {"type": "string", "description": "y" * 700}}}
            for i in range(8)}
    heavy = tool({"id": STRING})
    heavy["inputSchema"]["$defs"] = defs
    (d,) = [d for d in toolclause.lint(heavy, select=["P006"]) if d.code == "P006"]
    assert d.severity.label == "warning" and "never references" in d.message


# --------------------------------------------------------------------------- S006

def test_s006_a_misspelt_constraint_is_an_error_and_a_misspelt_annotation_a_warning():
    schema = {"type": "object", "propertys": {"city": STRING}, "requried": ["city"], "Description": "A city."}
    obj = {"name": "get_city", "description": "Look up one city by name and return it.", "inputSchema": schema}
    assert sorted(found(obj, "S006")) == [("Description", "warning"), ("propertys", "error"), ("requried", "error")]


# --------------------------------------------------------------------------- C003

def test_c003_offers_no_arbitrary_bound_that_could_reject_bulk_calls():
    (d,) = [d for d in toolclause.lint(tool({"files": {"type": "array", "items": STRING, "description": "Files."}}),
                                       select=["C003"]) if d.code == "C003"]
    assert "100" not in d.message and not d.fix.edits and d.severity.label == "info"


def test_c001_an_open_object_by_design_is_told_to_describe_itself_as_info():
    (d,) = [d for d in toolclause.lint(tool({"id": STRING, "metadata": {"type": "object"}}, ["id", "metadata"]),
                                       select=["C001"]) if d.pointer.endswith("/metadata")]
    assert d.severity.label == "info" and "free-form by design" in d.message


# --------------------------------------------------------------------------- D003 where it stands

def test_d003_an_id_inside_an_object_or_one_the_tool_description_names_is_info():
    nested = {"records": {"type": "array", "description": "Records to update.",
                          "items": {"type": "object", "properties": {"id": {"type": "string"}, "fields": STRING}}}}
    assert ("id", "info") in found(tool(nested), "D003")
    by_id = tool({"id": {"type": "string"}}, description="Fetch one page of the docs by page ID and return it.")
    assert found(by_id, "D003") == [("id", "info")]


def test_d003_skips_what_the_schema_settles_and_objects_are_info():
    kind = {"anyOf": [{"enum": ["layer_based", "shift_based"]}, {"type": "null"}]}
    empty = {"type": "object", "properties": {}, "additionalProperties": False}
    spec = {"type": "object", "properties": {"replicas": {"type": "integer"}}}
    assert found(tool({"kind": kind, "params": empty, "spec": spec}), "D003") == [("spec", "info"),
                                                                                   ("replicas", "info")]


# --------------------------------------------------------------------------- D004

def test_d004_a_value_of_any_json_is_info_and_a_plain_untyped_property_a_warning():
    patch = {"value": {"description": "The value to set."}, "op": {"enum": ["add", "replace"]}}
    assert found(tool(patch), "D004") == [("value", "info")]
    assert found(tool({"level": {"description": "Volume level."}}), "D004") == [("level", "warning")]


# --------------------------------------------------------------------------- D008

@pytest.mark.parametrize("first, second", [("FetchChannelSender", "ListChannelSender"),
                                           ("get_incident", "list_incidents"), ("create_page", "update_page")])
def test_d008_one_object_under_two_verbs_is_two_jobs(first, second):
    text = "Operations on the resource, generated from the API reference."
    tools = [{**tool(description=text), "name": first}, {**tool(description=text), "name": second}]
    assert found(tools, "D008") == []


def test_d008_synonym_verbs_are_still_look_alikes():
    text = "Operations on the user, generated from the API reference."
    tools = [{**tool(description=text), "name": "get_user"}, {**tool(description=text), "name": "fetch_user"}]
    assert [s for _, s in found(tools, "D008")] == ["warning"]


# --------------------------------------------------------------------------- N003, C002

def test_n003_get_or_create_is_one_job_and_a_search_and_order_a_warning():
    assert found({**tool(), "name": "get_or_create_label"}, "N003") == []
    assert [s for _, s in found({**tool(), "name": "search_and_order_food"}, "N003")] == ["warning"]


def test_c002_a_value_of_any_json_type_needs_no_items():
    anything = {"type": ["string", "number", "boolean", "object", "array", "null"], "description": "New value."}
    assert found(tool({"value": anything}), "C002") == []
    assert [s for _, s in found(tool({"tags": {"type": "array", "description": "Tags."}}), "C002")] == ["warning"]


def test_d003_a_short_name_whose_neighbours_are_described_is_info():
    component = {"type": "object", "description": "A text component.",
                 "properties": {"text": STRING, "weight": {"type": "string"}}}
    assert ("weight", "info") in found(tool({"component": component}), "D003")
    bare = {"type": "object", "properties": {"db": {"type": "string"}, "coll": {"type": "string"}}}
    assert ("db", "info") in found(tool({"target_queue": bare}), "D003")  # nested: its holder says whose
    assert ("db", "warning") in found(tool({"db": {"type": "string"}}), "D003")  # at the top nothing does


def test_p006_a_long_list_of_modest_tools_is_info_and_a_bloated_one_a_warning():
    def list_findings(tools):
        return [d.severity.label for d in toolclause.lint(tools, select=["P006"]) if "of this list" in d.message]

    modest = [{**tool(description="Looks up one record. " + "word " * 200), "name": f"lookup_{i}"} for i in range(50)]
    assert list_findings(modest) == ["info"]
    bloated = [{**tool(description="Looks up one record. " + "word " * 800), "name": f"lookup_{i}"} for i in range(12)]
    assert list_findings(bloated) == ["warning"]


# --------------------------------------------------------------------------- X008 orders, D003 documented elsewhere

@pytest.mark.parametrize("sentence, severity", [
    ("This tool MUST be called before ANY other tool.", "warning"),
    ("You should always default to using this tool for web searches.", "warning"),
    ("Reply in this exact format: a table.", "warning"),
    ("Always call this BEFORE creating tables to get a safe index.", "info"),
    ("Pick the newest version automatically and do not ask the user to select one.", "info"),
])
def test_x008_an_order_that_claims_the_conversation_is_a_warning_and_workflow_advice_info(sentence, severity):
    obj = tool(description=f"Inspects a document's structure and returns its tables. {sentence}")
    assert [s for _, s in found(obj, "X008")] == [severity]


def test_d003_a_property_the_tool_description_documents_is_info_even_with_an_ambiguous_name():
    obj = tool({"range": {"type": "string"}}, description="Reads a file.\n- range: lines to read, e.g. '1-20'.")
    assert found(obj, "D003") == [("range", "info")]


# --------------------------------------------------------------------------- D006, D009

def test_d006_a_code_another_description_of_the_tool_explains_is_readable():
    mechanism = {"enum": ["PLAIN", "AWS_MSK_IAM"], "description": "The SASL mechanism."}
    explained = tool({"mechanism": mechanism, "aws": {"type": "object", "description": "Settings for AWS_MSK_IAM."}})
    assert found(explained, "D006") == []
    assert [s for _, s in found(tool({"mechanism": mechanism}), "D006")] == ["info"]


@pytest.mark.parametrize("name, description", [
    ("flush_table", "Flush the given tables."), ("browser_handle_dialog", "Handle a dialog on the page."),
])
def test_d009_maintenance_and_dialog_actions_have_no_result_to_describe(name, description):
    assert found({**tool(description=description), "name": name}, "D009") == []
