"""root-not-object (S004)

## What it does
Checks that the top level of the input schema is an object schema with
`"type": "object"`: not a string, a list or another type, not a type list such
as `["object", "null"]`, and not missing `type`.  A name S002 already reads as
`object` (`dict`, `Object`, `HashMap`) counts as object here, so the same
mistake is not reported twice.

An MCP tool must carry an `inputSchema` (`{"type": "object", "properties": {}}`
for a tool without arguments): one listed by a live server, or written with
MCP's own keys (`annotations`, `outputSchema`, `_meta`, `title`) but no
parameter key at all, is reported.

## Why is this bad?
Tool arguments always arrive as one JSON object of named parameters.  MCP
requires `"type": "object"` on `inputSchema`, OpenAI and Anthropic reject a
root of any other type, and a schema without `type` leaves clients to guess.

## Example
```json
{"name": "get_weather", "description": "Current weather for one city, in metric units.",
 "inputSchema": {"properties": {"city": {"type": "string", "description": "City name"}},
                 "required": ["city"]}}
```

## Use instead
```json
{"name": "get_weather", "description": "Current weather for one city, in metric units.",
 "inputSchema": {"type": "object",
                 "properties": {"city": {"type": "string", "description": "City name"}},
                 "required": ["city"]}}
```

## Fix safety
Adding a missing `"type": "object"` cannot reject a call that was accepted
before (arguments are always an object), so `--fix` applies it.  A root of
another type needs the parameters redesigned, which is left to a person.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...model import Edit, Fix, Severity, ToolContract
from ...schema.keywords import describe_value, resolved_types, type_alias
from ..base import Finding, LintContext, Rule

_OBJECT_EXAMPLE = '{"type": "object", "properties": {…}}'


class RootNotObject(Rule):
    code = "S004"
    name = "root-not-object"
    severity = Severity.ERROR
    fixable = True

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        schema = tool.input_schema
        if schema is None:
            if _mcp_without_input_schema(tool):
                yield Finding("", (
                    "this MCP tool has no inputSchema, which the MCP schema requires (clients may reject the whole "
                    "list); a tool without arguments declares {\"type\": \"object\", \"properties\": {}}"),
                    Fix('add "inputSchema": {"type": "object", "properties": {}}', safe=False))
            return  # the tool takes no arguments
        if not isinstance(schema, dict):
            yield Finding("/inputSchema", f"the input schema must be a JSON Schema object such as {_OBJECT_EXAMPLE}; "
                                          f"got {describe_value(schema)}", Fix("replace it with an object schema"))
            return
        if "type" not in schema:
            what = ("the input schema is empty ({}); a tool that takes no arguments declares "
                    "{\"type\": \"object\", \"properties\": {}}" if not schema else "the input schema has no 'type'")
            yield Finding("/inputSchema", f"{what}; tool arguments are always a JSON object, and MCP, OpenAI and "
                                          f"Anthropic require \"type\": \"object\" at the root",
                          Fix('add "type": "object"', safe=True, edits=(Edit("set", "/inputSchema/type", "object"),)))
            return
        declared = schema["type"]
        if declared == "object" or _reads_as_object(declared):
            return
        types = resolved_types(declared)
        if types is not None and "object" in types:
            yield Finding("/inputSchema/type", f"the input schema's type is {_show(declared)}; tool arguments are "
                                               f"always a JSON object, so the root type must be exactly \"object\"",
                          Fix('write "type": "object"'))
            return
        if not isinstance(declared, (str, list)):
            return  # not a type name at all: S002 says what it must be
        yield Finding("/inputSchema/type", f"the input schema's type is {_show(declared)}, not \"object\"; tool "
                                           f"arguments are always a JSON object of named parameters: make the "
                                           f"value a property of an object schema",
                      Fix("wrap the value in an object property"))


_MCP_KEYS = ("annotations", "outputSchema", "_meta", "title", "icons")
_PARAMETER_KEYS = ("inputSchema", "input_schema", "parameters", "parametersJsonSchema", "arguments", "function")


def _mcp_without_input_schema(tool: ToolContract) -> bool:
    raw = tool.raw
    if not isinstance(raw, dict) or any(k in raw for k in _PARAMETER_KEYS):
        return False
    live = tool.origin.file.startswith(("server:", "url:"))
    return live or tool.origin.format == "mcp" or any(k in raw for k in _MCP_KEYS)


def _reads_as_object(declared: Any) -> bool:
    if not isinstance(declared, str):
        return False
    known, json_type = type_alias(declared)
    return known and json_type == "object"


def _show(declared: Any) -> str:
    if isinstance(declared, str):
        return f"'{declared}'"
    if isinstance(declared, list):
        return "[" + ", ".join(f"'{t}'" if isinstance(t, str) else describe_value(t) for t in declared) + "]"
    return describe_value(declared)
