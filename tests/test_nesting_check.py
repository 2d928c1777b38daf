"""The nesting limit is checked on the text before parsing, the same way for every input, well formed or not."""

from __future__ import annotations

import json
import random

from toolclause.loading.text import MAX_NESTING, _nesting_depth_exceeds, _parsed_json_nesting_exceeds, parse_json


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


def _random_document(rng: random.Random, depth: int = 0):
    """JSON values whose strings hold what a bracket count could trip on: brackets, quotes, backslashes."""
    pieces = ["[", "]", "{", "}", '"', "\\", '\\"', "\\\\", "é[", "\ud83d", "x", " "]
    roll = rng.random()
    if depth > 7 or roll < 0.3:
        return "".join(rng.choice(pieces) for _ in range(rng.randrange(4))) if roll < 0.2 else rng.randrange(9)
    if roll < 0.65:
        return [_random_document(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {"".join(rng.choice(pieces) for _ in range(rng.randrange(3))): _random_document(rng, depth + 1)
            for _ in range(rng.randrange(4))}


def test_the_check_on_text_that_parsed_agrees_with_the_definition_on_any_json():
    rng = random.Random(23)
    for _ in range(5_000):
        text = json.dumps(_random_document(rng), ensure_ascii=rng.random() < 0.5)
        for limit in (0, 1, 2, 3, 5, 8):
            assert _parsed_json_nesting_exceeds(text, limit) == one_character_at_a_time(text, limit), (text, limit)


def test_a_deep_document_that_parses_or_does_not_is_too_deep_and_one_that_is_not_json_is_invalid():
    for text in ("[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1),  # parses (under the recursion limit)
                 "[" * 5_000 + "]" * 5_000,  # json.loads gives up first
                 "[" * (MAX_NESTING + 1) + "1,"):  # deep, and not JSON
        assert parse_json(text, "deep.json")[1].code == "too-deep"
    assert parse_json("[" * 10 + "1,", "bad.json")[1].code == "invalid-json"
    duplicates: list = []
    nested_repeat = "[" * (MAX_NESTING + 1) + '{"a": 1, "a": 2}' + "]" * (MAX_NESTING + 1)
    assert parse_json(nested_repeat, "deep.json", duplicates)[1].code == "too-deep" and duplicates == []
