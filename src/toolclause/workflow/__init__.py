"""Contracts for whole workflows (docs/workflows.md).

- `fixtures.py`     `toolclause test`: every example and fixture of a contracts folder checked
- `schemas.py`      handoff and state schemas by `$id`, compiled against one registry
- `handoffs.py`     `Handoffs`: a handoff validated by `$id` and routed by rules written as data
- `output_types.py` a handoff schema as an Agents SDK `output_type` (imports the `agents` extra)
- `expressions.py`  the rules' small expression language (parsed by hand, never `eval`)
- `checkpoints.py`  `Checkpoints`: workflow state saved and loaded, validated, in the stores
- `fuzz.py`, `mistakes.py`  `toolclause fuzz`: the mistakes models make, thrown at a Toolbox's gate
- `scaffold.py`     `toolclause init`: the files a new project starts with

Each module is imported by what uses it; importing this package costs nothing.
"""

from __future__ import annotations
