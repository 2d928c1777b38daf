"""What every framework adapter needs from a `Toolbox`: exported tool specs, and validation without execution.

`tool_specs(box, target, strict)` is one export read back per tool: the name the
model sees, the schema it fills, the definition the SDK takes, the contract it
came from and what the projection lost — so routing a call by its exported
name never depends on having called `export()` first.

`validate(box, name, arguments, run=…)` is the gate's first three stages
(parse, normalise, validate) without the claim or the function: the validated
JSON arguments, or the `Result` the model must read.  A failure counts against
the run's correction budget exactly as `call()` would count it.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..envelope import Result
from ..errors import CODES, standard_error
from ..gate import new_trace_id
from ..registry import Routing

if TYPE_CHECKING:
    from ...exporting import Loss
    from ...model import ToolContract
    from ..toolbox import Toolbox

logger = logging.getLogger("toolclause.runtime")

# the keys an exported tool keeps its argument schema under, by target
_SCHEMA_KEYS = ("parameters", "input_schema", "inputSchema", "parametersJsonSchema")
INPUT_CODES = frozenset(code for code, spec in CODES.items() if spec.layer == "input")
"""The codes a model answers by changing its call (what frameworks call a retry)."""


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One tool as one export shows it to a model.

    name: the exported name (what the model calls); tool: the canonical name (`box.contract(tool)`);
    parameters: the exported argument schema; definition: the exported tool as the SDK takes it;
    losses: what this projection no longer enforces (the gate still does);
    routing: pass it to `call(..., routing=spec.routing)` to call by the exported names.
    """

    name: str
    tool: str
    description: str
    parameters: Mapping[str, Any]
    definition: Mapping[str, Any]
    contract: ToolContract
    losses: tuple[Loss, ...]
    target: str
    strict: bool
    routing: Routing


def tool_specs(box: Toolbox, target: str, strict: bool = False) -> list[ToolSpec]:
    """Every tool of `box` as `target` exports it (in registration order)."""
    exported = box.export(target, strict=strict)
    routing = exported.routing
    specs = []
    for definition in _definitions(exported):
        name = definition["name"]
        canonical = routing.names.get(name, name)
        schema = next((definition[key] for key in _SCHEMA_KEYS if key in definition), {"type": "object"})
        losses = tuple(loss for loss in exported.losses if loss.tool in (canonical, name))
        specs.append(ToolSpec(name, canonical, definition.get("description") or "", schema,
                              _outer(exported, definition), box.contract(canonical), losses, target, strict,
                              routing))
    return specs


def _definitions(payload: Any) -> list[dict[str, Any]]:
    """The function definitions inside an export's payload, whatever its target's nesting."""
    if isinstance(payload, Mapping):
        for key in ("tools", "functionDeclarations"):
            if key in payload:
                return _definitions(payload[key])
        if "function" in payload:
            return [payload["function"]]
        return [dict(payload)] if "name" in payload else []
    return [found for item in payload for found in _definitions(item)]


def _outer(exported: Any, definition: dict[str, Any]) -> Mapping[str, Any]:
    """The payload entry that holds `definition` (OpenAI Chat wraps it as {"type": "function", "function": …})."""
    if isinstance(exported, list):
        for item in exported:
            if isinstance(item, Mapping) and item.get("function") is definition:
                return item
    return definition


def validate(box: Toolbox, name: str, arguments: Any = None, *, run: Any = None, routing: Any = None,
             idempotency_key: str | None = None) -> dict[str, Any] | Result:
    """The validated, normalised JSON arguments of a call (ready for `call()`), or the failed `Result`."""
    try:
        tool, checked = box._prepare(name, arguments, run, idempotency_key, routing, finish=False)
        if type(checked) is Result or not tool.converters:
            return checked
        # a parameter's own pydantic model may refuse what the schema let through: try it on a copy
        converted = box._finish(tool, copy.deepcopy(checked), run, frozenset())
        return converted if type(converted) is Result else checked
    except Exception as exc:  # noqa: BLE001 - validation never raises for anything the model sent
        trace = new_trace_id()
        shown = name if isinstance(name, str) and len(name) <= 64 else "<tool>"
        logger.error("validating a call to %s failed unexpectedly (trace %s)", shown, trace, exc_info=exc)
        return Result(False, error=standard_error(
            "INTERNAL_ERROR", f"{shown}: the arguments could not be checked; this is not caused by the arguments. "
                              f"The failure is logged under trace {trace}"), trace_id=trace, tool=shown)


def is_input_error(result: Result) -> bool:
    """Whether the model must change its call (parse, validation, unknown tool, repeated mistakes)."""
    return not result.ok and result.error is not None and result.error.code in INPUT_CODES


def missing(extra: str, module: str) -> ImportError:
    """The error for an adapter whose framework is not installed, naming the extra that installs it."""
    return ImportError(f"this adapter needs {module}, which is not installed: pip install 'toolclause[{extra}]'")


class GateBypassWarning(UserWarning):
    """A function registered with a Toolbox was also given to a framework as a plain function tool."""


def warn_bypassing(box: Toolbox, framework_tools: Any, adapter: str) -> list[str]:
    """Warn about each tool the framework would run itself: a registered function it was handed directly.

    `framework_tools`: whatever the agent holds (functions, PydanticAI `Tool`s, Agents SDK `FunctionTool`s,
    LangChain tools).  Returns the canonical names found.
    """
    import warnings

    found = []
    for item in framework_tools:
        for candidate in _functions_of(item):
            bound = box.registry.find(candidate)
            if bound is not None and bound.name not in found:
                found.append(bound.name)
    for name in found:
        warnings.warn(f"'{name}' is registered with a Toolbox, but the agent also holds it as a plain function "
                      f"tool: the framework validates and runs those calls itself, so toolclause's gate never sees "
                      f"them (its own errors, no idempotency). Give the agent {adapter} instead of the function.",
                      GateBypassWarning, stacklevel=3)
    return found


def _functions_of(item: Any) -> list[Any]:
    """The Python callables a framework's tool object wraps (the object itself when it is one)."""
    found = [item]
    for attribute in ("function", "func", "coroutine", "__wrapped__"):
        try:
            value = getattr(item, attribute, None)
        except Exception:  # noqa: BLE001 - a framework's descriptor may refuse; then it wraps nothing we know
            value = None
        if value is not None and value is not item:
            found.append(value)
    return found
