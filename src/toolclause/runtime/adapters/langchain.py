"""LangChain and LangGraph: `StructuredTool`s whose input goes to the gate, errors handed to the model.

    tools = box.as_langchain_tools()
    model = chat_model.bind_tools(tools)
    node = tools.tool_node()            # a LangGraph ToolNode that also answers calls with broken JSON
    graph.add_conditional_edges("agent", tools.condition)

- `args_schema` is the contract's JSON Schema (the `openai-chat` export), so
  LangChain validates nothing itself: the tool call's arguments, as the model
  sent them, go to `Toolbox.call` / `acall` (sync and async), with
  `call_id` = the tool call's id.
- Any failure raises `ToolException` carrying the envelope as JSON, and
  `handle_tool_error=True`: the tool answers a `ToolMessage` with
  `status="error"` that the model reads, and a LangGraph `ToolNode` goes on
  instead of dying.
- A chat model that cannot parse a tool call's JSON files it under
  `invalid_tool_calls`, which a plain ToolNode never runs and `tools_condition`
  never routes to: the call goes unanswered.  `tools.tool_node()` answers them
  through the gate (INVALID_ARGUMENTS_JSON, with line and column), and
  `tools.condition` routes to it for them too.
- `run` (the correction budget's scope) is the LangGraph thread
  (`configurable.thread_id`, which every graph with a checkpointer has),
  unless `run=` (a function of the RunnableConfig) says otherwise.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

from .specs import ToolSpec, missing, warn_bypassing

try:
    from langchain_core.messages import AIMessage
    from langchain_core.runnables import RunnableConfig
    from langchain_core.tools import StructuredTool, ToolException
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise missing("langchain", "langchain-core") from exc

_RAW = "__toolclause_raw_arguments__"  # how an invalid tool call's text travels through a ToolNode


class GateTool(StructuredTool):
    """A StructuredTool whose arguments, as the model sent them, go to the gate."""

    box: Any = None
    spec: Any = None
    principal: str | None = None
    run_of: Any = None

    def _to_args_and_kwargs(self, tool_input: Any, tool_call_id: str | None) -> tuple[tuple[Any, ...], dict[str, Any]]:
        if isinstance(tool_input, dict) and set(tool_input) == {_RAW}:
            tool_input = tool_input[_RAW]
        return (), {"arguments": tool_input, "call_id": tool_call_id}

    def _run(self, *args: Any, config: RunnableConfig, run_manager: Any = None, **kwargs: Any) -> Any:
        arguments, call_id = kwargs.get("arguments"), kwargs.get("call_id")
        result = self.box.call(self.spec.name, arguments, run=self._run_id(config), call_id=call_id,
                               principal=self.principal, routing=self.spec.routing)
        return _answer(result)

    async def _arun(self, *args: Any, config: RunnableConfig, run_manager: Any = None, **kwargs: Any) -> Any:
        arguments, call_id = kwargs.get("arguments"), kwargs.get("call_id")
        result = await self.box.acall(self.spec.name, arguments, run=self._run_id(config), call_id=call_id,
                                      principal=self.principal, routing=self.spec.routing)
        return _answer(result)

    def _run_id(self, config: RunnableConfig) -> Any:
        if self.run_of is not None:
            return self.run_of(config)
        thread = (config.get("configurable") or {}).get("thread_id")
        return None if thread is None else f"thread:{thread}"


def _answer(result: Any) -> Any:
    if result.ok:
        return result.text()
    raise ToolException(json.dumps(result.to_dict(), ensure_ascii=False))


class LangChainTools(list[GateTool]):
    """The tools (a list), plus the LangGraph pieces that answer invalid tool calls too."""

    def tool_node(self, *others: Any, **options: Any) -> Any:
        """A LangGraph `ToolNode` over these tools (and `others`) that also runs `invalid_tool_calls`.

        Warns (GateBypassWarning) when one of `others` is a function registered with the toolbox.
        """
        if others and self:
            warn_bypassing(self[0].box, others, "box.as_langchain_tools()")
        return _gate_tool_node_class()([*self, *others], **options)

    @staticmethod
    def condition(state: Any, messages_key: str = "messages") -> str:
        """`tools_condition` that also routes to "tools" for invalid tool calls."""
        messages = state if isinstance(state, list) else (
            state.get(messages_key, []) if isinstance(state, dict) else getattr(state, messages_key, []))
        last = messages[-1] if messages else None
        if isinstance(last, AIMessage) and (last.tool_calls or last.invalid_tool_calls):
            return "tools"
        return "__end__"


@functools.cache
def _gate_tool_node_class() -> type:
    try:
        from langgraph.prebuilt import ToolNode
    except ImportError as exc:  # pragma: no cover
        raise missing("langchain", "langgraph") from exc

    class GateToolNode(ToolNode):
        def _parse_input(self, input: Any) -> Any:
            tool_calls, input_type = super()._parse_input(input)
            if input_type == "tool_calls":
                return tool_calls, input_type
            messages = input if isinstance(input, list) else (
                input.get(self._messages_key, []) if isinstance(input, dict) else getattr(input, self._messages_key))
            latest = next((m for m in reversed(messages) if isinstance(m, AIMessage)), None)
            invalid = [{"name": call.get("name") or "", "args": {_RAW: call.get("args") or ""}, "id": call.get("id"),
                        "type": "tool_call"} for call in (latest.invalid_tool_calls if latest else [])]
            return [*tool_calls, *invalid], input_type

    return GateToolNode


def structured_tools(box: Any, *, principal: str | None = None,
                     run: Callable[[RunnableConfig], Any] | None = None) -> LangChainTools:
    """One `GateTool` (a `StructuredTool`) per tool of `box` (see the module docstring)."""
    return LangChainTools(_tool(box, spec, principal, run) for spec in box.tool_specs("openai-chat"))


def _tool(box: Any, spec: ToolSpec, principal: str | None, run: Any) -> GateTool:
    return GateTool(name=spec.name, description=spec.description, args_schema=json.loads(json.dumps(spec.parameters)),
                    handle_tool_error=True, box=box, spec=spec, principal=principal, run_of=run)


__all__ = ["GateTool", "LangChainTools", "structured_tools"]
