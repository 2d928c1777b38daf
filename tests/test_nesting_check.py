"""The nesting limit is checked on the text before parsing, the same way for every input, well formed or not."""

from __future__ import annotations

import random

from toolclause.loading.text import MAX_NESTING, _nesting_depth_exceeds, parse_json


def one_character_at_a_time(text: str, limit: int) -> bool:
    """The check spelled out: bracket depth outside double-quoted strings (a backslash escapes inside one)."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def test_the_check_agrees_with_the_character_by_character_definition_on_any_text():
    rng = random.Random(19)
    alphabet = '[]{}"\\a \n:,'
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))
        for limit in (0, 1, 2, 3, 5):
            assert _nesting_depth_exceeds(text, limit) == one_character_at_a_time(text, limit), (text, limit)


def test_deep_documents_are_refused_and_brackets_inside_strings_do_not_count():
    deep = "[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1)
    doc, problem = parse_json(deep, "deep.json")
    assert doc is None and problem is not None and problem.code == "too-deep"
    quoted = '["' + "[" * (MAX_NESTING * 2) + '"]'
    doc, problem = parse_json(quoted, "quoted.json")
    assert problem is None and doc == ["[" * (MAX_NESTING * 2)]
    escaped = '["\\"' + "{" * (MAX_NESTING * 2) + '"]'
    assert parse_json(escaped, "escaped.json")[1] is None
    assert not _nesting_depth_exceeds("]" * 600 + "[" * 600, MAX_NESTING)  # stray closers count down first
    assert _nesting_depth_exceeds("]" * 600 + "[" * 1200, MAX_NESTING)
