"""Line and column of every value in a JSON or YAML document, by JSON Pointer.

Computed lazily: only documents that get diagnostics pay for it.  The JSON
indexer is a tokenizer over text that has already parsed, so it can assume the
text is well formed; it is iterative, so depth costs no recursion.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
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
