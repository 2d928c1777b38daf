"""Running `toolclause diff OLD NEW`: both sides read, classified, rendered, and the exit code."""

from __future__ import annotations

from typing import Any

from ..diffing import DiffInputError, diff_tools, exit_code, readable_sides
from ..loading.mcp_config import CONFIG_PREFIX
from ..report.diff import render
from .snapshot_command import SERVER_PREFIX, URL_PREFIX, live_side


def run_diff(old: str, new: str, fmt: str, fail_on: str, color: bool) -> tuple[str, int]:
    """(output, exit code); raises DiffInputError, before any output, when either side cannot be read."""
    before, after = readable_sides(*(_side(side) for side in (old, new)))
    report = diff_tools(before.tools, after.tools)
    return render(report, fmt, color), exit_code(report, fail_on)


def _side(side: str) -> Any:
    """A side as the diff reads it: `server:CMD`, `url:URL` and `config:FILE#NAME` (a server of an MCP
    client configuration) become the live server's snapshot."""
    if not side.startswith((SERVER_PREFIX, URL_PREFIX, CONFIG_PREFIX)):
        return side
    from ..mcp.live import LiveServerError  # the SDK is imported only for live servers

    try:
        if side.startswith(CONFIG_PREFIX):
            from .configured import configured_side

            return configured_side(side)
        return live_side(side)
    except (LiveServerError, ValueError) as exc:
        raise DiffInputError(str(exc)) from None


__all__ = ["DiffInputError", "run_diff"]
