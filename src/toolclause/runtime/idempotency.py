"""The claim stage over a store: one execution per (principal, tool, key), and the truth when that is unsure.

    claim   the key is free          → a ticket: the claim is marked started, then the call runs
                                       (its lease renewed while it runs)
            done, same arguments     → the stored outcome, `replayed: true` (a business failure too)
            done, other arguments    → IDEMPOTENCY_KEY_REUSED
            running                  → IDEMPOTENCY_IN_PROGRESS, or a bounded wait for the outcome
            running, lease expired   → OUTCOME_UNKNOWN (reconcile) — or, for a tool annotated
                                       idempotent (repeating it changes nothing more), a fresh run
    complete  store the outcome (COMPLETED, or FAILED for a business error)
    release   forget the claim (a transient failure: the same call may run again)

The store decides atomically who holds a key; expiry is judged here, by this
process's clock, from the record's own times.  A claim is written CLAIMED,
expiring after a short window (the store's own timeout), and marked started
(IN_PROGRESS) by a compare-and-set before the ticket is handed out: a claim
that reached the store after its claimant gave up (a store that hung, then
resumed) never started, and the next call takes the key over once its window
has passed — by then the claimant has long answered PERSISTENCE_ERROR.  A store that cannot be reached
raises `PersistenceError` and the gate fails closed.  Completed records are
also kept in a small in-process cache (they do not change until they expire).
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from ..schema.fingerprint import fingerprint
from ..stores.base import CLAIMED, COMPLETED, FAILED, IN_PROGRESS, PENDING, Record, RecordKey, Store
from ..stores.errors import PersistenceError
from .claim import CallContext, Ticket
from .confirmation import Confirmations, confirmation_required
from .envelope import Result
from .errors import CallError, standard_error
from .policy import CONFIRMATION_TOKEN, KEY_PATTERN
from .signature import IDEMPOTENCY_KEY

logger = logging.getLogger("toolclause.runtime")

RETENTION = 24 * 3600.0
LEASE = 300.0          # for a tool without a timeout
LEASE_MARGIN = 30.0    # added to a tool's timeout
MAX_WAIT = 10.0
RETRY_AFTER_MS = 1000
# SEP-3182 names the two refusals by `type` in the first detail; `problem` is toolclause's own word
_IN_PROGRESS_DETAIL = {"problem": "inProgress", "type": "idempotency_key_in_progress", "retryAfterMs": RETRY_AFTER_MS}
_CONFLICT_DETAIL = {"problem": "keyReused", "type": "idempotency_key_conflict"}
CACHE_SIZE = 256
CLAIM_WINDOW = 5.0        # for a store that does not say how long it waits
CLAIM_WINDOW_FLOOR = 1.0  # the least time a claim has to be marked started


class IdempotencyStage:
    active = True
    selective = True  # only tools whose policy claims come here; the rest skip the stage at no cost

    def __init__(self, store: Store | Callable[[], Store], *, retention: float = RETENTION, lease: float = LEASE,
                 lease_margin: float = LEASE_MARGIN, max_wait: float = MAX_WAIT, cache_size: int = CACHE_SIZE,
                 claim_window: float | None = None,
                 confirmations: Callable[[], Confirmations | None] = lambda: None,
                 trace: Callable[[], str] = lambda: "", clock: Callable[[], float] = time.time) -> None:
        # a store, or how to open it on first use (so a toolbox that is only listed never opens one)
        self._store: Store | None = None if callable(store) else store
        self._open = store if callable(store) else None
        self.retention, self.lease, self.lease_margin, self.max_wait = retention, lease, lease_margin, max_wait
        self._claim_window = claim_window
        self._confirmations = confirmations
        self._trace = trace
        self.clock = clock
        self._cache: OrderedDict[RecordKey, Record] = OrderedDict()
        self._cache_size = cache_size
        self._cache_lock = threading.Lock()
        self.leases = LeaseKeeper(lambda: self.store, clock)

    @property
    def store(self) -> Store:
        if self._store is None:
            assert self._open is not None
            try:
                self._store = self._open()
            except Exception as exc:  # noqa: BLE001 - a store that cannot be opened fails the call closed
                raise PersistenceError(f"the store could not be opened: {exc}") from exc
        return self._store

    @property
    def claim_window(self) -> float:
        """How long a new claim waits to be marked started before another call may take the key over.

        The store's own timeout: a claimant that gave up on the store waited at least that long,
        so a claim of its that lands late has already expired by the time it answered.
        """
        if self._claim_window is not None:
            return self._claim_window
        return max(float(getattr(self.store, "timeout", CLAIM_WINDOW)), CLAIM_WINDOW_FLOOR)

    # ------------------------------------------------------------------ the stage

    def claim(self, call: CallContext) -> Ticket | Result | None:
        granted = self._claim(call)
        return self._start(call, granted) if type(granted) is Ticket else granted

    def _claim(self, call: CallContext) -> Ticket | Result | None:
        policy = call.policy
        fp = fingerprint(policy.fingerprinted(call.arguments))
        principal = call.principal or ""
        request_key = call.idempotency_key or _argument_key(call)
        if policy.commit_of is not None:
            return self._claim_commit(call, fp, principal, request_key or "")
        key = request_key
        if key is None and policy.mode == "host" and call.call_id:
            key = call.call_id
        if key is None and policy.mode == "content":
            key = "content:" + fp
        if key is None and policy.key_optional:
            return None  # the tool's own schema makes the key optional: this call runs, unprotected
        if key is None:
            how = ("pass idempotency_key to the call (the host's key, e.g. from its tool-call id)"
                   if policy.mode == "host" else f"send '{IDEMPOTENCY_KEY}': a new key for a new operation, "
                                                 f"the same key when retrying")
            return self._error(call, "IDEMPOTENCY_KEY_REQUIRED", f"{call.tool}: this tool changes state and "
                                                                   f"needs an idempotency key; {how}")
        if not KEY_PATTERN.fullmatch(key):  # a host's own id in another alphabet: the same id, a valid key
            key = "h:" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
        retention = self.retention
        if policy.prepares is not None and (conf := self._confirmations()) is not None:
            retention = min(retention, conf.ttl)  # a replayed preview never hands out an expired token
        return self._claim_key(call, RecordKey(principal, call.tool, key), fp, "", retention)

    def complete(self, ticket: Ticket, result: Result) -> None:
        with ticket.state["lock"]:
            record = self._finish(ticket)
            if record is None:
                return
            now = self.clock()
            outcome = _encode(result)
            for held in _held(ticket, record):
                final = held.evolve(status=COMPLETED if result.ok else FAILED, outcome=outcome, updated_at=now,
                                    lease_until=now, expires_at=now + ticket.state["retention"])
                if self.store.replace(final, held.owner):
                    self._remember(final)
                else:
                    logger.warning("%s: the claim on key %r was taken over after its lease expired; this run's "
                                   "outcome was not stored", held.tool, held.key)

    def release(self, ticket: Ticket) -> None:
        with ticket.state["lock"]:
            record = self._finish(ticket)
            if record is not None:
                for held in _held(ticket, record):
                    self.store.release(held.ident, held.owner)

    def abandon(self, ticket: Ticket) -> None:
        """Stop renewing a claim whose run was cut short: once its lease expires the outcome is unknown."""
        with ticket.state["lock"]:
            self._finish(ticket)

    def _finish(self, ticket: Ticket) -> Record | None:
        """Mark a ticket done (under its lock) and stop renewing it; its record, or None if it was done already."""
        if ticket.state["done"]:
            return None
        ticket.state["done"] = True
        self.leases.discard(ticket)
        return ticket.state["record"]

    def close(self) -> None:
        self.leases.stop()
        if self._store is not None:
            self._store.close()

    # ------------------------------------------------------------------ claiming

    def _claim_key(self, call: CallContext, ident: RecordKey, fp: str, request_key: str,
                   retention: float) -> Ticket | Result:
        lease = (call.timeout + self.lease_margin) if call.timeout else self.lease
        now = self.clock()
        cached = self._cached(ident, now)
        if cached is not None:
            return self._settled(call, cached, fp, request_key)
        deadline = now + min(max(call.wait, 0.0), self.max_wait)
        window = self.claim_window
        delay = 0.05
        for _ in range(10_000):  # bounded: each pass ends in an answer or a wait of at least 50 ms
            now = self.clock()
            # not started yet: expired (free for the next claim) once the window passes
            record = Record(ident.principal, ident.tool, ident.key, fp, CLAIMED, secrets.token_hex(16), now, now,
                            now + window, now + window, None, request_key)
            held = self.store.claim(record, now)
            if held is None:
                return self._granted(call, record, lease, retention)
            if held.status not in PENDING or held.fingerprint != fp or held.request_key != request_key:
                return self._settled(call, held, fp, request_key)
            if held.lease_expired(now):
                if not call.policy.rerun_after_lease:
                    return self._error(
                        call, "OUTCOME_UNKNOWN",
                        f"{call.tool}: an earlier call with this key started but never finished (its process "
                        f"stopped); it may or may not have taken effect. Check before calling again; this "
                        f"key will not run it a second time", user_action="reconcile")
                taken = record.evolve(created_at=held.created_at)
                if self.store.replace(taken, held.owner):
                    logger.warning("%s: key %r ran again after an earlier run's lease expired (the tool is "
                                   "annotated idempotent)", call.tool, ident.key)
                    return self._granted(call, taken, lease, retention)
                continue
            if self.clock() >= deadline:
                return self._error(call, "IDEMPOTENCY_IN_PROGRESS",
                                   f"{call.tool}: a call with this idempotency key is still running; retry the same "
                                   f"call in a moment to get its result",
                                   [dict(_IN_PROGRESS_DETAIL)])
            time.sleep(min(delay, max(deadline - self.clock(), 0.0)))
            delay = min(delay * 2, 0.5)
        raise RuntimeError("unreachable: the claim loop is bounded by its deadline")

    def _claim_commit(self, call: CallContext, fp: str, principal: str, request_key: str) -> Ticket | Result:
        prepare = call.policy.commit_of
        confirmations = self._confirmations()
        token = confirmations.open(call.arguments.get(CONFIRMATION_TOKEN)) if confirmations is not None else None
        if token is None:
            return self._error(call, "CONFIRMATION_REQUIRED",
                               confirmation_required(call.tool, prepare))
        if token.tool != call.tool or token.principal != principal:
            return self._error(call, "CONFIRMATION_MISMATCH",
                               f"{call.tool}: the confirmation token was issued for another tool or another user; "
                               f"call {prepare} again and have the user confirm that preview")
        if token.fingerprint != fp:
            return self._error(call, "CONFIRMATION_MISMATCH",
                               f"{call.tool}: the arguments differ from the preview the user confirmed; call "
                               f"{prepare} with these arguments and ask the user to confirm again")
        ident = RecordKey(principal, call.tool, "confirmation:" + token.id)
        # the caller's key decides, whatever the token: the same key never places a second order
        keyed = RecordKey(principal, call.tool, _commit_key(request_key)) if request_key else None
        now = self.clock()
        if token.expires_at <= now:
            for where, known in ((keyed, ""), (ident, request_key)):
                held = None if where is None else self._cached(where, now) or self.store.get(where)
                if held is not None and held.live(now):
                    return self._settled(call, held, fp, known)
            return self._error(call, "CONFIRMATION_EXPIRED",
                               f"{call.tool}: the confirmation token has expired; call {prepare} again and have the "
                               f"user confirm the new preview", user_action="re_prepare")
        if keyed is None:
            return self._claim_key(call, ident, fp, request_key, self.retention)
        ticket = self._claim_key(call, keyed, fp, "", self.retention)
        if type(ticket) is not Ticket:
            return ticket
        # the key is new: the token must be too (one preview, one order)
        record: Record = ticket.state["record"]
        marker = record.evolve(key=ident.key, owner=secrets.token_hex(16), request_key=request_key)
        try:
            held = self.store.claim(marker, self.clock())
        except BaseException:
            self.release(ticket)
            raise
        if held is None:
            ticket.state["linked"] = marker
            return ticket
        self.release(ticket)
        return self._settled(call, held, fp, request_key)

    def _settled(self, call: CallContext, held: Record, fp: str, request_key: str) -> Result:
        """The answer to a duplicate of a record that is done (or held under other terms)."""
        if held.request_key != request_key and call.policy.commit_of is not None:
            return self._error(call, "CONFIRMATION_USED",
                               f"{call.tool}: this confirmation token was already used by another call; call "
                               f"{call.policy.commit_of} again if the user wants to do this once more")
        if held.fingerprint != fp:
            return self._error(call, "IDEMPOTENCY_KEY_REUSED",
                               f"{call.tool}: this idempotency key was already used with other arguments; use a new "
                               f"key for a new operation, or the same arguments to retry", [dict(_CONFLICT_DETAIL)])
        if held.status in PENDING:  # only from a bounded wait that ran out, or an expired commit token
            return self._error(call, "IDEMPOTENCY_IN_PROGRESS",
                               f"{call.tool}: a call with this key is still running; retry in a moment",
                               [dict(_IN_PROGRESS_DETAIL)])
        self._remember(held)
        return _decode(held, call.tool, self._trace)

    def _granted(self, call: CallContext, record: Record, lease: float, retention: float) -> Ticket:
        return Ticket(call, {"record": record, "lease": lease, "retention": retention, "lock": threading.Lock(),
                             "done": False})

    def _start(self, call: CallContext, ticket: Ticket) -> Ticket | Result:
        """Mark a granted claim started (IN_PROGRESS, the tool's lease): from here on, no retry runs it again.

        Each record changes only while this claim still owns it: a claim whose window passed first
        may have been taken over by another call, which then runs instead of this one.
        """
        state = ticket.state
        claimed = _held(ticket, state["record"])
        started: list[Record] = []
        try:
            for held in claimed:
                now = self.clock()
                running = held.evolve(status=IN_PROGRESS, updated_at=now, lease_until=now + state["lease"],
                                      expires_at=now + state["lease"] + state["retention"])
                if not self.store.replace(running, held.owner):
                    self._release_records(claimed)
                    return self._error(call, "IDEMPOTENCY_IN_PROGRESS",
                                       f"{call.tool}: a call with this idempotency key is already running; retry "
                                       f"the same call in a moment to get its result",
                                       [dict(_IN_PROGRESS_DETAIL)])
                started.append(running)
        except PersistenceError:
            # nothing ran; what is still CLAIMED frees itself when its window passes, a record already
            # marked started would not: release that one, if the store answers
            self._release_records(started)
            raise
        except BaseException:
            self._release_records(claimed)
            raise
        state["record"] = started[0]
        if len(started) > 1:
            state["linked"] = started[1]
        self.leases.add(ticket)
        return ticket

    def _release_records(self, records: list[Record]) -> None:
        for held in records:
            try:
                self.store.release(held.ident, held.owner)
            except PersistenceError:
                logger.warning("%s: could not release the unstarted claim on key %r", held.tool, held.key)

    def _error(self, call: CallContext, code: str, message: str, details: Any = (), *,
               user_action: str | None = None) -> Result:
        return Result(False, error=standard_error(code, message, details, user_action=user_action),
                      trace_id=self._trace(), tool=call.tool)

    # ------------------------------------------------------------------ the cache of completed records

    def _cached(self, ident: RecordKey, now: float) -> Record | None:
        found = self._cache.get(ident)
        if found is None or found.live(now):
            return found
        with self._cache_lock:
            self._cache.pop(ident, None)
        return None

    def _remember(self, record: Record) -> None:
        if self._cache_size <= 0 or record.status in PENDING:
            return
        with self._cache_lock:
            self._cache[record.ident] = record
            self._cache.move_to_end(record.ident)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)


class LeaseKeeper:
    """Renews the lease of every claim whose tool is still running, from one daemon thread."""

    def __init__(self, store: Callable[[], Store], clock: Callable[[], float]) -> None:
        self._store = store
        self.clock = clock
        self._by_id: dict[int, Ticket] = {}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._sleeping = float("inf")  # how long the thread's current wait lasts
        self._thread: threading.Thread | None = None
        self._stopped = False

    def add(self, ticket: Ticket) -> None:
        with self._lock:
            self._by_id[id(ticket)] = ticket
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="toolclause-leases", daemon=True)
                self._thread.start()
            # wake the thread only if it sleeps longer than this claim can wait (not once per call)
            wake = _beat(ticket.state["lease"]) < self._sleeping
        if wake:
            self._wake.set()

    def discard(self, ticket: Ticket) -> None:
        with self._lock:
            self._by_id.pop(id(ticket), None)

    def stop(self) -> None:
        self._stopped = True
        self._wake.set()

    def _run(self) -> None:
        while not self._stopped:
            with self._lock:
                self._sleeping = min((_beat(t.state["lease"]) for t in self._by_id.values()), default=10.0)
            self._wake.wait(self._sleeping)
            self._wake.clear()
            with self._lock:
                tickets = list(self._by_id.values())
            for ticket in tickets:
                self._renew(ticket)

    def _renew(self, ticket: Ticket) -> None:
        state = ticket.state
        with state["lock"]:
            if state["done"]:
                return
            record: Record = state["record"]
            now = self.clock()
            if now < record.updated_at + state["lease"] / 3:
                return  # renewed recently enough
            renewed = record.evolve(updated_at=now, lease_until=now + state["lease"],
                                    expires_at=now + state["lease"] + state["retention"])
            try:
                if self._store().replace(renewed, record.owner):
                    state["record"] = renewed
                else:
                    logger.warning("%s: the claim on key %r was lost while the tool ran", record.tool, record.key)
                    state["done"] = True
            except Exception:  # noqa: BLE001 - the store is down: try again at the next beat
                logger.warning("%s: could not renew the lease on key %r", record.tool, record.key, exc_info=True)


def _beat(lease: float) -> float:
    """How often a claim with this lease is renewed: three times per lease, within [50 ms, 10 s]."""
    return max(0.05, min(lease / 3, 10.0))


def _held(ticket: Ticket, record: Record) -> list[Record]:
    """The records a ticket holds: its own, and a commit's confirmation marker."""
    linked = ticket.state.get("linked")
    return [record] if linked is None else [record, linked]


def _commit_key(key: str) -> str:
    """A commit's record key for the caller's key (never one of the `confirmation:` records)."""
    if KEY_PATTERN.fullmatch(key) and len(key) <= 251:
        return "key:" + key
    return "h:" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def _argument_key(call: CallContext) -> str | None:
    value = call.arguments.get(IDEMPOTENCY_KEY) if call.policy.mode == "key" else None
    return value if isinstance(value, str) else None


def _encode(result: Result) -> str:
    if result.ok:
        body: dict[str, Any] = {"ok": True, "data": result.data}
        if result.wrapped:
            body["wrapped"] = True
        if result.summary is not None:  # a Reply's own text and widget _meta come back with the replay
            body["summary"] = result.summary
        if result.meta:
            body["meta"] = result.meta
    else:
        assert result.error is not None
        body = {"ok": False, "error": result.error.to_dict()}
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"))


def _decode(record: Record, tool: str, trace: Callable[[], str]) -> Result:
    body = json.loads(record.outcome or "null")
    if isinstance(body, dict) and body.get("ok") is True:
        summary, meta = body.get("summary"), body.get("meta")
        return Result(True, body.get("data"), tool=tool, wrapped=bool(body.get("wrapped")), replayed=True,
                      summary=summary if isinstance(summary, str) else None,
                      meta=meta if isinstance(meta, dict) else None)
    error = body.get("error") if isinstance(body, dict) else None
    error = error if isinstance(error, dict) else {}
    return Result(False, error=CallError(str(error.get("code", "INTERNAL_ERROR")), str(error.get("message", "")),
                                         bool(error.get("retryable")), str(error.get("userAction", "contact_support")),
                                         tuple(error.get("details") or ())),
                  trace_id=trace(), tool=tool, replayed=True)


__all__ = ["IdempotencyStage", "LeaseKeeper", "LEASE", "RETENTION"]
