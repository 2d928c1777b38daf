"""PydanticAI with the gate as its argument validation, driven by PydanticAI's own FunctionModel and TestModel."""

from __future__ import annotations

import json

import pytest
from pydantic_ai import Agent
from pydantic_ai.exceptions import UnexpectedModelBehavior
from pydantic_ai.messages import ModelResponse, RetryPromptPart, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.test import TestModel

from adapter_scenario import CHARGE, MISTAKES, RIGHT, SECRET, STATUS, Ledger, assert_toolclause_errors, make_box
from toolclause.runtime.adapters import GateBypassWarning


class Script:
    """A FunctionModel that sends one tool call per turn and keeps what the tools answered."""

    def __init__(self, calls: list[tuple[str, str, str]]) -> None:
        self.calls = list(calls)
        self.retries: list[str] = []
        self.returns: list[ToolReturnPart] = []
        self.definitions: dict = {}

    def __call__(self, messages, info: AgentInfo) -> ModelResponse:
        self.definitions = {t.name: t for t in info.function_tools}
        for part in messages[-1].parts:
            if isinstance(part, RetryPromptPart):
                self.retries.append(part.model_response())
            elif isinstance(part, ToolReturnPart) and part.outcome == "retried":
                self.retries.append(part.model_response_str())  # what the model reads
            elif isinstance(part, ToolReturnPart):
                self.returns.append(part)
        if not self.calls:
            return ModelResponse(parts=[TextPart("done")])
        name, arguments, call_id = self.calls.pop(0)
        return ModelResponse(parts=[ToolCallPart(name, arguments, tool_call_id=call_id)])


def run(box, calls) -> tuple[Script, object]:
    script = Script(calls)
    agent = Agent(FunctionModel(script), toolsets=[box.as_pydantic_ai_toolset()])
    return script, agent.run_sync("find me pizza")


def test_every_mistake_gets_toolclauses_error_and_the_right_call_runs_once():
    ledger = Ledger()
    box = make_box(ledger)
    calls = [("search", arguments, f"call-{n}") for n, (_, arguments, _) in enumerate(MISTAKES)]
    script, result = run(box, [*calls, ("search", RIGHT, "call-right")])
    assert result.output == "done"
    assert ledger.of("search") == [("pizza", 3)]
    assert_toolclause_errors(script.retries)
    assert [r.content for r in script.returns] == [["pizza 0", "pizza 1", "pizza 2"]]


def test_the_model_sees_the_contracts_schema_and_description():
    ledger = Ledger()
    script, _ = run(make_box(ledger), [])
    search = script.definitions["search"]
    assert search.description.startswith("Finds restaurants")
    assert search.parameters_json_schema["properties"]["limit"] == {"default": 5, "type": "integer"}
    assert search.parameters_json_schema["additionalProperties"] is False
    assert "idempotency_key" in script.definitions["charge"].parameters_json_schema["required"]
    assert "idempotency_key" not in script.definitions["send_receipt"].parameters_json_schema["properties"]


def test_a_retried_idempotency_key_runs_the_charge_once():
    ledger = Ledger()
    box = make_box(ledger)
    script, _ = run(box, [("charge", CHARGE, "call-1"), ("charge", CHARGE, "call-2")])
    assert ledger.of("charge") == ["o-1"]
    assert [r.content for r in script.returns] == [{"payment": 1, "amount": 5}] * 2


def test_the_host_keyed_tool_is_keyed_by_the_tool_call_id():
    ledger = Ledger()
    box = make_box(ledger)
    receipt = json.dumps({"order_id": "o-1"})
    run(box, [("send_receipt", receipt, "call-7"), ("send_receipt", receipt, "call-7"),
              ("send_receipt", receipt, "call-8")])
    assert ledger.of("send_receipt") == ["o-1", "o-1"]  # call-7 once (a re-delivered call), call-8 once


def test_a_business_error_is_a_tool_failure_the_model_reads_not_a_retry():
    ledger = Ledger()
    declined = json.dumps({"order_id": "declined", "amount": 5, "idempotency_key": "k-9"})
    script, result = run(make_box(ledger), [("charge", declined, "call-1")])
    assert result.output == "done" and script.retries == []
    failed = script.returns[0]
    assert failed.outcome == "failed" and ledger.of("charge") == ["declined"]
    assert failed.content.startswith("CARD_DECLINED: The card was declined")
    assert "retryable: false" in failed.content and "userAction:" in failed.content


def test_the_retry_limit_lets_the_model_read_the_budgets_last_word():
    ledger = Ledger()
    box = make_box(ledger)
    wrong = [("search", json.dumps({"query": SECRET, "limit": f"n{n}"}), f"c{n}") for n in range(5)]
    script, _ = run(box, wrong)
    assert "stop guessing" in script.retries[-1] and len(script.retries) == 5
    with pytest.raises(UnexpectedModelBehavior, match="exceeded max retries"):
        run(box, [*wrong, ("search", json.dumps({"limit": "again"}), "c6")])
    assert ledger.of("search") == []


def test_pydantic_ais_test_model_calls_every_tool_through_the_gate():
    ledger = Ledger()
    box = make_box(ledger)
    agent = Agent(TestModel(), toolsets=[box.as_pydantic_ai_toolset()])  # arguments made from each schema
    agent.run_sync("anything")
    assert sorted(name for name, _ in ledger.runs) == ["charge", "orders.status", "search", "send_receipt"]


def test_the_raw_function_given_to_pydantic_ai_skips_the_gate():
    """Why the adapter exists: PydanticAI validates a plain function tool with its own rules."""
    ledger = Ledger()
    box = make_box(ledger)
    search = box.registry.tools["search"].fn
    script = Script([("search", json.dumps({"query": "pizza", "limit": "3"}), "c1")])
    Agent(FunctionModel(script), tools=[search]).run_sync("pizza")
    assert ledger.of("search") == [("pizza", 3)]  # "3" became 3: the gate would have refused it


def test_a_registered_function_beside_the_toolset_is_warned_about():
    ledger = Ledger()
    box = make_box(ledger)
    charge = box.registry.tools["charge"].fn
    toolset = box.as_pydantic_ai_toolset().filtered(lambda ctx, tool: tool.name != "charge")
    agent = Agent(FunctionModel(Script([])), tools=[charge], toolsets=[toolset])
    with pytest.warns(GateBypassWarning, match="'charge' is registered with a Toolbox"):
        agent.run_sync("hello")


def test_strict_mode_and_exported_names_route_back_to_the_tools():
    ledger = Ledger()
    box = make_box(ledger)
    script = Script([("search", json.dumps({"query": "pizza", "limit": None}), "c1"), (*STATUS, "c2")])
    Agent(FunctionModel(script), toolsets=[box.as_pydantic_ai_toolset(strict=True)]).run_sync("pizza")
    assert script.definitions["search"].strict is True
    assert script.definitions["search"].parameters_json_schema["required"] == ["query", "limit"]
    assert ledger.of("search") == [("pizza", 5)] and ledger.of("orders.status") == ["o-1"]
