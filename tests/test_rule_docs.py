"""Every rule's documentation is complete, and its examples are tests.

*Example* must trigger the rule; *Use instead* must not.  Target rules run with
their targets selected.
"""

from __future__ import annotations

import json

import pytest

import toolclause
from toolclause.rules import ALL_RULES
from toolclause.rules.docs import SECTIONS, parse_doc

RULE_IDS = [r.code for r in ALL_RULES]
# Binding-only rules (family R) need a Python function; their examples run in tests/test_runtime_rules.py.
FILE_RULES = [r for r in ALL_RULES if not r.binding_only]
FILE_RULE_IDS = [r.code for r in FILE_RULES]


def _lint(example, rule):
    if rule.client_config:  # family M reads an MCP client configuration, not tools
        from toolclause.linting.config import LintConfig
        from toolclause.linting.run import ClientConfigText, LintRequest, run

        reader = ClientConfigText(json.dumps(example, indent=2), "claude_desktop_config.json")
        return run(LintRequest(reader=reader, config=LintConfig(select=(rule.code,)))).diagnostics
    targets = sorted(rule.targets)
    return toolclause.lint(example, select=[rule.code], targets=targets)


@pytest.mark.parametrize("rule", ALL_RULES, ids=RULE_IDS)
def test_documentation_has_every_section(rule):
    doc = parse_doc(rule)
    missing = [s for s in SECTIONS if not doc.sections.get(s)]
    assert not missing, f"{rule.code} documentation lacks {missing}"
    assert doc.examples("Example"), f"{rule.code} has no JSON example"
    assert doc.examples("Use instead"), f"{rule.code} has no JSON 'Use instead'"


@pytest.mark.parametrize("rule", FILE_RULES, ids=FILE_RULE_IDS)
def test_example_triggers_the_rule(rule):
    for example in parse_doc(rule).examples("Example"):
        codes = [d.code for d in _lint(example, rule)]
        assert rule.code in codes, f"{rule.code}: its Example does not trigger it"


@pytest.mark.parametrize("rule", FILE_RULES, ids=FILE_RULE_IDS)
def test_use_instead_is_clean(rule):
    for example in parse_doc(rule).examples("Use instead"):
        found = [d for d in _lint(example, rule) if d.code == rule.code]
        assert not found, f"{rule.code}: its 'Use instead' still triggers it: {[d.message for d in found]}"


def test_codes_are_unique_and_well_formed():
    import re

    assert len(set(RULE_IDS)) == len(RULE_IDS)
    for rule in ALL_RULES:
        assert re.fullmatch(r"[SNDCTPXWRMG]\d{3}", rule.code), rule.code
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rule.name), rule.name


def test_the_index_a_run_chooses_its_rules_from_is_the_registry():
    from toolclause.rules import CODES, INDEX, RuleEntry, rule_class

    def described(entry: RuleEntry) -> tuple:
        return (entry.code, entry.module, entry.where.partition(":")[2], entry.targets, entry.binding_only,
                entry.client_config, entry.tags)

    assert [described(entry) for entry in INDEX] == [described(RuleEntry.of(rule)) for rule in ALL_RULES]
    assert list(CODES) == RULE_IDS
    assert all(entry.load() is rule is rule_class(rule.code) for entry, rule in zip(INDEX, ALL_RULES, strict=True))
