"""The correction budget (docs/runtime.md): stop a model from repeating the same mistake.

Per (run, tool): the fingerprints of the invalid argument sets seen and the
number of failed attempts.  The same invalid set twice → REPEATED_INVALID_CALL,
whose message says plainly that nothing changed and what to change.  More
failed attempts than the budget (3 corrections after the first mistake) →
REPEATED_INVALID_CALL saying to stop guessing.  A valid call ends the episode:
the tool's state in that run is cleared.

`run` is what the host passes to `call(..., run=…)` (an agent run, a session).
Calls without one have no budget: the gate cannot tell one conversation from
another, and a budget shared by every caller would let one user's mistakes
refuse another user's calls.  Runs are kept in an LRU of `MAX_RUNS`, so a
long-lived server holds bounded state.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from ..schema.fingerprint import fingerprint as canonical_fingerprint

DEFAULT_BUDGET = 3
MAX_RUNS = 1024


@dataclass
class _ToolState:
    fingerprints: set[str] = field(default_factory=set)
    failures: int = 0


def fingerprint(arguments: Any) -> str:
    """The canonical fingerprint (RFC 8785 + SHA-256) of what the model sent.

    What failed may not be JSON at all (text that did not parse, a value with no
    JSON form): its repr stands in, so the same bad input is still recognised.
    """
    try:
        return canonical_fingerprint(arguments)
    except (TypeError, ValueError, RecursionError):
        return hashlib.sha256(repr(arguments).encode("utf-8", "surrogatepass")).hexdigest()


class CorrectionBudget:
    def __init__(self, budget: int = DEFAULT_BUDGET) -> None:
        if not isinstance(budget, int) or budget < 0:
            raise ValueError("the correction budget is a number of attempts, 0 or more")
        self.budget = budget
        self.runs: OrderedDict[Any, dict[str, _ToolState]] = OrderedDict()
        self._lock = threading.Lock()

    def record_failure(self, run: Any, tool: str, arguments: Any) -> str | None:
        """Record an invalid call; 'repeated' or 'exhausted' when REPEATED_INVALID_CALL applies, else None."""
        if run is None:
            return None  # no conversation to key it by: nothing is shared between callers
        key = fingerprint(arguments)
        with self._lock:
            tools = self.runs.get(run)
            if tools is None:
                tools = self.runs[run] = {}
                if len(self.runs) > MAX_RUNS:
                    self.runs.popitem(last=False)
            else:
                self.runs.move_to_end(run)
            state = tools.setdefault(tool, _ToolState())
            repeated = key in state.fingerprints
            state.fingerprints.add(key)
            state.failures += 1
            if repeated:
                return "repeated"
            if state.failures > self.budget + 1:
                return "exhausted"
            return None

    def record_success(self, run: Any, tool: str) -> None:
        with self._lock:
            tools = self.runs.get(run)
            if tools and tool in tools:
                del tools[tool]
