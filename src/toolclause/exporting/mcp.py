"""MCP: Tool objects (toolclause's `$id`, `version`, `errors`, `examples` stripped).

Setting `shape="list"` writes a `tools/list` result (`{"tools": [...]}`).
Names keep to MCP's 2025-11-25 rule (letters, digits, `_ - .`, 1 to 128).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..model import ToolContract
from ._common import project_tools
from .base import ExportOptions, ExportResult, Loss

SETTINGS: tuple[str, ...] = ("shape",)  # the keys of ExportOptions.settings it reads

SHAPES = ("tools", "list")


def export_tools(tools: Sequence[ToolContract], options: ExportOptions) -> ExportResult:
    shape = options.setting("shape", "tools")
    if shape not in SHAPES:
        raise ValueError(f"mcp: shape must be one of {', '.join(SHAPES)}, not {shape!r}")
    projected, result = project_tools(tools, "mcp", "mcp", "mcp", options)
    objects = []
    for p in projected:
        tool = p.tool.to_mcp()
        tool["name"] = p.name
        tool["inputSchema"] = p.schema
        output = tool.get("outputSchema")
        if output is not None and not (isinstance(output, dict) and output.get("type") == "object"):
            # MCP 2025-11-25 takes only an object root here (2026-07-28 lifts it)
            del tool["outputSchema"]
            result.losses.append(Loss("output-schema-dropped",
                                      "an outputSchema whose root is not an object cannot be declared under MCP "
                                      "2025-11-25; it was left out, so clients cannot validate the result",
                                      "/outputSchema", tool=p.tool.name, keyword="outputSchema"))
        objects.append(tool)
    result.payload = {"tools": objects} if shape == "list" else objects
    return result
