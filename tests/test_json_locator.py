"""Positions in a JSON document: a large one is not indexed whole, and every answer is the whole index's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolclause.loading import positions
from toolclause.loading.positions import json_locator, json_positions, lazy_locator

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def documents() -> list[str]:
    tools = [{"name": f"tool_{i}", "description": f"Does thing {i}.\nOn two lines, with \"quotes\" and [brackets]",
              "inputSchema": {"type": "object", "properties": {
                  "a/b": {"type": "string", "enum": ["x", "y"]}, "c~d": {"type": ["integer", "null"]},
                  "é": {"type": "array", "items": {"type": "object", "properties": {}}}},
                  "required": ["a/b"]}, "annotations": {"readOnlyHint": i % 2 == 0}} for i in range(40)]
    texts = [json.dumps(tools), json.dumps(tools, indent=2), json.dumps({"tools": tools}, indent="\t"),
             json.dumps({"tools": tools, "dup": 1}, ensure_ascii=False, separators=(",", ":")),
             " \n [ ] ", '{"a": {}, "b": [[], [1, 2.5e3, true, null, "]"]]}']
    texts += [p.read_text(encoding="utf-8") for p in sorted(EXAMPLES.rglob("*.json"))]
    return texts


def pointers(text: str) -> list[str]:
    found = list(json_positions(text))
    # pointers that are not in the document: a missing key, an index past the end, a non-canonical index
    # and every one again from the last: a part's children asked for before the part itself
    return found + [p + suffix for p in found[:200] for suffix in ("/missing", "/999", "/01", "/0/x")] + found[::-1]


@pytest.mark.parametrize("large", [1, 64, 10**9])  # every container stepped through; some; none
@pytest.mark.parametrize("kept", [1, 16])  # parts' indexes dropped at once (so one level down is stepped through)
def test_every_position_is_the_whole_index_answer(monkeypatch, large, kept):
    monkeypatch.setattr(positions, "LARGE_CONTAINER", large)
    monkeypatch.setattr(positions, "KEPT_PARTS", kept)
    for text in documents():
        whole = lazy_locator(lambda text=text: json_positions(text, first_line=5))
        part_by_part = json_locator(text, first_line=5)
        for pointer in pointers(text):
            assert part_by_part(pointer) == whole(pointer), (pointer, text[:60])
