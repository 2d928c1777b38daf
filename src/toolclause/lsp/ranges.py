"""Where a finding is, as an LSP range: line and character counted from 0, characters in UTF-16 code units.

toolclause's positions are 1-based lines and columns counted in characters (code points): a
character outside the Basic Multilingual Plane (an emoji) is one column for toolclause and two
UTF-16 units for LSP.  A finding names where its value starts; its end is where that value ends
(the JSON scanner's answer for JSON, the token for YAML), kept on the start's line so that a finding
on an object underlines its first line, not the whole object.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from .. import _lazy_re as re

_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"?|\'[^\'\n]*\'?|[^\s,\]}#]+')
_scan = json.JSONDecoder().raw_decode


@dataclass(frozen=True)
class Spot:
    line: int  # from 0
    character: int  # from 0, UTF-16 code units


def utf16(text: str) -> int:
    """How many UTF-16 code units `text` is."""
    return len(text) + sum(1 for c in text if ord(c) > 0xFFFF)


class Lines:
    """A document's lines, for turning toolclause positions into LSP ones."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.split("\n")
        self.starts = [0]
        for line in self.lines[:-1]:
            self.starts.append(self.starts[-1] + len(line) + 1)

    def spot(self, line: int, column: int) -> Spot:
        """(1-based line, 1-based column in characters) → an LSP position (clamped into the document)."""
        index = min(max(line, 1), len(self.lines)) - 1
        text = self.lines[index].rstrip("\r")
        return Spot(index, utf16(text[:max(column, 1) - 1]))

    def end(self) -> Spot:
        return Spot(len(self.lines) - 1, utf16(self.lines[-1]))

    def value_end(self, line: int, column: int, parsed: str | None) -> int:
        """The 1-based column just past the value at (line, column), on that line. `parsed`: the text the JSON
        scanner can read (JSON, or JSON with comments blanked); None for YAML."""
        index = min(max(line, 1), len(self.lines)) - 1
        row = self.lines[index].rstrip("\r")
        start = max(column, 1) - 1
        offset = self.starts[index] + start
        end = None
        if parsed is not None:
            try:
                end = _scan(parsed, offset)[1] - self.starts[index]
            except (ValueError, IndexError, RecursionError):
                end = None
        if end is None:
            found = _TOKEN.match(row, start)
            end = found.end() if found else start
        return min(max(end, start + 1), max(len(row), start + 1)) + 1

    def range(self, line: int | None, column: int | None, parsed: str | None) -> tuple[Spot, Spot]:
        if line is None:
            return Spot(0, 0), Spot(0, 0)
        column = column or 1
        if column == 1 and line <= len(self.lines) and not self.lines[line - 1].strip():
            return self.spot(line, 1), self.spot(line, 1)
        return self.spot(line, column), self.spot(line, self.value_end(line, column, parsed))


__all__ = ["Lines", "Spot", "utf16"]
