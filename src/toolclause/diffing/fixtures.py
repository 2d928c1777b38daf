"""Fixture files as evidence: the old version's valid examples, checked against the new schema."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from ..loading import LoadResult
from ..loading.contract_files import belongs_to
from ..model import Fixture, ToolContract


def with_fixtures(root: Path, loaded: LoadResult) -> list[ToolContract]:
    """The tools of a contracts folder, each carrying its valid fixture files as `extra["fixtures"]`.

    A fixture is labelled by its path below the folder (`examples/<tool>/valid/x.json`).  Only the
    tool's own contracts folder's fixtures are its evidence: a folder nested in `root` may have a
    tool of the same name that takes other arguments.
    """
    by_name: dict[str, list[Fixture]] = {}
    for fixture in loaded.fixtures:
        if fixture.valid:
            by_name.setdefault(fixture.tool, []).append(fixture)
    return [_carrying(tool, [(Path(fixture.origin.file).relative_to(root).as_posix(), fixture.arguments)
                             for fixture in by_name.get(tool.name, ()) if belongs_to(fixture, tool)])
            for tool in loaded.tools]


def _carrying(tool: ToolContract, fixtures: list[tuple[str, Any]]) -> ToolContract:
    return dataclasses.replace(tool, extra={**tool.extra, "fixtures": fixtures}) if fixtures else tool
