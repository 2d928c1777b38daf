"""Drift: what changed between the committed export and a fresh one, as JSON Pointers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..model import Code, Problem, code_table, escape_token

_MISSING = object()


@dataclass(frozen=True, slots=True)
class Drift(Problem):
    """One place where a committed export differs from a fresh one.

    `code` is from `DRIFT` (added, removed, changed); `pointer` is into the
    exported document; `old` and `new` are the values on each side; `message`
    is the line `export --check` prints ("~ /0/name: "a" → "b"").
    """

    old: Any = field(default=None, kw_only=True)
    new: Any = field(default=None, kw_only=True)

    @property
    def op(self) -> str:
        return self.code

    def __str__(self) -> str:
        return self.message


DRIFT = code_table([
    Code("added", "the fresh export has a value the committed one lacks"),
    Code("removed", "the committed export has a value the fresh one lacks"),
    Code("changed", "the value differs"),
])
"""{code: Code} for every `Drift`."""


def _drift(code: str, pointer: str, old: Any = None, new: Any = None) -> Drift:
    where = pointer or "/"
    if code == "added":
        line = f"+ {where}: {_show(new)}"
    elif code == "removed":
        line = f"- {where}: {_show(old)}"
    else:
        line = f"~ {where}: {_show(old)} → {_show(new)}"
    return Drift(code, line, pointer, old=old, new=new)


def _show(value: Any, limit: int = 80) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def structural_diff(old: Any, new: Any, pointer: str = "") -> Iterator[Drift]:
    """Every place where `new` differs from `old`: objects by key, arrays by index, the rest by value."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old:
            child = f"{pointer}/{escape_token(key)}"
            if key not in new:
                yield _drift("removed", child, old=old[key])
            else:
                yield from structural_diff(old[key], new[key], child)
        for key in new:
            if key not in old:
                yield _drift("added", f"{pointer}/{escape_token(key)}", new=new[key])
        return
    if isinstance(old, list) and isinstance(new, list):
        for index in range(max(len(old), len(new))):
            child = f"{pointer}/{index}"
            if index >= len(new):
                yield _drift("removed", child, old=old[index])
            elif index >= len(old):
                yield _drift("added", child, new=new[index])
            else:
                yield from structural_diff(old[index], new[index], child)
        return
    if type(old) is not type(new) or old != new:
        yield _drift("changed", pointer, old=old, new=new)


def file_drift(expected: dict[str, Any], committed: dict[str, Any | None]) -> dict[str, list[Drift]]:
    """{file: changes} for each file whose committed content (None: absent) differs from the fresh export."""
    drift: dict[str, list[Drift]] = {}
    for name, fresh in expected.items():
        old = committed.get(name, _MISSING)
        if old is _MISSING or old is None:
            drift[name] = [_drift("added", "", new=fresh)]
            continue
        changes = list(structural_diff(old, fresh))
        if changes:
            drift[name] = changes
    for name, old in committed.items():
        if name not in expected and old is not None:
            drift[name] = [_drift("removed", "", old=old)]
    return drift
