"""Every finding on every real server snapshot is pinned, so a change to any finding shows up in review.

tests/golden/servers/<snapshot>.txt lists what `toolclause lint <snapshot>` reports with the default
rules: one line a finding (code, severity, JSON Pointer, message).  A rule change that adds, removes,
re-ranks or rewords a finding on a real server fails here until the golden files are written again:

    TOOLCLAUSE_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_server_findings.py

and the diff of tests/golden/servers/ is what a reviewer reads (and what docs/precision.md's
verdicts must be brought up to date with: `bench/precision.py sample`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import toolclause

SERVERS = Path(__file__).parent / "data" / "servers"
GOLDEN = Path(__file__).parent / "golden" / "servers"
UPDATE = os.environ.get("TOOLCLAUSE_UPDATE_GOLDEN") == "1"
FILES = [entry["file"] for entry in json.loads((SERVERS / "index.json").read_text(encoding="utf-8"))["servers"]]


def findings_text(file: str) -> str:
    lines = [f"{d.code} {d.severity.label} {d.pointer or '-'}  {d.message}".replace("\n", " ")
             for d in toolclause.lint(SERVERS / file)]
    return "".join(line + "\n" for line in lines)


@pytest.mark.parametrize("file", FILES)
def test_the_findings_on_a_real_server_are_the_pinned_ones(file):
    path = GOLDEN / file.replace(".json", ".txt")
    found = findings_text(file)
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(found, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"{path} is missing; run with TOOLCLAUSE_UPDATE_GOLDEN=1 to write it")
    assert found == path.read_text(encoding="utf-8"), (
        f"the findings on {file} changed; if the change is meant, write the golden files again "
        f"(TOOLCLAUSE_UPDATE_GOLDEN=1) and review their diff")


def test_every_golden_file_belongs_to_a_snapshot():
    assert sorted(p.name for p in GOLDEN.glob("*.txt")) == sorted(f.replace(".json", ".txt") for f in FILES)
