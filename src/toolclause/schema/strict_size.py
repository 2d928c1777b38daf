"""OpenAI strict mode's size limits, counted in one place (rule P001 and the strict export both ask).

Strict mode rejects a schema with more than 5,000 object properties in total,
more than 10 levels of nesting, more than 120,000 characters of property
names, definition names and enum/const values, an enum of more than 1,000
values, or a string enum of more than 250 values holding more than 15,000
characters (https://developers.openai.com/api/docs/guides/structured-outputs).

The count follows the walker's reading of a schema (`schema.walk`): a
property, a definition or an array's items is one level deeper, an `anyOf`
branch is not.  Nothing below a keyword strict mode rejects is counted (the
fix removes the keyword), nor below `additionalProperties`, `propertyNames`
or `unevaluatedProperties`.  Every figure is a property of the schema, not of
the order anything visits it in; "the deepest" is the first in document order.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..model import escape_token
from ..targets import (
    OPENAI_STRICT_LARGE_STRING_ENUM,
    OPENAI_STRICT_LARGE_STRING_ENUM_CHARS,
    OPENAI_STRICT_MAX_ENUM_VALUES,
    OPENAI_STRICT_MAX_NESTING,
    OPENAI_STRICT_MAX_PROPERTIES,
    OPENAI_STRICT_MAX_TOTAL_CHARS,
    OPENAI_STRICT_UNSUPPORTED_KEYWORDS,
)
from .walk import MAX_DEPTH, SUBSCHEMA_KEYWORDS, NodeKind

NOT_COUNTED_BELOW = frozenset(OPENAI_STRICT_UNSUPPORTED_KEYWORDS) | {
    "additionalProperties", "propertyNames", "unevaluatedProperties"}
_COUNTED = {keyword: (kind, shape) for keyword, (kind, shape) in SUBSCHEMA_KEYWORDS.items()
            if keyword not in NOT_COUNTED_BELOW}
_COUNTED_KEYS = frozenset(_COUNTED)
_NAMED = frozenset({"properties", "$defs", "definitions"})  # maps whose keys count as characters


def value_chars(values: list[Any]) -> int:
    """Characters of enum/const values: a string's length, a number's, boolean's or null's JSON."""
    return sum(len(v) if isinstance(v, str) else len(json.dumps(v)) for v in values
               if isinstance(v, (str, int, float, bool)) or v is None)


@dataclass(frozen=True, slots=True)
class EnumSize:
    values: int
    chars: int

    @property
    def too_many(self) -> bool:
        return self.values > OPENAI_STRICT_MAX_ENUM_VALUES

    @property
    def too_long(self) -> bool:
        """A large string enum over its character limit (asked only when not too_many)."""
        return self.chars > OPENAI_STRICT_LARGE_STRING_ENUM_CHARS

    @property
    def over_limit(self) -> bool:
        return self.too_many or self.too_long


def enum_size(values: list[Any]) -> EnumSize | None:
    """The figures of one enum that strict mode limits, or None when it is within them."""
    if len(values) > OPENAI_STRICT_MAX_ENUM_VALUES:
        return EnumSize(len(values), value_chars(values))
    if len(values) > OPENAI_STRICT_LARGE_STRING_ENUM and all(isinstance(v, str) for v in values):
        size = EnumSize(len(values), value_chars(values))
        return size if size.too_long else None
    return None


@dataclass
class StrictSize:
    properties: int = 0
    chars: int = 0
    depth: int = 0
    deepest: str = ""                 # pointer of the first subschema at `depth`
    deepest_property: str | None = None  # its property name, when a `properties` map holds it
    large_enums: list[tuple[str, EnumSize]] = field(default_factory=list)  # (pointer of `enum`, figures)

    @property
    def too_many_properties(self) -> bool:
        return self.properties > OPENAI_STRICT_MAX_PROPERTIES

    @property
    def too_many_chars(self) -> bool:
        return self.chars > OPENAI_STRICT_MAX_TOTAL_CHARS

    @property
    def too_deep(self) -> bool:
        return self.depth > OPENAI_STRICT_MAX_NESTING


def openai_strict_size(schema: Any, base: str = "") -> StrictSize:
    """Count one schema (pointers start at `base`), iteratively and to the walker's depth bound."""
    size = StrictSize(deepest=base)
    if not isinstance(schema, dict):
        return size
    properties = chars = deepest = 0
    stack: list[tuple[dict[str, Any], int, str, str | None]] = [(schema, 0, base, None)]
    while stack:
        node, depth, pointer, name = stack.pop()
        if depth > deepest:
            deepest, size.deepest, size.deepest_property = depth, pointer, name
        enum = node.get("enum")
        if enum.__class__ is list:
            chars += value_chars(enum)
            figures = enum_size(enum)
            if figures is not None:
                size.large_enums.append((pointer + "/enum", figures))
        if "const" in node:
            chars += value_chars([node["const"]])
        # most nodes ({"type": "string", ...}) hold no subschema: a set intersection in C skips them
        present = _COUNTED_KEYS.intersection(node)
        if not present:
            continue
        children: list[tuple[dict[str, Any], int, str, str | None]] = []
        for keyword in node:  # document order
            if keyword not in present:
                continue
            value = node[keyword]
            kind, shape = _COUNTED[keyword]
            here = pointer + "/" + keyword
            if shape == "map":
                if value.__class__ is not dict:
                    continue
                named, is_properties = keyword in _NAMED, keyword == "properties"
                for key, sub in value.items():
                    if named:
                        chars += len(key)
                    if is_properties:
                        properties += 1
                    if sub.__class__ is dict:
                        token = escape_token(key) if ("~" in key or "/" in key) else key
                        children.append((sub, depth + 1, here + "/" + token, key if is_properties else None))
            elif value.__class__ is list and shape != "schema":
                step = 1 if kind is NodeKind.ITEMS else 0
                children.extend((sub, depth + step, f"{here}/{index}", None)
                                for index, sub in enumerate(value) if sub.__class__ is dict)
            elif value.__class__ is dict and shape != "list":
                children.append((value, depth + (0 if kind is NodeKind.BRANCH else 1), here, None))
        stack.extend(child for child in reversed(children) if child[1] <= MAX_DEPTH)
    size.properties, size.chars, size.depth = properties, chars, deepest
    return size
