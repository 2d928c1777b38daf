"""Governed suppressions: an ignore that says which finding it hides, why, who answers for it, and until when.

Written in a tool's own `"x-toolclause-ignore"` list or in the configuration's `ignore`, beside bare codes:

    {"code": "X002", "tool": "create_refund", "reason": "refunds are keyed upstream",
     "owner": "payments", "until": "2027-01-31"}

`code` (a code or a prefix) is required; `tool` limits it to one tool; `until` is the last day it holds
(a TOML date, or `YYYY-MM-DD` in JSON and YAML).  From the day after, it hides nothing and is reported
itself (G001), so an exception made for a sprint does not become permanent by being forgotten.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ... import _lazy_re as re

KEYS = ("code", "tool", "reason", "owner", "until")
MAX_TEXT = 500  # characters of a reason or an owner kept (a suppression is a line, not a document)
_CODE = re.compile(r"[A-Z]{1,8}[0-9]{0,4}")


class SuppressionError(ValueError):
    """An entry that cannot be used as a suppression (names the key)."""


@dataclass(frozen=True)
class Suppression:
    code: str  # a rule code or prefix, upper-cased
    tool: str | None = None
    reason: str | None = None
    owner: str | None = None
    until: datetime.date | None = None
    file: str | None = None  # where it is written: the configuration or the tool file
    pointer: str = ""  # where in that file (for an inline one, canonical: "/x-toolclause-ignore/0")

    def expired(self, today: datetime.date) -> bool:
        return self.until is not None and today > self.until

    def hides(self, code: str, tool: str | None) -> bool:
        return code.startswith(self.code) and (self.tool is None or self.tool == tool)

    def describe(self) -> str:
        """`X002 on create_refund (payments: refunds are keyed upstream)`, for messages."""
        who = ": ".join(part for part in (self.owner, self.reason) if part)
        return f"{self.code}{f' on {self.tool}' if self.tool else ''}{f' ({who})' if who else ''}"

    def record(self) -> dict[str, Any]:
        return {"code": self.code, "tool": self.tool, "reason": self.reason, "owner": self.owner,
                "until": self.until.isoformat() if self.until else None, "file": self.file, "pointer": self.pointer}


def _date(value: Any, where: str) -> datetime.date:
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):
        return value
    if isinstance(value, str):
        try:
            return datetime.date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise SuppressionError(f"{where}.until must be a date (2027-01-31), not {str(value)[:40]!r}")


def _text(value: Any, where: str, key: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise SuppressionError(f"{where}.{key} must be text, not {type(value).__name__}")
    return value.strip()[:MAX_TEXT] or None


def parse_suppression(entry: Mapping[str, Any], where: str, file: str | None = None,
                      pointer: str = "") -> Suppression:
    """One table entry; SuppressionError naming the key when it cannot be used."""
    unknown = [str(k) for k in entry if k not in KEYS]
    if unknown:
        raise SuppressionError(f"{where}: unknown key {unknown[0][:40]!r} in an ignore entry; "
                               f"an entry takes {', '.join(KEYS)}")
    code = entry.get("code")
    if not isinstance(code, str) or not _CODE.fullmatch(code.strip().upper()):
        raise SuppressionError(f"{where}.code must be a rule code or prefix (\"X002\"), not {str(code)[:40]!r}")
    tool = entry.get("tool")
    if tool is not None and not isinstance(tool, str):
        raise SuppressionError(f"{where}.tool must be a tool's name, not {type(tool).__name__}")
    until = _date(entry["until"], where) if entry.get("until") is not None else None
    return Suppression(code.strip().upper(), tool, _text(entry.get("reason"), where, "reason"),
                       _text(entry.get("owner"), where, "owner"), until, file, pointer)


INLINE = "x-toolclause-ignore"
MAX_ENTRIES = 200  # entries of one tool's ignore list read


def inline_entries(extra: Mapping[str, Any], file: str | None) -> list[tuple[int, Suppression | SuppressionError]]:
    """The table entries of a tool's `x-toolclause-ignore` (bare codes are the engine's), each parsed."""
    listed = extra.get(INLINE)
    if not isinstance(listed, list):
        return []
    out: list[tuple[int, Suppression | SuppressionError]] = []
    for index, entry in enumerate(listed[:MAX_ENTRIES]):
        if isinstance(entry, str):
            continue
        pointer = f"/{INLINE}/{index}"
        if not isinstance(entry, Mapping):
            out.append((index, SuppressionError(f"{INLINE}[{index}] must be a rule code or a table "
                                                f"{{code, reason, owner, until}}, not {type(entry).__name__}")))
            continue
        try:
            found = parse_suppression(entry, f"{INLINE}[{index}]", file, pointer)
        except SuppressionError as exc:
            out.append((index, exc))
            continue
        out.append((index, found))
    return out


__all__ = ["INLINE", "KEYS", "Suppression", "SuppressionError", "inline_entries", "parse_suppression"]
