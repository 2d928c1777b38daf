"""A handoff schema as an OpenAI Agents SDK `output_type` (the `agents` extra).

    agent = Agent(name="triage", output_type=Handoffs("contracts/handoffs").output_type("triage_to_billing"))
    result = await Runner.run(agent, "I was charged twice for order ord_8F2K")
    result.final_output          # a dict that conforms to the handoff schema, ready for handoffs.route()

The model is given the schema as `toolclause export --target structured-output` writes it
(the OpenAI strict projection when `strict`: every property required, an optional one
nullable).  What it answers is mapped back (a null for an optional property is "not given")
and checked against the handoff schema as written, constraints the projection could not
carry included, so the SDK gets a `ModelBehaviorError` naming each offending path instead
of an object that would fail `Handoffs.route` later.
"""

from __future__ import annotations

import copy
import json
from typing import TYPE_CHECKING, Any

from agents import AgentOutputSchemaBase, ModelBehaviorError

from ..exporting import export
from ..schema.normalize import to_canonical_arguments

if TYPE_CHECKING:
    from ..exporting.base import Loss
    from .handoffs import Handoffs


class HandoffOutput(AgentOutputSchemaBase):
    """The SDK's output schema for one handoff schema: `json_schema()` for the model, `validate_json()` for its answer.

    `losses`: what the strict projection could not carry (checked on the answer all the same).
    """

    def __init__(self, handoffs: Handoffs, id_or_name: str, *, strict: bool = True) -> None:
        from .handoffs import HandoffError

        self._handoffs = handoffs
        self._error = HandoffError
        self.schema_id = id_or_name
        self.canonical = handoffs.schema(id_or_name)
        label = handoffs.document(id_or_name).name
        result = export({label: self.canonical}, "structured-output", strict=strict)
        ((self._name, entry),) = result.payload.items()
        self._projected: dict[str, Any] = entry["openai"]["json_schema"]["schema"]
        self._renames = result.property_map.get(self._name)
        self._strict = strict
        self.losses: list[Loss] = [loss for loss in result.losses if not loss.message.startswith("Anthropic:")]

    def is_plain_text(self) -> bool:
        return False

    def name(self) -> str:
        return self._name

    def json_schema(self) -> dict[str, Any]:
        return copy.deepcopy(self._projected)

    def is_strict_json_schema(self) -> bool:
        return self._strict

    def validate_json(self, json_str: str) -> Any:
        """The handoff object the model answered, or ModelBehaviorError naming what is wrong with it."""
        try:
            value = json.loads(json_str)
        except ValueError as exc:
            raise ModelBehaviorError(f"{self._name}: the model's output is not JSON ({exc})") from None
        if self._strict:
            value = to_canonical_arguments(value, self.canonical, self._renames)
        try:
            self._handoffs.validate(value, schema=self.schema_id)
        except self._error as exc:
            paths = "; ".join(f"{d.get('path') or '/'}: {d.get('message')}" for d in exc.details[:5])
            raise ModelBehaviorError(f"{self._name}: {exc.code}: {exc.message}"
                                     + (f" ({paths})" if paths and paths not in exc.message else "")) from None
        return value


__all__ = ["HandoffOutput"]
