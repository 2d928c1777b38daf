"""default-not-applied (C004)

## What it does
Reports a `default` in the input schema where it can matter, and says what it
takes for the default to hold: the function must declare the same default,
because no provider fills it in.  A default on a property the same object
marks as `required` is reported as one that can never apply.

Left alone, because the default cannot change anything:

* `default: null` on a property that already accepts null (or has no type):
  an omitted value and the default are the same thing;
* a tool listed by an MCP server (an MCP tool that is not a toolclause
  contract, i.e. carries no `errors`, `examples`, `version` or `$id`): its schema
  is generated from the server's code (zod, pydantic, mcp-go), and the server
  that published the default applies it itself.  A contract bound to a Python
  function is checked at registration instead (R003).

## Why is this bad?
`default` is an annotation.  OpenAI, Anthropic, Gemini and MCP clients pass the
model's arguments exactly as generated; when the model leaves `unit` out, the
function receives no `unit` at all, not `"celsius"`.  A function whose own
default differs (or that has none) behaves differently from what the schema
promised the model.  toolclause's runtime checks the two agree when a function
is bound (R003).

## Example
```json
{"name": "get_weather", "version": "1.0.0", "description": "Current weather for one city, in the requested unit.",
 "inputSchema": {"type": "object",
                 "properties": {"city": {"type": "string", "description": "City name"},
                                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"],
                                         "default": "celsius", "description": "Temperature unit"}},
                 "required": ["city"], "additionalProperties": false}}
```

## Use instead
```json
{"name": "get_weather", "description": "Current weather for one city, in the requested unit.",
 "inputSchema": {"type": "object",
                 "properties": {"city": {"type": "string", "description": "City name"},
                                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"],
                                         "description": "Temperature unit; celsius when omitted"}},
                 "required": ["city"], "additionalProperties": false}}
```

## Fix safety
There is no automatic fix: the function, not the schema, has to change (or the
default moves into the description, as above).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from ...model import Fix, Severity, ToolContract
from ...schema.walk import NodeKind, SchemaNode
from .._reach import unused_definition
from ..base import Finding, LintContext, Rule
from ._shapes import property_label

_SHOWN_CHARS = 60


def python_literal(value: Any) -> str:
    """The default as a Python literal, shortened for a message."""
    text = repr(value)
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 1] + "…"


def json_literal(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 1] + "…"


def _accepts_null(schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    if kind is None and not any(k in schema for k in ("anyOf", "oneOf", "enum", "const")):
        return True
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    for keyword in ("anyOf", "oneOf"):
        branches = schema.get(keyword)
        if isinstance(branches, list) and any(isinstance(b, dict) and b.get("type") == "null" for b in branches):
            return True
    values = schema.get("enum")
    return isinstance(values, list) and None in values


def _server_applies(tool: ToolContract) -> bool:
    """An MCP server's own listing: the server that generated the schema applies its defaults."""
    contract_keys = ("errors", "examples", "version", "$id")
    return tool.origin.format == "mcp" and not any(key in tool.extra for key in contract_keys)


class DefaultNotApplied(Rule):
    code = "C004"
    name = "default-not-applied"
    severity = Severity.INFO
    keywords = frozenset({"default"})

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        if unused_definition(tool, node, ctx):
            return  # no argument is ever checked against an unreferenced definition
        value = node.schema.get("default")
        if value is None and _accepts_null(node.schema):
            return  # omitted and null are the same here: the default changes nothing
        if _server_applies(tool) and not (node.kind is NodeKind.PROPERTY and node.required):
            return
        pointer = node.pointer + "/default"
        shown = json_literal(value)
        if node.kind is NodeKind.PROPERTY and node.key is not None:
            name = node.key
            if node.required:
                yield Finding(pointer, f"'{name}' is required, so its default {shown} never applies; remove the "
                                       f"default or make '{name}' optional",
                              Fix("remove the default or drop the name from required", safe=False))
                return
            parent = node.parent
            assert parent is not None  # a property node always sits in its object's "properties"
            if parent.is_root:
                yield Finding(pointer, f"'{name}' defaults to {shown}, but providers do not fill defaults in: when "
                                       f"the model omits '{name}' the function receives nothing; the bound function "
                                       f"must declare {name}={python_literal(value)} too "
                                       f"(checked at registration, R003)",
                              Fix(f"give the function's '{name}' parameter the default {python_literal(value)}",
                                  safe=False))
                return
            yield Finding(pointer, f"'{name}' defaults to {shown}, but providers do not fill defaults in: when the "
                                   f"model leaves '{name}' out of {property_label(parent)} the function receives "
                                   f"no '{name}' and must apply {shown} itself",
                          Fix(f"apply the default {shown} for '{name}' in the function", safe=False))
            return
        yield Finding(pointer, f"{property_label(node)} declares the default {shown}, which providers do not fill in; "
                               f"the function must apply the same default itself")
