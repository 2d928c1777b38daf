"""Fixture files as evidence: the old version's valid examples, checked against the new schema."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from ..model import ToolContract


def with_fixtures(root: Path, tools: list[ToolContract]) -> list[ToolContract]:
    """Attach `examples/<tool>/valid/*.json` fixtures found under a contracts folder."""
    out = []
    for tool in tools:
        folder = root / "examples" / tool.name / "valid"
        fixtures = []
        if folder.is_dir():
            for file in sorted(folder.glob("*.json")):
                try:
                    fixtures.append((str(file.relative_to(root)), json.loads(file.read_text(encoding="utf-8"))))
                except (OSError, ValueError):
                    continue
        if fixtures:
            tool = dataclasses.replace(tool, extra={**tool.extra, "fixtures": fixtures})
        out.append(tool)
    return out
