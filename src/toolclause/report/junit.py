"""`--format junit`: JUnit XML for CI dashboards — a testsuite per file, a testcase per
tool, and one failure per tool that has findings that fail the run (`--fail-on`: errors by
default), listing them all; its other findings are the testcase's output, so a dashboard
shows a failed test exactly when the run exits 1.  An unreadable file or record is an error.

Built with ElementTree so escaping is always right; characters XML 1.0 cannot
carry at all (control characters from a tool's description) are replaced.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter

from ..model import Diagnostic, Severity
from .base import LintRun, failing_severity, plural

_NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _clean(text: object) -> str:
    return _NOT_XML.sub("\ufffd", str(text))


def _finding_text(d: Diagnostic) -> str:
    position = f"line {d.line}, column {d.column}" if d.column is not None else (f"line {d.line}" if d.line else "")
    lines = [f"{d.code} {d.name} ({d.severity.label}): {d.message}",
             f"at {d.pointer or '/'}" + (f" ({position})" if position else "")]
    if d.fix is not None:
        lines.append(f"fix: {d.fix.description}")
    return "\n".join(lines)


def _failure_message(failing: list[Diagnostic]) -> str:
    """The one finding's own message, or `5 findings: 3 errors (S002 ×3), 2 warnings (D005, S008)`."""
    if len(failing) == 1:
        return f"{failing[0].code}: {failing[0].message}"
    parts = []
    for severity in sorted({d.severity for d in failing}, reverse=True):
        codes = Counter(d.code for d in failing if d.severity == severity)
        listed = ", ".join(code if n == 1 else f"{code} ×{n}" for code, n in codes.items())
        parts.append(f"{plural(sum(codes.values()), severity.label)} ({listed})")
    return f"{plural(len(failing), 'finding')}: " + ", ".join(parts)


def _add_case(suite: ET.Element, classname: str, tool: str, diagnostics: list[Diagnostic],
              threshold: Severity | None) -> bool:
    """One testcase for one tool: one failure with the findings that fail the run, the others as output."""
    case = ET.SubElement(suite, "testcase", name=_clean(tool), classname=_clean(classname))
    failing = sorted((d for d in diagnostics if threshold is not None and d.severity >= threshold),
                     key=lambda d: -d.severity)
    if failing:
        failure = ET.SubElement(case, "failure", message=_clean(_failure_message(failing)),
                                type=failing[0].severity.label)
        failure.text = _clean("\n\n".join(_finding_text(d) for d in failing))
    notes = sorted((d for d in diagnostics if threshold is None or d.severity < threshold), key=lambda d: -d.severity)
    if notes:
        output = ET.SubElement(case, "system-out")
        output.text = _clean("\n\n".join(_finding_text(d) for d in notes))
    return bool(failing)


def build(run: LintRun) -> ET.Element:
    report = run.report
    by_file: dict[str, dict[str, list[Diagnostic]]] = {}
    for file, names in run.tools_by_file.items():
        by_file.setdefault(file, {name: [] for name in names})
    for d in report.diagnostics:
        by_file.setdefault(d.file or "<no file>", {}).setdefault(d.tool or "<no tool>", []).append(d)
    unreadable: dict[str, list] = {}
    for problem in report.unreadable:
        unreadable.setdefault(problem.file, []).append(problem)
        by_file.setdefault(problem.file, {})

    threshold = failing_severity(run.fail_on)
    root = ET.Element("testsuites", name="toolclause lint")
    total_tests = total_failures = total_errors = 0
    for file, tools in by_file.items():
        classname = run.relative_path(file)
        suite = ET.SubElement(root, "testsuite", name=_clean(classname))
        failures = errors = tests = 0
        for tool, diagnostics in tools.items():
            tests += 1
            failures += _add_case(suite, classname, tool, diagnostics, threshold)
        for problem in unreadable.get(file, []):
            tests += 1
            errors += 1
            where = problem.pointer or (f"line {problem.line}" if problem.line else "file")
            case = ET.SubElement(suite, "testcase", name=_clean(f"unreadable {where}"), classname=_clean(classname))
            error = ET.SubElement(case, "error", message=_clean(problem.message), type="unreadable")
            error.text = _clean(f"{file}: {where}: {problem.message}")
        suite.set("tests", str(tests))
        suite.set("failures", str(failures))
        suite.set("errors", str(errors))
        total_tests += tests
        total_failures += failures
        total_errors += errors
    root.set("tests", str(total_tests))
    root.set("failures", str(total_failures))
    root.set("errors", str(total_errors))
    return root


def render(run: LintRun, *, color: bool = False) -> str:
    root = build(run)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
