"""Drift: what changed between the committed export and a fresh one, as JSON Pointers."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterator

from ..model import escape_token

_MISSING = object()


@dataclass(frozen=True, slots=True)
class Change:
    op: str            # "added" | "removed" | "changed"
    pointer: str
    old: Any = None
    new: Any = None

    def __str__(self) -> str:
        sign = {"added": "+", "removed": "-", "changed": "~"}[self.op]
        if self.op == "added":
            return f"{sign} {self.pointer or '/'}: {_show(self.new)}"
        if self.op == "removed":
            return f"{sign} {self.pointer or '/'}: {_show(self.old)}"
        return f"{sign} {self.pointer or '/'}: {_show(self.old)} → {_show(self.new)}"


def _show(value: Any, limit: int = 80) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def structural_diff(old: Any, new: Any, pointer: str = "") -> Iterator[Change]:
    """Every place where `new` differs from `old`: objects by key, arrays by index, the rest by value."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old:
            child = f"{pointer}/{escape_token(key)}"
            if key not in new:
                yield Change("removed", child, old=old[key])
            else:
                yield from structural_diff(old[key], new[key], child)
        for key in new:
            if key not in old:
                yield Change("added", f"{pointer}/{escape_token(key)}", new=new[key])
        return
    if isinstance(old, list) and isinstance(new, list):
        for index in range(max(len(old), len(new))):
            child = f"{pointer}/{index}"
            if index >= len(new):
                yield Change("removed", child, old=old[index])
            elif index >= len(old):
                yield Change("added", child, new=new[index])
            else:
                yield from structural_diff(old[index], new[index], child)
        return
    if type(old) is not type(new) or old != new:
        yield Change("changed", pointer, old=old, new=new)


def file_drift(expected: dict[str, Any], committed: dict[str, Any | None]) -> dict[str, list[Change]]:
    """{file: changes} for each file whose committed content (None: absent) differs from the fresh export."""
    drift: dict[str, list[Change]] = {}
    for name, fresh in expected.items():
        old = committed.get(name, _MISSING)
        if old is _MISSING or old is None:
            drift[name] = [Change("added", "", new=fresh)]
            continue
        changes = list(structural_diff(old, fresh))
        if changes:
            drift[name] = changes
    for name, old in committed.items():
        if name not in expected and old is not None:
            drift[name] = [Change("removed", "", old=old)]
    return drift
