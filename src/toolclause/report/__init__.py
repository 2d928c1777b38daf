"""Reporters: a finished run turned into text.  They never print, read files or exit.

`lint`'s reporters are registered by name; each module has the same function:

    render(run: LintRun, *, color: bool = False) -> str

`diff.py` renders a DiffReport in each of DIFF_FORMATS (imported only by a diff,
as it needs the change classifier); `rules.py` the rule catalogue and each
rule's documentation; `drift.py` what `export --check` found.
"""

from __future__ import annotations

from collections.abc import Callable

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

DIFF_FORMATS = ("text", "json", "markdown")

__all__ = ["DIFF_FORMATS", "REPORTERS", "FixSummary", "LintRun"]
