"""The OpenAI Agents SDK with toolclause's FunctionTools, driven by a scripted `Model` of the SDK's own interface."""

from __future__ import annotations

import contextlib
import glob
import json
import random
from pathlib import Path
from typing import Any

import pytest
from agents import Agent, FunctionTool, ModelResponse, RunConfig, Runner, Usage, function_tool
from agents.models.interface import Model
from agents.strict_schema import ensure_strict_json_schema
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

from adapter_scenario import CHARGE, MISTAKES, RIGHT, STATUS, Ledger, assert_toolclause_errors, make_box
from toolclause import Toolbox, ToolRegistrationError
from toolclause.exporting import with_fixed_types
from toolclause.loading import load_paths
from toolclause.runtime.adapters import GateBypassWarning

QUIET = RunConfig(tracing_disabled=True)  # offline: no trace export


class ScriptedModel(Model):
    """Sends one scripted tool call per turn, then a final message; keeps every tool output it was given."""

    def __init__(self, calls: list[tuple[str, str, str]]) -> None:
        self.calls = list(calls)
        self.outputs: list[str] = []
        self.tools: list[Any] = []

    async def get_response(self, system_instructions, input, model_settings, tools, output_schema, handoffs,
                           tracing, *, previous_response_id=None, conversation_id=None, prompt=None,
                           **_: Any) -> ModelResponse:
        self.tools = tools
        if isinstance(input, list) and input:
            last = input[-1]
            item = last if isinstance(last, dict) else last.model_dump()
            if item.get("type") == "function_call_output":
                self.outputs.append(item["output"])
        if not self.calls:
            message = ResponseOutputMessage(id="m", role="assistant", status="completed", type="message", content=[
                ResponseOutputText(type="output_text", text="done", annotations=[])])
            return ModelResponse(output=[message], usage=Usage(), response_id=None)
        name, arguments, call_id = self.calls.pop(0)
        call = ResponseFunctionToolCall(type="function_call", name=name, arguments=arguments, call_id=call_id)
        return ModelResponse(output=[call], usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any):  # pragma: no cover - the tests run get_response
        raise NotImplementedError


def run(box, calls, **options) -> ScriptedModel:
    model = ScriptedModel(calls)
    agent = Agent(name="host", model=model, tools=box.as_agents_sdk_tools(**options))
    result = Runner.run_sync(agent, "find me pizza", max_turns=20, run_config=QUIET)
    assert result.final_output == "done"
    return model


def test_every_mistake_gets_toolclauses_error_and_the_right_call_runs_once():
    ledger = Ledger()
    calls = [("search", arguments, f"call-{n}") for n, (_, arguments, _) in enumerate(MISTAKES)]
    model = run(make_box(ledger), [*calls, ("search", RIGHT, "call-right")])
    assert ledger.of("search") == [("pizza", 3)]
    *errors, answer = model.outputs
    envelopes = [json.loads(text) for text in errors]
    assert [e["error"]["code"] for e in envelopes] == ["VALIDATION_ERROR"] * 3 + ["INVALID_ARGUMENTS_JSON"]
    assert_toolclause_errors(errors)
    assert json.loads(answer) == ["pizza 0", "pizza 1", "pizza 2"]


def test_the_sdks_strict_reshaping_changes_nothing_in_the_strict_export():
    box = make_box(Ledger())
    tools = box.as_agents_sdk_tools()
    specs = {s.name: s for s in box.tool_specs("openai-responses", strict=True)}
    for tool in tools:
        assert isinstance(tool, FunctionTool) and tool.strict_json_schema
        assert tool.params_json_schema == specs[tool.name].parameters
        assert ensure_strict_json_schema(json.loads(json.dumps(tool.params_json_schema))) == tool.params_json_schema


def test_strict_nulls_and_exported_names_route_back_to_the_tools():
    ledger = Ledger()
    model = run(make_box(ledger), [("search", json.dumps({"query": "pizza", "limit": None}), "c1"), (*STATUS, "c2")])
    assert ledger.of("search") == [("pizza", 5)] and len(json.loads(model.outputs[0])) == 5
    assert ledger.of("orders.status") == ["o-1"] and json.loads(model.outputs[1]) == {"status": "shipped"}


def test_a_retried_idempotency_key_runs_the_charge_once():
    ledger = Ledger()
    model = run(make_box(ledger), [("charge", CHARGE, "call-1"), ("charge", CHARGE, "call-2")])
    assert ledger.of("charge") == ["o-1"]
    assert [json.loads(text) for text in model.outputs] == [{"payment": 1, "amount": 5}] * 2


def test_a_business_error_is_the_envelope_and_the_run_goes_on():
    ledger = Ledger()
    declined = json.dumps({"order_id": "declined", "amount": 5, "idempotency_key": "k-9"})
    model = run(make_box(ledger), [("charge", declined, "call-1")])
    envelope = json.loads(model.outputs[0])
    assert envelope["ok"] is False and envelope["error"]["code"] == "CARD_DECLINED" and envelope["traceId"]


def test_the_correction_budget_counts_one_runner_run():
    ledger = Ledger()
    box = make_box(ledger)
    same = json.dumps({"limit": 3})
    first = run(box, [("search", same, "c1"), ("search", same, "c2")])
    assert [json.loads(t)["error"]["code"] for t in first.outputs] == ["VALIDATION_ERROR", "REPEATED_INVALID_CALL"]
    second = run(box, [("search", same, "c3")])  # a new run starts with a fresh budget
    assert json.loads(second.outputs[0])["error"]["code"] == "VALIDATION_ERROR"


def test_a_registered_function_beside_the_gated_tools_is_warned_about():
    ledger = Ledger()
    box = make_box(ledger)
    raw = function_tool(box.registry.tools["send_receipt"].fn, name_override="send_receipt_directly")
    model = ScriptedModel([("search", RIGHT, "c1")])
    agent = Agent(name="host", model=model, tools=[*box.as_agents_sdk_tools(), raw])
    with pytest.warns(GateBypassWarning, match="'send_receipt' is registered with a Toolbox"):
        Runner.run_sync(agent, "pizza", run_config=QUIET)


CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"


@pytest.mark.skipif(not CORPORA.exists(), reason="../shared/corpora is absent")
def test_the_sdks_strict_reshaping_changes_nothing_on_corpus_tools():
    tools = [t for t in load_paths(sorted(glob.glob(str(CORPORA / "*" / "tools.jsonl")))).tools
             if t.input_schema is not None]
    box = Toolbox("memory://", lint="off")
    for contract in random.Random(20240917).sample(tools, 400):
        with contextlib.suppress(ToolRegistrationError):  # a name the sample holds twice
            box.add(with_fixed_types(contract), lambda **arguments: None)
    assert len(box) > 350
    specs = {s.name: s for s in box.tool_specs("openai-responses", strict=True)}
    reshaped = [tool.name for tool in box.as_agents_sdk_tools()
                if tool.params_json_schema != specs[tool.name].parameters]
    assert reshaped == []
