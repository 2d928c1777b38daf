"""What loading produces: the tools, what could not be read, and the parsed documents."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..model import Fixture, SchemaDocument, ToolContract, Unreadable

if TYPE_CHECKING:
    from .client_configs import ClientConfig


@dataclass(frozen=True)
class DuplicateKey:
    """A key an object repeats in a JSON file: a parser keeps its last value and drops the others silently."""

    file: str
    pointer: str  # the object that repeats it, in the file (for JSONL, in the record on `line`)
    key: str
    line: int  # where it is repeated (for JSONL, the record's line)


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
    duplicate_keys: list[DuplicateKey] = field(default_factory=list)  # reported as warnings, the file still read
    client_configs: list[ClientConfig] = field(default_factory=list)  # MCP client configurations (family M rules)

    def extend(self, other: LoadResult) -> None:
        self.tools.extend(other.tools)
        self.unreadable.extend(other.unreadable)
        self.files += other.files
        self.documents.update(other.documents)
        self.handoffs.extend(other.handoffs)
        self.states.extend(other.states)
        self.fixtures.extend(other.fixtures)
        self.duplicate_keys.extend(other.duplicate_keys)
        self.client_configs.extend(other.client_configs)
