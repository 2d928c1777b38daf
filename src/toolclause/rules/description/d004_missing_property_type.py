"""missing-property-type (D004)

## What it does
Finds a property of the input schema, at any depth, that declares no `type`
and nothing that fixes one either (`enum`, `const`, `$ref`, `anyOf`, `oneOf`,
`allOf`, `not`).  A value that takes any JSON by design (named `value`, such as
a JSON Patch value or a flag variation, or described as taking any value or
several types) is reported as info, asking to say which types it takes.
Where the schema shows what the type must be (`properties`
→ object, `items` → array, a `default` value) the message says so.  A property
left untyped in several `anyOf`/`oneOf` branches is reported once, at the first.

## Why is this bad?
With no type the model chooses one: `"5"` or `5`, `"true"` or `true`, a list
or a comma-separated string.  The function then receives a value it was not
written for.  OpenAI strict mode rejects such a schema outright.

## Example
```json
{"name": "set_volume", "description": "Sets the speaker volume; returns the new level.",
 "inputSchema": {"type": "object",
                 "properties": {"level": {"description": "Volume from 0 to 100", "default": 50}}}}
```

## Use instead
```json
{"name": "set_volume", "description": "Sets the speaker volume; returns the new level.",
 "inputSchema": {"type": "object",
                 "properties": {"level": {"type": "integer", "description": "Volume from 0 to 100", "default": 50}}}}
```

## Fix safety
The suggested type is read from the schema's own evidence, but adding a type can
reject values that used to pass, so it is not applied by `--fix`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ... import _lazy_re as re
from ...lexicon import identifier_words
from ...model import Fix, Severity, ToolContract
from ...schema.walk import NodeKind, SchemaNode
from .._reach import unused_definition
from ..base import Finding, LintContext, Rule
from ._common import COMPOSITION, property_path

_FIXES_TYPE = ("type", "enum", "const") + COMPOSITION


def _evident_type(schema: dict[str, Any]) -> str | None:
    if isinstance(schema.get("properties"), dict):
        return "object"
    if "items" in schema or "prefixItems" in schema:
        return "array"
    default = schema.get("default")
    if isinstance(default, bool):
        return "boolean"
    if isinstance(default, int):
        return "integer"
    if isinstance(default, float):
        return "number"
    if isinstance(default, str):
        return "string"
    if isinstance(default, list):
        return "array"
    if isinstance(default, dict):
        return "object"
    return None


def _reported_in_an_earlier_branch(node: SchemaNode) -> bool:
    """`x` untyped in oneOf/0 and oneOf/1 is one finding, at its first branch."""
    branch = node.parent
    if branch is None or branch.parent is None or not isinstance(node.key, str):
        return False
    rest = branch.pointer[len(branch.parent.pointer) + 1:].split("/")
    if len(rest) != 2 or rest[0] not in ("anyOf", "oneOf", "allOf") or not rest[1].isdigit():
        return False
    branches = branch.parent.schema.get(rest[0])
    if not isinstance(branches, list):
        return False
    for earlier in branches[: int(rest[1])]:
        properties = earlier.get("properties") if isinstance(earlier, dict) else None
        same = properties.get(node.key) if isinstance(properties, dict) else None
        if isinstance(same, dict) and not any(k in same for k in _FIXES_TYPE):
            return True
    return False


_ANY_VALUE_TEXT = re.compile(r"\b(?:any (?:json )?(?:value|type)|value\(s\)|arbitrary|of any type|"
                             r"string,? (?:or )?number|number,? (?:or )?(?:boolean|string))\b", re.I)


def _any_value(node: SchemaNode) -> bool:
    """A value whose type depends on something else: named `value` (`compare_value`, `values`), or
    described as taking any JSON or several types."""
    words = identifier_words(node.key) if isinstance(node.key, str) else ()
    text = node.schema.get("description")
    return (bool(words) and words[-1] in ("value", "values")) or \
        (isinstance(text, str) and _ANY_VALUE_TEXT.search(text) is not None)


class MissingPropertyType(Rule):
    code = "D004"
    name = "missing-property-type"
    severity = Severity.WARNING
    node_kinds = frozenset({NodeKind.PROPERTY})

    def skips(self, keys: tuple, declared: object, kind: object, role: str) -> bool:
        # the same early exit as check_node's first test, decided once per node shape
        return any(k in keys for k in _FIXES_TYPE)

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        if unused_definition(tool, node, ctx):
            return  # no argument is ever checked against an unreferenced definition
        if any(k in node.schema for k in _FIXES_TYPE):
            return
        if _reported_in_an_earlier_branch(node):
            return
        path = property_path(node)
        evident = _evident_type(node.schema)
        if _any_value(node):
            # a JSON Patch value, a flag variation, a filter's comparison value: any JSON by design, so one
            # "type" (even the one its default shows) would reject calls the tool takes; naming them still helps
            yield Finding(node.pointer, f"property '{path}' has no type; if it takes any JSON value, say so in "
                                        f"its description, else list the types it takes (\"type\": [...])",
                          Fix(f"say which types '{path}' takes", safe=False), severity=Severity.INFO)
        elif evident:
            yield Finding(node.pointer, f"property '{path}' has no type; add \"type\": \"{evident}\" "
                                        f"(what its {'default' if 'default' in node.schema else 'schema'} shows)",
                          Fix(f"add \"type\": \"{evident}\" to '{path}'", safe=False))
        else:
            yield Finding(node.pointer, f"property '{path}' has no type, so a model must guess what to send; "
                                        f"add a \"type\" (or an enum)",
                          Fix(f"add a \"type\" to '{path}'", safe=False))
