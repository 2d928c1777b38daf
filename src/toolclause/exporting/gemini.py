"""Google Gemini: a request's `tools` list holding one `Tool`, `[{"functionDeclarations": [...]}]`.

By default each declaration carries `parametersJsonSchema` (the JSON Schema
subset Gemini documents); the setting `schema="openapi"` writes the
OpenAPI-subset `parameters` instead (one type plus `nullable`, string enums,
references inlined).  Gemini has no strict mode: `strict` changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..model import ToolContract
from ..targets import GEMINI_MAX_DECLARATIONS
from ._common import description_of, project_tools
from .base import ExportOptions, ExportResult, Loss

SETTINGS: tuple[str, ...] = ("schema",)  # the keys of ExportOptions.settings it reads

SCHEMA_SHAPES = ("json", "openapi")


def export_tools(tools: Sequence[ToolContract], options: ExportOptions) -> ExportResult:
    shape = options.setting("schema", "json")
    if shape not in SCHEMA_SHAPES:
        raise ValueError(f"gemini: schema must be one of {', '.join(SCHEMA_SHAPES)}, not {shape!r}")
    projected, result = project_tools(tools, "gemini", "gemini", "gemini-openapi" if shape == "openapi" else "gemini",
                                      options)
    declarations = []
    for p in projected:
        declaration: dict[str, Any] = {"name": p.name}
        description = description_of(p.tool)
        if description is not None:
            declaration["description"] = description
        declaration["parameters" if shape == "openapi" else "parametersJsonSchema"] = p.schema
        declarations.append(declaration)
    if len(declarations) > GEMINI_MAX_DECLARATIONS:
        first = projected[GEMINI_MAX_DECLARATIONS].tool.name
        result.losses.append(Loss("too-many-declarations",
                                  f"{len(declarations)} function declarations in one Tool: Gemini takes at most "
                                  f"{GEMINI_MAX_DECLARATIONS} in one request and rejects the request; send the "
                                  f"tools from this one on in another", "", tool=first,
                                  keyword="functionDeclarations"))
    result.payload = [{"functionDeclarations": declarations}]  # the `tools` list of a request: one Tool
    return result
