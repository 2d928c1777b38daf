"""What a diff produces: classified changes, each with a pointer on both sides."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any


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
class Change:
    """One change between two versions of a tool.

    kind         a stable slug ("required-added", "enum-value-removed", …)
    impact       its classification
    tool         the tool's name (the new name after a rename)
    old_pointer  where it was, in the old canonical tool ("" when it did not exist)
    new_pointer  where it is, in the new canonical tool ("" when it is gone)
    message      what changed and why it matters, in one sentence
    breaks       the old examples/fixtures this change makes invalid (labels)
    """

    kind: str
    impact: Impact
    tool: str
    old_pointer: str
    new_pointer: str
    message: str
    breaks: tuple[str, ...] = ()

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
