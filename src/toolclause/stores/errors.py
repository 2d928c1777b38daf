"""What a store raises.

    StoreError
     ├── PersistenceError     the store failed while in use (unreachable, a write refused, a timeout)
     └── StoreConfigError     a store that cannot be opened: a URL it cannot use, a missing driver,
                              a server that cannot be reached when the store is opened

Both carry the store's own words (host names, paths, SQL) for the log; the
runtime never shows them to a model.
"""

from __future__ import annotations


class StoreError(Exception):
    """Base of the errors a store raises."""


class PersistenceError(StoreError):
    """The store failed while in use (unreachable, a write refused, a timeout)."""


class StoreConfigError(StoreError, ValueError):
    """A store that cannot be opened: an unusable URL, a missing driver, an unreachable server."""


__all__ = ["PersistenceError", "StoreConfigError", "StoreError"]
