"""Anthropic Messages API: `{name, description, input_schema, strict?}`.

With `strict`, every schema is projected into the strict grammar's subset, and
the per-request limits (20 strict tools, 24 optional properties, 16 union-typed
properties, summed over the strict tools of the request) are kept by taking
tools in order while they fit; a tool that no longer fits is exported with
`"strict": false` and a loss saying which limit it would have broken.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..model import ToolContract
from ..schema.walk import NodeKind, walk
from ..targets import (
    ANTHROPIC_STRICT_MAX_OPTIONAL_PARAMETERS,
    ANTHROPIC_STRICT_MAX_TOOLS,
    ANTHROPIC_STRICT_MAX_UNION_PARAMETERS,
)
from ._common import description_of, project_tools
from .base import ExportOptions, ExportResult, Loss

SETTINGS: tuple[str, ...] = ()  # the keys of ExportOptions.settings it reads


def _counts(schema: dict[str, Any]) -> tuple[int, int]:
    """(optional properties, union-typed properties) as Anthropic counts them."""
    nodes, _ = walk(schema, "/inputSchema")
    optional = unions = 0
    for node in nodes:
        if node.kind is not NodeKind.PROPERTY:
            continue
        optional += not node.required
        unions += "anyOf" in node.schema or (isinstance(node.schema.get("type"), list) and len(node.schema["type"]) > 1)
    return optional, unions


def export_tools(tools: Sequence[ToolContract], options: ExportOptions) -> ExportResult:
    projected, result = project_tools(tools, "anthropic", "anthropic",
                                      "anthropic-strict" if options.strict else "anthropic", options)
    payload = []
    strict_tools = optional_total = union_total = 0
    for p in projected:
        tool: dict[str, Any] = {"name": p.name}
        description = description_of(p.tool)
        if description is not None:
            tool["description"] = description
        tool["input_schema"] = p.schema
        if options.strict:
            optional, unions = _counts(p.schema)
            over = None
            if strict_tools + 1 > ANTHROPIC_STRICT_MAX_TOOLS:
                over = f"{ANTHROPIC_STRICT_MAX_TOOLS} strict tools"
            elif optional_total + optional > ANTHROPIC_STRICT_MAX_OPTIONAL_PARAMETERS:
                over = f"{ANTHROPIC_STRICT_MAX_OPTIONAL_PARAMETERS} optional properties"
            elif union_total + unions > ANTHROPIC_STRICT_MAX_UNION_PARAMETERS:
                over = f"{ANTHROPIC_STRICT_MAX_UNION_PARAMETERS} union-typed properties"
            if over is None:
                strict_tools += 1
                optional_total += optional
                union_total += unions
                tool["strict"] = True
            else:
                tool["strict"] = False
                result.losses.append(Loss("strict-turned-off",
                                          f"exported with strict: false: one request takes at most {over} across "
                                          f"its strict tools, and the tools before this one used them",
                                          tool=p.tool.name, keyword="strict"))
        payload.append(tool)
    result.payload = payload
    return result
