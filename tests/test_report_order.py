"""The report reads top to bottom like the file: by file and position, then a count per code on request."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

import toolclause
from toolclause.cli.main import cli
from toolclause.linting.engine import LintReport, sort_diagnostics
from toolclause.model import Diagnostic, Severity
from toolclause.report import REPORTERS, LintRun
from toolclause.report.base import statistics_lines


def finding(code: str, tool: str, line: int, pointer: str, column: int | None = None,
            severity: Severity = Severity.WARNING) -> Diagnostic:
    return Diagnostic(code, f"rule-{code.lower()}", severity, f"{code} at {pointer}", tool=tool, file="t.jsonl",
                      pointer=pointer, line=line, column=column)


def test_findings_of_one_record_follow_the_pointer_not_the_code():
    found = [finding("S003", "a", 1, "/tool/parameters/required/0", severity=Severity.ERROR),
             finding("C002", "a", 1, "/tool/parameters/properties/tags"),
             finding("D003", "a", 1, "/tool/parameters/properties/tags"),
             finding("N002", "a", 1, "/tool/name")]
    sort_diagnostics(found)
    assert [(d.pointer, d.code) for d in found] == [
        ("/tool/name", "N002"), ("/tool/parameters/properties/tags", "C002"),
        ("/tool/parameters/properties/tags", "D003"), ("/tool/parameters/required/0", "S003")]


def test_without_positions_array_indexes_compare_as_numbers():
    # a list read from memory or a live server has no lines: the pointer is the position
    found = [Diagnostic("D003", "missing-property-description", Severity.WARNING, "m", tool=name, file="<object>",
                        pointer=pointer)
             for name, pointer in (("t10", "/10/inputSchema"), ("t9", "/9/inputSchema/properties/a"),
                                   ("t2", "/2/name"), ("t9", "/9/inputSchema"), ("t100", "/100/name"),
                                   ("t9", "/9/inputSchema/properties/a/items/10"),
                                   ("t9", "/9/inputSchema/properties/a/items/9"))]
    sort_diagnostics(found)
    assert [d.pointer for d in found] == ["/2/name", "/9/inputSchema", "/9/inputSchema/properties/a",
                                          "/9/inputSchema/properties/a/items/9",
                                          "/9/inputSchema/properties/a/items/10", "/10/inputSchema", "/100/name"]


def test_file_then_position_then_pointer():
    found = [finding("S003", "b", 3, "/1/x", column=2), finding("C002", "a", 1, "/0/b"),
             Diagnostic("C002", "rule-c002", Severity.WARNING, "m", tool="z", file="a.jsonl", pointer="/0/a", line=9),
             finding("C002", "a", 1, "/0/a"), finding("D003", "b", 3, "/1/x", column=1)]
    sort_diagnostics(found)
    assert [(d.file, d.line, d.column, d.pointer) for d in found] == [
        ("a.jsonl", 9, None, "/0/a"), ("t.jsonl", 1, None, "/0/a"), ("t.jsonl", 1, None, "/0/b"),
        ("t.jsonl", 3, 1, "/1/x"), ("t.jsonl", 3, 2, "/1/x")]


def test_a_live_listing_keeps_the_order_of_its_tools():
    tools = [{"name": f"tool_{i}", "description": "Looks one record up by its id and returns it.",
              "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}}} for i in range(12)]
    found = toolclause.lint(tools, select=["D003"])
    sort_diagnostics(found)
    assert [d.tool for d in found] == [f"tool_{i}" for i in range(12)]


def test_two_tools_of_one_name_far_apart_are_two_headings_where_they_stand():
    found = [finding("S002", "dup", 1, "/tool/x"), finding("S002", "dup", 9, "/tool/x"),
             finding("C002", "other", 5, "/tool/y")]
    sort_diagnostics(found)
    run = LintRun(report=LintReport(diagnostics=found, tools=3, files=1))
    lines = REPORTERS["text"](run).splitlines()
    headings = [line.strip() for line in lines if line.startswith("  ") and not line.startswith("    ")]
    assert headings == ["dup", "other", "dup"]
    positions = [line.split()[0] for line in lines if line.startswith("    ")]
    assert positions == ["1", "5", "9"]


def test_statistics_count_each_code_most_first():
    found = [finding("P001", "a", 1, "/p", severity=Severity.ERROR),
             finding("P001", "b", 2, "/p", severity=Severity.ERROR), finding("C002", "a", 1, "/q")]
    assert statistics_lines(found) == ["2  P001  error    rule-p001", "1  C002  warning  rule-c002", ""]
    assert statistics_lines([]) == []
    run = LintRun(report=LintReport(diagnostics=found, tools=2, files=1), statistics=True)
    text = REPORTERS["text"](run).splitlines()
    assert text[-4:] == ["2  P001  error    rule-p001", "1  C002  warning  rule-c002", "",
                         "2 errors, 1 warning, 0 info in 2 tools, 1 file"]
    assert "P001  error    rule-p001" not in REPORTERS["text"](LintRun(report=run.report))


def test_statistics_from_the_command_line_keep_machine_output_parseable(tmp_path: Path):
    path = tmp_path / "tools.json"
    path.write_text(json.dumps([{"name": "tag", "description": "Attach tags to one photo in the library by its id.",
                                 "inputSchema": {"type": "object", "properties": {"tags": {"type": "array"}}}}]))
    runner = CliRunner()
    text = runner.invoke(cli, ["lint", str(path), "--statistics", "--fail-on", "never"])
    assert text.exit_code == 0 and "  C002  warning  array-without-items" in text.output
    for fmt in ("json", "sarif", "github", "junit"):
        result = runner.invoke(cli, ["lint", str(path), "--statistics", "--format", fmt, "--fail-on", "never"])
        assert result.exit_code == 0, result.output
        assert "array-without-items" in result.stderr
        assert "  C002  warning" not in result.stdout
        if fmt in ("json", "sarif"):
            json.loads(result.stdout)
    plain = runner.invoke(cli, ["lint", str(path), "--format", "json", "--fail-on", "never"])
    assert list(json.loads(plain.stdout)) == ["version", "tools", "files", "diagnostics", "summary", "unreadable"]
