"""`load()`: whatever the Python API is given → contracts, or a ValueError saying what could not be read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..model import ToolContract
from .documents import contracts_from_document
from .files import load_paths
from .result import LoadResult
from .text import load_text


def load(source: Any, input_format: str | None = None) -> list[ToolContract]:
    """Python API: a path, a list of paths, a JSON string, or an already-parsed object → contracts.

    Raises ValueError listing what could not be read.
    """
    return load_result(source, input_format).tools


def load_result(source: Any, input_format: str | None = None) -> LoadResult:
    """`load()`, with what else reading found (the keys a JSON object repeats, for lint to report)."""
    if isinstance(source, (str, Path)) and (isinstance(source, Path) or source.lstrip()[:1] not in "{["):
        result = load_paths([source], input_format)
    elif isinstance(source, str):
        result = load_text(source, "<string>", None, input_format)
    elif isinstance(source, (list, tuple)) and source and all(isinstance(s, (str, Path)) for s in source):
        result = load_paths(source, input_format)
    else:
        tools, problems = contracts_from_document(source, "<object>", input_format)
        result = LoadResult(tools=tools, unreadable=problems)
    if result.unreadable:
        raise ValueError("; ".join(f"{u.file}{u.pointer}: {u.message}" for u in result.unreadable))
    return result
