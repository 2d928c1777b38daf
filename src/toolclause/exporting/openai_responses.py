"""OpenAI Responses: flat `{"type": "function", name, description, parameters, strict}`.

`parameters` and `strict` are required keys of the Responses shape, so both are
always written (`strict: false` when not exporting strict: the server would
otherwise try to normalise the schema to strict on its own).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..model import ToolContract
from ._common import description_of, project_tools
from .base import ExportOptions, ExportResult

SETTINGS: tuple[str, ...] = ()  # the keys of ExportOptions.settings it reads


def export_tools(tools: Sequence[ToolContract], options: ExportOptions) -> ExportResult:
    projected, result = project_tools(tools, "openai-responses", "openai",
                                      "openai-strict" if options.strict else "openai", options)
    payload = []
    for p in projected:
        tool: dict[str, Any] = {"type": "function", "name": p.name}
        description = description_of(p.tool)
        if description is not None:
            tool["description"] = description
        tool["parameters"] = p.schema
        tool["strict"] = options.strict
        payload.append(tool)
    result.payload = payload
    return result
