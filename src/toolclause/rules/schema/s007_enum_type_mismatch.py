"""enum-type-mismatch (S007)

## What it does
Finds `enum` and `const` values that the same schema's `type` does not allow:
the strings `"1"`, `"2"` under `"type": "integer"`, `"true"` under
`"type": "boolean"`, a `null` in the enum of a type that excludes null.
Type names S002 can read (`int`, `str`, `bool`) are read that way; OpenAPI's
`nullable: true` admits null.

## Why is this bad?
No value satisfies both keywords, so either every call that uses the listed
values is rejected, or the model is taught values of the wrong type (`"5"`
instead of `5`) that the code behind the tool then mishandles.

## Example
```json
{"name": "set_fan_speed", "description": "Set the ceiling fan speed for one room.",
 "inputSchema": {"type": "object",
                 "properties": {"speed": {"type": "integer", "enum": ["1", "2", "3"]}},
                 "required": ["speed"]}}
```

## Use instead
```json
{"name": "set_fan_speed", "description": "Set the ceiling fan speed for one room.",
 "inputSchema": {"type": "object",
                 "properties": {"speed": {"type": "integer", "enum": [1, 2, 3]}},
                 "required": ["speed"]}}
```

## Fix safety
Either the values or the type may be the mistake, and changing either changes
what the tool receives, so `--fix` does not apply anything.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...model import Fix, Severity, ToolContract
from ...schema.keywords import json_kind, resolved_types, show_value, value_has_type
from ...schema.walk import SchemaNode
from ..base import Finding, LintContext, Rule

_SHOWN = 5
_STRING_ONLY = frozenset({"string"})


class EnumTypeMismatch(Rule):
    code = "S007"
    name = "enum-type-mismatch"
    severity = Severity.ERROR
    keywords = frozenset({"enum", "const"})
    roles = frozenset({"input", "output"})

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        schema = node.schema
        types = resolved_types(schema.get("type"))
        if types is None or schema.get("format") == "enum":
            return  # no type (or one S002 cannot read), or Gemini's string-encoded enum
        allowed = types | {"null"} if schema.get("nullable") is True else types
        declared = _show_types(schema.get("type"))
        enum = schema.get("enum")
        if isinstance(enum, list):
            if allowed == _STRING_ONLY:  # most enums: a plain C-speed scan
                bad = [(i, v) for i, v in enumerate(enum) if not isinstance(v, str)]
            else:
                bad = [(i, v) for i, v in enumerate(enum) if not _allowed(v, allowed)]
            if bad:
                first = bad[0][0]
                shown = ", ".join(show_value(v) for _, v in bad[:_SHOWN]) + (", …" if len(bad) > _SHOWN else "")
                noun = "value" if len(bad) == 1 else "values"
                advice = _advice([v for _, v in bad], allowed, len(bad) == len(enum), schema)
                message = (f"enum {noun} {shown} {'does' if len(bad) == 1 else 'do'} not match the declared type "
                           f"{declared}; {advice}")
                yield Finding(f"{node.pointer}/enum/{first}", message, Fix(advice))
        if "const" in schema and not _allowed(schema["const"], allowed):
            value = schema["const"]
            yield Finding(f"{node.pointer}/const",
                          f"const {show_value(value)} does not match the declared type {declared}; "
                          f"{_advice([value], allowed, True, schema)}", Fix(_advice([value], allowed, True, schema)))


def _allowed(value: Any, types: frozenset[str]) -> bool:
    return any(value_has_type(value, t) for t in types)


def _show_types(declared: Any) -> str:
    if isinstance(declared, str):
        return f"'{declared}'"
    return "[" + ", ".join(f"'{t}'" for t in declared) + "]"


def _advice(values: list[Any], allowed: frozenset[str], all_bad: bool, schema: dict[str, Any]) -> str:
    kinds = {json_kind(v) for v in values}
    if allowed == {"array"} and "array" not in kinds and isinstance(schema.get("items"), dict):
        return ("an enum on an array lists whole arrays; to allow only these values for each element, "
                "move the enum into 'items'")
    if kinds == {"null"}:
        return "add \"null\" to the type (\"type\": [\"…\", \"null\"]) or remove null from the values"
    if kinds == {"string"} and allowed & {"integer", "number"} and all(_numeric(v) for v in values):
        return "write the values as numbers, without quotes"
    if kinds == {"string"} and "boolean" in allowed and all(v in ("true", "false") for v in values):
        return "write true/false without quotes"
    if all_bad and len(kinds) == 1:
        kind = kinds.pop()
        if kind == "number" and all(value_has_type(v, "integer") for v in values):
            kind = "integer"
        return f"change the type to \"{kind}\" or the values to match it"
    return "make the values match the type, or widen the type"


def _numeric(value: str) -> bool:
    try:
        float(value)
    except ValueError:
        return False
    return True
