"""Golden files pin each target's output for a representative set of contracts.

The inputs are examples/ but for the food app (with S002's safe type fixes) and tests/fixtures/export/.
Refresh after an intended change with

    TOOLCLAUSE_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_export_golden.py

and review the diff like code.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from toolclause import lint
from toolclause.exporting import LINT_TARGETS, dumps, export

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = Path(__file__).parent / "golden" / "export"
FIXTURES = Path(__file__).parent / "fixtures" / "export"
# the examples of what lint catches; examples/food, a whole app with its own tests, and examples/acme-toolclause,
# a rule plugin, are not pinned here
# (in the order a folder is read: its files, then its folders)
INPUTS = [*sorted((p for p in (ROOT / "examples").iterdir() if p.name not in ("food", "acme-toolclause", "README.md")),
                  key=lambda p: (p.is_dir(), p.name)), FIXTURES / "tools.json"]
UPDATE = os.environ.get("TOOLCLAUSE_UPDATE_GOLDEN") == "1"

VARIANTS = {
    "openai-chat": ("openai-chat", False, {}), "openai-chat-strict": ("openai-chat", True, {}),
    "openai-responses": ("openai-responses", False, {}), "openai-responses-strict": ("openai-responses", True, {}),
    "anthropic": ("anthropic", False, {}), "anthropic-strict": ("anthropic", True, {}),
    "gemini": ("gemini", False, {}), "gemini-openapi": ("gemini", False, {"schema": "openapi"}),
    "mcp": ("mcp", False, {}), "mcp-list": ("mcp", False, {"shape": "list"}),
    "a2a": ("a2a", False, {}), "structured-output": ("structured-output", False, {}),
    "structured-output-strict": ("structured-output", True, {}),
}


def _render(name: str) -> str:
    target, strict, settings = VARIANTS[name]
    source = FIXTURES / "schemas" if target == "structured-output" else [str(p) for p in INPUTS]
    result = export(source, target, strict, fix_types=True, settings=settings)
    return dumps({"document": result.document(), "routing": result.routing(),
                  "losses": [loss.to_dict() for loss in result.losses]})


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_export_matches_golden(name):
    path = GOLDEN / f"{name}.json"
    text = _render(name)
    if UPDATE or not path.exists():
        if not UPDATE:
            pytest.fail(f"{path} is missing; run with TOOLCLAUSE_UPDATE_GOLDEN=1 to create it")
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text, f"{name} drifted; refresh with TOOLCLAUSE_UPDATE_GOLDEN=1"


def test_every_golden_file_belongs_to_a_variant():
    assert sorted(p.stem for p in GOLDEN.glob("*.json")) == sorted(VARIANTS)


@pytest.mark.parametrize("name", [n for n, (t, s, _) in VARIANTS.items() if (t, s) in LINT_TARGETS])
def test_golden_exports_pass_their_target_rules(name):
    target, strict, _ = VARIANTS[name]
    document = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))["document"]
    errors = [d for d in lint(document, targets=[LINT_TARGETS[(target, strict)]],
                              select=["P001", "P002", "P003", "P007", "N001", "N005"]) if d.severity.label == "error"]
    assert [f"{d.tool} {d.code} {d.message}" for d in errors] == []
