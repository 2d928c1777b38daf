"""Values kept between processes in a marshal file beside the package's bytecode (in `__pycache__/`).

What `_lazy_re` (compiled patterns) and `_dataclass_code` (dataclasses' compiled methods) keep: a file
read once per process and written again when a process made something new, never under
PYTHONDONTWRITEBYTECODE, and never half-written.  A missing, stale or damaged file reads as nothing.
"""

from __future__ import annotations

import marshal
import os
import sys
from pathlib import Path
from typing import Any

# the interpreter's exact version: what marshal writes (code objects most of all) may change with it
VERSION_TAG = (f"{sys.implementation.cache_tag}.{sys.version_info.micro}{sys.version_info.releaselevel}"
               f"{sys.version_info.serial}")


class Kept:
    """One kept file's values: read on first use, written again by `save` when something was added."""

    __slots__ = ("path", "_values", "added")

    def __init__(self, path: Path) -> None:
        self.path = path
        self._values: dict[Any, Any] | None = None
        self.added = 0  # values added since the file was read or written

    @property
    def values(self) -> dict[Any, Any]:
        if self._values is None:
            self._values = read(self.path)
        return self._values

    def add(self, key: Any, value: Any) -> None:
        self.values[key] = value
        self.added += 1

    def forget(self) -> None:
        """Read the file again on next use, as a new process would."""
        self._values = None

    def save(self) -> None:
        """Write the values when this process added some (and writing bytecode is allowed)."""
        if not self.added or self._values is None or sys.dont_write_bytecode:
            return
        self.added = 0
        write(self.path, self._values)


def read(path: Path) -> dict[Any, Any]:
    try:
        loaded = marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def write(path: Path, value: dict[Any, Any]) -> None:
    if sys.dont_write_bytecode:
        return
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(exist_ok=True)
        temporary.write_bytes(marshal.dumps(value))
        os.replace(temporary, path)  # readers see the old file or the new one, never half of one
    except (OSError, ValueError):  # a read-only installation: made afresh each run, as without the file
        try:
            temporary.unlink()
        except OSError:
            pass
