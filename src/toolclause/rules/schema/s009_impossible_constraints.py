"""impossible-constraints (S009)

## What it does
Finds bounds that no value can meet: `minimum` above `maximum` (exclusive
bounds included, in both their draft-04 boolean and later numeric forms, and
no integer between them for `"type": "integer"`), `minLength` above
`maxLength`, `minItems` above `maxItems`, `minProperties` above
`maxProperties`, `minContains` above `maxContains`, an empty `enum`, and a
`const` that is not among the `enum` values.

## Why is this bad?
Every call is rejected, whatever the model sends; the tool cannot be used
until the schema is fixed.  Usually the two bounds were swapped.

## Example
```json
{"name": "search_flights", "description": "Search direct flights between two airports on one date.",
 "inputSchema": {"type": "object",
                 "properties": {"passengers": {"type": "integer", "minimum": 9, "maximum": 1},
                                "cabin": {"type": "string", "enum": []}},
                 "required": ["passengers"]}}
```

## Use instead
```json
{"name": "search_flights", "description": "Search direct flights between two airports on one date.",
 "inputSchema": {"type": "object",
                 "properties": {"passengers": {"type": "integer", "minimum": 1, "maximum": 9},
                                "cabin": {"type": "string", "enum": ["economy", "business"]}},
                 "required": ["passengers"]}}
```

## Fix safety
Swapping the bounds is the likely repair but not a certain one, so `--fix`
applies nothing.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, TypeGuard

from ...model import Fix, Severity, ToolContract
from ...schema.keywords import json_equal, json_kind, show_value
from ...schema.walk import SchemaNode
from ..base import Finding, LintContext, Rule

_PAIRS = (("minLength", "maxLength", "characters"), ("minItems", "maxItems", "items"),
          ("minProperties", "maxProperties", "properties"), ("minContains", "maxContains", "matching items"))
_NUMERIC = frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"})


def _number(value: Any) -> TypeGuard[int | float]:
    # an int is finite however large (math.isfinite would convert it to a float, which overflows)
    return json_kind(value) == "number" and (isinstance(value, int) or math.isfinite(value))


class ImpossibleConstraints(Rule):
    code = "S009"
    name = "impossible-constraints"
    severity = Severity.ERROR
    keywords = frozenset(_NUMERIC | {k for pair in _PAIRS for k in pair[:2]} | {"enum"})
    roles = frozenset({"input", "output"})

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        schema = node.schema
        if _NUMERIC.intersection(schema):
            finding = _numeric_range(schema, node.pointer)
            if finding is not None:
                yield finding
        for low_key, high_key, unit in _PAIRS:
            low, high = schema.get(low_key), schema.get(high_key)
            if _number(low) and _number(high) and low > high:
                yield Finding(f"{node.pointer}/{low_key}",
                              f"{low_key} {low} is greater than {high_key} {high}: no value can have at least "
                              f"{low} and at most {high} {unit}; swap them?", Fix(f"swap {low_key} and {high_key}"))
        enum = schema.get("enum")
        if isinstance(enum, list):
            if not enum:
                yield Finding(f"{node.pointer}/enum", "enum is empty, so no value is allowed; list the allowed "
                                                      "values or remove enum", Fix("list the values or remove enum"))
            elif "const" in schema and not any(json_equal(schema["const"], v) for v in enum):
                yield Finding(f"{node.pointer}/const", f"const {show_value(schema['const'])} is not among the enum "
                                                       f"values, so no value satisfies both; remove one of them",
                              Fix("remove const or enum"))


def _whole(value: int | float) -> bool:
    """Whether a bound is a whole number; an int is, however many digits it has (float() of a 309-digit
    int overflows)."""
    return isinstance(value, int) or value.is_integer()


def _numeric_range(schema: dict[str, Any], pointer: str) -> Finding | None:
    """The tightest lower and upper bounds, and whether any number (or integer) lies between."""
    low, low_key, low_open = _bound(schema, "minimum", "exclusiveMinimum", max)
    high, high_key, high_open = _bound(schema, "maximum", "exclusiveMaximum", min)
    if low is None or high is None:
        return None
    empty = low > high or (low == high and (low_open or high_open))
    if not empty and schema.get("type") == "integer":
        first = math.floor(low) + 1 if low_open and _whole(low) else math.ceil(low)
        last = math.ceil(high) - 1 if high_open and _whole(high) else math.floor(high)
        if first > last:
            return Finding(f"{pointer}/{low_key}",
                           f"no integer lies between {_describe(low_key, low)} and {_describe(high_key, high)}; "
                           f"widen the range", Fix("widen the range"))
        return None
    if not empty:
        return None
    if low > high:
        message = (f"{_describe(low_key, low)} is greater than {_describe(high_key, high)}: no number can satisfy "
                   f"both; swap them?")
    else:
        message = f"{_describe(low_key, low)} and {_describe(high_key, high)} leave no number between them"
    return Finding(f"{pointer}/{low_key}", message, Fix(f"swap or widen {low_key} and {high_key}"))


def _bound(schema: dict[str, Any], inclusive: str, exclusive: str, tighter) -> tuple[Any, str, bool]:
    """(value, keyword, exclusive?) of the tightest bound on one side; draft-04's boolean form included."""
    best: tuple[Any, str, bool] = (None, "", False)
    value = schema.get(inclusive)
    if _number(value):
        best = (value, inclusive, schema.get(exclusive) is True)  # draft-04: exclusiveX: true
    value = schema.get(exclusive)
    if _number(value):
        if best[0] is None or tighter(value, best[0]) != best[0] or value == best[0]:
            best = (value, exclusive, True)
    return best


def _describe(keyword: str, value: Any) -> str:
    return f"{keyword} {value}"
