"""OpenAI strict mode's size limits: one counter for P001 and the strict export, whatever the visiting order."""

from __future__ import annotations

import random

import toolclause
from toolclause.linting.config import LintConfig
from toolclause.model import ToolContract
from toolclause.rules.base import LintContext
from toolclause.rules.provider.p001_openai_strict_incompatible import OpenAIStrictIncompatible
from toolclause.schema.strict_size import enum_size, openai_strict_size
from toolclause.schema.walk import walk

CLOSED = {"type": "object", "additionalProperties": False}


def _nested(levels: int, name: str = "a") -> dict:
    root = node = {**CLOSED, "properties": {}, "required": [name]}
    for _ in range(levels):
        child = {**CLOSED, "properties": {}, "required": [name]}
        node["properties"][name] = child
        node = child
    node["required"] = []
    return root


def test_counts_names_values_and_depth_as_strict_mode_does():
    schema = {**CLOSED, "properties": {"a/b": {"type": "string", "enum": ["xy", 12, None, {"no": 1}]},
                                       "c": {"type": "array", "items": {"const": "abc"}},
                                       "d": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                                       "e": {"allOf": [{"properties": {"hidden": {}}}]}},
              "$defs": {"def": {"type": "integer"}}}
    size = openai_strict_size(schema, "/inputSchema")
    # names: a/b c d e def = 3+1+1+1+3; values: "xy" 12 null = 2+2+4, "abc" = 3 (objects are not counted)
    assert (size.properties, size.chars) == (4, 9 + 8 + 3)
    assert size.depth == 2 and size.deepest == "/inputSchema/properties/c/items"  # an anyOf branch is no level
    assert not (size.too_many_properties or size.too_many_chars or size.too_deep)


def test_pointers_are_escaped_and_the_deepest_is_named():
    enum = {"type": "string", "enum": [f"v{i}" for i in range(1001)]}
    size = openai_strict_size({**CLOSED, "properties": {"a/b~c": enum}}, "/inputSchema")
    assert [pointer for pointer, _ in size.large_enums] == ["/inputSchema/properties/a~1b~0c/enum"]
    deep = openai_strict_size(_nested(11, "x/y"), "")
    assert deep.too_deep and deep.depth == 11 and deep.deepest_property == "x/y"
    assert deep.deepest == "/properties/x~1y" * 11


def test_enum_limits():
    assert enum_size(["a"] * 1000) is None
    assert enum_size(["a"] * 1001).too_many
    long_strings = [f"{i:03d}" + "x" * 60 for i in range(251)]
    assert enum_size(long_strings).too_long and enum_size(long_strings[:250]) is None
    assert enum_size(list(range(251))) is None  # only string enums have the character limit


def test_rule_and_export_report_the_same_limits():
    wide = {**CLOSED, "properties": {f"p{i}": {"type": "string"} for i in range(5001)},
            "required": [f"p{i}" for i in range(5001)]}
    for schema, words in ((wide, "5,001 properties"), (_nested(11), "nested 11 levels")):
        tool = {"name": "t", "description": "Does one well-described thing for the tests.", "inputSchema": schema}
        found = [d.message for d in toolclause.lint(tool, select=["P001"], targets=["openai-strict"])]
        assert any(words in m for m in found)
        losses = toolclause.export([tool], "openai-chat", strict=True).losses
        assert {loss.keyword for loss in losses} & {"properties", "nesting"}


def test_p001_findings_do_not_depend_on_the_order_nodes_are_visited_in():
    schema = {**CLOSED, "properties": {f"p{i}": {"type": "string", "enum": [f"{i}-{j}" * 40 for j in range(300)]}
                                       for i in range(20)}, "required": [f"p{i}" for i in range(20)]}
    schema["properties"]["deep"] = _nested(11)
    schema["required"].append("deep")
    tool = ToolContract(name="t", description="Does one well-described thing for the tests.", input_schema=schema)
    rule = OpenAIStrictIncompatible()
    nodes, _ = walk(schema, "/inputSchema")

    def findings(order):
        ctx = LintContext(targets=LintConfig(targets=frozenset({"openai-strict"})).targets)
        return sorted((f.pointer, f.message) for node in order for f in rule.check_node(node, tool, ctx))

    expected = findings(nodes)
    assert any("characters" in m and "in total" in m for _, m in expected)  # 20 × 300 × ~200 characters
    for seed in range(3):
        shuffled = list(nodes)
        random.Random(seed).shuffle(shuffled)
        assert findings(shuffled) == expected
        assert findings(list(reversed(nodes))) == expected
