"""Family P (provider and protocol compatibility): behaviour beyond the documentation examples."""

from __future__ import annotations

import pytest

import toolclause
from toolclause.model import Origin, PointerMap, ToolContract
from toolclause.rules.provider.p006_schema_too_large import estimate_tokens


def _tool(schema=None, name="t", **extra):
    tool = {"name": name, "description": "Does one well-described thing for the tests.", **extra}
    if schema is None:
        schema = {"type": "object", "properties": {}, "additionalProperties": False}
    tool["inputSchema"] = schema
    return tool


def _found(obj, code, targets=()):
    return [d for d in toolclause.lint(obj, select=[code], targets=list(targets)) if d.code == code]


CLOSED = {"type": "object", "additionalProperties": False}

# --------------------------------------------------------------------------- P001


def test_p001_each_reason_is_its_own_finding_with_the_exact_change():
    schema = {"type": "object", "properties": {
        "city": {"type": "string"},
        "unit": {"type": "string", "enum": ["c", "f"], "default": "c"},
        "when": {"type": "string", "format": "uri"},
        "opts": {"type": "object"},
        "any": {"description": "anything"},
    }, "required": ["city", "when", "opts", "any"]}
    messages = [d.message for d in _found(_tool(schema), "P001", ["openai-strict"])]
    assert any("'unit' is optional" in m and '["string", "null"]' in m and "add null to its enum" in m
               for m in messages)
    assert any("'default'" in m for m in messages)
    assert any("format 'uri'" in m for m in messages)
    # a free-form map cannot be made strict by closing it (it would accept only {}): it becomes an array of pairs
    assert any("'opts' is a free-form map" in m and '{"key", "value"}' in m for m in messages)
    assert not any("'opts' is an object without" in m for m in messages)
    assert sum("additionalProperties\": false on every object" in m for m in messages) == 1  # the root
    assert any("'any' has no \"type\"" in m for m in messages)


def test_p001_nullable_optional_property_only_needs_required():
    schema = {**CLOSED, "properties": {"a": {"type": ["string", "null"]},
                                       "b": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}
    (message,) = [d.message for d in _found(_tool(schema), "P001", ["openai-strict"])]
    assert "'a' and 'b': add them to required (they already accept null)" in message


def test_p001_optional_properties_are_one_finding_per_tool_naming_them_and_the_export():
    schema = {**CLOSED, "properties": {
        "city": {"type": "string"}, "unit": {"type": "string", "enum": ["c", "f"]},
        "n": {"type": ["integer", "null"]},
        "filter": {**CLOSED, "properties": {"owner": {"type": "string"}}, "required": []},
        "rows": {"type": "array", "items": {**CLOSED, "properties": {"id": {"type": "integer"}}}}},
        "required": ["filter", "rows"]}
    found = _found(_tool(schema), "P001", ["openai-strict"])
    (optional,) = [d for d in found if "optional" in d.message]
    assert optional.pointer == "/inputSchema" and len(found) == 1
    message = optional.message
    assert "5 properties are optional: 'city', 'unit', 'n', 'filter.owner' and 'rows[].id'" in message
    assert "'city' and 'filter.owner': make the type [\"string\", \"null\"]" in message
    assert "'unit': make the type [\"string\", \"null\"] and add null to the enum" in message
    assert "'rows[].id': make the type [\"integer\", \"null\"]" in message
    assert "('n' already accepts null)" in message
    assert "toolclause export --strict" in message
    same = {**CLOSED, "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}
    (one,) = _found(_tool(same), "P001", ["openai-strict"])
    assert "'a' and 'b': add them to required and make the type [\"string\", \"null\"], and treat null" in one.message


@pytest.mark.parametrize("targets", [["openai"], ["openai-strict"], ["all"]])
def test_p001_an_array_without_items_is_an_error_for_openai_strict_or_not(targets):
    schema = {**CLOSED, "properties": {
        "tags": {"type": "array", "description": "Tags", "default": ["a"]},
        "mixed": {"type": ["string", "array"], "description": "One or several"},
        "deep": {**CLOSED, "properties": {"list": {"type": "array", "items": {"type": "array"}}}},
        "typed": {"type": "array", "items": {"type": "string"}}},
        "required": ["tags", "mixed", "deep", "typed"]}
    found = [d for d in _found(_tool(schema), "P001", targets) if "items" in d.message]
    assert sorted(d.pointer for d in found) == ["/inputSchema/properties/deep/properties/list/items",
                                                "/inputSchema/properties/mixed", "/inputSchema/properties/tags"]
    assert all(d.severity.label == "error" and "array schema missing items" in d.message for d in found)
    (tags,) = [d for d in found if d.pointer.endswith("/tags")]
    assert tags.fix is not None and tags.fix.edits and tags.fix.edits[0].value == {"type": "string"}
    assert _found(_tool(schema), "P001", ["anthropic"]) == [] and _found(_tool(schema), "P001") == []


def test_p001_with_only_the_openai_target_reports_nothing_strict():
    schema = {"type": "object", "properties": {"a": {"type": "string", "default": "x"}}}
    assert _found(_tool(schema), "P001", ["openai"]) == []


def test_p001_unknown_type_is_not_suggested_as_nullable_type():
    schema = {**CLOSED, "properties": {"a": {"type": "str"}}}
    (d,) = _found(_tool(schema), "P001", ["openai-strict"])
    assert '["str", "null"]' not in d.message and "'str'" in d.message


def test_p001_root_anyof_and_non_object_root():
    root = {"anyOf": [{"type": "object", "properties": {}, "additionalProperties": False}]}
    messages = [d.message for d in _found(_tool(root), "P001", ["openai-strict"])]
    assert any("cannot be anyOf" in m for m in messages)
    assert any("must be \"type\": \"object\"" in m for m in messages)


def test_p001_size_limits():
    wide = {**CLOSED, "properties": {f"p{i}": {"type": "string"} for i in range(5001)},
            "required": [f"p{i}" for i in range(5001)]}
    assert any("5,000" in d.message for d in _found(_tool(wide), "P001", ["openai-strict"]))
    enum = {**CLOSED, "required": ["e"],
            "properties": {"e": {"type": "string", "enum": [f"v{i}" for i in range(1001)]}}}
    assert any("1,001 enum values" in d.message for d in _found(_tool(enum), "P001", ["openai-strict"]))
    long_enum = {**CLOSED, "required": ["e"],
                 "properties": {"e": {"type": "string", "enum": [f"{i:03d}" + "x" * 60 for i in range(251)]}}}
    assert any("15,000 characters" in d.message for d in _found(_tool(long_enum), "P001", ["openai-strict"]))
    node = deep = {**CLOSED, "properties": {}, "required": ["a"]}
    for _ in range(11):
        child = {**CLOSED, "properties": {}, "required": ["a"]}
        node["properties"]["a"] = child
        node = child
    node["required"] = []
    assert any("nested 11 levels" in d.message for d in _found(_tool(deep), "P001", ["openai-strict"]))


def test_p001_only_runs_for_its_target():
    assert _found(_tool({"type": "object"}), "P001", ["openai"]) == []


# --------------------------------------------------------------------------- P002


def test_p002_strict_subset():
    schema = {**CLOSED, "required": ["n", "s", "l", "e", "r"], "properties": {
        "n": {"type": "integer", "minimum": 1},
        "s": {"type": "string", "pattern": r"^(a)\1\b$", "format": "ipv4"},
        "l": {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 5},
        "e": {"enum": [{"a": 1}, "b"]},
        "r": {"$ref": "#"},
        "x": {"$ref": "https://example.com/s.json"},
    }}
    messages = [d.message for d in _found(_tool(schema), "P002", ["anthropic-strict"])]
    assert any("'minimum'" in m for m in messages)
    assert any("backreference \\1" in m and "word boundary \\b" in m for m in messages)
    assert any("minItems 0 or 1" in m for m in messages) and any("'maxItems'" in m for m in messages)
    assert any("objects or arrays" in m for m in messages)
    assert not any("format 'ipv4'" in m for m in messages)
    # recursion and external references are S005's for this target: reported once, not twice
    assert not any("recursive" in m or "external" in m for m in messages)
    s005 = [d.message for d in toolclause.lint(_tool(schema), select=["S005", "P002"], targets=["anthropic-strict"])
            if d.code == "S005"]
    assert any("recursive" in m for m in s005) and any("network reference" in m for m in s005)


def test_anthropic_strict_recursion_through_definitions_is_one_s005_finding():
    schema = {**CLOSED, "properties": {"node": {"$ref": "#/$defs/A"}}, "required": ["node"],
              "$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}},
                        "B": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}}}}
    found = [d for d in toolclause.lint(_tool(schema), targets=["anthropic-strict"]) if "recursive" in d.message]
    assert [d.code for d in found] == ["S005"]
    assert "#/$defs/A → #/$defs/B → #/$defs/A" in found[0].message
    acyclic = {**CLOSED, "properties": {"x": {"$ref": "#/$defs/A"}, "y": {"$ref": "#/$defs/A"}},
               "$defs": {"A": {"type": "string"}}}
    assert not any("recursive" in d.message for d in toolclause.lint(_tool(acyclic), targets=["anthropic-strict"]))


def test_p002_root_composition_is_reported_for_plain_anthropic_too():
    tool = _tool({"type": "object", "oneOf": [{"required": ["a"]}], "properties": {"a": {"type": "string"}}})
    assert [d.pointer for d in _found(tool, "P002", ["anthropic"])] == ["/inputSchema/oneOf"]
    strict_only = _tool({**CLOSED, "properties": {"n": {"type": "integer", "minimum": 1}}})
    assert _found(strict_only, "P002", ["anthropic"]) == []


def test_p002_request_limits_are_summed_over_the_list():
    tools = [_tool({**CLOSED, "properties": {f"o{i}": {"type": ["string", "null"]} for i in range(2)}}, name=f"t{n}")
             for n in range(21)]
    messages = [d.message for d in _found(tools, "P002", ["anthropic-strict"])]
    assert any("21 strict tools" in m for m in messages)
    assert any("42 optional properties" in m for m in messages)
    assert any("42 properties with a union type" in m for m in messages)
    # a tool that says strict: false is not counted
    relaxed = [{**t, "strict": False} for t in tools]
    assert not any("strict tools" in d.message for d in _found(relaxed, "P002", ["anthropic-strict"]))


# --------------------------------------------------------------------------- P003


def test_p003_json_schema_subset_and_ref_siblings():
    schema = {"type": "object", "properties": {
        "a": {"type": "string", "const": "x", "default": "x"},
        "b": {"$ref": "#/$defs/B", "description": "sibling"},
        "c": {"type": ["string", "null"]},
    }, "$defs": {"B": {"type": "string"}}}
    found = _found(_tool(schema), "P003", ["gemini"])
    assert sorted(d.pointer for d in found) == ["/inputSchema/properties/a/const", "/inputSchema/properties/b"]


def test_p003_gemini_parameters_shape_rejects_unknown_fields():
    declaration = {"functionDeclarations": [{"name": "t", "description": "Does one thing.", "parameters": {
        "type": "object", "$schema": "x", "additionalProperties": False,
        "properties": {"a": {"type": ["string", "null"]}, "n": {"type": "integer", "enum": [1, 2]},
                       "s": {"type": "string", "exclusiveMinimum": 1, "nullable": True}}}}]}
    found = _found(declaration, "P003", ["gemini"])
    messages = " ".join(d.message for d in found)
    for word in ("'$schema'", "'additionalProperties'", "'exclusiveMinimum'", "one type, not a list", "string enum"):
        assert word in messages
    assert not any(d.pointer.endswith("/nullable") for d in found)


def test_p003_too_many_declarations():
    tools = [_tool(name=f"t{i}") for i in range(513)]
    found = _found(tools, "P003", ["gemini"])
    assert len(found) == 1 and "513 function declarations" in found[0].message


# --------------------------------------------------------------------------- P004 / P005 / P006


def test_p004_tool_and_property_descriptions():
    schema = {**CLOSED, "properties": {"a": {"type": "string", "description": "y" * 1025}}}
    found = _found(_tool(schema, description="x" * 1100), "P004")
    assert sorted(d.pointer for d in found) == ["/description", "/inputSchema/properties/a/description"]
    assert "1,100 characters" in found[0].message and "1,024" in found[0].message


def test_p005_budget_and_openai_hard_limit():
    tools = [_tool(name=f"t{i}") for i in range(129)]
    assert len(_found(tools, "P005")) == 1
    messages = [d.message for d in _found(tools, "P005", ["openai"])]
    assert len(messages) == 2 and any("OpenAI rejects more than 128" in m for m in messages)
    assert _found(tools[:10], "P005") == []
    (routed,) = _found(tools[:11], "P005")  # more than ten sent whole: route them (info)
    assert routed.severity.label == "info" and "beyond 10 sent whole" in routed.message
    assert [d.severity.label for d in _found(tools[:40], "P005")] == ["info"]
    assert [d.severity.label for d in _found(tools[:41], "P005")] == ["warning"]  # twice OpenAI's ceiling


def test_p005_a_budget_the_project_sets_is_a_warning_over_it():
    from toolclause.linting.config import LintConfig

    tools = [_tool(name=f"t{i}") for i in range(16)]
    config = LintConfig().with_overrides(budgets={"max-tools": 15})
    found = [d for d in toolclause.lint(tools, config=config, select=["P005"]) if d.code == "P005"]
    assert [d.severity.label for d in found] == ["warning"] and "over the budget of 15" in found[0].message


def test_p006_estimate_and_list_budget():
    tool = ToolContract(name="t", description="x" * 400)
    written = '{"name":"t","description":"' + "x" * 400 + '","inputSchema":{"type":"object","properties":{}}}'
    assert estimate_tokens(tool) == -(-len(written) // 4)
    korean = ToolContract(name="t", description="조회" * 10)
    assert estimate_tokens(korean) > estimate_tokens(ToolContract(name="t", description="ab" * 10))
    big = [_tool(name=f"t{i}", description="word " * 900) for i in range(12)]
    messages = [d.message for d in _found(big, "P006")]
    assert len(messages) == 13 and any("list-tokens" in m for m in messages)


# --------------------------------------------------------------------------- P007


def test_p007_annotations_input_schema_name_and_meta():
    tool = {"name": "has space", "description": "x", "inputSchema": {"type": "dict"},
            "annotations": {"readOnlyHint": "yes"},
            "_meta": {"com.example/ok": 1, "-bad": 2, "openai/toolInvocation/invoking": "…", "a..b/x": 3}}
    found = _found(tool, "P007", ["mcp"])
    pointers = sorted(d.pointer for d in found)
    assert "/annotations/readOnlyHint" in pointers and "/inputSchema/type" in pointers and "/name" in pointers
    assert "/_meta/-bad" in pointers and "/_meta/a..b~1x" in pointers
    assert "/_meta/com.example~1ok" not in pointers and "/_meta/openai~1toolInvocation~1invoking" not in pointers


def test_p007_checks_values_the_loader_could_not_keep():
    found = _found({"name": "t", "description": "x", "inputSchema": {"type": "object"}, "annotations": "read-only",
                    "title": 5}, "P007", ["mcp"])
    assert sorted(d.pointer for d in found) == ["/annotations", "/title"]


def test_p007_valid_tool_is_clean():
    tool = {"name": "files.read_v2", "title": "Read", "description": "x", "inputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": True}, "execution": {"taskSupport": "optional"},
            "icons": [{"src": "https://example.com/i.png"}]}
    assert _found(tool, "P007", ["mcp"]) == []


# --------------------------------------------------------------------------- robustness


MALFORMED = [
    {"type": 5, "properties": [], "required": "x", "enum": 3, "pattern": 7, "format": None},
    {"type": ["object", 3], "properties": {"a": None, "b": {"type": "array", "items": 7, "minItems": "x"}},
     "$ref": 5, "allOf": "x", "anyOf": [1, None]},
    {"type": "object", "properties": {"a": {"$ref": "#/$defs/%%", "description": 12}}, "additionalProperties": "no",
     "$defs": []},
]


@pytest.mark.parametrize("schema", MALFORMED)
def test_malformed_values_never_crash(schema):
    tool = _tool(schema, annotations={"readOnlyHint": None}, _meta={5: 1})
    toolclause.lint(tool, select=["P"], targets=["all"])


def test_deep_schema_never_crashes_any_p_rule():
    root: dict = {"type": "object", "properties": {}}
    node = root
    for _ in range(10_000):
        child: dict = {"type": "object", "properties": {}}
        node["properties"]["a"] = child
        node = child
    tool = ToolContract(name="deep", description="Deep.", input_schema=root,
                        origin=Origin(file="<memory>", format="mcp", pointers=PointerMap({})))
    found = toolclause.lint([tool], select=["P"], targets=["all"])
    assert any(d.code == "P001" and "nested" in d.message for d in found)
    assert any(d.code == "P006" for d in found)
