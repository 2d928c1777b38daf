"""`Reply` (a tool's data, its own summary and widget-only _meta), results masked for secrets before the model
reads them, and the standard auth errors a tool raises by name."""

from __future__ import annotations

import json
import logging

import pytest

from toolclause import Reply, Toolbox, ToolError
from toolclause.lexicon.secret_values import secrets_in


def make_box(**options) -> Toolbox:
    box = Toolbox("memory://", lint="off", **options)

    @box.tool(read_only=True)
    def search(query: str) -> dict:
        """Finds places by name. Changes nothing."""
        return Reply({"places": [query]}, summary=f"Found 1 place for {query}.",
                     meta={"placesById": {"p1": {"name": query, "phone": "02-123-4567"}}, "traceId": "t-1"})

    @box.tool(read_only=True)
    def profile(user_id: str):  # no output schema: the check does not depend on one
        """Returns one user's profile as stored. Changes nothing."""
        return {"user": user_id, "card": "4242 4242 4242 4242", "rrn": "900101-1234567",
                "auth": "Bearer abcdefghijklmnopqrstuvwxyz012345", "key": "sk_live_abcdefghijklmnop1234",
                "order": "ord_4242424242", "placed_ms": "1733400000000", "note": "nothing secret"}

    @box.tool(read_only=True)
    def account(user_id: str) -> dict:
        """Returns whether the user's session still holds. Changes nothing."""
        raise ToolError({"a": "AUTH_REQUIRED", "b": "PERMISSION_DENIED", "c": "SESSION_EXPIRED"}[user_id],
                        "the user must act first")

    @box.tool(read_only=True)
    def broken(query: str) -> dict:
        """Returns a widget map that is not JSON. Changes nothing."""
        return Reply({"ok": 1}, meta={"when": object()})

    return box


def test_a_reply_gives_mcp_its_summary_as_content_and_its_meta_as_result_meta_never_the_model():
    box = make_box()
    result = box.call("search", {"query": "Napoli"}, call_id="c1")
    assert result.ok and result.data == {"places": ["Napoli"]}
    mcp = result.to_mcp()
    assert mcp["content"] == [{"type": "text", "text": "Found 1 place for Napoli."}]
    assert mcp["structuredContent"] == {"places": ["Napoli"]}
    assert mcp["_meta"] == {"placesById": {"p1": {"name": "Napoli", "phone": "02-123-4567"}}, "traceId": "t-1"}
    for model_reads in (json.dumps(result.to_dict()), result.to_openai()["content"], result.to_anthropic()["content"]):
        assert "placesById" not in model_reads and "t-1" not in model_reads


def test_a_reply_without_a_summary_sends_the_data_as_text_and_bad_meta_breaks_the_contract():
    box = make_box()
    plain = Reply({"a": 1}, summary="   ")
    assert plain.summary is None and plain.meta is None
    broken = box.call("broken", {"query": "x"})
    assert broken.error.code == "OUTPUT_CONTRACT_VIOLATION" and broken.error.details[0]["path"] == "/_meta"
    with pytest.raises(TypeError, match="summary is text"):
        Reply({}, summary=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="meta is a mapping"):
        Reply({}, meta=["x"])  # type: ignore[arg-type]


def test_a_replayed_reply_keeps_its_summary_and_meta():
    box = Toolbox("memory://", lint="off")

    @box.tool(idempotency="key")
    def send_note(text: str) -> dict:
        """Sends a note to the team once per key."""
        return Reply({"sent": True}, summary="Sent.", meta={"noteId": "n1"})

    first = box.call("send_note", {"text": "hi", "idempotency_key": "k1"})
    again = box.call("send_note", {"text": "hi", "idempotency_key": "k1"})
    assert again.replayed and (again.summary, again.meta) == (first.summary, first.meta) == ("Sent.", {"noteId": "n1"})


def test_secrets_in_a_result_are_masked_and_logged_by_kind_and_pointer_never_by_value(caplog):
    box = make_box()
    with caplog.at_level(logging.WARNING, logger="toolclause.runtime"):
        result = box.call("profile", {"user_id": "u1"})
    data = result.data
    assert data["card"] == "[masked card]" and data["rrn"] == "[masked resident]"
    assert data["auth"] == "[masked bearer]" and data["key"] == "[masked live_key]"
    # what merely looks like digits is left alone: an order id, a timestamp
    assert (data["order"], data["placed_ms"], data["note"]) == ("ord_4242424242", "1733400000000", "nothing secret")
    (record,) = [r for r in caplog.records if "secret in a result" in r.getMessage()]
    logged = record.getMessage() + json.dumps(record.secrets)
    assert "profile" in logged and "/card" in logged and "/rrn" in logged and result.trace_id in logged
    for value in ("4242 4242 4242 4242", "900101-1234567", "abcdefghijklmnop", "sk_live_"):
        assert value not in logged


def test_masking_can_be_turned_off_for_a_trusted_host():
    assert make_box(mask_secrets=False).call("profile", {"user_id": "u1"}).data["card"] == "4242 4242 4242 4242"


@pytest.mark.parametrize(("text", "kinds"), [
    ("card 4242-4242-4242-4242 ok", ["card"]),
    ("4242424242424241", []),                    # fails the Luhn check
    ("1234567890123456", []),                    # no card network starts with 1
    ("주민등록번호 880101-2345678", ["resident"]),
    ("8801011234567", []),                       # thirteen digits without the hyphen need the check digit
    ("991301-1234567", []),                      # no thirteenth month: not a birth date
    ("token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlX2hlcmU", ["jwt"]),
    ("AKIAABCDEFGHIJKLMNOP and ghp_" + "a" * 36, ["credential", "credential"]),
])
def test_the_secret_shapes(text, kinds):
    assert [kind for _, _, kind in secrets_in(text)] == kinds


@pytest.mark.parametrize(("user", "code", "action"), [("a", "AUTH_REQUIRED", "reconnect"),
                                                      ("b", "PERMISSION_DENIED", "ask_for_access"),
                                                      ("c", "SESSION_EXPIRED", "reconnect")])
def test_auth_errors_are_raised_by_name_with_the_user_action_they_need(user, code, action, caplog):
    with caplog.at_level(logging.WARNING, logger="toolclause.runtime"):
        result = make_box().call("account", {"user_id": user})
    assert (result.error.code, result.error.user_action, result.error.retryable) == (code, action, False)
    assert not [r for r in caplog.records if "contract gap" in r.getMessage()]  # a standard code, not a gap
