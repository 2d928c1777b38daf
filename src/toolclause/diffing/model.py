"""What a diff produces: classified changes, each with a pointer on both sides."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..model import Problem


class DiffInputError(ValueError):
    """A side that cannot be read at all (a bad git reference, say); the CLI exits 2."""


class Impact(enum.IntEnum):
    """Ordered by how much it hurts: `impact >= threshold` reads naturally."""

    COMPATIBLE = 1        # every call and every consumer that worked still works
    RISKY = 2             # the model may behave differently (descriptions, annotations, defaults)
    BREAKING_RESULTS = 3  # a consumer of results may break (output narrowed away or changed)
    BREAKING_CALLS = 4    # a call that was valid is now rejected

    @property
    def label(self) -> str:
        return {Impact.COMPATIBLE: "compatible", Impact.RISKY: "risky",
                Impact.BREAKING_RESULTS: "breaking-results", Impact.BREAKING_CALLS: "breaking-calls"}[self]

    @property
    def breaking(self) -> bool:
        return self >= Impact.BREAKING_RESULTS


@dataclass(frozen=True, slots=True)
class Change(Problem):
    """One change between two versions of a tool.

    code         its kind, a stable slug from `kinds.DIFF_KINDS` ("required-added", …)
    message      what changed and why it matters, in one sentence
    pointer      where it is, in the new canonical tool ("" when it is gone)
    impact       its classification
    tool         the tool's name (the new name after a rename)
    old_pointer  where it was, in the old canonical tool ("" when it did not exist)
    breaks       the old examples/fixtures this change makes invalid (labels)
    """

    impact: Impact = field(kw_only=True)
    tool: str = field(kw_only=True)
    old_pointer: str = field(default="", kw_only=True)
    breaks: tuple[str, ...] = field(default=(), kw_only=True)

    @property
    def kind(self) -> str:
        return self.code

    @property
    def new_pointer(self) -> str:
        return self.pointer

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "impact": self.impact.label, "tool": self.tool,
                               "old": self.old_pointer, "new": self.new_pointer, "message": self.message}
        if self.breaks:
            out["breaks"] = list(self.breaks)
        return out


@dataclass
class DiffReport:
    changes: list[Change] = field(default_factory=list)
    tools_old: int = 0
    tools_new: int = 0
    unreadable: list[Any] = field(default_factory=list)

    def worst(self) -> Impact | None:
        return max((c.impact for c in self.changes), default=None)

    def summary(self) -> dict[str, int]:
        counts = {impact.label: 0 for impact in sorted(Impact, reverse=True)}
        for change in self.changes:
            counts[change.impact.label] += 1
        return counts

    def to_dict(self) -> dict[str, Any]:
        return {"version": 1, "tools": {"old": self.tools_old, "new": self.tools_new},
                "changes": [c.to_dict() for c in self.changes], "summary": self.summary(),
                "unreadable": [u.to_dict() for u in self.unreadable]}


def exit_code(report: DiffReport, fail_on: str) -> int:
    """0, or 1 when a change reaches `fail_on` (breaking | any | never)."""
    if fail_on == "never":
        return 0
    if fail_on == "any":
        return 1 if report.changes else 0
    return 1 if any(c.impact.breaking for c in report.changes) else 0


def changes_by_tool(changes: Sequence[Change]) -> dict[str, list[Change]]:
    grouped: dict[str, list[Change]] = {}
    for change in changes:
        grouped.setdefault(change.tool, []).append(change)
    return grouped
