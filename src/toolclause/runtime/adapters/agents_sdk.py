"""The OpenAI Agents SDK: `FunctionTool`s over toolclause's strict export, the raw argument text to the gate.

    agent = Agent(name="host", tools=box.as_agents_sdk_tools())

- The schema is the `openai-responses` strict export: the SDK's own strict
  re-shaping (`ensure_strict_json_schema`) finds nothing to change, and the
  gate turns the nulls strict mode makes the model send back into absent
  arguments.  Exported names (`math.add` → `math_add`) route back to the tool.
- `on_invoke_tool` hands the model's argument text, as it came, to
  `Toolbox.acall`: broken JSON reaches the gate and gets its answer.
- Success is the data as JSON; any failure is the envelope as JSON
  (`{"ok": false, "error": {code, message, retryable, userAction, details}, "traceId"}`),
  returned as the tool's output so the model reads it and the run goes on.
- `call_id` is the SDK's `tool_call_id`; `run` is one `Runner.run` (the usage
  record the SDK shares across its tool calls), unless `run=` (a function of
  the `ToolContext`) says otherwise.
"""

from __future__ import annotations

import json
import uuid
import weakref
from collections.abc import Callable
from typing import Any

from .specs import ToolSpec, missing, warn_bypassing

try:
    from agents import FunctionTool
    from agents.tool_context import ToolContext
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise missing("agents", "openai-agents") from exc


class _Runs:
    """A run id per `Runner.run`: the SDK gives every ToolContext of one run the same usage object."""

    def __init__(self) -> None:
        self._ids: dict[int, tuple[weakref.ref[Any], str]] = {}

    def of(self, ctx: ToolContext[Any]) -> str:
        usage = ctx.usage
        key = id(usage)
        found = self._ids.get(key)
        if found is not None and found[0]() is usage:
            return found[1]
        run = uuid.uuid4().hex

        def forget(_: Any) -> None:
            self._ids.pop(key, None)

        self._ids[key] = (weakref.ref(usage, forget), run)
        return run


def function_tools(box: Any, *, strict: bool = True, principal: str | None = None,
                   run: Callable[[ToolContext[Any]], Any] | None = None) -> list[FunctionTool]:
    """One `FunctionTool` per tool of `box` (see the module docstring)."""
    runs = run if run is not None else _Runs().of
    checked: set[int] = set()

    def check(agent: Any) -> None:  # once per agent: does it also hold one of these functions as a plain tool?
        if agent is not None and id(agent) not in checked:
            checked.add(id(agent))
            warn_bypassing(box, getattr(agent, "tools", ()), "box.as_agents_sdk_tools()")

    return [_function_tool(box, spec, runs, principal, check)
            for spec in box.tool_specs("openai-responses", strict=strict)]


def _function_tool(box: Any, spec: ToolSpec, runs: Callable[[ToolContext[Any]], Any], principal: str | None,
                   check: Callable[[Any], None]) -> FunctionTool:
    async def on_invoke_tool(ctx: ToolContext[Any], arguments: str) -> str:
        check(ctx.agent)
        result = await box.acall(spec.name, arguments, run=runs(ctx), call_id=ctx.tool_call_id,
                                 principal=principal, routing=spec.routing)
        return result.text() if result.ok else json.dumps(result.to_dict(), ensure_ascii=False)

    return FunctionTool(name=spec.name, description=spec.description,
                        params_json_schema=json.loads(json.dumps(spec.parameters)),
                        on_invoke_tool=on_invoke_tool,
                        strict_json_schema=bool(spec.definition.get("strict", False)))


__all__ = ["function_tools"]
