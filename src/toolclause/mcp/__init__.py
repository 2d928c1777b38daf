"""MCP: live-server loading (and, later, serving), on the official `mcp` SDK.

This package is named like the SDK on purpose (the layer that talks MCP); its modules
import the SDK absolutely (`import mcp` under `from __future__ import
annotations` is the top-level SDK, never this package).  Nothing is imported
here, so `toolclause lint` on files never pays for the SDK.
"""

from __future__ import annotations

from typing import Any

__all__ = ["LiveServerError", "load_server", "load_url", "snapshot_server", "snapshot_url"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import live

        return getattr(live, name)
    raise AttributeError(f"module 'toolclause.mcp' has no attribute {name!r}")
