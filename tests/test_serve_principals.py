"""Idempotency keys over HTTP are scoped by whose call it is (src/toolclause/mcp/principals.py).

Real `toolclause serve --transport http` processes and the official MCP Python SDK client: two
bearer tokens never share a key's record; the same token in a new session (a reconnect) is the
same principal; requests without a credential share one anonymous scope; with a token verifier
the identity it verified is the principal and a request without a valid token never reaches a tool.
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from typing import Any

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from test_serve import APPS, runs, served_env
from toolclause.mcp.principals import (
    ANONYMOUS,
    TokenFile,
    TokenFileError,
    credential_principal,
    principal_of,
)
from toolclause.mcp.serving import http_process


@pytest.fixture
def env(tmp_path):
    return served_env(tmp_path)


@asynccontextmanager
async def session_as(url: str, authorization: str | None):
    headers = {"Authorization": authorization} if authorization else None
    async with create_mcp_http_client(headers=headers) as client, \
            streamable_http_client(url, http_client=client) as (read, write), \
            ClientSession(read, write) as session:
        await session.initialize()
        yield session


async def record(url: str, authorization: str | None, note: str, key: str) -> Any:
    """One call of the `record` tool in a session of its own (each call a new connection)."""
    async with session_as(url, authorization) as session:
        return await session.call_tool("record", {"note": note}, meta={"idempotencyKey": key})


@pytest.mark.timeout(120)
def test_two_bearer_tokens_never_share_a_key_and_a_reconnect_is_the_same_principal(env):
    async def scenario(url: str) -> dict[str, Any]:
        return {
            "alice": await record(url, "Bearer token-alice", "alice's note", "k-1"),
            "bob": await record(url, "Bearer token-bob", "bob's note", "k-1"),  # same key, other principal
            "bob_same": await record(url, "Bearer token-bob", "alice's note", "k-1"),  # not alice's result
            "alice_again": await record(url, "bearer token-alice", "alice's note", "k-1"),  # reconnect
            "anonymous": await record(url, None, "anon note", "k-1"),
            "anonymous_again": await record(url, None, "anon note", "k-1"),
        }

    with http_process("app.py:server", env=env, cwd=str(APPS)) as url:
        got = anyio.run(scenario, url)
    assert not got["alice"].is_error and not got["bob"].is_error
    assert got["bob"].structured_content["note"] == "bob's note"
    # bob's own record for k-1 holds other arguments: refused, never alice's stored result
    assert got["bob_same"].is_error and "IDEMPOTENCY_KEY_REUSED" in got["bob_same"].content[0].text
    assert got["alice_again"].structured_content == got["alice"].structured_content
    assert (got["alice_again"].meta or {}).get("toolclause/replayed") is True
    assert (got["anonymous_again"].meta or {}).get("toolclause/replayed") is True
    assert runs(env) == ["record alice's note", "record bob's note", "record anon note"]


@pytest.mark.timeout(120)
def test_with_a_token_file_the_verified_identity_is_the_principal(env, tmp_path):
    tokens = tmp_path / "tokens"
    tokens.write_text("# identity token\nalice tok-alice-1\nalice tok-alice-2\nbob tok-bob\n", encoding="utf-8")

    async def scenario(url: str) -> dict[str, Any]:
        first = await record(url, "Bearer tok-alice-1", "paid", "k-9")
        # alice's second token is the same identity: the same record, replayed
        second = await record(url, "Bearer tok-alice-2", "paid", "k-9")
        bob = await record(url, "Bearer tok-bob", "paid", "k-9")
        refused = []
        for authorization in (None, "Bearer tok-mallory"):
            try:
                await record(url, authorization, "paid", "k-9")
            except Exception as exc:  # noqa: BLE001 - the refusal is the finding
                refused.append(type(exc).__name__)
        return {"first": first, "second": second, "bob": bob, "refused": refused}

    with http_process("app.py:server", "--tokens", str(tokens), env=env, cwd=str(APPS)) as url:
        got = anyio.run(scenario, url)
    assert not got["first"].is_error and not got["bob"].is_error
    assert (got["second"].meta or {}).get("toolclause/replayed") is True
    assert got["second"].structured_content == got["first"].structured_content
    assert len(got["refused"]) == 2  # 401 before any tool ran
    assert runs(env) == ["record paid", "record paid"]  # alice once, bob once


def test_principals_from_requests():
    class Request:
        def __init__(self, headers: dict[str, str]) -> None:
            self.scope: dict[str, Any] = {}
            self.headers = {k.lower(): v for k, v in headers.items()}

    alice = principal_of(Request({"Authorization": "Bearer a"}))
    assert alice == principal_of(Request({"Authorization": "bearer  a "})) == credential_principal("Bearer a")
    assert alice != principal_of(Request({"Authorization": "Bearer b"}))
    assert "s3cr3t" not in principal_of(Request({"Authorization": "Bearer s3cr3t-token"}))  # a hash, not the token
    assert principal_of(Request({})) == ANONYMOUS == principal_of(None)


def test_a_token_file_that_cannot_be_used_is_refused_without_echoing_a_token(tmp_path):
    bad = tmp_path / "tokens"
    for text, problem in (("alice\n", "two fields"), ("alice t-secret-1\nbob t-secret-1\n", "already given"),
                          ("# nothing\n", "no tokens")):
        bad.write_text(text, encoding="utf-8")
        with pytest.raises(TokenFileError, match=problem) as caught:
            TokenFile(bad)
        assert "secret" not in str(caught.value)
    with pytest.raises(TokenFileError, match="cannot read"):
        TokenFile(tmp_path / "missing")


def test_a_callable_verifier_names_the_identity(tmp_path):
    from toolclause.mcp.principals import CallableVerifier, verified_principal

    async def check() -> list[Any]:
        verifier = CallableVerifier(lambda token: "carol" if token == "t-carol" else None)
        return [await verifier.verify_token("t-carol"), await verifier.verify_token("t-other")]

    carol, other = anyio.run(check)
    assert other is None and verified_principal(carol) == "id:carol"


def test_serve_refuses_token_options_it_cannot_use(tmp_path):
    from click.testing import CliRunner

    from toolclause.cli.main import cli

    runner = CliRunner()
    over_stdio = runner.invoke(cli, ["serve", "app.py:server", "--tokens", str(tmp_path / "t")])
    assert over_stdio.exit_code == 2 and "--transport http" in over_stdio.output
    (tmp_path / "t").write_text("alice\n", encoding="utf-8")
    malformed = runner.invoke(cli, ["serve", "app.py:server", "--transport", "http", "--tokens", str(tmp_path / "t")])
    assert malformed.exit_code == 2 and "line 1" in malformed.output and "Traceback" not in malformed.output
    both = runner.invoke(cli, ["serve", "app.py:server", "--transport", "http", "--tokens", str(tmp_path / "t"),
                               "--token-verifier", "auth.py:verify"])
    assert both.exit_code == 2 and "not both" in both.output
