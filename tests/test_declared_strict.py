"""A tool whose own definition says `"strict": true` is checked against its provider's strict mode,
whatever targets the run selects: its own declaration is its target."""

from __future__ import annotations

import json
from pathlib import Path

import toolclause
from toolclause.loading.shapes import STRICT_FORMATS
from toolclause.targets import DECLARED_STRICT_TARGETS

# Chat Completions tools as the function-calling guide writes them: a valid strict tool,
# a strict tool strict mode rejects, and a tool that says "strict": false
CHAT_TOOLS = Path(__file__).parent / "data" / "openai" / "chat_tools_strict.json"


def _by_tool(diagnostics, code="P001"):
    found: dict[str, list] = {}
    for d in diagnostics:
        if d.code == code:
            found.setdefault(d.tool, []).append(d)
    return found


def test_the_loader_keeps_the_declaration():
    tools = {t.name: t for t in toolclause.load(CHAT_TOOLS)}
    assert tools["get_weather"].extra["strict"] is True
    assert tools["search_knowledge_base"].extra["strict"] is False
    plain = toolclause.load({"name": "t", "inputSchema": {"type": "object"}, "strict": True})[0]
    assert "strict" not in plain.extra  # an MCP tool has no strict mode of its own


def test_a_strict_tool_is_checked_against_strict_mode_without_a_target():
    found = _by_tool(toolclause.lint(CHAT_TOOLS))
    assert set(found) == {"send_email"}  # get_weather passes; "strict": false is not checked
    messages = sorted(d.message for d in found["send_email"])
    assert any("'attachment_url' is optional" in m for m in messages)
    assert any("format 'uri'" in m for m in messages)
    optional = next(d for d in found["send_email"] if "optional" in d.message)
    assert (optional.pointer, optional.line) == ("/1/function/parameters", 24)


def test_the_declaration_does_not_repeat_what_a_selected_target_reports():
    tool = {"type": "function", "function": {
        "name": "tag_items", "description": "Adds the given tags to every listed item and returns the items.",
        "parameters": {"type": "object", "properties": {"tags": {"type": "array"}},
                       "required": ["tags"], "additionalProperties": False}, "strict": True}}
    for targets in ([], ["openai"], ["openai-strict"], ["all"]):
        found = [d.message for d in toolclause.lint([tool], targets=targets, select=["P001"])]
        assert len(found) == 1 and "has no \"items\"" in found[0], (targets, found)


def test_ignoring_the_rule_still_ignores_it():
    assert not _by_tool(toolclause.lint(CHAT_TOOLS, ignore=["P001"]))
    assert not _by_tool(toolclause.lint(CHAT_TOOLS, select=["C", "X"]))


def test_responses_and_anthropic_tools_declare_their_own_strict_mode():
    responses = {"type": "function", "name": "get_weather", "description": "Current weather for one city.",
                 "parameters": {"type": "object", "properties": {"city": {"type": "string"},
                                                                 "unit": {"type": "string"}},
                                "required": ["city"], "additionalProperties": False}, "strict": True}
    (d,) = [d for d in toolclause.lint([responses]) if d.code == "P001"]
    assert "'unit' is optional" in d.message and d.pointer == "/0/parameters"
    anthropic = {"name": "list_orders", "description": "List a customer's recent orders, newest first.",
                 "input_schema": {"type": "object", "properties": {
                     "customer_id": {"type": "string"},
                     "limit": {"type": "integer", "minimum": 1, "maximum": 50}},
                     "required": ["customer_id", "limit"], "additionalProperties": False}, "strict": True}
    found = [d for d in toolclause.lint([anthropic]) if d.code == "P002"]
    assert sorted(d.pointer for d in found) == ["/0/input_schema/properties/limit/maximum",
                                                "/0/input_schema/properties/limit/minimum"]
    assert not [d for d in toolclause.lint([{**anthropic, "strict": False}]) if d.code == "P002"]


def test_the_cli_reports_it_from_the_file():
    from click.testing import CliRunner

    from toolclause.cli.main import cli

    result = CliRunner().invoke(cli, ["lint", str(CHAT_TOOLS), "--format", "json", "--select", "P001"])
    rows = json.loads(result.output)["diagnostics"]
    assert result.exit_code == 1 and {r["tool"] for r in rows} == {"send_email"}
    assert sorted(r["line"] for r in rows) == [24, 30]


def test_every_format_that_keeps_the_declaration_has_a_target():
    assert set(DECLARED_STRICT_TARGETS) == STRICT_FORMATS
