"""Line and column of every value in a TOML document, by JSON Pointer (`/mcp_servers/github/env/TOKEN`).

tomllib gives values, not places; MCP clients that keep their servers in TOML (Codex's
`config.toml`) still deserve findings that point at the line.  This scanner reads text that
tomllib has already parsed, so it may assume it is well formed: table headers (`[a."b c"]`,
`[[a]]` counted per array), dotted keys, inline tables and arrays (over several lines too), and
every kind of string.  Anything it does not follow leaves the pointers below it to their nearest
located ancestor, as the JSON locator does.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from itertools import accumulate

from .. import _lazy_re as re
from ..model import escape_token

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_SPACE = re.compile(r"(?:[ \t\r\n]|#[^\n]*)*")
_SCALAR_END = re.compile(r"[,\]}\n#]")


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.found: dict[str, int] = {}
        self.arrays: dict[str, int] = {}  # [[name]] → how many seen

    def space(self, at: int) -> int:
        return _SPACE.match(self.text, at).end()  # type: ignore[union-attr]  # matches "" too

    def line_space(self, at: int) -> int:
        while at < len(self.text) and self.text[at] in " \t":
            at += 1
        return at

    def string(self, at: int) -> tuple[str, int]:
        """The string starting at `at` (any of TOML's four kinds) and the offset after it."""
        text = self.text
        for quote in ('"""', "'''"):
            if text.startswith(quote, at):
                end = text.find(quote, at + 3)
                while end >= 0 and quote == '"""' and text[end - 1] == "\\":
                    end = text.find(quote, end + 1)
                end = len(text) if end < 0 else end + 3
                while end < len(text) and text[end] == quote[0]:
                    end += 1  # up to two quotes may close the string's content
                return text[at + 3:end - 3], end
        quote = text[at]
        i = at + 1
        while i < len(text) and text[i] != quote:
            i += 2 if quote == '"' and text[i] == "\\" else 1
        raw = text[at + 1:i]
        if quote == '"' and "\\" in raw:
            import json

            try:
                raw = json.loads(f'"{raw}"')
            except ValueError:
                pass
        return raw, i + 1

    def key(self, at: int) -> tuple[list[str], int]:
        """A dotted key starting at `at`: its parts and the offset after it."""
        parts: list[str] = []
        while True:
            at = self.line_space(at)
            if at < len(self.text) and self.text[at] in "\"'":
                part, at = self.string(at)
            else:
                match = _BARE_KEY.match(self.text, at)
                if match is None:
                    return parts, at
                part, at = match.group(), match.end()
            parts.append(part)
            at = self.line_space(at)
            if at < len(self.text) and self.text[at] == ".":
                at += 1
                continue
            return parts, at

    def value(self, at: int, pointer: str) -> int:
        """Record the value at `at` (and every value inside it) under `pointer`; the offset after it."""
        text = self.text
        self.found[pointer] = at
        if at >= len(text):
            return at
        char = text[at]
        if char in "\"'":
            return self.string(at)[1]
        if char == "[":
            index, at = 0, at + 1
            while True:
                at = self.space(at)
                if at >= len(text) or text[at] == "]":
                    return at + 1
                at = self.space(self.value(at, f"{pointer}/{index}"))
                index += 1
                if at < len(text) and text[at] == ",":
                    at += 1
        if char == "{":
            at += 1
            while True:
                at = self.space(at)
                if at >= len(text) or text[at] == "}":
                    return at + 1
                parts, at = self.key(at)
                if not parts:
                    return at
                at = self.line_space(at)
                at = self.line_space(at + 1)  # past "="
                at = self.space(self.value(at, _join(pointer, parts)))
                if at < len(text) and text[at] == ",":
                    at += 1
        match = _SCALAR_END.search(text, at)
        return match.start() if match else len(text)

    def document(self) -> dict[str, int]:
        text, table, at = self.text, "", 0
        while True:
            at = self.space(at)
            if at >= len(text):
                return self.found
            if text[at] == "[":
                header = at
                is_array = text.startswith("[[", at)
                parts, at = self.key(at + (2 if is_array else 1))
                at = text.find("\n", at)
                at = len(text) if at < 0 else at
                table = _join("", parts)
                if is_array:
                    index = self.arrays.get(table, 0)
                    self.arrays[table] = index + 1
                    table = f"{table}/{index}"
                self.found.setdefault(table, header)
                continue
            parts, after = self.key(at)
            if not parts or after >= len(text) or text[after] != "=":
                end = text.find("\n", at)  # not a key: the rest of the line is left alone
                at = len(text) if end < 0 else end
                continue
            at = self.value(self.line_space(after + 1), _join(table, parts))


def _join(base: str, parts: list[str]) -> str:
    return base + "".join("/" + escape_token(part) for part in parts)


def toml_locator(text: str) -> Callable[[str], tuple[int, int] | None]:
    """locate(pointer) → (line, column) of the value there, or of its nearest located ancestor."""
    found: dict[str, int] | None = None
    line_starts: list[int] = []

    def locate(pointer: str) -> tuple[int, int] | None:
        nonlocal found
        try:
            if found is None:
                found = _Scanner(text).document()
                line_starts.extend(accumulate(map((1).__add__, map(len, text.split("\n"))), initial=0))
            probe = pointer
            while probe not in found:
                if not probe:
                    return None
                probe = probe[: probe.rfind("/")]
            offset = found[probe]
            line = bisect_right(line_starts, offset) - 1
            return (line + 1, offset - line_starts[line] + 1)
        except Exception:  # positions are a convenience; never fail a lint over them
            return None

    return locate


__all__ = ["toml_locator"]
