"""One table of targets (toolclause/targets.py), and everything that lists targets reads it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from toolclause import exporting
from toolclause.cli.main import cli
from toolclause.linting.config import ConfigError, parse_targets
from toolclause.rules import ALL_RULES
from toolclause.targets import (
    EXPORT_TARGETS,
    LINT_ALIASES,
    LINT_TARGETS,
    PROPERTY_NAME_RULES,
    TOOL_NAME_RULES,
    LintTarget,
)

TOOLS = json.loads((Path(__file__).parent / "fixtures" / "export" / "tools.json").read_text(encoding="utf-8"))
SCHEMAS = Path(__file__).parent / "fixtures" / "export" / "schemas"


def test_each_lint_target_lists_exactly_the_rules_that_run_only_for_it():
    for name, target in LINT_TARGETS.items():
        assert sorted(target.rules) == sorted(r.code for r in ALL_RULES if name in r.targets), name
    unknown = {(r.code, t) for r in ALL_RULES for t in r.targets if t not in LINT_TARGETS}
    assert unknown == set()


def test_the_name_rules_are_read_from_the_table():
    assert set(TOOL_NAME_RULES) == {"default", *LINT_TARGETS}
    assert {k for k in PROPERTY_NAME_RULES if k != "default"} == {
        name for name, t in LINT_TARGETS.items() if t.property_names is not None}
    # a strict variant shares its provider's rule (one finding for both, not two)
    assert TOOL_NAME_RULES["openai-strict"] is TOOL_NAME_RULES["openai"]


def test_aliases_and_configuration_targets():
    assert parse_targets("all") == set(LINT_TARGETS) == set(LINT_ALIASES["all"])
    assert parse_targets(" OpenAI-Strict , mcp") == {"openai-strict", "mcp"}
    with pytest.raises(ConfigError, match="choose from openai, openai-strict, .*, mcp or all"):
        parse_targets("openai-chat")  # an export target is not a lint target


def test_a_new_lint_target_is_one_entry(monkeypatch):
    monkeypatch.setitem(LINT_TARGETS, "mistral", LintTarget("mistral", TOOL_NAME_RULES["default"]))
    assert parse_targets("mistral") == {"mistral"}


def test_each_export_target_names_its_exporter_and_the_lint_target_it_must_pass():
    assert list(exporting.TARGETS) == list(EXPORT_TARGETS)
    for name, target in EXPORT_TARGETS.items():
        module = exporting.TARGETS[name]
        assert module.__name__ == f"toolclause.exporting.{target.exporter}" and callable(module.export_tools)
        assert {target.lint_as, target.strict_lint_as} <= {None, *LINT_TARGETS}, name
        assert target.reads in ("tools", "schemas")
    assert exporting.LINT_TARGETS[("openai-chat", True)] == "openai-strict"
    assert ("a2a", False) not in exporting.LINT_TARGETS


@pytest.mark.parametrize("name", list(EXPORT_TARGETS))
def test_strict_changes_the_output_only_where_the_table_says_it_projects(name):
    source = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(SCHEMAS.glob("*.json"))} \
        if EXPORT_TARGETS[name].reads == "schemas" else TOOLS
    plain, strict = exporting.export(source, name), exporting.export(source, name, strict=True)
    assert (plain.payload != strict.payload) is EXPORT_TARGETS[name].strict


def test_the_command_line_offers_the_table():
    lint_help = CliRunner().invoke(cli, ["lint", "--help"], terminal_width=400).output
    assert ", ".join([*LINT_TARGETS, *LINT_ALIASES]) in " ".join(lint_help.split())
    export = next(p for p in cli.commands["export"].params if p.name == "target")
    assert list(export.type.choices) == list(EXPORT_TARGETS)
    refused = CliRunner().invoke(cli, ["export", "x.json", "--target", "openai"])
    assert refused.exit_code == 2 and "openai-chat" in refused.output
