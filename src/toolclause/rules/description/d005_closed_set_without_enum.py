"""closed-set-without-enum (D005)

## What it does
Finds a free string property (no `enum`, `const`, `format` or `pattern`)
whose description lists the values it allows — "'asc' or 'desc'", "one of:
A, B, C", "celsius or fahrenheit", "json|csv|xml", "A-LINE, B-LINE, C-LINE",
"섭씨 또는 화씨", "오름차순, 내림차순 중 하나" — and suggests the exact `enum`.
An integer or number property whose description announces its values ("Allowed
values: 60, 300, 900") gets the enum of those numbers, and a property whose name
names a kind (`shipping_speed`, `output_format`, `priority`) counts a plain
"standard, express or overnight" too — and "Severity: sev1, sev2, sev3 or ALL",
"(future|active|closed)" or "State on error: NoData, Alerting, OK" after a label
that names it.  "all" is a value like any other ("open, closed or all"); a
gloss after a value ("'START' (left), 'CENTER'", '"all" (default)') and a list
wrapped onto the next line keep the list going, so the enum holds every value.

A free string whose name is a closed set by nature (`priority`, `severity`,
`status`, `state`, `level`, `tier`, `category`, `visibility`, `role`,
`sort_order`, a billing `plan`, a transit `line`) and whose description names
no value at all is reported as info: say which values it takes, or add an enum.
Not when the description says it is free text, an id, a name, a query or an
expression, shows any value or example, or names a place (a U.S. `state`).

The suggestion is made only from values: a list whose words are the names of
the tool's own parameters ("use `after_id` or `before_id` to position it"),
values joined by "and" (both at once, not a choice), a list followed by "or a
string …" (only some of the values) or by a condition ("'true' or 'false' for
checkboxes"), a list inside a template (`page-{n}.{png|jpeg}`) and a cue that
names a single value ("possible values include `object`") are never made into
an enum.  Nor are the values of another parameter ("(required for 'create',
'update')", 'Used by "grant"', "if `type` was `limit` or `stop_limit`"), values
refused ("does not support 'day' or 'fok'"), what happens without a value ("If
not set, it scans for `dist`, `build`"), one list per case ("AWS: 'MSK'. Azure:
'EVENTHUB'."), a list only partly written out ("'HEADING_1' through
'HEADING_6'", "'us' (or 'µs')"), values that follow a pattern (`[1-59]Min`),
dates (examples of a form) and the keys and strings of a JSON value.  Lists
given as examples ("e.g.", "such as", "for example", "Common values:", "예:") or
left open ("etc.", "등", "otherwise …") are not closed sets and are not reported.  For free-text
properties (`query`, `text`, `name` …) only an explicit cue ("one of",
"allowed values", "중 하나") counts, since quoted words there are usually
syntax help.

## Why is this bad?
Prose is a request; an enum is a contract.  Models send `Celsius`, `C`,
`centigrade` or `섭씨` when only `celsius` works, and nothing rejects the value
before the function sees it.  With an `enum`, strict modes constrain the model
and validation rejects anything else.

## Example
```json
{"name": "get_weather", "description": "Current weather for one city; returns temperature and sky.",
 "inputSchema": {"type": "object",
                 "properties": {"unit": {"type": "string", "description": "Temperature unit, celsius or fahrenheit"}}}}
```

## Use instead
```json
{"name": "get_weather", "description": "Current weather for one city; returns temperature and sky.",
 "inputSchema": {"type": "object",
                 "properties": {"unit": {"type": "string", "enum": ["celsius", "fahrenheit"],
                                         "description": "Temperature unit"}}}}
```

## Fix safety
The enum is read from prose and may miss a value the function accepts, so it
is not applied by `--fix`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from ... import _lazy_re as re
from ...lexicon import split_identifier
from ...model import Edit, Fix, Severity, ToolContract
from ...schema.walk import NodeKind, SchemaNode
from .._reach import unused_definition
from ..base import Finding, LintContext, Rule
from ._closed_sets import CATEGORY_WORDS, FREE_TEXT_WORDS, closed_by_name, closed_set, named_kinds
from ._common import STRING_TYPES, is_string, nullable_view, property_path, text_of

_CONSTRAINED = frozenset({"enum", "const", "format", "pattern", "anyOf", "oneOf", "allOf", "$ref"})
_TYPED = STRING_TYPES | {"integer", "number"}


def _numbers(values: list[str], integer: bool) -> list | None:
    """The listed values as numbers when every one is a number (an integer property: every one an integer)."""
    out: list = []
    for value in values:
        try:
            number = float(value)
        except ValueError:
            return None
        if number.is_integer() and "." not in value:
            out.append(int(number))
        elif integer:
            return None
        else:
            out.append(number)
    return out


def _parameter_names(tool: ToolContract) -> frozenset[str]:
    names: set[str] = set()
    stack = [tool.input_schema]
    seen: set[int] = set()  # a YAML alias can make the schema a cycle
    while stack:
        schema = stack.pop()
        if not isinstance(schema, dict) or id(schema) in seen or len(seen) > 10_000:
            continue
        seen.add(id(schema))
        properties = schema.get("properties")
        if isinstance(properties, dict):
            names.update(k for k in properties if isinstance(k, str))
            stack.extend(properties.values())
        stack.append(schema.get("items"))
        for keyword in ("anyOf", "oneOf", "allOf"):
            branches = schema.get(keyword)
            if isinstance(branches, list):
                stack.extend(branches)
    return frozenset(names)


# a list that defines each value on its own line: `- "off": Disable …`, `* 'reader' — Anyone …`
_DEFINED_VALUE = re.compile(r"^[ \t]*[-*•][ \t]*[\"'`]([\w.-]{1,40})[\"'`][ \t]*(?::|—|–|-|=)", re.MULTILINE)
# …unless the list names the fields of a JSON text or an object, not values
_FIELDS = re.compile(r"\b(?:fields?|keys?|json|object|propert(?:y|ies)|attributes?|columns?)\b", re.IGNORECASE)


def definition_list(description: str) -> tuple[tuple[str, ...], str] | None:
    """(values, the list) when the description defines two or more quoted values, one a line."""
    found = _DEFINED_VALUE.findall(description)
    if len(found) < 2 or len(set(found)) != len(found):
        return None
    first = _DEFINED_VALUE.search(description)
    assert first is not None
    if _FIELDS.search(description[:first.start()]):
        return None
    return tuple(found), " ".join(description[first.start():].split())


class ClosedSetWithoutEnum(Rule):
    code = "D005"
    name = "closed-set-without-enum"
    severity = Severity.WARNING
    node_kinds = frozenset({NodeKind.PROPERTY})
    # typed strings and numbers, and nullable ones written as an `anyOf` (which declares no `type` of its own)

    def skips(self, keys: tuple, declared: object, kind: object, role: str) -> bool:
        # check_node's shape-only exits (already constrained, or no description), once per shape
        if "description" not in keys:
            return True
        if declared is None:
            return not ({"anyOf", "oneOf"} & set(keys)) or bool({"enum", "const", "$ref", "allOf"} & set(keys))
        return not (set(declared if isinstance(declared, tuple) else (declared,)) & _TYPED) or \
            not _CONSTRAINED.isdisjoint(keys)

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        if unused_definition(tool, node, ctx):
            return  # no argument is ever checked against an unreferenced definition
        schema = node.schema
        at = node.pointer  # where the enum goes: the branch that is not null, for an `Optional[str]`
        nullable = nullable_view(schema)
        if nullable is not None:
            schema, branch = nullable
            at = f"{node.pointer}/{branch}"
        if not _CONSTRAINED.isdisjoint(schema):
            return
        numeric = schema.get("type") in ("integer", "number")
        if not numeric and not is_string(schema):
            return
        description = text_of(schema)
        if not description:
            return
        words = split_identifier(node.key)
        free_text = numeric or bool(FREE_TEXT_WORDS.intersection(words))
        found = closed_set(description, free_text)
        if found is None and not numeric and not free_text:
            found = definition_list(description)
        if found is None and not numeric and words and words[-1] in CATEGORY_WORDS:
            found = named_kinds(description, tuple(words))
        if found is None:
            if not numeric and closed_by_name(words, description, tool):
                path = property_path(node)
                yield Finding(node.pointer, f"property '{path}' takes any string, but its name says it takes one of "
                                            f"a few values and its description names none of them; say which "
                                            f"values it takes, or add an \"enum\"", severity=Severity.INFO)
            return
        values: list = list(found[0])
        listed = found[1]
        if numeric:
            numbers = _numbers(values, schema.get("type") == "integer")
            if numbers is None:
                return
            values = numbers
        elif set(values) & _parameter_names(tool):
            return  # "use `after_id` or `before_id`": the words are parameters, not values
        enum = json.dumps(values, ensure_ascii=False)
        path = property_path(node)
        quoted = listed if len(listed) <= 80 else listed[:77] + "..."
        if len(enum) <= 160:
            shown = enum
        else:
            shown = json.dumps(values[:6], ensure_ascii=False)[:-1] + f", … ({len(values)} values)]"
        takes = "any number" if numeric else "any string"
        yield Finding(node.pointer, f"property '{path}' takes {takes}, but its description lists the allowed "
                                    f"values ({quoted!r}); add \"enum\": {shown}",
                      Fix(f"add \"enum\": {enum} to '{path}'", safe=False,
                          edits=(Edit("set", at + "/enum", values),)))
