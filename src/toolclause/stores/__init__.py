"""Where idempotency records live: one protocol, one module per backend (below the runtime).

base.py (the record and the `Store` protocol), url.py (which backend a URL
names), errors.py (what a store raises), opening.py (`open_store`), and one
module per backend: memory.py, sqlite.py, redis.py, postgres.py.  Drivers are
imported only when a URL names their backend.
"""

from __future__ import annotations

from .base import CLAIMED, COMPLETED, FAILED, IN_PROGRESS, Record, RecordKey, Store
from .errors import PersistenceError, StoreConfigError, StoreError
from .opening import open_store
from .url import DEFAULT_STORE, StoreURL

__all__ = ["CLAIMED", "COMPLETED", "DEFAULT_STORE", "FAILED", "IN_PROGRESS", "PersistenceError", "Record", "RecordKey",
           "Store", "StoreConfigError", "StoreError", "StoreURL", "open_store"]
