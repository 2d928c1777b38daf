"""`--format github`: GitHub Actions workflow commands, one annotation per finding.

Escaping follows the Actions runner: in the message `%`, CR and LF are
percent-encoded; in properties also `:` and `,`.
"""

from __future__ import annotations

from ..model import Severity
from .base import LintRun, plural

_COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _command(kind: str, properties: dict[str, object], message: str) -> str:
    props = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties.items()
                     if value not in (None, ""))
    return f"::{kind} {props}::{escape_data(message)}" if props else f"::{kind}::{escape_data(message)}"


def render(run: LintRun, *, color: bool = False) -> str:
    lines = []
    for problem in run.report.unreadable:
        where = f" at {problem.pointer}" if problem.pointer else ""
        lines.append(_command("error", {"file": run.relative_path(problem.file), "line": problem.line,
                                        "title": "unreadable"}, f"cannot read{where}: {problem.message}"))
    for d in run.report.diagnostics:
        message = d.message
        if d.tool:
            message = f"{d.tool}: {message}"
        if d.pointer:
            message += f" ({d.pointer})"
        if d.fix is not None:
            message += f"\nfix: {d.fix.description}" + (" (safe: run with --fix)" if d.fix.safe else "")
        lines.append(_command(_COMMAND[d.severity], {"file": run.relative_path(d.file), "line": d.line,
                                                     "col": d.column, "title": f"{d.code} {d.name}"}, message))
    summary = run.report.summary
    lines.append(f"toolclause: {plural(summary['error'], 'error')}, {plural(summary['warning'], 'warning')}, "
                 f"{summary['info']} info in {plural(run.report.tools, 'tool')}")
    return "\n".join(lines) + "\n"
