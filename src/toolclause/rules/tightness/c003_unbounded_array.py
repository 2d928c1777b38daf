"""unbounded-array (C003)

## What it does
Finds arrays in the input schema with no `maxItems`.  Where the items are enum
values the bound is the number of values (with `uniqueItems: true`, since a
choice listed twice means nothing); elsewhere the message asks for the most the
function handles.

## Why is this bad?
Nothing stops a model from sending ten thousand ids where the function handles
fifty: the call passes validation and fails (or times out, or bills) deep in
the function.  A `maxItems` turns that into an immediate, explained error the
model can correct.

## Example
```json
{"name": "get_users", "description": "Fetch several user profiles by their ids in one call.",
 "inputSchema": {"type": "object",
                 "properties": {"ids": {"type": "array", "items": {"type": "string"},
                                        "description": "User ids"}},
                 "required": ["ids"], "additionalProperties": false}}
```

## Use instead
```json
{"name": "get_users", "description": "Fetch several user profiles by their ids in one call.",
 "inputSchema": {"type": "object",
                 "properties": {"ids": {"type": "array", "items": {"type": "string"},
                                        "maxItems": 50, "description": "User ids"}},
                 "required": ["ids"], "additionalProperties": false}}
```

## Fix safety
Not applied by `--fix`: the right limit is what the function handles.  When the
items are a closed `enum` and `uniqueItems` is true, the suggestion is exactly
the number of values (no longer list can be valid).
"""

from __future__ import annotations

from collections.abc import Iterable

from ...model import Edit, Fix, Severity, ToolContract
from ...schema.walk import SchemaNode
from .._reach import unused_definition
from ..base import Finding, LintContext, Rule
from ._shapes import ancestor_via, is_array_schema, property_label

_NEGATED = frozenset({"not"})


class UnboundedArray(Rule):
    code = "C003"
    name = "unbounded-array"
    severity = Severity.INFO
    keywords = frozenset({"type"})
    node_types = frozenset({"array"})  # the engine sends only these nodes

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        if unused_definition(tool, node, ctx):
            return  # no argument is ever checked against an unreferenced definition
        schema = node.schema
        if not is_array_schema(schema) or "maxItems" in schema or "enum" in schema or "const" in schema:
            return
        if ancestor_via(node, _NEGATED):
            return
        items = schema.get("items")
        values = items.get("enum") if isinstance(items, dict) else None
        label = property_label(node)
        if schema.get("uniqueItems") is True and isinstance(values, list) and values:
            limit = len(values)
            reason = f"its items are {limit} distinct enum values, so \"maxItems\": {limit} is exact"
        elif isinstance(values, list) and values:
            # a list of choices: none means anything twice, so the bound is the number of choices
            limit = len(values)
            edits = (Edit("set", node.pointer + "/uniqueItems", True), Edit("set", node.pointer + "/maxItems", limit))
            yield Finding(node.pointer, f"array {label} has no \"maxItems\": a model may send any number of "
                                        f"elements; its items are {limit} enum values, so add \"uniqueItems\": true "
                                        f"and \"maxItems\": {limit}",
                          Fix(f"set \"uniqueItems\": true and \"maxItems\": {limit}", safe=False, edits=edits))
            return
        else:
            # no number is offered: a bound the tool does not have would reject calls it handles (bulk staging)
            yield Finding(node.pointer, f"array {label} has no \"maxItems\": a model may send any number of "
                                        f"elements; if the tool handles at most some number, state it as "
                                        f"\"maxItems\" so a longer list fails with an explained error",
                          Fix("state the most elements the tool handles as \"maxItems\"", safe=False))
            return
        yield Finding(node.pointer, f"array {label} has no \"maxItems\": a model may send any number of "
                                    f"elements; {reason}",
                      Fix(f"set \"maxItems\": {limit}", safe=False,
                          edits=(Edit("set", node.pointer + "/maxItems", limit),)))
