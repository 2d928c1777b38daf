"""What `lint` and `export` read: files and folders, and Python Toolboxes named as TARGET.

`app.py:box` (an existing .py file, then a name) or `package.module:box` (a dotted name that is
no file) is imported and its tools read as a client would list them (toolclause.mcp.target), so
tools written in code get the same checks as a folder of contracts.  Everything else is a path.
The SDK and the runtime are imported only when a TARGET is given.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .. import _lazy_re as re
from ..loading import LoadResult, contracts_from_document, load_paths

_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")


class TargetUnreadable(Exception):
    """A TARGET that names nothing importable (one line)."""


def is_python_target(argument: str) -> bool:
    where, colon, name = argument.rpartition(":")
    if not colon or not where or not _MODULE.fullmatch(name) or Path(argument).exists():
        return False
    return (where.endswith(".py") and Path(where).is_file()) or bool(_MODULE.fullmatch(where))


def load_sources(paths: Sequence[str], input_format: str | None, exclude: Sequence[str] = ()) -> LoadResult:
    targets = [p for p in paths if is_python_target(p)]
    files = [p for p in paths if p not in targets]
    loaded = load_paths(files, input_format, exclude=exclude) if files else LoadResult()
    if targets:
        from ..mcp.target import TargetError, load_toolbox_located

        for spec in targets:
            try:
                listing, locate = load_toolbox_located(spec)  # findings point at the functions' lines
            except TargetError as exc:
                raise TargetUnreadable(str(exc)) from None
            tools, unreadable = contracts_from_document(listing, spec, "mcp", locate)
            loaded.tools.extend(tools)
            loaded.unreadable.extend(unreadable)
            loaded.files += 1
    return loaded


__all__ = ["TargetUnreadable", "is_python_target", "load_sources"]
