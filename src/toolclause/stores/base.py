"""The store protocol: one record per (principal, tool, key), changed only atomically.

A record is what an idempotent call leaves behind::

    CLAIMED ──start──▶ IN_PROGRESS ──complete──▶ COMPLETED   the outcome stored; replayed to duplicates
       │                    │      ──complete──▶ FAILED      a failure after the tool started; replayed too
       │                    └──────release─────▶ (deleted)   the tool said nothing happened: the next call runs
       └── its short window passed, never started ──▶ free   (a claimant that gave up: the key is free at once)

A claim is written CLAIMED, with `lease_until` and `expires_at` both at the end
of a short window (the store's own timeout); the claimant marks it started
(IN_PROGRESS, the tool's lease) with `replace` before the tool runs.  A claim
that lands after its claimant gave up (a store that hung, then resumed) is
therefore never started: once its window has passed it is expired like any
other record, and the next claim of the key takes it over.  A started record is
never taken over by a claim while its retention lasts.

Expiry is decided by the caller's clock and read from the record's own fields
(`expires_at` for retention, `lease_until` for an in-progress claim); a
backend's TTL only frees space.  "Expired" is never a stored state.

Every change is conditional, so two processes can never both believe they own
a record:

- `claim(record, now)` inserts `record` unless a live record holds its key
  (one whose `expires_at` is still ahead of `now`); it returns None when the
  claim is granted and the holding record otherwise.
- `replace(record, owner)` overwrites the record only while `owner` still holds
  it: completing, renewing a lease and taking over an expired lease are all
  this one compare-and-set.
- `release(ident, owner)` deletes the record only while `owner` holds it.

Stores are used from many threads at once; each backend guards itself.
Failures raise `PersistenceError`; a store that cannot be opened raises
`StoreConfigError` from its constructor, so a bad URL fails at start-up.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, Protocol, runtime_checkable

from .url import StoreURL

CLAIMED = "CLAIMED"          # claimed, the tool not started yet
IN_PROGRESS = "IN_PROGRESS"  # the tool started (it may have taken effect)
COMPLETED = "COMPLETED"
FAILED = "FAILED"
STATUSES = (CLAIMED, IN_PROGRESS, COMPLETED, FAILED)
PENDING = frozenset({CLAIMED, IN_PROGRESS})  # no outcome yet


@dataclass(frozen=True, slots=True)
class RecordKey:
    """The scope of a key: the same key from another principal or for another tool is another record."""

    principal: str
    tool: str
    key: str


@dataclass(frozen=True, slots=True)
class Record:
    principal: str
    tool: str
    key: str
    fingerprint: str          # SHA-256 of the canonical arguments: the same key with other arguments is refused
    status: str               # CLAIMED | IN_PROGRESS | COMPLETED | FAILED
    owner: str                # the claim's random token; only its holder may change the record
    created_at: float         # epoch seconds, the claimant's clock
    updated_at: float
    lease_until: float        # CLAIMED: the window to start in; IN_PROGRESS: the lease (renewed while the tool runs)
    expires_at: float         # the record may be forgotten from then on (retention)
    outcome: str | None = None  # COMPLETED / FAILED: the stored outcome, JSON text the store never reads
    request_key: str = ""     # the caller's own key where the record is keyed by something else (a confirmation)

    @property
    def ident(self) -> RecordKey:
        return RecordKey(self.principal, self.tool, self.key)

    def live(self, now: float) -> bool:
        return now < self.expires_at

    def lease_expired(self, now: float) -> bool:
        return self.status == IN_PROGRESS and now >= self.lease_until

    def evolve(self, **changes: Any) -> Record:
        return replace(self, **changes)


@runtime_checkable
class Store(Protocol):
    """What every backend implements; `tests/stores/contract.py` is the contract they all pass."""

    url: StoreURL
    timeout: float  # seconds an operation may wait before it raises PersistenceError (0: it never waits)

    def claim(self, record: Record, now: float) -> Record | None:
        """Insert `record` unless a live one holds its key: None if granted, else the live record."""

    def replace(self, record: Record, owner: str) -> bool:
        """Overwrite the record with the same key while `owner` holds it; False if it does not (or it is gone)."""

    def release(self, ident: RecordKey, owner: str) -> bool:
        """Delete the record while `owner` holds it."""

    def get(self, ident: RecordKey) -> Record | None:
        """The record, live or not (the caller judges expiry)."""

    def records(self, *, tool: str | None = None, key: str | None = None,
                limit: int | None = None) -> Iterable[Record]:
        """Records, newest first, optionally of one tool or one key."""

    def purge(self, now: float, updated_before: float | None = None) -> int:
        """Delete records expired at `now`, and (if given) every record last changed before `updated_before`."""

    def close(self) -> None:
        """Release connections; the store is not used afterwards."""


__all__ = ["CLAIMED", "COMPLETED", "FAILED", "IN_PROGRESS", "PENDING", "Record", "RecordKey", "STATUSES", "Store"]
