"""The Anthropic SDK: tools for its tool runner (`client.beta.messages.tool_runner`), every call through the gate.

    runner = client.beta.messages.tool_runner(model=…, max_tokens=…, messages=[…],
                                              tools=box.as_anthropic_tools())

- Each tool's definition is the `anthropic` export (`strict=True` for its
  strict projection); the runner's own pydantic validation never runs: the
  `tool_use` block's input goes to `Toolbox.call` (or `acall` with
  `asynchronous=True`, for the async runner) as it came.
- Success is the data as JSON; any failure raises the SDK's `ToolError` with
  the envelope as JSON, which the runner sends as a `tool_result` with
  `is_error: true`.
- The runner hands a tool the input only, not the `tool_use` id: a tool
  declared `idempotency="host"` needs the plain loop, which passes the id
  (`box.call(block.name, block.input, call_id=block.id).to_anthropic(block.id)`).
- `run` scopes the correction budget: every tool of one `as_anthropic_tools()`
  call shares one (a fresh id), so make the tools once per conversation, or
  pass `run=`.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from .specs import ToolSpec, missing

try:
    from anthropic.lib.tools import BetaAsyncBuiltinFunctionTool, BetaBuiltinFunctionTool, ToolError
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise missing("anthropic", "anthropic") from exc


class _Gated:
    def __init__(self, box: Any, spec: ToolSpec, run: Any, principal: str | None) -> None:
        self.box, self.spec, self.run, self.principal = box, spec, run, principal

    def to_dict(self) -> Any:
        return json.loads(json.dumps(self.spec.definition))

    def _answer(self, result: Any) -> str:
        if result.ok:
            return str(result.text())
        raise ToolError(json.dumps(result.to_dict(), ensure_ascii=False))


class GateRunnerTool(_Gated, BetaBuiltinFunctionTool):
    """A tool for the sync tool runner."""

    def call(self, input: object) -> str:
        return self._answer(self.box.call(self.spec.name, input, run=self.run, principal=self.principal,
                                          routing=self.spec.routing))


class AsyncGateRunnerTool(_Gated, BetaAsyncBuiltinFunctionTool):
    """A tool for the async tool runner."""

    async def call(self, input: object) -> str:
        return self._answer(await self.box.acall(self.spec.name, input, run=self.run, principal=self.principal,
                                                 routing=self.spec.routing))


def runner_tools(box: Any, *, strict: bool = False, asynchronous: bool = False, run: Any = None,
                 principal: str | None = None) -> list[Any]:
    """One runner tool per tool of `box` (see the module docstring)."""
    kind = AsyncGateRunnerTool if asynchronous else GateRunnerTool
    scope = run if run is not None else uuid.uuid4().hex
    return [kind(box, spec, scope, principal) for spec in box.tool_specs("anthropic", strict=strict)]


__all__ = ["AsyncGateRunnerTool", "GateRunnerTool", "runner_tools"]
