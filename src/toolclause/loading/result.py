"""What loading produces: the tools, what could not be read, and the parsed documents."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..model import Fixture, SchemaDocument, ToolContract, Unreadable


@dataclass
class LoadResult:
    """Everything read from some sources.

    `files` counts the tool files read (a folder's files that hold something
    else are not counted, nor are handoffs, state schemas and fixtures, which
    have their own lists); `documents` maps a tool file to its parsed document,
    for `--fix`.
    """

    tools: list[ToolContract] = field(default_factory=list)
    unreadable: list[Unreadable] = field(default_factory=list)
    files: int = 0
    documents: dict[str, Any] = field(default_factory=dict)
    handoffs: list[SchemaDocument] = field(default_factory=list)
    states: list[SchemaDocument] = field(default_factory=list)
    fixtures: list[Fixture] = field(default_factory=list)  # fixture files; see contract_files.every_fixture

    def extend(self, other: LoadResult) -> None:
        self.tools.extend(other.tools)
        self.unreadable.extend(other.unreadable)
        self.files += other.files
        self.documents.update(other.documents)
        self.handoffs.extend(other.handoffs)
        self.states.extend(other.states)
        self.fixtures.extend(other.fixtures)
