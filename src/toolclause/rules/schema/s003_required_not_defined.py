"""required-not-defined (S003)

## What it does
Finds names in `required` that are not keys of the same object's `properties`,
at any depth, and suggests the closest defined name.

## Why is this bad?
It is valid JSON Schema, so nothing complains, yet no call can satisfy it: a
model that follows the schema never sends `citty`, so every correct call is
rejected.  Providers in strict mode refuse the schema outright.

## Example
```json
{"name": "get_weather", "description": "Current weather for one city, in metric units.",
 "inputSchema": {"type": "object",
                 "properties": {"city": {"type": "string", "description": "City name"}},
                 "required": ["citty"]}}
```

## Use instead
```json
{"name": "get_weather", "description": "Current weather for one city, in metric units.",
 "inputSchema": {"type": "object",
                 "properties": {"city": {"type": "string", "description": "City name"}},
                 "required": ["city"]}}
```

## Fix safety
The suggested replacement is a guess (the closest defined name), so it is not
applied by `--fix`.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...model import Fix, Severity, ToolContract
from ...schema.walk import SchemaNode
from ...suggest import closest
from ..base import Finding, LintContext, Rule

_MAY_DECLARE = ("allOf", "anyOf", "oneOf", "$ref", "patternProperties", "dependentSchemas", "if")


class RequiredNotDefined(Rule):
    code = "S003"
    name = "required-not-defined"
    severity = Severity.ERROR
    keywords = frozenset({"required"})
    roles = frozenset({"input", "output"})

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        required = node.schema.get("required")
        if not isinstance(required, list):
            return
        # Another keyword of the same object may declare the name (a branch, a
        # reference, a pattern); only a plain object is provably wrong.
        if any(k in node.schema for k in _MAY_DECLARE) or node.kind.value == "branch":
            return
        properties = node.schema.get("properties")
        if not isinstance(properties, dict):
            properties = {}
        items = node.schema.get("items")
        if not properties and isinstance(items, dict) and isinstance(items.get("properties"), dict):
            yield from _required_on_array(node, required, items["properties"])
            return
        for index, name in enumerate(required):
            if not isinstance(name, str) or name in properties:
                continue
            suggestion = closest(name, list(properties))
            message = f"required names '{name}', which is not a property"
            if suggestion:
                message += f"; did you mean '{suggestion}'?"
                fix = Fix(f"replace '{name}' with '{suggestion}'", safe=False)
            elif properties:
                message += f" (defined: {', '.join(sorted(properties)[:8])})"
                fix = Fix(f"add a property '{name}' or remove it from required", safe=False)
            else:
                message += " (the object defines no properties)"
                fix = Fix(f"add a property '{name}' or remove it from required", safe=False)
            yield Finding(f"{node.pointer}/required/{index}", message, fix)


def _required_on_array(node: SchemaNode, required: list, item_properties: dict) -> Iterable[Finding]:
    """`required` written beside `items` instead of inside it: it constrains nothing, since an
    array has no properties, so the item object's properties are all optional."""
    for index, name in enumerate(required):
        if not isinstance(name, str):
            continue
        where = (f"the item object defines '{name}'" if name in item_properties
                 else f"whose object does not define '{name}' either")
        yield Finding(f"{node.pointer}/required/{index}",
                      f"required names '{name}' on an array, where 'required' has no effect; move 'required' "
                      f"into 'items' ({where})", Fix("move 'required' into 'items'", safe=False))
