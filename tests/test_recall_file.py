"""The hand-read recall set (tests/data/servers/recall.jsonl) names real tools and places in them.

bench/recall.py measures the T family's recall on it; a record that named a tool no snapshot
holds, a class outside 1–14 or a pointer into nothing would be counted as a miss for ever.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SERVERS = Path(__file__).parent / "data" / "servers"
RECORDS = [json.loads(line) for line in (SERVERS / "recall.jsonl").read_text(encoding="utf-8").splitlines()
           if line.strip()]


def _tool(file: str, name: str) -> dict | None:
    listing = json.loads((SERVERS / file).read_text(encoding="utf-8"))
    return next((t for t in listing.get("tools", []) if t.get("name") == name), None)


def _resolves(document: object, pointer: str) -> bool:
    node = document
    for token in pointer.lstrip("/").split("/") if pointer not in ("", "/") else []:
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return False
    return True


def test_the_set_covers_every_server_and_over_200_tools():
    assert len(RECORDS) >= 200
    index = json.loads((SERVERS / "index.json").read_text(encoding="utf-8"))
    assert {r["file"] for r in RECORDS} == {s["file"] for s in index["servers"]}
    assert len({(r["file"], r["tool"]) for r in RECORDS}) == len(RECORDS)


@pytest.mark.parametrize("record", RECORDS, ids=[f"{r['file']}::{r['tool']}" for r in RECORDS])
def test_each_defect_is_a_class_at_a_place_of_a_real_tool(record):
    tool = _tool(record["file"], record["tool"])
    assert tool is not None
    for defect in record["defects"]:
        assert defect["class"] in range(1, 15)
        assert defect["confidence"] in ("high", "low")
        assert defect["quote"].strip()
        # the place may end in a keyword the schema lacks ("…/required" of a missing list): its holder exists
        assert _resolves(tool, defect["pointer"]) or _resolves(tool, defect["pointer"].rsplit("/", 1)[0])
