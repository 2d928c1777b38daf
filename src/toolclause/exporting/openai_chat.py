"""OpenAI Chat Completions: `{"type": "function", "function": {name, description, parameters, strict}}`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..model import ToolContract
from ._common import description_of, project_tools
from .base import ExportOptions, ExportResult

SETTINGS: tuple[str, ...] = ()  # the keys of ExportOptions.settings it reads


def function_object(name: str, description: str | None, parameters: dict[str, Any], strict: bool) -> dict[str, Any]:
    function: dict[str, Any] = {"name": name}
    if description is not None:
        function["description"] = description
    function["parameters"] = parameters
    if strict:
        function["strict"] = True
    return function


def export_tools(tools: Sequence[ToolContract], options: ExportOptions) -> ExportResult:
    projected, result = project_tools(tools, "openai-chat", "openai",
                                      "openai-strict" if options.strict else "openai", options)
    result.payload = [{"type": "function",
                       "function": function_object(p.name, description_of(p.tool), p.schema, options.strict)}
                      for p in projected]
    return result
