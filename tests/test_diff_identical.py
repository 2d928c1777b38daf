"""A diff spends nothing on schemas that are the same JSON, and still tells apart values Python calls equal."""

from __future__ import annotations

import pytest

from toolclause import diff
from toolclause.diffing import tools as diffing_tools

TOOL = {"name": "set_flag", "description": "Sets one flag and returns it.",
        "inputSchema": {"type": "object", "properties": {"on": {"anyOf": [{"type": "boolean"}, {"type": "null"}]}}}}


def test_identical_schemas_are_not_normalised_or_walked(monkeypatch):
    def fail(*args, **kwargs):
        raise AssertionError("an identical schema was normalised")

    monkeypatch.setattr(diffing_tools, "normal_form", fail)
    assert diff([TOOL] * 1, [dict(TOOL)]).changes == []


@pytest.mark.parametrize("old,new,changed", [(True, 1, True), (False, 0, True), (1, 1.0, False)])
def test_values_python_calls_equal_are_still_compared(old, new, changed):
    before = {**TOOL, "inputSchema": {"type": "object", "properties": {"on": {"const": old}}}}
    after = {**TOOL, "inputSchema": {"type": "object", "properties": {"on": {"const": new}}}}
    kinds = [c.kind for c in diff(before, after).changes]
    assert bool(kinds) is changed, kinds  # true and 1 are two JSON values; 1 and 1.0 are one
