"""`toolclause diff`'s report: a DiffReport as text, json or markdown."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from ..diffing import DiffReport, changes_by_tool
from ..diffing.model import Impact
from .base import plural

if TYPE_CHECKING:
    from ..diffing import Change

_STYLE = {Impact.BREAKING_CALLS: "red", Impact.BREAKING_RESULTS: "red", Impact.RISKY: "yellow",
          Impact.COMPATIBLE: "green"}


def _where(change: Change) -> str:
    if change.old_pointer and change.new_pointer and change.old_pointer != change.new_pointer:
        return f"{change.old_pointer} → {change.new_pointer}"
    return change.new_pointer or change.old_pointer


def render_text(report: DiffReport, color: bool) -> str:
    lines: list[str] = []
    for tool, changes in changes_by_tool(report.changes).items():
        lines.append(click.style(tool, bold=True) if color else tool)
        for change in changes:
            label = f"{change.impact.label:<16}"
            if color:
                label = click.style(label, fg=_STYLE[change.impact])
            lines.append(f"  {label} {change.kind:<28} {_where(change)}")
            lines.append(f"  {'':16} {change.message}")
            if change.breaks:
                lines.append(f"  {'':16} breaks: {', '.join(change.breaks)}")
    for problem in report.unreadable:
        lines.append(f"unreadable: {problem.file}{problem.pointer}: {problem.message}")
    counts = report.summary()
    lines.append(", ".join(f"{n} {label}" for label, n in counts.items())
                 + f" ({plural(report.tools_old, 'tool')} before, {report.tools_new} after)")
    return "\n".join(lines) + "\n"


def render_markdown(report: DiffReport) -> str:
    """A pull-request comment: a verdict first, then one table row per change."""
    counts = report.summary()
    worst = report.worst()
    verdict = ("**Breaking changes**" if worst is not None and worst.breaking else
               "**No breaking changes**")
    out = [f"### toolclause diff — {verdict}", "",
           " · ".join(f"{n} {label}" for label, n in counts.items()), ""]
    if report.changes:
        out += ["| impact | tool | change | where | details |", "|---|---|---|---|---|"]
        for change in report.changes:
            details = change.message.replace("|", "\\|")
            if change.breaks:
                details += f" — breaks {', '.join(change.breaks)}"
            out.append(f"| {change.impact.label} | `{change.tool}` | {change.kind} | `{_where(change)}` | {details} |")
    return "\n".join(out) + "\n"


def render(report: DiffReport, fmt: str, color: bool = False) -> str:
    """The report in one of `DIFF_FORMATS`; colour only matters to text."""
    if fmt == "json":
        return json.dumps(report.to_dict(), ensure_ascii=False, indent=2) + "\n"
    if fmt == "markdown":
        return render_markdown(report)
    return render_text(report, color)


__all__ = ["render", "render_markdown", "render_text"]
