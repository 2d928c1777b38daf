"""One JSON Schema in, a provider's accepted form out, with every keyword it dropped or rewrote.

    >>> found = to_provider({"type": "object", "properties": {"city": {"type": "string", "minLength": 2}}},
    ...                     "openai-chat", strict=True)
    >>> found.schema["properties"]["city"]["description"], [loss.pointer for loss in found.losses]
    ('At least 2 characters.', ['/properties/city/minLength'])

The projection is `export`'s own: the schema goes through the target's exporter as the arguments of a
tool (kind="tool"), or as a structured-output schema (kind="output"), so `to_provider` and `export`
can never disagree.  Losses point into the schema given (`/properties/city/minLength`), not into a tool.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from .base import Loss

TOOL_TARGETS = ("openai-chat", "openai-responses", "anthropic", "gemini", "gemini-openapi", "mcp")
# gemini-openapi: Gemini's `parameters`, the OpenAPI subset (`export --target gemini --gemini-schema openapi`)
_EXPORTS = {"gemini-openapi": ("gemini", {"schema": "openapi"})}
# kind="output": the structured-output export's two shapes, by the names a caller may know them by
OUTPUT_TARGETS = {"openai": "openai", "openai-chat": "openai", "openai-responses": "openai", "anthropic": "anthropic"}
_CARRIER = "schema"  # the name of the one tool (or output) that carries the schema through export
_ARGUMENTS = "/inputSchema"
_SCHEMA_KEYS = ("parameters", "input_schema", "inputSchema", "parametersJsonSchema")
_OUTPUT_PREFIX = {"openai": "OpenAI: ", "anthropic": "Anthropic: "}


@dataclass(frozen=True, slots=True)
class ProviderSchema:
    """What `to_provider` gives: the provider's form of the schema, what it lost (pointers relative to the
    schema given), the target and whether it is the strict variant."""

    schema: dict[str, Any]
    losses: tuple[Loss, ...]
    target: str
    strict: bool


def to_provider(schema: Mapping[str, Any], target: str, *, strict: bool = False, kind: str = "tool") -> ProviderSchema:
    """`schema` as `target` accepts it: a tool's arguments (kind="tool": openai-chat, openai-responses,
    anthropic, gemini, gemini-openapi, mcp) or a structured output (kind="output": openai, anthropic)."""
    from . import export

    if not isinstance(schema, Mapping):
        raise TypeError(f"to_provider takes a JSON Schema object, not {type(schema).__name__}")
    if kind == "tool":
        if target not in TOOL_TARGETS:
            raise ValueError(f"unknown target {target!r} for a tool's schema; choose from {', '.join(TOOL_TARGETS)}")
        exporter, settings = _EXPORTS.get(target, (target, None))
        result = export({"name": _CARRIER, "description": "", "inputSchema": dict(schema)}, exporter, strict,
                        settings=settings)
        return ProviderSchema(arguments_of(result.payload), relative_losses(result.losses), target, strict)
    if kind == "output":
        shape = OUTPUT_TARGETS.get(target)
        if shape is None:
            raise ValueError(f"unknown target {target!r} for a structured output; choose from "
                             f"{', '.join(OUTPUT_TARGETS)}")
        result = export({_CARRIER: dict(schema)}, "structured-output", strict)
        formats = result.payload[_CARRIER][shape]
        projected = formats["json_schema"]["schema"] if shape == "openai" else formats["format"]["schema"]
        prefix = _OUTPUT_PREFIX[shape]
        losses = tuple(replace(loss, message=loss.message.removeprefix(prefix)) for loss in result.losses
                       if loss.message.startswith(prefix))
        return ProviderSchema(dict(projected), losses, target, strict)
    raise ValueError(f"kind is 'tool' or 'output', not {kind!r}")


def arguments_of(payload: Any) -> dict[str, Any]:
    """The argument schema of the one tool an export's payload holds, whatever the target's nesting."""
    item = payload[0] if isinstance(payload, list) else payload
    while isinstance(item, Mapping):
        if "function" in item:
            item = item["function"]
        elif "functionDeclarations" in item:
            item = item["functionDeclarations"][0]
        else:
            break
    for key in _SCHEMA_KEYS:
        if isinstance(item, Mapping) and key in item:
            return dict(item[key])
    return {"type": "object"}


def relative_losses(losses: Any) -> tuple[Loss, ...]:
    """The losses of a tool's arguments, pointing into the argument schema itself."""
    return tuple(replace(loss, pointer=loss.pointer[len(_ARGUMENTS):]) for loss in losses
                 if loss.pointer == _ARGUMENTS or loss.pointer.startswith(_ARGUMENTS + "/"))


__all__ = ["OUTPUT_TARGETS", "ProviderSchema", "TOOL_TARGETS", "arguments_of", "relative_losses", "to_provider"]
