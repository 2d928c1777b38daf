"""Contracts for whole workflows (docs/workflows.md).

- `fixtures.py`  `toolclause test`: every example and fixture of a contracts folder checked
- `schemas.py`   handoff and state schemas by `$id`, compiled against one registry

Each module is imported by what uses it; importing this package costs nothing.
"""

from __future__ import annotations
