"""LangChain tools through the gate, in a LangGraph graph driven by LangChain's own fake chat model."""

from __future__ import annotations

import asyncio
import json

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import StructuredTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode

from adapter_scenario import CHARGE, MISTAKES, RIGHT, STATUS, Ledger, assert_toolclause_errors, make_box
from toolclause.runtime.adapters import GateBypassWarning

THREAD = {"configurable": {"thread_id": "conversation-1"}}


def ai_call(name: str, arguments: str, call_id: str) -> AIMessage:
    """The AIMessage a chat model makes of a tool call: JSON it cannot parse goes under invalid_tool_calls."""
    try:
        args = json.loads(arguments)
    except ValueError:
        return AIMessage(content="", invalid_tool_calls=[
            {"type": "invalid_tool_call", "name": name, "args": arguments, "id": call_id, "error": "bad JSON"}])
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": call_id}])


def graph(tools, replies: list[AIMessage], node=None):
    model = GenericFakeChatModel(messages=iter([*replies, AIMessage(content="done")]))
    builder = StateGraph(MessagesState)
    builder.add_node("agent", lambda state: {"messages": [model.invoke(state["messages"])]})
    builder.add_node("tools", node if node is not None else tools.tool_node())
    builder.add_edge(START, "agent")
    builder.add_conditional_edges("agent", tools.condition)
    builder.add_edge("tools", "agent")
    return builder.compile()


def tool_messages(state) -> list[ToolMessage]:
    return [m for m in state["messages"] if isinstance(m, ToolMessage)]


def scenario() -> list[AIMessage]:
    calls = [ai_call("search", arguments, f"call-{n}") for n, (_, arguments, _) in enumerate(MISTAKES)]
    return [*calls, ai_call("search", RIGHT, "call-right")]


def check_scenario(ledger: Ledger, state) -> None:
    assert state["messages"][-1].content == "done"
    assert ledger.of("search") == [("pizza", 3)]
    *errors, answer = tool_messages(state)
    assert [m.status for m in errors] == ["error"] * 4 and answer.status == "success"
    assert [m.tool_call_id for m in errors] == [f"call-{n}" for n in range(4)]
    assert [json.loads(m.content)["error"]["code"] for m in errors] == ["VALIDATION_ERROR"] * 3 + [
        "INVALID_ARGUMENTS_JSON"]
    assert_toolclause_errors([m.content for m in errors])
    assert json.loads(answer.content) == ["pizza 0", "pizza 1", "pizza 2"]


def test_every_mistake_gets_toolclauses_error_and_the_right_call_runs_once():
    ledger = Ledger()
    tools = make_box(ledger).as_langchain_tools()
    check_scenario(ledger, graph(tools, scenario()).invoke({"messages": [HumanMessage("pizza")]}, THREAD))


def test_the_async_path_is_the_same():
    ledger = Ledger()
    tools = make_box(ledger).as_langchain_tools()
    state = asyncio.run(graph(tools, scenario()).ainvoke({"messages": [HumanMessage("pizza")]}, THREAD))
    check_scenario(ledger, state)


def test_a_plain_tool_node_hands_the_errors_to_the_model_instead_of_dying():
    ledger = Ledger()
    tools = make_box(ledger).as_langchain_tools()
    replies = [ai_call("search", MISTAKES[0][1], "c1"), ai_call("search", RIGHT, "c2")]
    state = graph(tools, replies, node=ToolNode(list(tools))).invoke({"messages": [HumanMessage("pizza")]}, THREAD)
    assert [m.status for m in tool_messages(state)] == ["error", "success"]
    assert ledger.of("search") == [("pizza", 3)]


def test_the_tools_are_structured_tools_with_the_contracts_schema():
    box = make_box(Ledger())
    tools = box.as_langchain_tools()
    specs = {s.name: s for s in box.tool_specs("openai-chat")}
    for tool in tools:
        assert isinstance(tool, StructuredTool) and tool.handle_tool_error is True
        assert convert_to_openai_tool(tool)["function"]["parameters"] == specs[tool.name].parameters
        assert tool.description == specs[tool.name].description


def test_a_retried_idempotency_key_runs_the_charge_once():
    ledger = Ledger()
    tools = make_box(ledger).as_langchain_tools()
    replies = [ai_call("charge", CHARGE, "c1"), ai_call("charge", CHARGE, "c2")]
    state = graph(tools, replies).invoke({"messages": [HumanMessage("charge it")]}, THREAD)
    assert ledger.of("charge") == ["o-1"]
    assert [json.loads(m.content) for m in tool_messages(state)] == [{"payment": 1, "amount": 5}] * 2


def test_the_host_keyed_tool_is_keyed_by_the_tool_call_id():
    ledger = Ledger()
    tools = {t.name: t for t in make_box(ledger).as_langchain_tools()}
    call = {"type": "tool_call", "name": "send_receipt", "args": {"order_id": "o-1"}, "id": "call-7"}
    first, again = tools["send_receipt"].invoke(call), tools["send_receipt"].invoke(call)
    assert first.status == again.status == "success" and ledger.of("send_receipt") == ["o-1"]


def test_the_correction_budget_counts_one_thread():
    ledger = Ledger()
    tools = make_box(ledger).as_langchain_tools()
    same = json.dumps({"limit": 3})
    replies = [ai_call("search", same, "c1"), ai_call("search", same, "c2")]
    state = graph(tools, replies).invoke({"messages": [HumanMessage("pizza")]}, THREAD)
    codes = [json.loads(m.content)["error"]["code"] for m in tool_messages(state)]
    assert codes == ["VALIDATION_ERROR", "REPEATED_INVALID_CALL"]


def test_a_registered_function_given_to_the_tool_node_is_warned_about():
    box = make_box(Ledger())
    raw = StructuredTool.from_function(box.registry.tools["send_receipt"].fn, name="send_receipt_directly")
    with pytest.warns(GateBypassWarning, match="'send_receipt' is registered with a Toolbox"):
        box.as_langchain_tools().tool_node(raw)


def test_an_exported_name_routes_back_to_its_tool():
    ledger = Ledger()
    tools = make_box(ledger).as_langchain_tools()
    state = graph(tools, [ai_call(*STATUS, "c1")]).invoke({"messages": [HumanMessage("where is it")]}, THREAD)
    assert ledger.of("orders.status") == ["o-1"] and tool_messages(state)[0].status == "success"
