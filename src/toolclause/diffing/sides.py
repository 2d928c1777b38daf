"""The two sides of a diff: what each can be, how it is read, and the comparison of the two."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..loading import LoadResult, contracts_from_document, load_paths
from ..model import ToolContract
from .fixtures import with_fixtures
from .git import GIT_PREFIX, load_git
from .model import DiffInputError, DiffReport
from .tools import diff_tools


def load_side(source: Any) -> LoadResult:
    """One side of a diff: a path, `git:REF:PATH`, a list of paths, or parsed tool objects."""
    if isinstance(source, str) and source.startswith(GIT_PREFIX):
        return load_git(source)
    if isinstance(source, (str, Path)):
        result = load_paths([source])
        if Path(source).is_dir():
            result.tools = with_fixtures(Path(source), result)
        return result
    if isinstance(source, (list, tuple)) and source and all(isinstance(t, ToolContract) for t in source):
        return LoadResult(tools=list(source))
    if isinstance(source, (list, tuple)) and source and all(isinstance(s, (str, Path)) for s in source):
        return load_paths(source)
    tools, problems = contracts_from_document(source, "<object>")
    return LoadResult(tools=tools, unreadable=problems)


def readable_sides(old: Any, new: Any) -> tuple[LoadResult, LoadResult]:
    """Both sides loaded, or DiffInputError naming everything that could not be read on either.

    Both are read before anything is compared, so a mistyped path never yields a report
    of tools "added" or "removed" followed by an error.
    """
    before, after = load_side(old), load_side(new)
    problems = [f"{label} side {problem.file}{problem.pointer}: {problem.message}"
                for label, side in (("old", before), ("new", after)) for problem in side.unreadable]
    if problems:
        raise DiffInputError("nothing compared: " + "; ".join(problems))
    return before, after


def diff(old: Any, new: Any) -> DiffReport:
    """Classify every change from `old` to `new` (see the package docstring).

    >>> old = {"name": "get_weather", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}
    >>> new = {"name": "get_weather", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}},
    ...                                               "required": ["city"]}}
    >>> [(c.kind, c.impact.label) for c in diff(old, new).changes]
    [('required-added', 'breaking-calls')]
    """
    before, after = load_side(old), load_side(new)
    report = diff_tools(before.tools, after.tools)
    report.unreadable = before.unreadable + after.unreadable
    return report
