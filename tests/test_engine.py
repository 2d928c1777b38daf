"""The engine: one walk per schema, dispatch by subscription, targets, lists, pointers."""

from __future__ import annotations

import json
from typing import ClassVar

from toolclause.linting import engine
from toolclause.linting.config import LintConfig
from toolclause.loading import contracts_from_document
from toolclause.model import Edit, Fix, Severity
from toolclause.rules import RuleEntry
from toolclause.rules.base import Finding, Rule
from toolclause.schema.walk import NodeKind, walk


def test_walk_visits_every_subschema_once_with_context():
    schema = {"type": "object", "required": ["a"],
              "properties": {"a": {"type": "array", "items": {"type": "object", "properties": {"b": {}}}},
                             "c": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
              "$defs": {"D": {"type": "integer"}}, "enum": [{"properties": {"not": "a schema"}}]}
    nodes, too_deep = walk(schema, "/inputSchema")
    by_pointer = {n.pointer: n for n in nodes}
    assert sorted(by_pointer) == sorted([
        "/inputSchema", "/inputSchema/properties/a", "/inputSchema/properties/a/items",
        "/inputSchema/properties/a/items/properties/b", "/inputSchema/properties/c",
        "/inputSchema/properties/c/anyOf/0", "/inputSchema/properties/c/anyOf/1", "/inputSchema/$defs/D"])
    assert by_pointer["/inputSchema/properties/a"].required is True
    assert by_pointer["/inputSchema/properties/c"].required is False
    assert by_pointer["/inputSchema/properties/a/items"].kind is NodeKind.ITEMS
    assert by_pointer["/inputSchema/properties/a/items/properties/b"].depth == 3
    assert not too_deep


def test_walk_escapes_pointer_tokens():
    nodes, _ = walk({"properties": {"a/b~c": {}}}, "")
    assert nodes[-1].pointer == "/properties/a~1b~0c"


class _CountingRule(Rule):
    code, name, severity = "S999", "counting", Severity.INFO
    keywords: ClassVar = frozenset({"enum"})
    seen: ClassVar[list] = []

    def check_node(self, node, tool, ctx):
        _CountingRule.seen.append(node.pointer)
        yield Finding(node.pointer, "has an enum")


class _TargetRule(Rule):
    code, name, severity = "P999", "target-only", Severity.ERROR
    targets: ClassVar = frozenset({"gemini"})

    def check_tool(self, tool, ctx):
        yield Finding("/name", "gemini says no")


def _run(monkeypatch, rules, doc, **config):
    monkeypatch.setattr(engine, "INDEX", tuple(RuleEntry.of(rule) for rule in rules))
    tools, _ = contracts_from_document(doc, "f.json")
    return engine.lint_contracts(tools, LintConfig(**config))


def test_keyword_subscription_sees_only_matching_nodes(monkeypatch):
    _CountingRule.seen = []
    doc = {"type": "function", "function": {"name": "t", "parameters": {"type": "object", "properties": {
        "a": {"type": "string", "enum": ["x"]}, "b": {"type": "string"}}}}}
    diags = _run(monkeypatch, (_CountingRule,), doc)
    assert _CountingRule.seen == ["/inputSchema/properties/a"]
    assert [(d.pointer, d.tool, d.file) for d in diags] == [("/function/parameters/properties/a", "t", "f.json")]


class _ShapeSkippingRule(Rule):
    code, name, severity = "S998", "shape-skipping", Severity.INFO
    all_nodes: ClassVar = True
    seen: ClassVar[list] = []
    asked: ClassVar[list] = []

    def skips(self, keys, declared, kind, role):
        _ShapeSkippingRule.asked.append((keys, declared))
        return declared == "string"

    def check_node(self, node, tool, ctx):
        _ShapeSkippingRule.seen.append(node.pointer)
        return ()


def test_rule_skips_is_asked_once_per_shape_and_spares_skipped_nodes(monkeypatch):
    _ShapeSkippingRule.seen, _ShapeSkippingRule.asked = [], []
    doc = {"name": "t", "inputSchema": {"type": "object", "properties": {
        "a": {"type": "string"}, "b": {"type": "string"}, "c": {"type": ["string", "null"]}}}}
    _run(monkeypatch, (_ShapeSkippingRule,), doc)
    assert _ShapeSkippingRule.seen == ["/inputSchema", "/inputSchema/properties/c"]
    # "a" and "b" share one shape: the rule was asked once for both
    assert _ShapeSkippingRule.asked.count((("type",), "string")) == 1
    assert (("type",), ("string", "null")) in _ShapeSkippingRule.asked


def test_target_rules_run_only_for_their_targets(monkeypatch):
    doc = {"name": "t", "inputSchema": {}}
    assert _run(monkeypatch, (_TargetRule,), doc) == []
    assert [d.code for d in _run(monkeypatch, (_TargetRule,), doc, targets=frozenset({"gemini"}))] == ["P999"]


def test_pointer_to_a_synthesised_node_lands_on_its_nearest_real_ancestor():
    tools, _ = contracts_from_document({"id": "t", "desc": "d", "parameters": [{"name": "x", "type": "string"}]}, "f")
    # "/inputSchema/type" was made by the loader; it maps to the parameter list itself
    assert engine.locate_original(tools[0], "/inputSchema/type") == "/parameters"


class _CloseObject(Rule):
    code, name, severity = "C999", "close-root", Severity.WARNING

    def check_tool(self, tool, ctx):
        yield Finding("/inputSchema", "close it", Fix("set additionalProperties", True,
                                                      (Edit("set", "/inputSchema/additionalProperties", False),)))


def test_fix_into_a_synthesised_node_is_kept_as_advice_but_not_offered_to_fix(monkeypatch):
    records = {"id": "t", "desc": "d", "parameters": [{"name": "x", "type": "string"}]}
    (diag,) = _run(monkeypatch, (_CloseObject,), records)
    assert diag.fix.description == "set additionalProperties" and not diag.fix.safe and not diag.fix.edits
    native = {"name": "t", "inputSchema": {"type": "object", "properties": {}}}
    (diag,) = _run(monkeypatch, (_CloseObject,), native)
    assert diag.fix.safe and diag.fix.edits == (Edit("set", "/inputSchema/additionalProperties", False),)


def test_a_reused_plan_follows_every_configuration_change(monkeypatch):
    # plans are cached per configuration: each change below must still be seen
    doc = {"name": "t", "inputSchema": {"type": "object", "properties": {"a": {"type": "string", "enum": ["x"]}}}}
    _CountingRule.seen = []
    assert [d.severity for d in _run(monkeypatch, (_CountingRule,), doc)] == [Severity.INFO]
    assert [d.severity for d in _run(monkeypatch, (_CountingRule,), doc, severity={"S999": Severity.ERROR})] == [
        Severity.ERROR]
    assert _run(monkeypatch, (_CountingRule,), doc, ignore=("S999",)) == []
    assert [d.code for d in _run(monkeypatch, (_CountingRule, _TargetRule), doc,
                                 targets=frozenset({"gemini"}))] == ["P999", "S999"]
    assert [d.code for d in _run(monkeypatch, (_TargetRule,), doc, targets=frozenset({"gemini"}))] == ["P999"]


def test_threads_linting_at_once_get_the_findings_of_a_single_thread():
    # cached rule instances are shared by every run; what a run keeps (P006's estimates, the
    # safety rules' joined texts, S005's reference indexes) lives in its own context, so another
    # thread's tools can neither move nor remove a finding
    import sys
    from concurrent.futures import ThreadPoolExecutor

    def big_tool(i):
        enum = [f"{i}-{j}-" + "v" * 40 for j in range(1000)]  # ~45,000 characters a property
        properties = {f"p{k}": {"type": "string", "enum": enum} for k in range(4)}
        return {"name": f"tool_{i}", "description": "Looks something up.",
                "inputSchema": {"type": "object", "properties": properties, "required": list(properties),
                                "additionalProperties": False}}

    tools, _ = contracts_from_document([big_tool(i) for i in range(6)], "f.json")
    config = LintConfig(select=("P001", "P006", "X007", "X008", "S005"), targets=frozenset({"openai-strict"}))
    alone = engine.lint_contracts(tools, config)
    assert [d.pointer for d in alone if "120,000" in d.message] == [f"/{i}/inputSchema" for i in range(6)]
    assert {d.code for d in alone} >= {"P001", "P006"}
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter allows
    try:
        with ThreadPoolExecutor(max_workers=4) as pool:
            together = list(pool.map(lambda _: engine.lint_contracts(tools, config), range(8)))
    finally:
        sys.setswitchinterval(interval)
    assert all(found == alone for found in together)


def test_a_cached_plan_keeps_no_linted_tool_alive():
    # rule instances outlive the run; per-run state (P006's estimates, the joined texts,
    # S005's reference index) lives in the run's context, so no tool is held after lint returns
    import sys

    doc = {"name": "t", "description": "Looks up the weather for a city.",
           "inputSchema": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"},
                                                            "n": {"type": "integer", "minimum": 1}},
                           "$defs": {"A": {"type": "object", "properties": {"next": {"$ref": "#/$defs/A"}}}}}}
    tools, _ = contracts_from_document(doc, "f.json")
    before = sys.getrefcount(tools[0])
    found = engine.lint_contracts(tools, LintConfig(targets=frozenset({"openai-strict", "anthropic-strict"})))
    assert {"P001", "P002", "P006"} <= {rule.code for rule in engine._plan_for(
        LintConfig(targets=frozenset({"openai-strict", "anthropic-strict"}))).rules}
    assert {"P001", "P002", "S005"} <= {d.code for d in found}
    assert all(d.contract is tools[0] for d in found)  # findings name their tool (baselines read it)…
    del found  # …and hold it only as long as they live
    after = sys.getrefcount(tools[0])  # outside the assert: pytest's rewriting would hold one more
    assert after == before


class _SplitListRule(Rule):
    """A list rule in two parts: the survey counts names, each member is judged alone."""

    code, name, severity = "S997", "split-list", Severity.WARNING

    def survey_tools(self, tools, ctx):
        if any(t.name == "boom" for t in tools):
            raise ValueError("cannot survey")
        return [t.name for t in tools]

    def check_member(self, tool, names, ctx):
        if tool.name == "explode":
            raise KeyError("one member")
        if names.count(tool.name) > 1:
            yield Finding("/name", f"{tool.name} is listed {names.count(tool.name)} times")


def test_a_split_list_rule_is_judged_in_each_tools_turn_and_its_whole_list_form_agrees(monkeypatch):
    doc = [{"name": n, "inputSchema": {"type": "object"}} for n in ("a", "b", "a", "explode")]
    diags = _run(monkeypatch, (_SplitListRule,), doc)
    assert [(d.pointer, d.message[:40]) for d in diags] == [
        ("/0/name", "a is listed 2 times"), ("/2/name", "a is listed 2 times"),
        ("/3", "rule S997 could not check this tool (Key")]  # the failing member alone, on its own tool
    tools, _ = contracts_from_document(doc[:3], "f.json")
    composed = list(_SplitListRule().check_tools(tools, engine.context_for(LintConfig())))
    assert [(t.name, f.message) for t, f in composed] == [("a", "a is listed 2 times")] * 2


def test_a_survey_that_fails_is_reported_on_its_lists_first_tool_and_the_rest_still_runs(monkeypatch):
    doc = [{"name": n, "inputSchema": {"type": "object"}} for n in ("first", "boom")]
    diags = _run(monkeypatch, (_SplitListRule, _TargetRule), doc, targets=frozenset({"gemini"}))
    assert [(d.code, d.tool) for d in diags if d.code == "S997"] == [("S997", "first")]
    assert "could not check" in next(d.message for d in diags if d.code == "S997")
    assert [d.tool for d in diags if d.code == "P999"] == ["first", "boom"]


class _SummaryListRule(Rule):
    """A list rule in two parts the other way: each tool's length summarised, the list judged from them."""

    code, name, severity = "S996", "summary-list", Severity.WARNING

    def summarise_member(self, tool, ctx):
        if tool.name == "explode":
            raise KeyError("one member")
        return len(tool.name)

    def check_summaries(self, tools, lengths, ctx):
        if sum(lengths) > 3:
            yield tools[lengths.index(max(lengths))], Finding("/name", f"names total {sum(lengths)} characters")


def test_a_summarised_list_rule_judges_the_list_from_every_tools_summary_and_its_whole_list_form_agrees(monkeypatch):
    doc = [{"name": n, "inputSchema": {"type": "object"}} for n in ("a", "bbb", "cc")]
    diags = _run(monkeypatch, (_SummaryListRule,), doc)
    assert [(d.pointer, d.message) for d in diags] == [("/1/name", "names total 6 characters")]
    tools, _ = contracts_from_document(doc, "f.json")
    composed = list(_SummaryListRule().check_tools(tools, engine.context_for(LintConfig())))
    assert [(t.name, f.message) for t, f in composed] == [("bbb", "names total 6 characters")]
    # a summary that fails is reported on its tool, and that list is not judged on a part of it
    failing = _run(monkeypatch, (_SummaryListRule,), doc + [{"name": "explode", "inputSchema": {"type": "object"}}])
    assert [(d.pointer, d.message[:30]) for d in failing] == [("/3", "rule S996 could not check this")]


def test_a_tool_that_ignores_a_summarised_rule_still_counts_in_its_list(monkeypatch):
    doc = [{"name": "aa", "inputSchema": {"type": "object"}},
           {"name": "bb", "inputSchema": {"type": "object"}, "x-toolclause-ignore": ["S996"]}]
    diags = _run(monkeypatch, (_SummaryListRule,), doc)
    assert [(d.tool, d.message) for d in diags] == [("aa", "names total 4 characters")]
    doc.reverse()  # now the finding falls on the tool that ignores the rule: reported nowhere
    assert _run(monkeypatch, (_SummaryListRule,), doc) == []


def test_a_summarised_list_rule_is_judged_the_same_in_worker_processes(monkeypatch):
    from toolclause.linting.parallel import lint_in_processes

    monkeypatch.setattr(engine, "INDEX", (RuleEntry.of(_SummaryListRule),))
    monkeypatch.setattr(engine, "MIN_TOOLS_PER_PROCESS", 2)
    names = ["a", "bbb", "cc", "dddd", "e", "ff"]
    for doc in ([{"name": n, "inputSchema": {"type": "object"}} for n in names],
                # a summary that fails in a worker is known as failed in the parent: the list is not judged
                [{"name": n, "inputSchema": {"type": "object"}} for n in [*names, "explode"]]):
        tools, _ = contracts_from_document(doc, "f.json")
        alone = engine.lint_contracts(tools, LintConfig())
        assert alone and lint_in_processes(tools, LintConfig(), 2) == alone


def test_pointers_a_message_quotes_are_written_as_the_users_file_has_them(tmp_path):
    # an Anthropic file says input_schema: "the schema at /inputSchema/anyOf/0" would name a key it has not
    from toolclause.loading import load_file

    file = tmp_path / "tools.json"
    file.write_text(json.dumps({"tools": [{"name": "lookup", "description": "Looks up one record by id or email.",
                                           "input_schema": {"type": "object", "anyOf": [
                                               {"type": "object", "properties": {"id": {"type": "string"}}},
                                               {"type": "object", "properties": {"email": {"type": "string"}}}]}}]}))
    found = [d for d in engine.lint_contracts(load_file(file).tools, LintConfig(select=("C001",)))
             if d.pointer.endswith("/anyOf/0")]
    assert found and all("/input_schema/anyOf/0" in d.message and "/inputSchema" not in d.message for d in found)
    assert found[0].pointer == "/tools/0/input_schema/anyOf/0"
