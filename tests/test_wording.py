"""Counts read as English: one character, one item, one tool; where --fix cannot write, the hint says so."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from toolclause import Toolbox
from toolclause.diffing.model import DiffReport
from toolclause.linting.engine import LintReport, lint_contracts
from toolclause.loading import load
from toolclause.model import Diagnostic, Edit, Fix, Severity
from toolclause.report import REPORTERS, LintRun
from toolclause.report.diff import render_text


def test_validation_limits_of_one_are_singular():
    box = Toolbox("memory://")

    @box.tool
    def save_note(text: Annotated[str, Field(min_length=1)], tags: Annotated[list[str], Field(min_length=1)],
                  pair: Annotated[list[str], Field(max_length=2)]) -> dict:
        """Save a short note with at least one tag; returns the saved note's id."""
        return {}

    message = box.call("save_note", {"text": "", "tags": [], "pair": ["a", "b", "c"]}).error.message
    assert "'text' must be at least 1 character;" in message and "'tags' must be at least 1 item" in message
    assert "at most 2 items" in message


def test_one_tool_before_and_a_one_character_description():
    assert render_text(DiffReport(tools_old=1, tools_new=2), color=False).endswith("(1 tool before, 2 after)\n")
    tool = {"name": "lookup", "description": "q", "inputSchema": {"type": "object"}}
    (finding,) = [d for d in lint_contracts(load(tool)) if d.code == "D002"]
    assert ": 1 character < 40;" in finding.message


def test_a_safe_fix_on_a_live_server_says_it_needs_a_saved_file():
    fix = Fix('set "additionalProperties": false', safe=True, edits=(Edit("set", "/inputSchema/additionalProperties",
                                                                         False),))
    findings = [Diagnostic("C001", "open-object", Severity.WARNING, "open", tool="t", file=source,
                           pointer="/inputSchema", fix=fix) for source in ("server:python srv.py", "tools.json")]
    text = REPORTERS["text"](LintRun(report=LintReport(diagnostics=findings, tools=2, files=2)))
    assert text.count("[safe: --fix applies it to a saved file]") == 1
    assert text.count("[safe: --fix applies it]") == 1
