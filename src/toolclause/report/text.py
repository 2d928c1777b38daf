"""`--format text`: for people.  In report order (file, then position), under a
heading for each file and each run of findings on one tool; colour only when asked.

    tools/weather.json
      get_weather
        9:18  S003  error  required names 'citty', which is not a property; did you mean 'city'?  (/…/required/0)
              fix: replace 'citty' with 'city'

Unreadable inputs come first, because nothing in them was checked.  With
`--statistics` a count per code comes before the summary line.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.color import ColorSystem
from rich.style import Style

from .. import _lazy_re as re
from ..linting.fix import can_write_back
from ..model import Diagnostic, Severity
from .base import LintRun, plural, statistics_lines

_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}
_PARSED: dict[str, Style] = {}
# a tool description may carry terminal escapes or line breaks; never let them reach the terminal raw
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")


def _safe(text: str) -> str:
    return _CONTROL.sub(lambda m: repr(m.group())[1:-1], text)


class _Painter:
    """ANSI styling through rich's Style, one string at a time (printing 40,000
    lines through a rich Console costs seconds; this costs milliseconds)."""

    def __init__(self, color: bool) -> None:
        self.color = color

    def __call__(self, text: str, style: str) -> str:
        if not self.color or not style or not text:
            return text
        parsed = _PARSED.get(style)
        if parsed is None:
            parsed = _PARSED[style] = Style.parse(style)
        return parsed.render(text, color_system=ColorSystem.STANDARD)


def _grouped(diagnostics: Iterable[Diagnostic]) -> list[tuple[str, list[tuple[str, list[Diagnostic]]]]]:
    """Runs of findings on one file, and within it on one tool, keeping the report's order.

    Two tools of one name far apart in a file are two runs, each where it stands.
    """
    files: list[tuple[str, list[tuple[str, list[Diagnostic]]]]] = []
    for d in diagnostics:
        file, tool = d.file or "<no file>", d.tool or "<no tool>"
        if not files or files[-1][0] != file:
            files.append((file, []))
        tools = files[-1][1]
        if not tools or tools[-1][0] != tool:
            tools.append((tool, []))
        tools[-1][1].append(d)
    return files


def _position(d: Diagnostic) -> str:
    if d.line is None:
        return "-"
    return f"{d.line}:{d.column}" if d.column is not None else str(d.line)


def _diagnostic_lines(d: Diagnostic, width: int, paint: _Painter) -> list[str]:
    line = (f"    {paint(_position(d).ljust(width), 'dim')}  {paint(d.code, 'bold')}  "
            f"{paint(d.severity.label, _STYLE[d.severity])}  {_safe(d.message)}")
    if d.pointer:
        line += paint(f"  ({_safe(d.pointer)})", "dim")
    lines = [line]
    if d.fix is not None:
        hint = " " * (6 + width) + paint("fix: ", "green") + _safe(d.fix.description)
        if d.fix.safe and d.fix.edits:
            # a live server's or standard input's tools cannot be written back: say where --fix works
            hint += paint("  [safe: --fix applies it]" if can_write_back(d.file)
                          else "  [safe: --fix applies it to a saved file]", "dim")
        elif d.fix.edits and can_write_back(d.file):
            hint += paint("  [unsafe: --fix --unsafe-fixes applies it; review it]", "dim")
        lines.append(hint)
    return lines


def _summary(run: LintRun, paint: _Painter) -> str:
    summary = run.report.summary
    parts = [paint(plural(summary["error"], "error"), _STYLE[Severity.ERROR] if summary["error"] else ""),
             paint(plural(summary["warning"], "warning"), _STYLE[Severity.WARNING] if summary["warning"] else ""),
             f"{summary['info']} info"]
    text = ", ".join(parts) + f" in {plural(run.report.tools, 'tool')}, {plural(run.report.files, 'file')}"
    if run.report.unreadable:
        text += "; " + paint(f"{len(run.report.unreadable)} unreadable", _STYLE[Severity.ERROR])
    if run.hidden_by_baseline:
        text += f"; {run.hidden_by_baseline} hidden by the baseline"
    return text


def _fix_lines(run: LintRun, paint: _Painter) -> list[str]:
    fixes = run.fixes
    if fixes is None:
        return []
    head = paint(f"Fixed {plural(len(fixes.applied), 'finding')}", "green" if fixes.applied else "")
    if fixes.files_changed:
        head += f" in {plural(len(fixes.files_changed), 'file')}: {', '.join(fixes.files_changed)}"
    out = [head]
    for d in fixes.applied:
        out.append(f"  fixed {d.file}:{_position(d)}  {d.code}  {_safe(d.tool or '')}: "
                   f"{_safe(d.fix.description) if d.fix else ''}")
    for skipped in fixes.skipped:
        d = skipped.diagnostic
        out.append(paint(f"  not fixed {d.file}:{_position(d)}  {d.code}  {_safe(d.tool or '')}: {skipped.reason}",
                         "yellow"))
    out.extend(paint(f"  {note}", "yellow") for note in fixes.notes)
    return out


def _suppressed_lines(run: LintRun, paint: _Painter) -> list[str]:
    """--show-suppressed: each finding a governed suppression hid, and who hid it, why and until when."""
    if run.suppressed is None:
        return []
    out = [paint(f"Suppressed ({len(run.suppressed)}):", "bold")]
    for hidden in run.suppressed:
        d, by = hidden.diagnostic, hidden.by
        until = f" until {by.until.isoformat()}" if by.until else " with no end date"
        owner = f" by {_safe(by.owner)}" if by.owner else " by no named owner"
        reason = f": {_safe(by.reason)}" if by.reason else ""
        out.append(f"  {d.file}:{_position(d)}  {d.code}  {_safe(d.tool or '')}  {_safe(d.message)}")
        out.append(paint(f"      suppressed{owner}{until}{reason} ({by.file or ''}{by.pointer and ' ' + by.pointer})",
                         "dim"))
    return out + [""]


def render(run: LintRun, *, color: bool = False) -> str:
    paint = _Painter(color)
    lines: list[str] = []
    if run.report.unreadable:
        lines.append(paint(f"Unreadable ({len(run.report.unreadable)}; nothing in them was checked):", "bold red"))
        for problem in run.report.unreadable:
            where = problem.file + (f":{problem.line}" if problem.line is not None else "")
            line = "  " + paint(where, "bold")
            if problem.pointer:
                line += paint(f"  ({_safe(problem.pointer)})", "dim")
            lines.append(line + f"  {_safe(problem.message)}")
        lines.append("")
    width = max((len(_position(d)) for d in run.report.diagnostics), default=1)
    for file, tools in _grouped(run.report.diagnostics):
        lines.append(paint(file, "bold underline"))
        for tool, diagnostics in tools:
            lines.append(paint(f"  {_safe(tool)}", "bold"))
            for d in diagnostics:
                lines.extend(_diagnostic_lines(d, width, paint))
        lines.append("")
    lines.extend(_fix_lines(run, paint))
    lines.extend(_suppressed_lines(run, paint))
    if run.baseline_written:
        lines.append(f"Wrote the baseline {run.baseline_written}")
    lines.extend(paint(note, "yellow") for note in run.notes)
    if run.statistics:
        lines.extend(statistics_lines(run.report.diagnostics))
    lines.append(_summary(run, paint))
    return "\n".join(lines) + "\n"
