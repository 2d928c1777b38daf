"""Structured outputs: handoff and state schemas as response formats (plain JSON Schemas, not tools).

Each schema becomes
- OpenAI `response_format`: `{"type": "json_schema", "json_schema": {name, schema, strict}}`
  (projected with the OpenAI strict profile when `strict`), and
- Anthropic `output_config`: `{"format": {"type": "json_schema", "schema": ...}}`
  (always projected with the strict grammar's subset: Anthropic compiles every
  output format into a grammar).

The payload maps each schema's name to `{"openai": ..., "anthropic": ...}`.
A "tool" given here is a carrier: its name names the schema and its
`input_schema` is the schema (see `carrier`).  Files and folders are read by
`schema_sources.py`; a schema that refers to another of its project by `$id`
arrives with a copy of it under `$defs` (`bundling.py`), because neither
provider fetches a reference.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..model import PointerMap, SchemaDocument, ToolContract
from ..targets import TOOL_NAME_RULES
from .base import ExportOptions, ExportResult
from .names import valid_names
from .strict import project

SETTINGS: tuple[str, ...] = ()  # the keys of ExportOptions.settings it reads


# a carrier's schema is its whole file: a finding at /inputSchema/x is at /x of the file
_WHOLE_FILE = PointerMap({"/inputSchema": ""})


def carrier(document: SchemaDocument, schema: Mapping[str, Any] | None = None) -> ToolContract:
    """A schema document as a carrier, located in its file (so lint names the file, line and pointer).

    `schema`: what to carry instead of the document as written (the bundled schema export ships).
    """
    carried = document.schema if schema is None else schema
    # a schema that is no object (given in Python) goes out as the projection of no schema, and says so
    input_schema = dict(carried) if isinstance(carried, Mapping) else None
    description = input_schema.get("description") if input_schema is not None else None
    origin = replace(document.origin, format="mcp", pointers=_WHOLE_FILE)  # the format carriers always had
    return ToolContract(name=document.name, description=description if isinstance(description, str) else None,
                        input_schema=input_schema, raw=document.schema, origin=origin)


def export_tools(tools: Sequence[ToolContract], options: ExportOptions) -> ExportResult:
    names = valid_names([t.name for t in tools], TOOL_NAME_RULES["openai"])
    result = ExportResult(target="structured-output", strict=options.strict, payload={})
    for carrier in tools:
        name = names[carrier.name]
        if name != carrier.name:
            result.name_map[name] = carrier.name
        openai = project(carrier.input_schema, "openai-strict" if options.strict else "openai", carrier.name, "")
        anthropic = project(carrier.input_schema, "anthropic-strict", carrier.name, "")
        result.losses.extend(replace(loss, message=f"OpenAI: {loss.message}") for loss in openai.losses)
        result.losses.extend(replace(loss, message=f"Anthropic: {loss.message}") for loss in anthropic.losses)
        if openai.renames or anthropic.renames:
            result.property_map[name] = {**openai.renames, **anthropic.renames}
        json_schema: dict[str, Any] = {"name": name}
        if isinstance(carrier.description, str):
            json_schema["description"] = carrier.description
        json_schema["schema"] = openai.schema
        json_schema["strict"] = options.strict
        result.payload[name] = {
            "openai": {"type": "json_schema", "json_schema": json_schema},
            "anthropic": {"format": {"type": "json_schema", "schema": anthropic.schema}},
        }
    return result
