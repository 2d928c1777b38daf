"""`toolclause export --check`'s report: what drifted between the contracts and the committed export."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..exporting import Drift


def render_drift(drift: Mapping[str, list[Drift]], limit: int = 50) -> str:
    """Each drifted file and its changes (at most `limit` a file)."""
    lines = []
    for path, changes in drift.items():
        lines.append(f"{path}: {len(changes)} change(s)")
        lines.extend(f"  {change}" for change in changes[:limit])
        if len(changes) > limit:
            lines.append(f"  … and {len(changes) - limit} more")
    return "\n".join(lines) + "\n"
