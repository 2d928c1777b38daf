"""Fixture files as evidence: the old version's valid examples, checked against the new schema."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from ..loading import LoadResult
from ..model import ToolContract


def with_fixtures(root: Path, loaded: LoadResult) -> list[ToolContract]:
    """The tools of a contracts folder, each carrying its valid fixture files as `extra["fixtures"]`.

    A fixture is labelled by its path below the folder (`examples/<tool>/valid/x.json`).
    """
    found: dict[str, list[tuple[str, Any]]] = {}
    for fixture in loaded.fixtures:
        if fixture.valid:
            label = Path(fixture.origin.file).relative_to(root).as_posix()
            found.setdefault(fixture.tool, []).append((label, fixture.arguments))
    return [dataclasses.replace(tool, extra={**tool.extra, "fixtures": found[tool.name]}) if tool.name in found
            else tool for tool in loaded.tools]
