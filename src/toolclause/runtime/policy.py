"""What the gate does around one tool besides validating: its key, its lease, its confirmation, its cap.

A `CallPolicy` is fixed at registration.  Idempotency modes:

    "key"      the model sends `idempotency_key` (added to the schema: "reuse the same key when retrying");
               a key the host supplies takes precedence
    "host"     the host supplies the key (`call(..., idempotency_key=…)`, an `Idempotency-Key`
               header, the MCP request's `_meta.idempotencyKey`, or else the call id); the model's
               schema never shows one
    "content"  the key is the fingerprint of the arguments (previews: the same arguments, the same answer)

Key sources, first found wins: the host's `idempotency_key=`, a header `Idempotency-Key`,
`_meta.idempotencyKey`, the `idempotency_key` argument, then (host mode) the call id.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..schema.validators import ARGUMENTS, compile_schema
from .registration import BoundTool
from .signature import IDEMPOTENCY_KEY

KEY_PATTERN = re.compile(r"[A-Za-z0-9_.:-]{1,255}")
CONFIRMATION_TOKEN = "confirmation_token"
HEADER = "idempotency-key"
META = "idempotencyKey"
DEFAULT_CONCURRENCY = 8


@dataclass(frozen=True, slots=True)
class CallPolicy:
    mode: str | None = None            # "key" | "host" | "content" | None
    volatile: frozenset[str] = frozenset()  # arguments left out of the fingerprint (timestamps, trace ids)
    rerun_after_lease: bool = False    # idempotentHint: true — a crashed run may simply run again
    mutating: bool = False             # a started run that timed out may still take effect
    prepares: str | None = None        # a preview: the commit tool its confirmation tokens are for
    commit_of: str | None = None       # a commit: the preview tool whose token it requires
    max_concurrency: int = DEFAULT_CONCURRENCY
    drop: frozenset[str] = frozenset()  # arguments the gate consumes before the function runs
    key_optional: bool = False         # the tool's own schema lets the key be left out: such a call runs unclaimed

    @property
    def claims(self) -> bool:
        """Whether calls go through the claim stage (a key, or a confirmation to check)."""
        return self.mode is not None or self.commit_of is not None

    def fingerprinted(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """The arguments that identify the operation: minus the key, the token and volatile fields."""
        skip = self.volatile | {IDEMPOTENCY_KEY, CONFIRMATION_TOKEN}
        return {k: v for k, v in arguments.items() if k not in skip}


DEFAULT_POLICY = CallPolicy()


def policy_for(bound: BoundTool, mode: str | None, *, volatile: Any = (), max_concurrency: int | None = None,
               default_concurrency: int = DEFAULT_CONCURRENCY, key_optional: bool = False) -> CallPolicy:
    hints = bound.contract.annotations or {}
    cap = max_concurrency if max_concurrency is not None else default_concurrency
    if not isinstance(cap, int) or isinstance(cap, bool) or cap < 1:
        raise ValueError(f"{bound.name}: max_concurrency must be a whole number of calls, 1 or more")
    return CallPolicy(mode=mode, volatile=frozenset(volatile or ()),
                      rerun_after_lease=hints.get("idempotentHint") is True,
                      mutating=hints.get("readOnlyHint") is not True and (
                          mode is not None or bool(hints.get("destructiveHint"))),
                      max_concurrency=cap, drop=bound.drop, key_optional=key_optional)


def header_key(headers: Mapping[str, str] | None) -> str | None:
    if not headers:
        return None
    for name, value in headers.items():
        if isinstance(name, str) and name.lower() == HEADER:
            return value
    return None


def host_key(explicit: str | None, headers: Mapping[str, str] | None, meta: Mapping[str, Any] | None) -> str | None:
    """The key the host side supplied (never the model): explicit, then the header, then `_meta`."""
    if explicit is not None:
        return explicit
    found = header_key(headers)
    if found is not None:
        return found
    if meta and isinstance(meta.get(META), str):
        return meta[META]
    return None


def with_gate_argument(bound: BoundTool, name: str, schema: Mapping[str, Any]) -> BoundTool:
    """A copy of `bound` whose input schema also has `name`, an argument the gate consumes.

    It is not required by the schema: the gate itself answers its absence, with a code that says
    what to do (CONFIRMATION_REQUIRED) rather than a validation error.
    """
    old = bound.contract.input_schema if isinstance(bound.contract.input_schema, dict) else {"type": "object"}
    declared = old.get("properties")
    properties = {**(declared if isinstance(declared, dict) else {}), name: dict(schema)}
    input_schema = {**old, "properties": properties}
    contract = dataclasses.replace(bound.contract, input_schema=input_schema)
    takes = name in _parameters(bound)
    return dataclasses.replace(
        bound, contract=contract, validator=compile_schema(input_schema, ARGUMENTS),
        drop=bound.drop if takes else bound.drop | {name},
        reject_unknown=None if bound.reject_unknown is None else bound.reject_unknown | {name})


def _parameters(bound: BoundTool) -> set[str]:
    import inspect

    try:
        return set(inspect.signature(bound.fn).parameters)
    except (TypeError, ValueError):
        return set()


__all__ = ["CONFIRMATION_TOKEN", "CallPolicy", "DEFAULT_POLICY", "KEY_PATTERN", "host_key", "policy_for",
           "with_gate_argument"]
