"""What the tool targets share: names mapped, schemas projected, losses gathered."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..model import ToolContract
from ..targets import TOOL_NAME_RULES
from .base import ExportOptions, ExportResult
from .names import valid_names
from .strict import Projection, project


@dataclass
class Projected:
    tool: ToolContract
    name: str               # the exported name
    projection: Projection

    @property
    def schema(self) -> dict[str, Any]:
        return self.projection.schema


def project_tools(tools: Sequence[ToolContract], target: str, name_family: str, profile: str,
                  options: ExportOptions) -> tuple[list[Projected], ExportResult]:
    """Map names for `name_family` and project each input schema with `profile`."""
    names = valid_names([t.name for t in tools], TOOL_NAME_RULES[name_family])
    result = ExportResult(target=target, strict=options.strict, payload=None)
    out = []
    for tool in tools:
        exported = names[tool.name]
        if exported != tool.name:
            result.name_map[exported] = tool.name  # routed back, not lost
        projection = project(tool.input_schema, profile, tool.name)
        result.losses.extend(projection.losses)
        if projection.renames:
            result.property_map[exported] = projection.renames
        out.append(Projected(tool, exported, projection))
    return out, result


def description_of(tool: ToolContract) -> str | None:
    return tool.description if isinstance(tool.description, str) else None
