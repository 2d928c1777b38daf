"""The runtime gate: `Toolbox`, `@box.tool`, `box.call` → structured results (docs/runtime.md).

Modules, in the order a call meets them: registry (bound tools, export
routing), arguments (parse), validation (compiled validators, error details),
claim (idempotency/confirmation stage, a pass-through for now), executor (runs
the tool), gate (the path, composed of those parts), envelope (Result and
adapters), errors (ToolError, the code table, boundary translation).
Registration: signature (pydantic → schemas), registration (lint, bind,
compile), toolbox.  Store URLs and store errors live in the `stores` package.
"""

from __future__ import annotations

import logging

from ..stores import PersistenceError, StoreURL
from .envelope import Result
from .errors import CODES, CallError, ToolboxConfigError, ToolclauseRuntimeError, ToolError, ToolRegistrationError
from .reply import Reply
from .toolbox import Toolbox

# A library says nothing unless its user configures logging: without a handler of its own, a failed call in a
# plain script would print through logging's last-resort handler on stderr
logging.getLogger("toolclause").addHandler(logging.NullHandler())

__all__ = ["CODES", "CallError", "PersistenceError", "Reply", "Result", "StoreURL", "ToolError",
           "ToolRegistrationError", "Toolbox", "ToolboxConfigError", "ToolclauseRuntimeError"]
