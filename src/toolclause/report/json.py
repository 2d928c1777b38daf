"""`--format json`: one object (version, tools, files, diagnostics, summary, unreadable), nothing more or less."""

from __future__ import annotations

import json

from .base import LintRun


def _items(items: list[dict], indent: str) -> str:
    if not items:
        return "[]"
    inner = ",\n".join(indent + "  " + json.dumps(item, ensure_ascii=False) for item in items)
    return "[\n" + inner + "\n" + indent + "]"


def render(run: LintRun, *, color: bool = False) -> str:
    """One finding per line: readable, greppable, and fast (json's C encoder only
    runs without `indent`, which matters at 40,000 findings)."""
    report = run.report
    head = {"version": 1, "tools": report.tools, "files": report.files}
    diagnostics = _items([d.to_dict() for d in report.diagnostics], "  ")
    unreadable = _items([u.to_dict() for u in report.unreadable], "  ")
    return ("{\n" + "".join(f"  {json.dumps(k)}: {json.dumps(v)},\n" for k, v in head.items())
            + f'  "diagnostics": {diagnostics},\n'
            + f'  "summary": {json.dumps(report.summary)},\n'
            + f'  "unreadable": {unreadable}\n' + "}\n")
