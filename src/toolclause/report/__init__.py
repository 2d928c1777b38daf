"""Reporters: a finished run turned into text.  They never print, read files or exit.

`lint`'s reporters are registered by name; each module has the same function:

    render(run: LintRun, *, color: bool = False) -> str

`diff.py` renders a DiffReport in each of DIFF_FORMATS (imported only by a diff,
as it needs the change classifier); `rules.py` the rule catalogue and each
rule's documentation; `drift.py` what `export --check` found.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping

from ..formats import DIFF_FORMATS, REPORT_FORMATS
from .base import FixSummary, LintRun

Render = Callable[..., str]


class _Reporters(Mapping[str, Render]):
    """Each format's `render`, imported on first use: a run imports only the reporter it prints with."""

    def __getitem__(self, name: str) -> Render:
        if name not in REPORT_FORMATS:
            raise KeyError(name)
        render: Render = importlib.import_module(f".{name}", __name__).render
        return render

    def __iter__(self) -> Iterator[str]:
        return iter(REPORT_FORMATS)

    def __len__(self) -> int:
        return len(REPORT_FORMATS)


REPORTERS: Mapping[str, Render] = _Reporters()  # one module per name in toolclause.formats.REPORT_FORMATS

__all__ = ["DIFF_FORMATS", "REPORTERS", "FixSummary", "LintRun"]
