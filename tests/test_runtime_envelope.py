"""The envelope and its adapters, checked against the SDKs' own types; no internals ever leak."""

from __future__ import annotations

import json
import socket

import mcp.types
import pytest
from anthropic.types import ToolResultBlockParam
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openai.types.chat import ChatCompletionToolMessageParam
from pydantic import TypeAdapter

from toolclause import Result, Toolbox, ToolError
from toolclause.runtime.envelope import envelope_in

OPENAI = TypeAdapter(ChatCompletionToolMessageParam)
ANTHROPIC = TypeAdapter(ToolResultBlockParam)


def make_box() -> Toolbox:
    box = Toolbox("memory://", lint="off")

    @box.tool
    def get_order(order_id: str) -> dict:
        """Returns one order by its id."""
        if order_id == "missing":
            raise ToolError("ORDER_NOT_FOUND", "No order with that id.", user_action="check_order_id",
                            details=[{"path": "/order_id", "problem": "not_found"}])
        return {"order_id": order_id, "items": []}

    @box.tool
    def count_orders() -> int:
        """Counts the orders of the signed-in customer."""
        return 3

    @box.tool
    def note() -> str:
        """Returns the shop's note of the day."""
        return "closed on Monday"

    return box


def outcomes() -> list[Result]:
    box = make_box()
    return [box.call("get_order", {"order_id": "o1"}), box.call("count_orders"), box.call("note"),
            box.call("get_order", {"order_id": "missing"}), box.call("get_order", {"id": 3}),
            box.call("get_order", "{bad"), box.call("nope")]


@pytest.mark.parametrize("index", range(7))
def test_to_mcp_is_a_valid_call_tool_result(index):
    result = outcomes()[index]
    shape = result.to_mcp()
    parsed = mcp.types.CallToolResult.model_validate(shape)
    assert parsed.is_error is (not result.ok)
    assert len(parsed.content) == 1 and parsed.content[0].type == "text"
    if result.ok:
        assert json.loads(parsed.content[0].text) == result.data
    else:  # the envelope as compact JSON text, and nothing a client would check against the outputSchema
        assert parsed.structured_content is None and "structuredContent" not in shape
        assert json.loads(parsed.content[0].text) == result.to_dict()
        assert parsed.content[0].text == json.dumps(result.to_dict(), ensure_ascii=False, separators=(",", ":"))
        assert envelope_in(shape) == envelope_in(parsed) == result.to_dict()


def test_mcp_success_shapes():
    ok, count, note = outcomes()[:3]
    assert ok.to_mcp()["structuredContent"] == {"order_id": "o1", "items": []}
    assert count.to_mcp()["structuredContent"] == {"result": 3}       # the outputSchema is wrapped
    assert note.to_mcp()["structuredContent"] == {"result": "closed on Monday"}
    assert count.data == 3 and count.to_dict() == {"ok": True, "data": 3}
    assert note.to_mcp(wrap=True)["structuredContent"] == {"result": "closed on Monday"}  # wrapped once
    assert ok.to_mcp(wrap=True)["structuredContent"] == {"result": {"order_id": "o1", "items": []}}
    assert all(envelope_in(r.to_mcp()) is None for r in (ok, count, note))


def test_envelope_in_reads_the_text_or_an_older_servers_structured_content():
    failed = outcomes()[3]
    envelope = failed.to_dict()
    assert envelope_in(failed.to_mcp()) == envelope
    older = {"content": [{"type": "text", "text": "ORDER_NOT_FOUND: No order with that id."}],
             "structuredContent": envelope, "isError": True}
    assert envelope_in(older) == envelope
    for not_ours in ({"content": [{"type": "text", "text": "disk full"}], "isError": True},
                     {"content": [{"type": "text", "text": '{"ok": false, "error": "disk full"}'}], "isError": True},
                     {"content": [{"type": "text", "text": "{not json"}], "isError": True},
                     {"content": [], "isError": True}, {}):
        assert envelope_in(not_ours) is None


@pytest.mark.parametrize("index", range(7))
def test_openai_and_anthropic_shapes_are_their_sdk_types(index):
    result = outcomes()[index]
    message = result.to_openai("call_abc")
    OPENAI.validate_python(message)
    assert message["role"] == "tool" and json.loads(message["content"]) == result.to_dict()
    block = result.to_anthropic("toolu_01")
    ANTHROPIC.validate_python(block)
    assert block["type"] == "tool_result" and block["is_error"] is (not result.ok)
    assert json.loads(block["content"]) == result.to_dict()


def test_call_id_given_to_call_is_used_and_required_somewhere():
    box = make_box()
    result = box.call("count_orders", call_id="call_1")
    assert result.to_openai()["tool_call_id"] == "call_1" and result.to_anthropic()["tool_use_id"] == "call_1"
    with pytest.raises(ValueError, match="no tool call id"):
        box.call("count_orders").to_openai()


def test_failure_envelope_is_exactly_the_documented_shape():
    envelope = outcomes()[3].to_dict()
    assert set(envelope) == {"ok", "error", "traceId"}
    assert set(envelope["error"]) == {"code", "message", "retryable", "userAction", "details"}
    assert envelope["error"] == {"code": "ORDER_NOT_FOUND", "message": "No order with that id.", "retryable": False,
                                 "userAction": "check_order_id",
                                 "details": [{"path": "/order_id", "problem": "not_found"}]}


# --------------------------------------------------------------------------- nothing internal leaks

SECRET_BITS = ["Traceback", 'File "', "/srv/app/secret_config.py", "C:\\Users\\admin", "db-7.prod.internal",
               "10.0.0.7", "SELECT * FROM users", "sk_live_4eC39HqLyjWDarjtT1zdp7dc", "김철수"]
EXCEPTIONS = [ValueError, KeyError, RuntimeError, TypeError, OSError, FileNotFoundError, PermissionError,
              ConnectionError, ConnectionResetError, TimeoutError, socket.gaierror, ZeroDivisionError, AssertionError]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(exc_type=st.sampled_from(EXCEPTIONS), bits=st.lists(st.sampled_from(SECRET_BITS), min_size=1, max_size=4),
       value=st.sampled_from(SECRET_BITS), wrap=st.booleans())
def test_no_envelope_holds_a_trace_a_path_a_host_or_an_input_value(exc_type, bits, value, wrap):
    box = Toolbox("memory://", lint="off")
    text = " | ".join(bits)

    @box.tool
    def lookup(customer: str, count: int = 1) -> dict:
        """Looks up one customer record."""
        try:
            raise exc_type(text)
        except Exception as inner:
            if wrap:
                raise RuntimeError(f"while handling {customer}") from inner
            raise

    envelopes = [
        box.call("lookup", {"customer": value}),                       # the tool raises
        box.call("lookup", {"customer": value, "count": value}),       # wrong type: value must not be echoed
        box.call("lookup", {"customer": 5, "extra": value}),
        box.call("lookup", json.dumps({"customer": value}) + "}"),     # bad JSON around the value
        box.call("lookup", {"customer": value, "count": [value]}),
    ]
    for result in envelopes:
        assert not result.ok
        for shape in (result.to_dict(), result.to_mcp(), result.to_openai("c"), result.to_anthropic("c")):
            dumped = json.dumps(shape, ensure_ascii=False)
            for bit in SECRET_BITS:
                assert bit not in dumped, (bit, result.error.code, dumped)
