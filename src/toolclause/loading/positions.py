"""Line and column of every value in a JSON or YAML document, by JSON Pointer.

Computed lazily: only documents that get diagnostics pay for it.  The JSON
indexer is a tokenizer over text that has already parsed, so it can assume the
text is well formed; it is iterative, so depth costs no recursion.

A large JSON document is not indexed whole (`json_locator`): its big containers
(a list of thousands of tools) are stepped through with the json module's own
scanner, and only the parts findings are in (a tool each) are tokenized, when
the first finding there asks; line and column are counted for the positions asked
for, not for every value.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Callable, Iterator
from itertools import accumulate
from typing import Any

from .. import _lazy_re as re
from ..model import escape_token

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+', re.S)


def _json_events(text: str) -> Iterator[tuple[bool, str, str, int]]:
    """(is a key, pointer, key, offset) for each key and each value of well-formed JSON text, in order.

    A key's pointer is the object's that holds it; a value's is its own.
    """
    # stack entries: [pointer, is_object, next_index]
    stack: list[list[Any]] = []
    expecting_key = False
    pending_key = ""
    import json as _json

    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in (",", ":"):
            if token == "," and stack and stack[-1][1]:
                expecting_key = True
            continue
        if token in ("}", "]"):
            stack.pop()
            expecting_key = False
            continue
        if stack and stack[-1][1] and expecting_key:
            pending_key = token[1:-1] if "\\" not in token else _json.loads(token)
            expecting_key = False
            yield True, stack[-1][0], pending_key, match.start()
            continue
        # a value begins here: work out its pointer
        if not stack:
            pointer = ""
        elif stack[-1][1]:
            pointer = stack[-1][0] + "/" + (escape_token(pending_key) if "~" in pending_key or "/" in pending_key
                                            else pending_key)
        else:
            pointer = f"{stack[-1][0]}/{stack[-1][2]}"
            stack[-1][2] += 1
        yield False, pointer, "", match.start()
        if token == "{":
            stack.append([pointer, True, 0])
            expecting_key = True
        elif token == "[":
            stack.append([pointer, False, 0])


# a key (a string, then a colon) or a string value; an opening bracket; a closing one; a number or literal.
# Commas, colons and space between them are skipped by the search itself.
_EVENT = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+"(\s*+:)?|([{\[])|([}\]])|[^\s{}\[\]:,"]++', re.S)


def _value_offsets(text: str, start: int, end: int) -> dict[str, int]:
    """Pointer (below the value at `start`) → offset of each value of the well-formed JSON value there."""
    found: dict[str, int] = {}
    # the container the scan is in: its pointer and a slash (None outside any), and the next index
    # of an array (-1 in an object); the enclosing containers' are on the stack
    prefix: str | None = None
    index = -1
    stack: list[tuple[str | None, int]] = []
    key = ""
    loads = json.loads
    for match in _EVENT.finditer(text, start, end):
        kind = match.lastindex
        if kind == 1:  # a key
            at, colon = match.start(), match.start(1)
            key = text[at + 1:colon - 1]
            if "\\" in key:
                key = loads(text[at:colon])
            continue
        if kind == 3:
            prefix, index = stack.pop()
            continue
        if prefix is None:
            pointer = ""
        elif index < 0:
            pointer = prefix + (escape_token(key) if "~" in key or "/" in key else key)
        else:
            pointer = prefix + str(index)
            index += 1
        at = match.start()
        found[pointer] = at
        if kind == 2:
            stack.append((prefix, index))
            prefix, index = pointer + "/", -1 if text[at] == "{" else 0
    return found


def json_positions(text: str, first_line: int = 1) -> dict[str, tuple[int, int]]:
    """Map pointer → (line, column) of the start of each value (1-based)."""
    line_starts = [0]
    for match in re.finditer("\n", text):
        line_starts.append(match.end())

    def where(offset: int) -> tuple[int, int]:
        lo, hi = 0, len(line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return (first_line + lo, offset - line_starts[lo] + 1)

    return {pointer: where(offset) for is_key, pointer, _, offset in _json_events(text) if not is_key}


LARGE_CONTAINER = 256 * 1024
"""A container this many characters long or longer is stepped through, not tokenized (see `json_locator`)."""

KEPT_PARTS = 16
"""How many parts' indexes a locator keeps.  Findings are placed tool by tool, so the last few are the
ones asked for again; kept for every tool of a large file, they took more memory than the tools."""

# The json module's own scanners, shared with the layout-keeping fixer (linting/fix_text.py).
JSON_SPACE = re.compile(r"[ \t\n\r]*")  # matches at every offset (maybe nothing): .match() is never None
scan_value = json.JSONDecoder().scan_once  # type: ignore[attr-defined]  # (text, offset) → (value, end)
scan_string = json.decoder.scanstring  # type: ignore[attr-defined]  # exists, but typeshed leaves it out


def json_locator(text: str, first_line: int = 1) -> Callable[[str], tuple[int, int] | None]:
    """locate(pointer) → (line, column) of the value there, or of its deepest ancestor in the document.

    The same answers as `lazy_locator(lambda: json_positions(text))`, for a fraction of the work on a
    large document: containers of `LARGE_CONTAINER` characters or more are indexed one level deep by
    the json scanner (each child's pointer token → its span), and below them each part is tokenized on
    first use (its values' offsets kept; line and column counted when asked).
    """
    def skip(at: int) -> int:
        """The offset of the first character from `at` on that is not JSON white space."""
        return JSON_SPACE.match(text, at).end()  # type: ignore[union-attr]  # the pattern matches "" too

    first = skip(0)
    shallow: dict[int, dict[str, tuple[int, int]]] = {}  # container offset → child token → (start, end)
    parts: dict[int, dict[str, int]] = {}  # part offset → pointer below it → offset of the value
    evicted: set[int] = set()  # the offsets of parts whose index was dropped (see KEPT_PARTS)
    line_starts: list[int] = []

    def children(start: int) -> dict[str, tuple[int, int]]:
        found = shallow.get(start)
        if found is not None:
            return found
        found = shallow[start] = {}
        at = skip(start + 1)
        is_object = text[start] == "{"
        index = 0
        while text[at] not in "}]":
            if is_object:
                key, at = scan_string(text, at + 1)
                at = skip(skip(at) + 1)  # past the colon
                token = escape_token(key) if "~" in key or "/" in key else key
            else:
                token = str(index)
                index += 1
            end = scan_value(text, at)[1]
            found[token] = (at, end)
            at = skip(end)
            if text[at] == ",":
                at = skip(at + 1)
        return found

    def part(start: int, end: int) -> dict[str, int]:
        found = parts.get(start)
        if found is None:
            if len(parts) >= KEPT_PARTS:  # the oldest goes: findings come tool by tool
                oldest = next(iter(parts))
                del parts[oldest]
                evicted.add(oldest)
            found = parts[start] = _value_offsets(text, start, end)
        return found

    def position(offset: int) -> tuple[int, int]:
        if not line_starts:
            line_starts.extend(accumulate(map((1).__add__, map(len, text.split("\n"))), initial=0))
        line = bisect_right(line_starts, offset) - 1
        return (first_line + line, offset - line_starts[line] + 1)

    def locate(pointer: str) -> tuple[int, int] | None:
        try:
            return find(pointer)
        except Exception:  # positions are a convenience; never fail a lint over them
            return None

    def find(pointer: str) -> tuple[int, int] | None:
        if first >= len(text):
            return None
        start, end = first, len(text)
        rest = pointer
        while end - start >= LARGE_CONTAINER and text[start] in "{[" and rest:
            cut = rest.find("/", 1)
            token = rest[1:] if cut < 0 else rest[1:cut]
            child = children(start).get(token)
            if child is None:
                return position(start)
            start, end = child
            rest = "" if cut < 0 else rest[cut:]
        if start in evicted and start not in parts and rest.find("/", 1) < 0 < len(rest) and text[start] in "{[":
            # one level down (a tool's "/name", as the list rules ask once every tool's index has gone):
            # the container's children are stepped through, not the whole part tokenized again
            child = children(start).get(rest[1:])
            return position(start if child is None else child[0])
        index = part(start, end)
        probe = rest
        while True:
            if probe in index:
                return position(index[probe])
            if not probe:
                return None
            probe = probe[: probe.rfind("/")]

    return locate


def json_duplicate_keys(text: str, first_line: int = 1) -> list[tuple[str, str, int]]:
    """(pointer of the object, the key, line of its second occurrence) for each key an object repeats.

    A JSON parser keeps the last value of a repeated key and drops the others
    without a word; the text has parsed already, so the tokenizer can assume
    it is well formed.
    """
    found: list[tuple[str, str, int]] = []
    seen: dict[str, set[str]] = {}  # object pointer → the keys of the object there so far
    for is_key, pointer, key, offset in _json_events(text):
        if not is_key:
            seen.pop(pointer, None)  # a new value starts here (a repeated key's second object is another object)
            continue
        keys = seen.setdefault(pointer, set())
        if key in keys:
            found.append((pointer, key, first_line + text.count("\n", 0, offset)))
        keys.add(key)
    return found


def yaml_positions(node: Any) -> dict[str, tuple[int, int]]:
    """Positions from a ruamel.yaml round-trip tree (CommentedMap/CommentedSeq)."""
    positions: dict[str, tuple[int, int]] = {"": (1, 1)}
    stack: list[tuple[str, Any]] = [("", node)]
    while stack:
        pointer, value = stack.pop()
        lc = getattr(value, "lc", None)
        if isinstance(value, dict):
            for key, child in value.items():
                child_pointer = pointer + "/" + escape_token(str(key))
                if lc is not None:
                    try:
                        line, col = lc.value(key)
                        positions[child_pointer] = (line + 1, col + 1)
                    except (KeyError, TypeError):
                        pass
                stack.append((child_pointer, child))
        elif isinstance(value, list):
            for index, child in enumerate(value):
                child_pointer = f"{pointer}/{index}"
                if lc is not None:
                    try:
                        line, col = lc.item(index)
                        positions[child_pointer] = (line + 1, col + 1)
                    except (KeyError, TypeError):
                        pass
                stack.append((child_pointer, child))
    return positions


def lazy_locator(build: Callable[[], dict[str, tuple[int, int]]]) -> Callable[[str], tuple[int, int] | None]:
    """A locate(pointer) function that builds its index on first use."""
    cache: list[dict[str, tuple[int, int]]] = []

    def locate(pointer: str) -> tuple[int, int] | None:
        if not cache:
            try:
                cache.append(build())
            except Exception:  # positions are a convenience; never fail a lint over them
                cache.append({})
        index = cache[0]
        probe = pointer
        while True:
            if probe in index:
                return index[probe]
            if not probe:
                return None
            probe = probe[: probe.rfind("/")]

    return locate
