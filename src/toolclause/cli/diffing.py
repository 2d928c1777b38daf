"""Running `toolclause diff OLD NEW`: both sides read, classified, rendered, and the exit code."""

from __future__ import annotations

from ..diffing import DiffInputError, diff_tools, exit_code, readable_sides
from ..report.diff import render


def run_diff(old: str, new: str, fmt: str, fail_on: str, color: bool) -> tuple[str, int]:
    """(output, exit code); raises DiffInputError, before any output, when either side cannot be read."""
    before, after = readable_sides(old, new)
    report = diff_tools(before.tools, after.tools)
    return render(report, fmt, color), exit_code(report, fail_on)


__all__ = ["DiffInputError", "run_diff"]
