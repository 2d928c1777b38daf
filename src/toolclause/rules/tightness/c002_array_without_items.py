"""array-without-items (C002)

## What it does
Finds arrays in the input schema that say nothing about their elements: no
`items` and no `prefixItems` (nor a `$ref` or composition that could supply
them).

## Why is this bad?
`{"type": "array"}` accepts a list of anything.  The model has to guess whether
it should send `["a", "b"]`, `[1, 2]` or `[{"id": 1}]`, and whatever it guesses
passes validation and reaches the function.  Several providers also reject or
mangle arrays without `items`.

## Example
```json
{"name": "tag_photo", "description": "Attach tags to one photo in the library by its id.",
 "inputSchema": {"type": "object",
                 "properties": {"photo_id": {"type": "string", "description": "Photo id"},
                                "tags": {"type": "array", "description": "Tags to attach"}},
                 "required": ["photo_id", "tags"], "additionalProperties": false}}
```

## Use instead
```json
{"name": "tag_photo", "description": "Attach tags to one photo in the library by its id.",
 "inputSchema": {"type": "object",
                 "properties": {"photo_id": {"type": "string", "description": "Photo id"},
                                "tags": {"type": "array", "description": "Tags to attach",
                                         "items": {"type": "string"}}},
                 "required": ["photo_id", "tags"], "additionalProperties": false}}
```

## Fix safety
Not applied by `--fix`: only the author knows the element type.  When the
array's `default` or `examples` hold values of one JSON type, the suggested
`items` uses that type; it is still a guess.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...model import Edit, Fix, Severity, ToolContract
from ...schema.keywords import json_type
from ...schema.walk import SchemaNode
from ..base import Finding, LintContext, Rule
from ._shapes import COMPOSITION, ancestor_via, is_array_schema, property_label

_ELEMENTS_ELSEWHERE = ("items", "prefixItems", "$ref", *COMPOSITION)
_NEGATED = frozenset({"not"})


def element_type_hint(schema: dict[str, Any]) -> str | None:
    """The one JSON type of the elements shown in `default` / `examples`, if they agree."""
    samples: list[Any] = []
    for key in ("default", "examples", "example"):
        value = schema.get(key)
        if isinstance(value, list):
            for item in value:
                samples.extend(item if isinstance(item, list) and key == "examples" else [item])
    types = {json_type(s) for s in samples}
    return types.pop() if len(types) == 1 else None


class ArrayWithoutItems(Rule):
    code = "C002"
    name = "array-without-items"
    severity = Severity.WARNING
    keywords = frozenset({"type"})
    node_types = frozenset({"array"})  # the engine sends only these nodes

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        schema = node.schema
        if not is_array_schema(schema) or any(k in schema for k in _ELEMENTS_ELSEWHERE):
            return
        if ancestor_via(node, _NEGATED):
            return
        declared = schema.get("type")
        if isinstance(declared, list) and len([t for t in declared if t != "null"]) > 2:
            return  # any JSON value by design (a JSON Patch `value`): an array is one form among many
        hint = element_type_hint(schema)
        label = property_label(node)
        if hint:
            suggestion = f"\"items\": {{\"type\": \"{hint}\"}} (its default/examples hold {hint} values)"
            fix = Fix(f"add \"items\": {{\"type\": \"{hint}\"}}", safe=False,
                      edits=(Edit("set", node.pointer + "/items", {"type": hint}),))
        else:
            suggestion = "\"items\" with the element schema, e.g. \"items\": {\"type\": \"string\"}"
            fix = Fix("add an \"items\" schema", safe=False)
        yield Finding(node.pointer, f"array {label} has no \"items\": any elements are accepted and the model must "
                                    f"guess what goes in it; add {suggestion}", fix)
