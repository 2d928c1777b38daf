"""Where a server command's warnings go: standard error, one line each.

The library gives its `toolclause` logger a NullHandler (a library says nothing its user did not
ask for), so without this `serve` and `proxy` would drop the warnings an operator needs (a slow
client closed, an upstream restarted).  The format is the bare message, as Python's last-resort
handler printed it before.
"""

from __future__ import annotations

import logging
import sys

_MARK = "toolclause-cli-stderr"


def log_to_stderr() -> None:
    """Send the `toolclause` logger's warnings and errors to standard error (once a process)."""
    logger = logging.getLogger("toolclause")
    if any(getattr(h, "name", None) == _MARK for h in logger.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.set_name(_MARK)
    handler.setLevel(logging.WARNING)
    handler.setFormatter(logging.Formatter("%(message)s"))
    logger.addHandler(handler)


__all__ = ["log_to_stderr"]
