"""Whose call it is, over HTTP: the principal that scopes idempotency keys and confirmation tokens.

A served call's records are keyed by (principal, tool, key), so one client never sees another's
result nor has its key refused because another client used it (docs/serving.md):

- a token verifier configured (`serve --tokens FILE`, `--token-verifier MODULE:FUNCTION`, or
  `serve_http(..., token_verifier=…)`): the identity it verified, `id:` + that identity; a
  request without a valid token is refused (401) before it reaches a tool;
- no verifier, an `Authorization` header: `credential:` + a SHA-256 of the credential itself, so
  two tokens never share keys and the same token in a new session (a reconnect) is the same
  principal; the store holds the hash, never the credential;
- no credential (and over stdio, which serves the one client that started the server): one
  shared anonymous scope, the empty principal.
"""

from __future__ import annotations

import hashlib
import hmac
import inspect
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from mcp.server.auth.provider import AccessToken, TokenVerifier, principal_components

ANONYMOUS = ""
_HASH_CONTEXT = b"toolclause principal v1\x00"  # apart from any other use of a hash of the same credential


def principal_of(request: Any) -> str:
    """The principal of an HTTP request (a Starlette Request, or None over stdio)."""
    if request is None:
        return ANONYMOUS
    user = getattr(request, "scope", {}).get("user")
    token = getattr(user, "access_token", None)
    if isinstance(token, AccessToken):
        return verified_principal(token)
    headers = getattr(request, "headers", None)
    credential = headers.get("authorization") if headers is not None else None
    return credential_principal(credential) if credential else ANONYMOUS


def verified_principal(token: AccessToken) -> str:
    """`id:` + the identity a verifier vouched for (issuer and subject, else the client id)."""
    client_id, issuer, subject = principal_components(token)
    who = subject or client_id
    return "id:" + (f"{issuer}|{who}" if issuer else who)


def credential_principal(authorization: str) -> str:
    """`credential:` + a hash of an Authorization header's credential; `Bearer x` and `bearer x` are one."""
    scheme, _, credential = authorization.strip().partition(" ")
    normal = f"{scheme.lower()} {credential.strip()}"
    return "credential:" + hashlib.sha256(_HASH_CONTEXT + normal.encode("utf-8", "surrogatepass")).hexdigest()


class TokenFileError(ValueError):
    """A token file that cannot be used (its line number is named; never a token)."""


class TokenFile:
    """Bearer tokens from a file: one `IDENTITY TOKEN` a line (blank lines and `#` comments skipped).

    The file is read once, when the server starts.  Tokens are compared in constant time.
    """

    def __init__(self, path: str | Path) -> None:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise TokenFileError(f"cannot read the token file: {getattr(exc, 'strerror', None) or exc}") from None
        self._by_digest: dict[bytes, tuple[str, str]] = {}
        for number, line in enumerate(text.splitlines(), start=1):
            fields = line.split()
            if not fields or fields[0].startswith("#"):
                continue
            if len(fields) != 2:
                raise TokenFileError(f"token file line {number}: write IDENTITY TOKEN (two fields)")
            identity, token = fields
            digest = _digest(token)
            if digest in self._by_digest:
                raise TokenFileError(f"token file line {number}: this token is already given to another line")
            self._by_digest[digest] = (identity, token)
        if not self._by_digest:
            raise TokenFileError("the token file holds no tokens")

    async def verify_token(self, token: str) -> AccessToken | None:
        found = self._by_digest.get(_digest(token))
        if found is None or not hmac.compare_digest(found[1].encode(), token.encode()):
            return None
        return AccessToken(token=token, client_id=found[0], scopes=[], subject=found[0])


class CallableVerifier:
    """A function of the user's: the bearer token in, the identity out (None refuses); sync or async."""

    def __init__(self, verify: Callable[[str], str | None | Awaitable[str | None]]) -> None:
        if not callable(verify):
            raise TypeError("a token verifier is a function: token -> identity or None")
        self._verify = verify

    async def verify_token(self, token: str) -> AccessToken | None:
        identity = self._verify(token)
        if inspect.isawaitable(identity):
            identity = await identity
        if identity is None:
            return None
        if not isinstance(identity, str) or not identity:
            raise TypeError("a token verifier returns the identity as a non-empty str, or None")
        return AccessToken(token=token, client_id=identity, scopes=[], subject=identity)


def as_verifier(verifier: Any) -> TokenVerifier:
    """A TokenVerifier as it is (the SDK's protocol), or a plain function wrapped in one."""
    if hasattr(verifier, "verify_token"):
        return verifier
    return CallableVerifier(verifier)


def auth_options(verifier: Any, host: str) -> dict[str, Any]:
    """`streamable_http_app` options that make the SDK check every request's bearer token (none: {}).

    The SDK's settings name an issuer; tokens here are checked by the verifier alone (no
    authorization server, no metadata routes), so the server's own address stands in for it.
    """
    if verifier is None:
        return {}
    from mcp.server.auth.settings import AuthSettings
    from pydantic import AnyHttpUrl

    bare = host.strip("[]")
    issuer = f"http://[{bare}]" if ":" in bare else f"http://{bare or 'localhost'}"
    settings = AuthSettings(issuer_url=AnyHttpUrl(issuer), resource_server_url=None)
    return {"auth": settings, "token_verifier": as_verifier(verifier)}


def verifier_from_options(tokens: str | None, function: str | None) -> TokenVerifier | None:
    """`serve --tokens FILE` or `--token-verifier MODULE:FUNCTION` (not both); TokenFileError says what is wrong."""
    if tokens is not None and function is not None:
        raise TokenFileError("give --tokens or --token-verifier, not both")
    if tokens is not None:
        return TokenFile(tokens)
    if function is None:
        return None
    from .target import TargetError, load_object

    try:
        found = load_object(function)
    except TargetError as exc:
        raise TokenFileError(str(exc)) from None
    if not callable(found) and not hasattr(found, "verify_token"):
        raise TokenFileError(f"{function}: names a {type(found).__name__}, not a function token -> identity")
    return as_verifier(found)


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


__all__ = ["ANONYMOUS", "CallableVerifier", "TokenFile", "TokenFileError", "as_verifier", "auth_options",
           "credential_principal", "principal_of", "verified_principal", "verifier_from_options"]
