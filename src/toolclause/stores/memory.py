"""`memory://` — records in a dict of this process: for tests, and for one process that may forget on restart."""

from __future__ import annotations

import threading
from collections.abc import Iterable

from .base import Record, RecordKey
from .url import StoreURL


class MemoryStore:
    timeout = 0.0  # a lock held for microseconds: nothing waits

    def __init__(self, url: StoreURL) -> None:
        self.url = url
        self._records: dict[RecordKey, Record] = {}
        self._lock = threading.Lock()

    def claim(self, record: Record, now: float) -> Record | None:
        with self._lock:
            held = self._records.get(record.ident)
            if held is not None and held.live(now):
                return held
            self._records[record.ident] = record
            return None

    def replace(self, record: Record, owner: str) -> bool:
        with self._lock:
            held = self._records.get(record.ident)
            if held is None or held.owner != owner:
                return False
            self._records[record.ident] = record
            return True

    def release(self, ident: RecordKey, owner: str) -> bool:
        with self._lock:
            held = self._records.get(ident)
            if held is None or held.owner != owner:
                return False
            del self._records[ident]
            return True

    def get(self, ident: RecordKey) -> Record | None:
        return self._records.get(ident)

    def records(self, *, tool: str | None = None, key: str | None = None,
                limit: int | None = None) -> Iterable[Record]:
        with self._lock:
            found = [r for r in self._records.values()
                     if (tool is None or r.tool == tool) and (key is None or r.key == key)]
        found.sort(key=lambda r: r.updated_at, reverse=True)
        return found[:limit] if limit is not None else found

    def purge(self, now: float, updated_before: float | None = None) -> int:
        with self._lock:
            doomed = [i for i, r in self._records.items()
                      if not r.live(now) or (updated_before is not None and r.updated_at < updated_before)]
            for ident in doomed:
                del self._records[ident]
        return len(doomed)

    def close(self) -> None:
        return None
