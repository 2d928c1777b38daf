"""What a tools/call brought that the SDK's typed params drop: lifted from the raw request.

SEP-3182 puts the idempotency key in `params.idempotencyKey`; the SDK's `CallToolRequestParams`
has no such field and drops it, so `serve`, `proxy` and the FastMCP and SDK integrations read it
from the raw params (`ServerRequestContext.params`), with `_meta.idempotencyKey` after it.  No
capability is advertised for it: the spec has not adopted the SEP.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..runtime.policy import META

KEY_FIELD = "idempotencyKey"  # SEP-3182's tools/call field (and the `_meta` key of the same name)


@dataclass(frozen=True, slots=True)
class RawCall:
    """What a tools/call brought that the SDK's typed params drop or reshape: lifted from the raw request.

    arguments: as sent (a dict, or the text of a double-encoded object); key: `params.idempotencyKey`,
    else `_meta.idempotencyKey`; meta: the request's `_meta`.
    """

    arguments: Any = None
    key: str | None = None
    meta: Mapping[str, Any] | None = None


def lift(params: Any, arguments: Any = None) -> RawCall:
    """The RawCall of a raw params mapping (`arguments`: what to use when the raw ones are absent)."""
    if not isinstance(params, Mapping):
        return RawCall(arguments)
    meta = params.get("_meta")
    meta = meta if isinstance(meta, Mapping) else None
    key = params.get(KEY_FIELD)
    if not isinstance(key, str):
        key = meta.get(META) if meta is not None and isinstance(meta.get(META), str) else None
    raw = params.get("arguments", arguments)
    return RawCall(arguments if raw is None else raw, key, meta)


def request_key(ctx: Any) -> str | None:
    """`params.idempotencyKey` of the request a low-level handler answers (its ServerRequestContext)."""
    params = getattr(ctx, "params", None)
    found = params.get(KEY_FIELD) if isinstance(params, Mapping) else None
    return found if isinstance(found, str) else None


__all__ = ["KEY_FIELD", "RawCall", "lift", "request_key"]
