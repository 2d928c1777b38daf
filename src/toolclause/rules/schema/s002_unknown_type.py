"""unknown-type (S002)

## What it does
Finds `type` values that are not one of JSON Schema's seven type names
(`string`, `number`, `integer`, `boolean`, `object`, `array`, `null`), alone or
inside a type list, and names the type meant: Python's `str`, `int`, `float`,
`bool`, `dict`, `list`, `tuple`; Java's `String`, `long`, `double`, `HashMap`,
`ArrayList`; capitalised names (`String`, `STRING`); `any` (which means: no
`type` at all).  Names with no single meaning (`date`, `Enum`, `file`) get a
suggestion of how to say it in JSON Schema.

## Why is this bad?
Validators reject the schema, and providers either refuse the tool or pass
the unknown name to the model, which then guesses what `float` or `dict`
should look like on the wire.

## Example
```json
{"name": "convert_currency", "description": "Convert an amount between two currencies at today's rate.",
 "inputSchema": {"type": "dict",
                 "properties": {"amount": {"type": "float"}, "from": {"type": "String"},
                                "to": {"type": "str"}},
                 "required": ["amount", "from", "to"]}}
```

## Use instead
```json
{"name": "convert_currency", "description": "Convert an amount between two currencies at today's rate.",
 "inputSchema": {"type": "object",
                 "properties": {"amount": {"type": "number"}, "from": {"type": "string"},
                                "to": {"type": "string"}},
                 "required": ["amount", "from", "to"]}}
```

## Fix safety
A name from the table of certain equivalents (`str`→`string`, `int`/`long`→`integer`,
`float`/`double`→`number`, `bool`→`boolean`, `dict`/`map`/`HashMap`→`object`,
`list`/`tuple`/`Array`→`array`, any capitalisation of the seven) is replaced by
`--fix`, and `any` is removed.  Other suggestions (`date`, `Enum`, typos) are
guesses and are not applied.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ... import _lazy_re as re
from ...model import Edit, Fix, Severity, ToolContract
from ...schema.keywords import JSON_TYPES, describe_value, type_alias
from ...schema.walk import SchemaNode
from ...suggest import closest
from ..base import Finding, LintContext, Rule
from ._common import capitalised_types_are_native

_SEVEN = ", ".join(JSON_TYPES)
_VALID = frozenset(JSON_TYPES)
_LIST_OF = re.compile(r"^(?:list|array|arraylist|set|tuple|sequence)\s*[\[<(]\s*(\w+)\s*[\]>)]$|^(\w+)\s*\[\]$")
_OPTIONAL = re.compile(r"^optional\s*[\[<]\s*(\w+)\s*[\]>]$")

# Names with no single JSON type: what to write instead (never applied automatically).
_ADVICE: dict[str, str] = {
    "date": 'use "type": "string" with "format": "date"',
    "datetime": 'use "type": "string" with "format": "date-time"',
    "date-time": 'use "type": "string" with "format": "date-time"',
    "timestamp": 'use "type": "string" with "format": "date-time" (or "integer" for epoch seconds)',
    "time": 'use "type": "string" with "format": "time"',
    "uuid": 'use "type": "string" with "format": "uuid"',
    "email": 'use "type": "string" with "format": "email"',
    "uri": 'use "type": "string" with "format": "uri"',
    "url": 'use "type": "string" with "format": "uri"',
    "enum": 'use "type": "string" (or the values\' type) with an "enum" listing the allowed values',
    "char": 'use "type": "string" (with "maxLength": 1)',
    "character": 'use "type": "string" (with "maxLength": 1)',
    "text": 'did you mean "string"?',
    "file": 'JSON cannot carry a file: use "type": "string" holding a path, a URL or base64 data',
    "binary": 'use "type": "string" holding base64 data ("contentEncoding": "base64")',
    "bytes": 'use "type": "string" holding base64 data ("contentEncoding": "base64")',
    "set": 'use "type": "array" with "uniqueItems": true',
    "decimal": 'did you mean "number"? (or "string" to keep exact decimals)',
    "short": 'did you mean "integer"?',
    "byte": 'did you mean "integer"?',
    "bigint": 'did you mean "integer"?',
    "object[]": 'use "type": "array" with "items": {"type": "object"}',
}


class UnknownType(Rule):
    code = "S002"
    name = "unknown-type"
    severity = Severity.ERROR
    fixable = True
    keywords = frozenset({"type"})
    roles = frozenset({"input", "output"})

    def skips(self, keys: tuple, declared: object, kind: object, role: str) -> bool:
        # `declared` is a str exactly when `type` is one: a valid name is the common case
        return isinstance(declared, str) and declared in _VALID

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        value = node.schema.get("type")
        if isinstance(value, str) and value in _VALID:  # the common case, decided before any other work
            return
        type_pointer = node.pointer + "/type"
        native_capitals = capitalised_types_are_native(tool, node.role)
        if isinstance(value, str):
            yield from self._check_name(value, type_pointer, type_pointer, native_capitals, ())
        elif isinstance(value, list):
            yield from self._check_list(value, type_pointer, native_capitals)
        else:
            message = f"type must be one of {_SEVEN}, or a list of them; got {describe_value(value)}"
            if isinstance(value, dict):
                message += " (a schema written here belongs under 'properties' or 'items')"
            yield Finding(type_pointer, message, Fix("write a type name"))

    def _check_list(self, names: list[Any], type_pointer: str, native_capitals: bool) -> Iterable[Finding]:
        if not names:
            yield Finding(type_pointer, f"type is an empty list, which allows no value; list at least one of {_SEVEN}, "
                                        f"or remove 'type' to allow any value", Fix("remove the empty type list"))
            return
        seen: set[str] = set()
        for index, name in enumerate(names):
            pointer = f"{type_pointer}/{index}"
            if not isinstance(name, str):
                yield Finding(pointer, f"type list entry {index} must be a type name ({_SEVEN}); "
                                       f"got {describe_value(name)}", Fix("write a type name"))
                continue
            if name in seen:
                yield Finding(pointer, f"type lists '{name}' more than once; list each type once",
                              Fix(f"remove the repeated '{name}'"))
            seen.add(name)
            others = tuple(n for i, n in enumerate(names) if i != index and isinstance(n, str))
            yield from self._check_name(name, pointer, type_pointer, native_capitals, others)

    def _check_name(self, name: str, pointer: str, type_pointer: str, native_capitals: bool,
                    siblings: tuple[str, ...]) -> Iterable[Finding]:
        if name in JSON_TYPES:
            return
        known, json_type = type_alias(name)
        if known:
            if native_capitals and name.upper() == name and name.lower() in JSON_TYPES:
                return  # Gemini's OpenAPI-style Schema and RapidAPI records spell types in capitals
            if json_type is None:
                yield Finding(pointer, f"type '{name}' is not a JSON Schema type; to accept any value, remove 'type'",
                              Fix("remove 'type'", safe=True, edits=(Edit("remove", type_pointer),)))
                return
            message = f"type '{name}' is not a JSON Schema type; did you mean '{json_type}'?"
            if name.lower() == json_type:
                message += " (type names are lower-case)"
            if json_type in siblings:
                yield Finding(pointer, message, Fix(f"remove '{name}': the list already has '{json_type}'"))
            else:
                yield Finding(pointer, message, Fix(f"replace '{name}' with '{json_type}'", safe=True,
                                                    edits=(Edit("set", pointer, json_type),)))
            return
        yield Finding(pointer, f"type '{name}' is not a JSON Schema type; {_advice(name)}",
                      Fix(_advice(name)))


def _advice(name: str) -> str:
    folded = name.strip().lower()
    if not folded:
        return f"the type is empty: write one of {_SEVEN}"
    if folded in _ADVICE:
        return _ADVICE[folded]
    if folded.startswith("date"):
        return _ADVICE["date"]
    match = _LIST_OF.match(folded)
    if match:
        inner = match.group(1) or match.group(2)
        inner_type = type_alias(inner)[1] if type_alias(inner)[0] else None
        items = f'{{"type": "{inner_type}"}}' if inner_type else "a schema for one element"
        return f'use "type": "array" with "items": {items}'
    match = _OPTIONAL.match(folded)
    if match:
        inner_type = type_alias(match.group(1))[1] if type_alias(match.group(1))[0] else None
        if inner_type:
            return f'use "type": ["{inner_type}", "null"] and leave the property out of \'required\''
    guess = closest(folded, JSON_TYPES, cutoff=75)
    if guess:
        return f"did you mean '{guess}'?"
    return f"use one of {_SEVEN}"
