"""Stage 4 of a call: the claim (idempotency and confirmation, docs/runtime.md).

The call path asks the claim stage, after validation and before execution,
whether this call may run:

    ticket = stage.claim(call)        # a Ticket, a Result to return instead (a replay, an error),
                                      # or None: the call runs with nothing claimed
    … execute …
    stage.complete(ticket, result)    # store a completed result (or a business failure)
    stage.release(ticket)             # transient failure: forget the claim, nothing stored
    stage.abandon(ticket)             # the run was cut short: keep the claim, stop renewing it

`PassThrough` lets every call run and stores nothing (a toolbox whose tools
need no claim).  `IdempotencyStage` (idempotency.py) is the stage keyed by
(principal, tool, key) over a store (memory, SQLite, PostgreSQL, Redis; the
`stores` package).  A stage that cannot reach its store raises
`PersistenceError`; the gate turns that into PERSISTENCE_ERROR (fail closed:
before execution nothing runs; after it, `userAction: reconcile`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # pragma: no cover
    from .envelope import Result


@dataclass(frozen=True, slots=True)
class CallContext:
    """What the claim stage knows about a call that passed validation."""

    tool: str
    arguments: Mapping[str, Any]           # validated JSON arguments, the key and token still in them
    principal: str | None = None
    idempotency_key: str | None = None     # the key the host supplied (argument, header or _meta)
    run: str | None = None
    mutating: bool = False
    call_id: str | None = None
    wait: float = 0.0                      # seconds the host will wait for a duplicate that is still running
    timeout: float | None = None           # the tool's own timeout (its lease is this plus a margin)
    policy: Any = None                     # the tool's CallPolicy (policy.py)


@dataclass(slots=True)
class Ticket:
    """A claim the stage granted; handed back to complete() or release()."""

    context: CallContext
    state: dict[str, Any] = field(default_factory=dict)


class ClaimStage(Protocol):
    def claim(self, call: CallContext) -> Ticket | Result | None: ...

    def complete(self, ticket: Ticket, result: Result) -> None: ...

    def release(self, ticket: Ticket) -> None: ...

    def abandon(self, ticket: Ticket) -> None: ...


class PassThrough:
    """Every call runs; nothing is stored.  Shared: it holds no state."""

    __slots__ = ()
    active = False  # the gate skips the stage entirely while it is a pass-through (no cost per call)

    def claim(self, call: CallContext) -> Ticket:
        return Ticket(call)

    def complete(self, ticket: Ticket, result: Result) -> None:
        return None

    def release(self, ticket: Ticket) -> None:
        return None

    def abandon(self, ticket: Ticket) -> None:
        return None

    def close(self) -> None:
        return None
