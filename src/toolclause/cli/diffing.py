"""Running `toolclause diff OLD NEW`: both sides read, classified, rendered, and the exit code."""

from __future__ import annotations

from ..diffing import DiffInputError, diff, exit_code
from ..report.diff import render


def run_diff(old: str, new: str, fmt: str, fail_on: str, color: bool) -> tuple[str, int]:
    """(output, exit code); raises DiffInputError for a side that cannot be read at all."""
    report = diff(old, new)
    code = exit_code(report, fail_on)
    if report.unreadable:
        code = 2
    return render(report, fmt, color), code


__all__ = ["DiffInputError", "run_diff"]
