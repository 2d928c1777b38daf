"""A2A: an AgentCard whose skills are the tools (A2A v1.0, https://a2a-protocol.org/latest/specification/).

An `AgentSkill` has no schema field, so the schemas travel the way the specification allows:
in the free-form `params` of one `AgentExtension` declared under
`capabilities.extensions`.  Its `params.schemas` holds every tool's input (and
output) schema keyed by `$id` (the contract's own `$id`, else
`urn:toolclause:tool:<name>`), and `params.skills` maps each skill id to the
`$id`s of its schemas, so each skill refers to its schemas by `$id`.  Skills take
and give `application/json`.

Settings: `name`, `description`, `url`, `version`, `protocolBinding`
(JSONRPC, GRPC or HTTP+JSON), `protocolVersion`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..model import ToolContract
from ._common import project_tools
from .base import ExportOptions, ExportResult

# the keys of ExportOptions.settings it reads
SETTINGS: tuple[str, ...] = ("name", "description", "url", "version", "protocolBinding", "protocolVersion")

EXTENSION_URI = "https://toolclause.dev/a2a/tool-schemas/v1"
BINDINGS = ("JSONRPC", "GRPC", "HTTP+JSON")


def schema_id(tool: ToolContract) -> str:
    given = tool.extra.get("$id")
    return given if isinstance(given, str) and given else f"urn:toolclause:tool:{tool.name}"


def export_tools(tools: Sequence[ToolContract], options: ExportOptions) -> ExportResult:
    binding = options.setting("protocolBinding", "JSONRPC")
    if binding not in BINDINGS:
        raise ValueError(f"a2a: protocolBinding must be one of {', '.join(BINDINGS)}, not {binding!r}")
    projected, result = project_tools(tools, "a2a", "mcp", "mcp", options)
    skills, schemas, references = [], {}, {}
    for p in projected:
        tool = p.tool
        skill: dict[str, Any] = {"id": p.name, "name": tool.title or p.name,
                                 "description": tool.description or tool.title or p.name,
                                 "tags": _tags(tool), "inputModes": ["application/json"],
                                 "outputModes": ["application/json"]}
        examples = tool.extra.get("examples")
        if isinstance(examples, dict) and isinstance(examples.get("valid"), list):
            skill["examples"] = [json.dumps(e, ensure_ascii=False, sort_keys=True) for e in examples["valid"]
                                 if isinstance(e, dict)]
        skills.append(skill)
        base = schema_id(tool)
        schemas[base] = p.schema
        references[p.name] = {"inputSchema": base}
        if tool.output_schema is not None:
            schemas[base + "#output"] = tool.output_schema
            references[p.name]["outputSchema"] = base + "#output"
    card = {
        "name": options.setting("name", "toolclause-agent"),
        "description": options.setting("description", "Tools exported by toolclause."),
        "supportedInterfaces": [{"url": options.setting("url", "http://localhost:8000/a2a"),
                                 "protocolBinding": binding,
                                 "protocolVersion": options.setting("protocolVersion", "1.0")}],
        "version": str(options.setting("version", "1.0.0")),
        "capabilities": {"streaming": False, "pushNotifications": False, "extendedAgentCard": False,
                         "extensions": [{"uri": EXTENSION_URI, "required": False,
                                         "description": "JSON Schemas of the skills' arguments and results, keyed "
                                                        "by $id; params.skills maps each skill to its schemas.",
                                         "params": {"schemas": schemas, "skills": references}}]},
        "defaultInputModes": ["application/json"],
        "defaultOutputModes": ["application/json"],
        "skills": skills,
    }
    result.payload = card
    return result


def _tags(tool: ToolContract) -> list[str]:
    annotations = tool.annotations or {}
    tags = ["tool"]
    for hint, tag in (("readOnlyHint", "read-only"), ("destructiveHint", "destructive"),
                      ("idempotentHint", "idempotent"), ("openWorldHint", "open-world")):
        if annotations.get(hint) is True:
            tags.append(tag)
    return tags
