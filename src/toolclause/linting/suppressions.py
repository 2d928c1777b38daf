"""Governed suppressions applied to a finished lint: the findings they hide set aside, the expired ones reported.

A bare code in `ignore` or in `"x-toolclause-ignore"` keeps the rule from running (the engine's, before
this).  A table entry (`{code, tool, reason, owner, until}`, see `rules.governance`) is applied after the
rules, so a run can say what it hid and why (`--show-suppressed`): a finding it hides is moved to the
outcome's `suppressed`, with the entry.  An entry past its `until` hides nothing; the tool's own are
reported by G001, the configuration's here (pointing into the configuration file).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..model import Diagnostic, Severity, ToolContract
from ..rules.governance._entries import Suppression, inline_entries
from ..rules.governance.g001_expired_suppression import expired_message
from .config import LintConfig


@dataclass(frozen=True)
class Suppressed:
    """A finding a governed suppression hid, and the suppression."""

    diagnostic: Diagnostic
    by: Suppression


def _inline(tool: ToolContract | None, cache: dict[int, list[Suppression]]) -> list[Suppression]:
    if tool is None or not tool.extra:
        return []
    found = cache.get(id(tool))
    if found is None:
        found = cache[id(tool)] = [s for _, s in inline_entries(tool.extra, tool.origin.file)
                                   if isinstance(s, Suppression)]
    return found


def _position(file: str | None, pointer: str) -> tuple[int | None, int | None]:
    if not file:
        return None, None
    from ..loading.toml_positions import toml_locator  # only a run with an expired suppression asks

    try:
        found = toml_locator(Path(file).read_text(encoding="utf-8"))(pointer)
    except (OSError, UnicodeDecodeError):
        return None, None
    return found if found is not None else (None, None)


def expired_in_configuration(config: LintConfig, today: datetime.date | None = None) -> list[Diagnostic]:
    """G001 for each of the configuration's table entries past its date (when G001 is selected)."""
    if not config.enabled("G001"):
        return []
    today = today or datetime.date.today()
    severity = config.severity.get("G001", Severity.WARNING)
    out = []
    for suppression in config.suppressions:
        if suppression.expired(today):
            line, column = _position(suppression.file, suppression.pointer)
            out.append(Diagnostic("G001", "expired-suppression", severity, expired_message(suppression),
                                  file=suppression.file, pointer=suppression.pointer, line=line, column=column))
    return out


def govern(diagnostics: Sequence[Diagnostic], config: LintConfig,
           today: datetime.date | None = None) -> tuple[list[Diagnostic], list[Suppressed]]:
    """(the findings no live suppression hides, those hidden with what hid them); G001 and G002 are never hidden."""
    today = today or datetime.date.today()
    from_config = [s for s in config.suppressions if not s.expired(today)]
    cache: dict[int, list[Suppression]] = {}
    kept: list[Diagnostic] = []
    hidden: list[Suppressed] = []
    for d in diagnostics:
        by = None
        if d.code not in ("G001", "G002"):
            for suppression in (*_inline(d.contract, cache), *from_config):
                if suppression.hides(d.code, d.tool) and not suppression.expired(today):
                    by = suppression
                    break
        if by is None:
            kept.append(d)
        else:
            hidden.append(Suppressed(d, by))
    return kept, hidden


__all__ = ["Suppressed", "expired_in_configuration", "govern"]
