"""Pause Python's cyclic garbage collector around allocation-heavy batch work.

Loading and linting allocate hundreds of thousands of acyclic containers (parsed
JSON, schema nodes, findings, diagnostics).  Each burst of allocations triggers a
collection, and the older generations' collections traverse every loaded tool
again: about a fifth of a corpus run was spent there, collecting nothing.
Reference counting still frees everything as usual; any cycles made meanwhile
are collected once the collector is back on.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """Disable the cyclic collector inside the block (re-entrant; restores the caller's state)."""
    was_enabled = gc.isenabled()
    if was_enabled:
        gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            # What the block allocated is counted as new; the first collection after it would
            # traverse all of it (a fifth of a second after linting the corpus) to free nothing.
            # Freezing and unfreezing moves every object to the oldest generation untouched: the
            # next full collection, when the heap has grown enough for one, still frees any cycle.
            gc.freeze()
            gc.unfreeze()
            gc.enable()
