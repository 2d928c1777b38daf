"""Reporters, registered by name.  Each module has the same function:

    render(run: LintRun, *, color: bool = False) -> str

A reporter turns a finished run into text; it never prints, reads files or exits.
"""

from __future__ import annotations

from typing import Callable

from . import github, json, junit, sarif, text
from .base import FixSummary, LintRun

Render = Callable[..., str]

REPORTERS: dict[str, Render] = {
    "text": text.render,
    "json": json.render,
    "sarif": sarif.render,
    "github": github.render,
    "junit": junit.render,
}

__all__ = ["REPORTERS", "FixSummary", "LintRun"]
