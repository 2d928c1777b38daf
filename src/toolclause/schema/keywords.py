"""The keyword vocabulary of JSON Schema, and the type names people write instead.

One place for "which keys can a schema node hold" (drafts 4, 6, 7, 2019-09 and
2020-12 plus the extensions real tool definitions carry) and for "what shape of
value does each keyword take", so that the S rules agree with each other.
"""

from __future__ import annotations

import json
from typing import Any

# --------------------------------------------------------------------------- drafts

DRAFT4 = frozenset({
    "$schema", "id", "$ref", "title", "description", "default", "multipleOf", "maximum",
    "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern",
    "additionalItems", "items", "maxItems", "minItems", "uniqueItems", "maxProperties",
    "minProperties", "required", "additionalProperties", "definitions", "properties",
    "patternProperties", "dependencies", "enum", "type", "format", "allOf", "anyOf", "oneOf", "not",
})
DRAFT6 = (DRAFT4 - {"id"}) | {"$id", "examples", "const", "contains", "propertyNames"}
DRAFT7 = DRAFT6 | {"$comment", "if", "then", "else", "readOnly", "writeOnly",
                   "contentEncoding", "contentMediaType"}
DRAFT2019_09 = DRAFT7 | {
    "$anchor", "$defs", "$recursiveRef", "$recursiveAnchor", "$vocabulary", "dependentRequired",
    "dependentSchemas", "maxContains", "minContains", "unevaluatedItems", "unevaluatedProperties",
    "contentSchema", "deprecated",
}
DRAFT2020_12 = (DRAFT2019_09 - {"$recursiveRef", "$recursiveAnchor"}) | {"$dynamicRef", "$dynamicAnchor", "prefixItems"}

# Draft 3 and earlier: obsolete, but known, so never "unknown".
LEGACY = frozenset({"divisibleBy", "disallow", "extends", "optional"})

# Extensions that tool definitions legitimately carry.
EXTENSIONS = frozenset({
    # OpenAPI 3.0 Schema Object (also Gemini `parameters`)
    "nullable", "example", "discriminator", "xml", "externalDocs",
    # Gemini
    "propertyOrdering",
    # VS Code / JSON language service
    "markdownDescription", "enumDescriptions", "markdownEnumDescriptions", "deprecationMessage",
    "errorMessage", "patternErrorMessage", "defaultSnippets", "doNotSuggest", "allowComments",
    "allowTrailingCommas",
    # generators (json-schema-to-typescript, Pydantic, zod-to-json-schema)
    "tsType", "tsEnumNames",
})

STANDARD_KEYWORDS = DRAFT4 | DRAFT6 | DRAFT7 | DRAFT2019_09 | DRAFT2020_12
KNOWN_KEYWORDS = STANDARD_KEYWORDS | LEGACY | EXTENSIONS


def is_known_keyword(key: str) -> bool:
    """A key some draft or a common extension defines (`x-*` vendor keys included)."""
    return key in KNOWN_KEYWORDS or key.startswith("x-")


# Gemini's `parameters` is a protobuf message: its JSON form also accepts the
# snake_case field names (`max_items`, `any_of`, `property_ordering`).
GEMINI_SNAKE_CASE = frozenset({
    "max_items", "min_items", "max_length", "min_length", "max_properties", "min_properties",
    "any_of", "property_ordering",
})

# --------------------------------------------------------------------------- value shapes

# JSON kinds: "object", "array", "string", "number" (integers included), "boolean", "null".
_SCHEMA = frozenset({"object", "boolean"})
_NUMBER = frozenset({"number"})
_STRING = frozenset({"string"})
_ARRAY = frozenset({"array"})
_OBJECT = frozenset({"object"})
_BOOLEAN = frozenset({"boolean"})

KEYWORD_VALUE_KINDS: dict[str, frozenset[str]] = {
    **{k: _SCHEMA for k in ("items", "additionalItems", "additionalProperties", "not", "if", "then", "else",
                            "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties",
                            "contentSchema")},
    **{k: _OBJECT for k in ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas",
                            "dependentRequired", "dependencies")},
    **{k: _ARRAY for k in ("allOf", "anyOf", "oneOf", "prefixItems", "enum", "examples", "required")},
    **{k: _NUMBER for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
                            "minLength", "maxLength", "minItems", "maxItems", "minProperties",
                            "maxProperties", "minContains", "maxContains")},
    **{k: _STRING for k in ("$ref", "$id", "$schema", "$anchor", "$comment", "title", "description", "format",
                            "pattern", "contentEncoding", "contentMediaType")},
    **{k: _BOOLEAN for k in ("uniqueItems", "readOnly", "writeOnly", "deprecated", "nullable")},
    "type": frozenset({"string", "array"}),
}
"""The kinds of JSON value each keyword takes (keywords absent here take anything)."""

NON_NEGATIVE_INTEGER_KEYWORDS = frozenset({
    "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties",
    "minContains", "maxContains",
})
NUMBER_KEYWORDS = frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"})

# How a keyword holds subschemas: one schema, a map name → schema, or a list of schemas.
SCHEMA_VALUED = frozenset({"items", "additionalItems", "additionalProperties", "not", "if", "then", "else",
                           "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties",
                           "contentSchema"})
SCHEMA_MAP = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas",
                        "dependencies"})
SCHEMA_LIST = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})


def json_kind(value: Any) -> str:
    """The JSON kind of a parsed value ("number" for ints and floats, never for bools)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    if isinstance(value, dict):
        return "object"
    return "unknown"


def json_type(value: Any) -> str:
    """The JSON Schema type name of a parsed value: like `json_kind`, but "integer" for ints."""
    kind = json_kind(value)
    return "integer" if kind == "number" and isinstance(value, int) else kind


def fits_keyword(keyword: str, value: Any) -> bool:
    kinds = KEYWORD_VALUE_KINDS.get(keyword)
    return kinds is None or json_kind(value) in kinds


# --------------------------------------------------------------------------- types

JSON_TYPES = ("string", "number", "integer", "boolean", "object", "array", "null")

# Type names from other languages whose meaning is certain: safe to rewrite.
# Keys are lower-case; lookup is case-insensitive.  "any" maps to None: drop `type`.
TYPE_ALIASES: dict[str, str | None] = {
    **{t: t for t in JSON_TYPES},
    "str": "string",
    "int": "integer", "long": "integer", "int32": "integer", "int64": "integer",
    "float": "number", "double": "number", "float32": "number", "float64": "number",
    "bool": "boolean",
    "dict": "object", "map": "object", "hashmap": "object",
    "list": "array", "tuple": "array", "arraylist": "array",
    "none": "null",
    "any": None,
}


def type_alias(name: str) -> tuple[bool, str | None]:
    """(known, json type) for a type name; known False when no safe mapping exists.

    A name wrapped in stray quotes (`"'string'"`) is read without them.
    """
    folded = name.strip().lower()
    if len(folded) >= 2 and folded[0] == folded[-1] and folded[0] in "'\"":
        folded = folded[1:-1].strip()
    if folded in TYPE_ALIASES:
        return True, TYPE_ALIASES[folded]
    return False, None


def resolved_types(type_value: Any) -> frozenset[str] | None:
    """The JSON types a `type` value means, reading safe aliases; None when unknown or absent.

    `any` (and anything that reads as "no constraint") gives None as well.
    """
    names = [type_value] if isinstance(type_value, str) else type_value
    if not isinstance(names, list) or not names:
        return None
    out: set[str] = set()
    for name in names:
        if not isinstance(name, str):
            return None
        known, json_type = type_alias(name)
        if not known or json_type is None:
            return None
        out.add(json_type)
    return frozenset(out)


def value_has_type(value: Any, json_type: str) -> bool:
    """Whether a JSON value is an instance of a JSON Schema type (1.0 is an integer; true is not)."""
    kind = json_kind(value)
    if json_type == "integer":
        return kind == "number" and (isinstance(value, int) or float(value).is_integer())
    return kind == json_type


def json_equal(a: Any, b: Any) -> bool:
    """JSON equality: 1 == 1.0, but true != 1 and key order does not matter."""
    ka, kb = json_kind(a), json_kind(b)
    if ka != kb:
        return False
    if ka == "array":
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if ka == "object":
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return a == b


def describe_value(value: Any, limit: int = 40) -> str:
    """A short phrase for a value in a message: "the string 'str'", "the number 5", "a list"."""
    kind = json_kind(value)
    if kind == "string":
        text = value if len(value) <= limit else value[: limit - 1] + "…"
        return f"the string '{text}'"
    if kind == "number":
        return f"the number {value}"
    if kind == "boolean":
        return "true" if value else "false"
    if kind == "null":
        return "null"
    if kind == "array":
        return "a list"
    if kind == "object":
        return "an object"
    return f"a {type(value).__name__}"


def show_value(value: Any, limit: int = 40) -> str:
    """A value as JSON, shortened for a message: 'abc' for strings, null, true, [1, 2]."""
    if isinstance(value, str):
        text = repr(value)
    else:
        try:
            text = json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError, RecursionError):
            text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
