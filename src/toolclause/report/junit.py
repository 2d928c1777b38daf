"""`--format junit`: JUnit XML for CI dashboards — a testsuite per file, a testcase per
tool, a failure per finding; an unreadable file or record is an error.

Built with ElementTree so escaping is always right; characters XML 1.0 cannot
carry at all (control characters from a tool's description) are replaced.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from ..model import Diagnostic
from .base import LintRun

_NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _clean(text: object) -> str:
    return _NOT_XML.sub("\ufffd", str(text))


def _failure_text(d: Diagnostic) -> str:
    position = f"line {d.line}, column {d.column}" if d.column is not None else (f"line {d.line}" if d.line else "")
    lines = [f"{d.code} {d.name} ({d.severity.label}): {d.message}",
             f"at {d.pointer or '/'}" + (f" ({position})" if position else "")]
    if d.fix is not None:
        lines.append(f"fix: {d.fix.description}")
    return "\n".join(lines)


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

    root = ET.Element("testsuites", name="toolclause lint")
    total_tests = total_failures = total_errors = 0
    for file, tools in by_file.items():
        suite = ET.SubElement(root, "testsuite", name=_clean(run.relative_path(file)))
        failures = errors = tests = 0
        for tool, diagnostics in tools.items():
            tests += 1
            case = ET.SubElement(suite, "testcase", name=_clean(tool), classname=_clean(run.relative_path(file)))
            for d in diagnostics:
                failures += 1
                failure = ET.SubElement(case, "failure", message=_clean(f"{d.code}: {d.message}"), type=d.code)
                failure.text = _clean(_failure_text(d))
        for problem in unreadable.get(file, []):
            tests += 1
            errors += 1
            where = problem.pointer or (f"line {problem.line}" if problem.line else "file")
            case = ET.SubElement(suite, "testcase", name=_clean(f"unreadable {where}"),
                                 classname=_clean(run.relative_path(file)))
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
