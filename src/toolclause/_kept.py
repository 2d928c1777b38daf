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
