"""Real MCP servers' tool listings, snapshotted: the rules' precision and recall on them.

`tests/data/servers/` holds one `tools/list` snapshot per server (taken with
`toolclause snapshot`; `index.json` names each package and version).  No test here
needs the network.  Each defect class the rules once had on real servers has a
test: from a snapshot where one shows it, else from a faithful synthetic tool.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import toolclause

SERVERS = Path(__file__).parent / "data" / "servers"
INDEX = json.loads((SERVERS / "index.json").read_text(encoding="utf-8"))
FILES = [entry["file"] for entry in INDEX["servers"]]


def snapshot(file: str) -> dict:
    return json.loads((SERVERS / file).read_text(encoding="utf-8"))


def tool_of(file: str, name: str) -> dict:
    return next(t for t in snapshot(file)["tools"] if t["name"] == name)


def lint(obj, *codes, targets=None):
    return [d for d in toolclause.lint(obj, select=list(codes), targets=targets) if d.code in codes]


def test_index_names_every_snapshot_with_its_origin():
    on_disk = sorted(p.name for p in SERVERS.glob("*.json") if p.name != "index.json")
    assert sorted(FILES) == on_disk
    for entry in INDEX["servers"]:
        assert entry["registry"] in ("npm", "pypi") and entry["package"] and entry["version"]
        assert entry["tools"] == len(snapshot(entry["file"])["tools"])
    assert INDEX["total_tools"] >= 200


@pytest.mark.parametrize("file", FILES)
def test_every_snapshot_lints_without_crashing(file):
    toolclause.lint(snapshot(file), targets=["all"])
