"""Prepare / commit: an irreversible tool runs only with a token from the preview the user confirmed.

    @box.tool(read_only=True, idempotency="content")
    def create_order_preview(items: list[Item], address: str) -> Preview: ...

    @box.tool(confirm="create_order_preview")
    def place_order(items: list[Item], address: str) -> Order: ...

The preview's result tells the model that the user must confirm (`confirmation:
{commitTool, expiresAt, confirmedBy: "user"}`); the token itself goes only to the
user's side, in the result's widget-only `_meta` (`toolclause/confirmation: {token,
expiresAt, commitTool, arguments}`), so a model that reads `content` and
`structuredContent` never holds one.  The widget's confirm button calls the commit
tool (`openai/widgetAccessible`) with those arguments; a client without widgets is
asked through MCP elicitation (mcp/confirming.py).  The commit takes the preview's
arguments plus `confirmation_token`; without a token the user's side produced it is
CONFIRMATION_REQUIRED (`userAction: ask_user`).  A token is
`tc1.<payload>.<HMAC-SHA256>`: the payload names its id, the commit tool, the
principal, the fingerprint of the previewed arguments and the expiry, and the
HMAC (keyed with the toolbox's secret) makes every part of it unforgeable.
The token's id is the commit's idempotency key, so one preview commits once,
from any replica; a second commit with the same token gets the first one's
result (`replayed: true`), and with another caller key `CONFIRMATION_USED`.  A
caller key, where there is one, decides first: the same key never commits twice,
whatever token comes with it (other arguments: `IDEMPOTENCY_KEY_REUSED`).
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import hmac
import json
import logging
import os
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from .errors import ToolboxConfigError, ToolRegistrationError
from .policy import CONFIRMATION_TOKEN, CallPolicy, with_gate_argument
from .registration import BoundTool
from .signature import IDEMPOTENCY_KEY, WRAPPED_KEY

logger = logging.getLogger("toolclause.runtime")

SECRET_ENV = "TOOLCLAUSE_CONFIRMATION_SECRET"
DEVELOPMENT_ENV = "TOOLCLAUSE_DEVELOPMENT"
DEFAULT_TTL = 600.0
MIN_SECRET_BYTES = 16
_PREFIX = "tc1."

TOKEN_SCHEMA_TEMPLATE = "Filled in by the app when the user confirms {prepare}'s preview (its confirm button, or " \
                        "the question the server asks); the model is never given one. Call {prepare} first, show " \
                        "the preview to the user, and let the user confirm it."
CONFIRMATION_META = "toolclause/confirmation"  # a preview result's _meta key: the token, for the user's side only
WIDGET_ACCESSIBLE = "openai/widgetAccessible"  # a tool's _meta: a widget may call it (the confirm button)


def confirmation_required(commit: str, prepare: str | None) -> str:
    """The message of CONFIRMATION_REQUIRED: what the model should do instead of committing itself."""
    return (f"{commit}: the user has not confirmed. Call {prepare} with these arguments and show the preview: the "
            f"user confirms it in the app (its confirm button) or when the server asks, and only that commits. "
            f"Ask the user; do not retry this call yourself")


@dataclass(frozen=True, slots=True)
class Token:
    id: str
    tool: str
    principal: str
    fingerprint: str
    expires_at: float


class Confirmations:
    """Issues and opens tokens with one secret."""

    def __init__(self, secret: bytes, ttl: float = DEFAULT_TTL) -> None:
        self._secret = secret
        self.ttl = ttl

    @classmethod
    def from_settings(cls, secret: str | bytes | None, development: bool, ttl: float) -> Confirmations:
        """The secret given, else $TOOLCLAUSE_CONFIRMATION_SECRET; a random one only in development mode."""
        given = secret if secret is not None else os.environ.get(SECRET_ENV)
        if given is None:
            if not (development or os.environ.get(DEVELOPMENT_ENV, "").lower() in ("1", "true", "yes")):
                raise ToolboxConfigError(
                    f"a tool declared with confirm= needs a secret to sign confirmation tokens: pass "
                    f"Toolbox(confirmation_secret=…) or set {SECRET_ENV} (development=True uses a random one)")
            logger.warning("confirmation tokens are signed with a random secret (development mode): they do not "
                           "survive a restart and other processes cannot check them")
            return cls(secrets.token_bytes(32), ttl)
        raw = given.encode("utf-8") if isinstance(given, str) else bytes(given)
        if len(raw) < MIN_SECRET_BYTES:
            raise ToolboxConfigError(f"the confirmation secret must be at least {MIN_SECRET_BYTES} bytes long")
        return cls(raw, ttl)

    def issue(self, commit_tool: str, principal: str, fingerprint: str, now: float | None = None) -> dict[str, Any]:
        expires = (time.time() if now is None else now) + self.ttl
        payload = {"id": secrets.token_urlsafe(12), "t": commit_tool, "p": principal, "f": fingerprint,
                   "x": round(expires, 3)}
        body = _PREFIX + _b64(json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))
        token = body + "." + _b64(self._sign(body))
        return {"token": token, "expiresAt": datetime.fromtimestamp(expires, UTC).isoformat(
            timespec="seconds").replace("+00:00", "Z"), "commitTool": commit_tool}

    def open(self, token: Any) -> Token | None:
        """The token's contents if this secret signed it, else None (malformed or forged)."""
        if not isinstance(token, str) or not token.startswith(_PREFIX) or len(token) > 2048:
            return None
        body, _, signature = token.rpartition(".")
        try:
            if not hmac.compare_digest(_unb64(signature), self._sign(body)):
                return None
            payload = json.loads(_unb64(body[len(_PREFIX):]))
            return Token(str(payload["id"]), str(payload["t"]), str(payload["p"]), str(payload["f"]),
                         float(payload["x"]))
        except (ValueError, KeyError, TypeError):
            return None

    def _sign(self, body: str) -> bytes:
        return hmac.new(self._secret, body.encode("utf-8"), hashlib.sha256).digest()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def link_commit(registry: Any, commit: BoundTool, policy: CallPolicy, confirm: Any) -> tuple[BoundTool, CallPolicy]:
    """Tie a commit tool to its preview: the token argument, the preview's `confirmation`, the checks."""
    prepare = registry.find(confirm) if callable(confirm) else registry.tools.get(confirm)
    if prepare is None:
        raise ToolRegistrationError(f"{commit.name}: confirm= names {getattr(confirm, '__name__', confirm)!r}, which "
                                    f"is not a registered tool; register the preview tool first")
    ours = _arguments(commit) - {IDEMPOTENCY_KEY, CONFIRMATION_TOKEN}
    theirs = _arguments(prepare) - {IDEMPOTENCY_KEY}
    if ours != theirs:
        raise ToolRegistrationError(f"{commit.name} must take the arguments its preview {prepare.name} takes, so the "
                                    f"token can prove they are the ones the user saw; they differ in "
                                    f"{', '.join(sorted(ours ^ theirs))}")
    output = prepare.contract.output_schema
    if output is not None and output.get(WRAPPED_KEY):
        raise ToolRegistrationError(f"{prepare.name}: a preview returns an object (its confirmation is added to it)")
    if isinstance(output, dict) and (output.get("type") == "object" or isinstance(output.get("properties"), dict)):
        output = {**output, "properties": {**(output.get("properties") or {}), "confirmation": CONFIRMATION_SCHEMA}}
    preview_policy = registry.policies.get(prepare.name) or CallPolicy()
    registry.replace(dataclasses.replace(prepare, contract=dataclasses.replace(prepare.contract, output_schema=output)),
                     dataclasses.replace(preview_policy, prepares=commit.name))
    declared = (commit.contract.input_schema.get("properties") or {}).get(CONFIRMATION_TOKEN) \
        if isinstance(commit.contract.input_schema, dict) else None
    # a contract may declare it nullable and required (strict mode): the model then sends null, never a token
    nullable = isinstance(declared, dict) and declared.get("type") == ["string", "null"]
    commit = with_gate_argument(commit, CONFIRMATION_TOKEN, {
        "type": ["string", "null"] if nullable else "string", "minLength": 1, "maxLength": 2048,
        "description": TOKEN_SCHEMA_TEMPLATE.format(prepare=prepare.name)})
    meta = dict(commit.contract.meta or {})
    if WIDGET_ACCESSIBLE not in meta:  # the preview's widget commits with the user's click
        meta[WIDGET_ACCESSIBLE] = True
        commit = dataclasses.replace(commit, contract=dataclasses.replace(commit.contract, meta=meta))
    description = commit.contract.description or ""
    if "confirm" not in description.lower():
        description = (description.rstrip() + " " if description else "") + \
            f"Only after the user confirmed the preview from {prepare.name}."
        commit = dataclasses.replace(commit, contract=dataclasses.replace(commit.contract, description=description))
    return commit, dataclasses.replace(policy, commit_of=prepare.name, mutating=True, drop=commit.drop)


def _arguments(bound: BoundTool) -> set[str]:
    schema = bound.contract.input_schema if isinstance(bound.contract.input_schema, dict) else {}
    properties = schema.get("properties")
    return set(properties) if isinstance(properties, dict) else set()


CONFIRMATION_SCHEMA = {
    "type": "object",
    "description": "Show the preview to the user: they confirm it in the app, and only that runs commitTool.",
    "properties": {"commitTool": {"type": "string"}, "expiresAt": {"type": "string", "format": "date-time"},
                   "confirmedBy": {"const": "user"}},
}

__all__ = ["CONFIRMATION_META", "Confirmations", "DEFAULT_TTL", "SECRET_ENV", "TOKEN_SCHEMA_TEMPLATE", "Token",
           "WIDGET_ACCESSIBLE", "confirmation_required", "link_commit"]
