"""The runtime's error taxonomy: stable codes, `ToolError`, and the exception tree.

Exceptions this package raises to the *host* (never to the model)::

    ToolclauseRuntimeError                 base of everything below
     ├── ToolRegistrationError            a tool that cannot be registered (lint errors, bad binding)
     └── ToolboxConfigError               a Toolbox option that cannot be used (store URL, lint mode)

`ToolError` is the other direction: a tool raises it to give the *model* a
structured failure (`code`, `message`, `retryable`, `user_action`, `details`).
Whatever else a tool raises is translated at the boundary (`translate`):
timeouts → UPSTREAM_TIMEOUT, network failures → UPSTREAM_UNAVAILABLE, anything
else → INTERNAL_ERROR with no internals (the exception goes to the log).

`CODES` is the table of docs/runtime.md; a test keeps it and the
document's table in step.
"""

from __future__ import annotations

import socket
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..model import Code, Diagnostic, code_table
from ..schema.failures import FAILED_KEYWORDS


@dataclass(frozen=True, slots=True)
class CodeSpec:
    layer: str
    retryable: bool
    user_action: str


CODES: dict[str, CodeSpec] = {
    # input: the model must change the call
    "INVALID_ARGUMENTS_JSON": CodeSpec("input", False, "fix_arguments"),
    "VALIDATION_ERROR": CodeSpec("input", False, "fix_arguments"),
    "UNKNOWN_TOOL": CodeSpec("input", False, "fix_arguments"),
    "REPEATED_INVALID_CALL": CodeSpec("input", False, "fix_arguments"),
    # idempotency / confirmation (the claim stage; see claim.py)
    "IDEMPOTENCY_KEY_REQUIRED": CodeSpec("idempotency", False, "fix_arguments"),
    "IDEMPOTENCY_IN_PROGRESS": CodeSpec("idempotency", True, "retry_later"),
    "IDEMPOTENCY_KEY_REUSED": CodeSpec("idempotency", False, "fix_arguments"),
    "CONFIRMATION_REQUIRED": CodeSpec("idempotency", False, "ask_user"),
    "CONFIRMATION_MISMATCH": CodeSpec("idempotency", False, "re_prepare"),
    "CONFIRMATION_EXPIRED": CodeSpec("idempotency", False, "re_prepare"),
    "CONFIRMATION_USED": CodeSpec("idempotency", False, "re_prepare"),
    "OUTCOME_UNKNOWN": CodeSpec("idempotency", False, "reconcile"),
    # auth: who is calling, for a tool to raise by name (ToolError("AUTH_REQUIRED", …)); the user must act
    "AUTH_REQUIRED": CodeSpec("auth", False, "reconnect"),
    "PERMISSION_DENIED": CodeSpec("auth", False, "ask_for_access"),
    "SESSION_EXPIRED": CodeSpec("auth", False, "reconnect"),
    # infrastructure: the identical call may succeed later, except the last two
    "UPSTREAM_UNAVAILABLE": CodeSpec("infrastructure", True, "retry_later"),
    "UPSTREAM_TIMEOUT": CodeSpec("infrastructure", True, "retry_later"),
    "RATE_LIMITED": CodeSpec("infrastructure", True, "retry_later"),
    "PERSISTENCE_ERROR": CodeSpec("infrastructure", False, "reconcile"),
    "INTERNAL_ERROR": CodeSpec("infrastructure", False, "contact_support"),
    # contract: the tool broke its own outputSchema
    "OUTPUT_CONTRACT_VIOLATION": CodeSpec("contract", False, "contact_support"),
    # upstream: what a server behind `toolclause proxy` answered (docs/serving.md)
    "UPSTREAM_TOOL_ERROR": CodeSpec("upstream", False, "contact_support"),
    "UPSTREAM_ANSWER_TOO_LARGE": CodeSpec("upstream", False, "fix_arguments"),
}

PROBLEMS = code_table([
    # a keyword of the tool's schema failed (the same codes as a meta-schema error's)
    *FAILED_KEYWORDS.values(),
    # the call itself
    Code("syntax", "the arguments are not valid JSON"),
    Code("encoding", "the arguments are not UTF-8 text"),
    Code("maxSize", "the arguments are larger than the gate takes"),
    Code("depth", "the arguments are nested deeper than the gate takes"),
    Code("unknownTool", "no tool has the name called; `allowed` lists the names"),
    Code("inProgress", "the same idempotent call is still running; `retryAfterMs` says when to ask again"),
    Code("keyReused", "the idempotency key was used before with other arguments"),
])
"""{code: Code} for `details[].problem`.

A record from a parameter's pydantic model keeps pydantic-core's own error type
(`int_parsing`, `missing` …) as its problem: those codes are pydantic's table.
"""

USER_ACTIONS = frozenset({"fix_arguments", "retry_later", "confirm", "ask_user", "re_prepare", "reconnect",
                          "ask_for_access", "reconcile", "contact_support"})


class ToolclauseRuntimeError(Exception):
    """Base of the errors the runtime raises to the host."""


class ToolRegistrationError(ToolclauseRuntimeError, ValueError):
    """A tool that cannot be registered; `diagnostics` holds the lint findings that refused it."""

    def __init__(self, message: str, diagnostics: Sequence[Diagnostic] = ()) -> None:
        self.diagnostics = tuple(diagnostics)
        lines = [message] + [f"  {d.code} {d.name} at {d.pointer or '/'}: {d.message}" for d in self.diagnostics]
        super().__init__("\n".join(lines))


# what an undeclared business code's own words say the model should do next (checked in this order): a code
# that names a missing or wrong argument asks for other arguments, a passing condition for a later retry, an
# expired credential for a new connection; anything else is the user's or the operator's to resolve
_ACTION_BY_WORDS = (
    (("NOT_FOUND", "NO_SUCH", "UNKNOWN", "DOES_NOT_EXIST", "INVALID", "MALFORMED", "MISSING", "REQUIRED",
      "TOO_LONG", "TOO_SHORT", "TOO_MANY", "OUT_OF_RANGE", "UNSUPPORTED", "BAD_", "WRONG"), "fix_arguments"),
    (("RATE_LIMIT", "THROTTLED", "BUSY", "UNAVAILABLE", "TIMEOUT", "TIMED_OUT", "TEMPORAR", "TRY_AGAIN",
      "OVERLOADED"), "retry_later"),
    (("UNAUTHENTICATED", "UNAUTHORIZED", "AUTH_REQUIRED", "SESSION_EXPIRED", "TOKEN_EXPIRED", "LOGIN_REQUIRED"),
     "reconnect"),
)


def default_user_action(code: str) -> str:
    """The userAction of a business code no contract declares, read from its words.

    >>> [default_user_action(c) for c in ("ORDER_NOT_FOUND", "RATE_LIMITED", "CARD_DECLINED")]
    ['fix_arguments', 'retry_later', 'contact_support']
    """
    upper = code.upper()
    for words, action in _ACTION_BY_WORDS:
        if any(word in upper for word in words):
            return action
    return "contact_support"


class ToolboxConfigError(ToolclauseRuntimeError, ValueError):
    """A Toolbox option that cannot be used."""


class ToolError(Exception):
    """A failure a tool reports to the model, in the structured shape.

    Left as None, `retryable` and `user_action` are filled in by the gate:
    from the tool's declared `errors` for a business code, from `CODES` for a
    standard one, else `retryable=False` and a `user_action` read from the code's
    words (`default_user_action`: `ORDER_NOT_FOUND` → fix_arguments, `RATE_LIMITED`
    → retry_later, anything else contact_support); an undeclared code is also
    logged as a contract gap.

        >>> e = ToolError("ORDER_NOT_FOUND", "No order with that id.", user_action="check_order_id")
        >>> e.code, e.retryable, e.user_action
        ('ORDER_NOT_FOUND', None, 'check_order_id')
    """

    def __init__(self, code: str, message: str, *, retryable: bool | None = None, user_action: str | None = None,
                 details: Iterable[Mapping[str, Any]] | None = None) -> None:
        if not isinstance(code, str) or not code:
            raise TypeError("ToolError code must be a non-empty string such as 'ORDER_NOT_FOUND'")
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.retryable = retryable
        self.user_action = user_action
        self.details = [dict(d) for d in details] if details else []


MAX_MESSAGE_CHARS = 2000
MAX_WORD_CHARS = 64      # code and userAction
MAX_DETAILS = 20
MAX_DETAIL_TEXT = 256    # any text inside a details entry (a path, an expected shape, an allowed value)
_DETAIL_ITEMS = 20       # items of a list or object inside a details entry
_DETAIL_DEPTH = 4


@dataclass(frozen=True, slots=True)
class CallError:
    """The error half of a `Result`: what the model reads.

    Every field is capped here, whoever built it (the gate, a tool's ToolError, a
    stored record): the message at MAX_MESSAGE_CHARS, code and userAction at
    MAX_WORD_CHARS, at most MAX_DETAILS details entries, each JSON data with
    short text, short lists and little depth.
    """

    code: str
    message: str
    retryable: bool
    user_action: str
    details: tuple[Mapping[str, Any], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", _cut(str(self.code), MAX_WORD_CHARS))
        object.__setattr__(self, "message", _cut(str(self.message), MAX_MESSAGE_CHARS))
        object.__setattr__(self, "user_action", _cut(str(self.user_action), MAX_WORD_CHARS))
        object.__setattr__(self, "retryable", self.retryable is True)
        object.__setattr__(self, "details", tuple(
            _bounded(dict(d) if isinstance(d, Mapping) else {"detail": d}, 0) for d in self.details[:MAX_DETAILS]))

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "retryable": self.retryable,
                "userAction": self.user_action, "details": [dict(d) for d in self.details]}


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _bounded(value: Any, depth: int) -> Any:
    """`value` as small JSON data: text cut, lists and objects cut to a few items, nothing deep, no NaN."""
    if value is None or type(value) is bool:
        return value
    if type(value) is int:
        return value if -2**63 <= value < 2**63 else "a very large number"
    if type(value) is float:
        return value if value == value and value not in (float("inf"), float("-inf")) else None
    if isinstance(value, str):
        return _cut(str(value), MAX_DETAIL_TEXT)
    if depth >= _DETAIL_DEPTH:
        return "…"
    if isinstance(value, Mapping):
        return {_cut(str(k), MAX_DETAIL_TEXT): _bounded(v, depth + 1)
                for k, v in list(value.items())[:_DETAIL_ITEMS]}
    if isinstance(value, (list, tuple)):
        return [_bounded(v, depth + 1) for v in value[:_DETAIL_ITEMS]]
    return _cut(type(value).__name__, MAX_WORD_CHARS)  # no JSON form: its type, never its repr


def standard_error(code: str, message: str, details: Iterable[Mapping[str, Any]] = (), *,
                   user_action: str | None = None) -> CallError:
    spec = CODES[code]
    return CallError(code, message, spec.retryable, user_action or spec.user_action, tuple(details))


# --------------------------------------------------------------------------- boundary translation

# Third-party exception classes recognised by their qualified name, so that no
# optional library is imported here.  Timeouts are checked first: several
# clients' connect-timeouts are both a timeout and a connection error.
_TIMEOUT_NAMES = frozenset({
    "httpx.TimeoutException", "httpcore.TimeoutException", "requests.exceptions.Timeout",
    "aiohttp.client_exceptions.ServerTimeoutError", "urllib3.exceptions.TimeoutError",
    "redis.exceptions.TimeoutError", "grpc.FutureTimeoutError",
})
_UNAVAILABLE_NAMES = frozenset({
    "httpx.NetworkError", "httpx.RemoteProtocolError", "httpcore.NetworkError", "requests.exceptions.ConnectionError",
    "aiohttp.client_exceptions.ClientConnectionError", "urllib3.exceptions.NewConnectionError",
    "urllib3.exceptions.MaxRetryError", "redis.exceptions.ConnectionError",
})


def _qualified_names(exc: BaseException) -> set[str]:
    return {f"{cls.__module__}.{cls.__qualname__}" for cls in type(exc).__mro__}


def infrastructure_code(exc: BaseException) -> str | None:
    """UPSTREAM_TIMEOUT / UPSTREAM_UNAVAILABLE for timeouts and network failures, else None."""
    if isinstance(exc, TimeoutError):  # asyncio.TimeoutError and socket.timeout are aliases since 3.11
        return "UPSTREAM_TIMEOUT"
    names = _qualified_names(exc)
    if names & _TIMEOUT_NAMES:
        return "UPSTREAM_TIMEOUT"
    # plain OSErrors (a missing file, a permission) are the tool's own bug, not the network
    if isinstance(exc, (ConnectionError, socket.gaierror, socket.herror)) or names & _UNAVAILABLE_NAMES:
        return "UPSTREAM_UNAVAILABLE"
    return None


__all__ = ["CODES", "PROBLEMS", "CallError", "CodeSpec", "ToolError", "ToolRegistrationError", "ToolboxConfigError",
           "ToolclauseRuntimeError", "USER_ACTIONS", "infrastructure_code", "standard_error"]
