"""PydanticAI: a toolset whose argument validation is the gate.

    agent = Agent(model, toolsets=[box.as_pydantic_ai_toolset()])

- Each tool's `args_validator` is `Toolbox.validate`: the model's raw
  arguments (JSON text or a dict) go to the gate, never to PydanticAI's own
  validator, so broken JSON, wrong types, missing and misspelt keys all come
  back as toolclause's message (every field named, did-you-mean, no values
  echoed), raised as `ModelRetry`.
- `call_tool` runs the call through the gate (`acall`), with `run=ctx.run_id`
  and `call_id=ctx.tool_call_id`.  A business or infrastructure failure is a
  `ToolFailed` naming the code, the message, `retryable` and `userAction`:
  the model reads them, and PydanticAI spends no retry on it.
- The retry limit per tool is the gate's correction budget + 2 (the first
  mistake, the budget's corrections, and the "stop guessing" answer), so
  PydanticAI never ends a run before the model has read toolclause's last word.
"""

from __future__ import annotations

import json
from typing import Any

from .specs import ToolSpec, is_input_error, missing, warn_bypassing

try:
    from pydantic_ai import ModelRetry, RunContext, ToolDefinition
    from pydantic_ai.exceptions import ToolFailed
    from pydantic_ai.toolsets import AbstractToolset, ToolsetTool
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise missing("pydantic-ai", "pydantic-ai") from exc


class _GateValidator:
    """A `SchemaValidatorProt`: the gate's parse + normalise + validate, for one tool in one run."""

    def __init__(self, box: Any, spec: ToolSpec, run: Any) -> None:
        self.box, self.spec, self.run = box, spec, run

    def validate_json(self, input: Any, *, allow_partial: Any = False, **_: Any) -> Any:
        return self._checked(input)

    def validate_python(self, input: Any, *, allow_partial: Any = False, **_: Any) -> Any:
        return self._checked(input)

    def _checked(self, raw: Any) -> dict[str, Any]:
        checked = self.box.validate(self.spec.name, raw, run=self.run, routing=self.spec.routing)
        if isinstance(checked, dict):
            return checked
        raise ModelRetry(checked.error.message)


class GateToolset(AbstractToolset[Any]):
    """The tools of one `Toolbox`, every call through its gate (see the module docstring)."""

    def __init__(self, box: Any, *, target: str = "openai-chat", strict: bool = False, max_retries: int | None = None,
                 principal: str | None = None, id: str | None = None) -> None:
        self.box = box
        self.target, self.strict, self.principal = target, strict, principal
        self.max_retries = max_retries if max_retries is not None else box._budget.budget + 2
        self._id = id
        self._checked: set[int] = set()

    @property
    def id(self) -> str | None:
        return self._id

    async def get_tools(self, ctx: RunContext[Any]) -> dict[str, ToolsetTool[Any]]:
        if ctx.agent is not None and id(ctx.agent) not in self._checked:
            self._checked.add(id(ctx.agent))
            warn_bypassing(self.box, _function_tools(ctx.agent), "box.as_pydantic_ai_toolset()")
        tools: dict[str, ToolsetTool[Any]] = {}
        for spec in self.box.tool_specs(self.target, strict=self.strict):
            definition = ToolDefinition(name=spec.name, description=spec.description,
                                        parameters_json_schema=dict(spec.parameters), strict=self.strict,
                                        metadata={"toolclause": {"tool": spec.tool}})
            tools[spec.name] = ToolsetTool(toolset=self, tool_def=definition, max_retries=self.max_retries,
                                           args_validator=_GateValidator(self.box, spec, ctx.run_id))
        return tools

    async def call_tool(self, name: str, tool_args: dict[str, Any], ctx: RunContext[Any],
                        tool: ToolsetTool[Any]) -> Any:
        validator = tool.args_validator  # ours, carried through whatever wrapper toolsets copied the tool
        routing = validator.spec.routing if isinstance(validator, _GateValidator) else None
        result = await self.box.acall(name, tool_args, run=ctx.run_id, call_id=ctx.tool_call_id,
                                      principal=self.principal, routing=routing)
        if result.ok:
            return result.data
        if is_input_error(result):  # what only the function's own models refused (validation passed the schema)
            raise ModelRetry(result.error.message)
        error = result.error
        raise ToolFailed(f"{error.code}: {error.message} (retryable: {json.dumps(error.retryable)}; userAction: "
                         f"{error.user_action}; trace {result.trace_id})")


def _function_tools(agent: Any) -> list[Any]:
    """The plain function tools an agent holds (its FunctionToolsets' tools)."""
    found: list[Any] = []

    def visit(toolset: Any) -> None:
        found.extend(getattr(toolset, "tools", {}).values() if not isinstance(toolset, GateToolset) else ())

    for toolset in getattr(agent, "toolsets", ()):
        toolset.apply(visit)
    return found


def toolset(box: Any, **options: Any) -> GateToolset:
    return GateToolset(box, **options)


__all__ = ["GateToolset", "toolset"]
