"""toolclause diff: what changed between two versions of a tool set, and whether it breaks anyone.

Each side is anything `lint` reads (files, folders, exported tool lists, JSONL)
or `git:REF:PATH`, read from the repository without checking anything out
(`git.py`).  Tools are matched by name, then by `$id` across renames
(`tools.py`); each change has a kind from `kinds.DIFF_KINDS`, classified as
breaking-calls, breaking-results, risky or compatible by what the schemas
accept (`schemas.py`, on both schemas in one normal form, `equivalence.py`, so
that two spellings of one accepted set are no change), and the old version's examples and fixtures
(`fixtures.py`) are validated against the new one as evidence.
"""

from __future__ import annotations

from .kinds import DIFF_KINDS
from .model import Change, DiffInputError, DiffReport, Impact, changes_by_tool, exit_code
from .sides import diff, load_side, readable_sides
from .tools import diff_tools, match_tools

__all__ = ["Change", "DIFF_KINDS", "DiffInputError", "DiffReport", "Impact", "changes_by_tool", "diff", "diff_tools",
           "exit_code", "load_side", "match_tools", "readable_sides"]
