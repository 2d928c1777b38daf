"""A handoff schema as an OpenAI Agents SDK `output_type`, checked with the SDK's own types.

The agent runs through the SDK's `Runner` with a scripted `Model` of its own interface (no model
can be reached here): what the model is shown is read from the `output_schema` the SDK hands it
and from the SDK's converters to the Responses and Chat Completions request shapes; what it
answers goes through the SDK's own final-output path.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from agents import Agent, ModelBehaviorError, ModelResponse, RunConfig, Runner, Usage
from agents.models.chatcmpl_converter import Converter as ChatConverter
from agents.models.interface import Model
from agents.models.openai_responses import Converter as ResponsesConverter
from agents.strict_schema import ensure_strict_json_schema
from openai.types.responses import ResponseOutputMessage, ResponseOutputText

from toolclause.workflow.handoffs import Handoffs

TRIAGE = {
    "$id": "urn:example:handoff:triage_to_billing",
    "description": "What the triage agent hands to billing: the intent, how sure it is, the order.",
    "type": "object",
    "properties": {"intent": {"enum": ["refund", "invoice_question"]},
                   "confidence": {"type": "number", "minimum": 0, "maximum": 1},
                   "order_id": {"type": "string", "pattern": "^ord_"},
                   "note": {"type": "string", "maxLength": 200}},
    "required": ["intent", "confidence", "order_id"],
    "additionalProperties": False,
    "x-routes": [{"when": "intent == 'refund' and confidence >= 0.8", "to": "billing_agent"},
                 {"to": "human_review"}],
}
QUIET = RunConfig(tracing_disabled=True)


class Answering(Model):
    """Answers once with the given text; keeps the output schema the SDK handed it."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.output_schema: Any = None

    async def get_response(self, system_instructions, input, model_settings, tools, output_schema, handoffs,
                           tracing, *, previous_response_id=None, conversation_id=None, prompt=None,
                           **_: Any) -> ModelResponse:
        self.output_schema = output_schema
        message = ResponseOutputMessage(id="m", role="assistant", status="completed", type="message", content=[
            ResponseOutputText(type="output_text", text=self.text, annotations=[])])
        return ModelResponse(output=[message], usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any):  # pragma: no cover - the tests run get_response
        raise NotImplementedError


@pytest.fixture
def handoffs(tmp_path: Path) -> Handoffs:
    folder = tmp_path / "contracts" / "handoffs"
    folder.mkdir(parents=True)
    (folder / "triage_to_billing.json").write_text(json.dumps(TRIAGE), encoding="utf-8")
    return Handoffs(folder)


def run(handoffs: Handoffs, answer: Any, **options: Any) -> tuple[Any, Answering]:
    model = Answering(answer if isinstance(answer, str) else json.dumps(answer))
    agent = Agent(name="triage", model=model, output_type=handoffs.output_type("triage_to_billing", **options))
    return Runner.run_sync(agent, "I was charged twice for order ord_8F2K", run_config=QUIET), model


def test_the_model_is_shown_the_strict_schema_and_the_answer_routes(handoffs: Handoffs):
    result, model = run(handoffs, {"intent": "refund", "confidence": 0.93, "order_id": "ord_8F2K", "note": None})
    # the optional note's null is "not given": the object conforms to the schema as written, and routes
    assert result.final_output == {"intent": "refund", "confidence": 0.93, "order_id": "ord_8F2K"}
    assert handoffs.route(result.final_output).to == "billing_agent"

    schema = model.output_schema
    assert schema.name() == "triage_to_billing" and schema.is_strict_json_schema() and not schema.is_plain_text()
    shown = schema.json_schema()
    assert shown["required"] == ["intent", "confidence", "order_id", "note"]
    assert shown["properties"]["note"]["type"] == ["string", "null"]
    assert "$id" not in shown and "x-routes" not in shown
    assert ensure_strict_json_schema(shown) == shown  # the SDK's own strict check changes nothing
    responses = ResponsesConverter.get_response_format(schema)
    assert responses == {"format": {"type": "json_schema", "name": "final_output", "schema": shown, "strict": True}}
    chat = ChatConverter.convert_response_format(schema)
    assert chat == {"type": "json_schema", "json_schema": {"name": "final_output", "strict": True, "schema": shown}}


@pytest.mark.parametrize("answer, named", [
    ({"intent": "refund", "confidence": 1.5, "order_id": "ord_1", "note": None}, "/confidence"),
    ({"intent": "refund", "confidence": 0.9, "order_id": "8F2K", "note": None}, "/order_id"),   # pattern
    ({"intent": "refund", "confidence": 0.9, "order_id": "ord_1", "note": "x" * 201}, "/note"),  # maxLength
    ({"intent": "Refund", "confidence": 0.9, "order_id": "ord_1", "note": None}, "/intent"),
    ("{\"intent\": \"refund\",", "not JSON"),
])
def test_an_answer_that_breaks_the_schema_as_written_is_the_sdks_model_behavior_error(handoffs, answer, named):
    with pytest.raises(ModelBehaviorError) as caught:
        run(handoffs, answer)
    assert str(caught.value).startswith("triage_to_billing: ") and named in str(caught.value)


def test_without_strict_the_schema_is_shown_as_written(handoffs: Handoffs):
    output = handoffs.output_type("urn:example:handoff:triage_to_billing", strict=False)
    assert not output.is_strict_json_schema()
    assert output.json_schema()["required"] == ["intent", "confidence", "order_id"]
    result, _ = run(handoffs, {"intent": "invoice_question", "confidence": 0.4, "order_id": "ord_2"}, strict=False)
    assert handoffs.route(result.final_output).to == "human_review"
    with pytest.raises(ModelBehaviorError, match="/note"):
        run(handoffs, {"intent": "refund", "confidence": 0.9, "order_id": "ord_1", "note": None}, strict=False)
