"""What each provider target accepts — the numbers of ../shared/provider-rules.md as data.

One place for these facts so that lint rules (N001, N005, P001–P007) and the
exporters agree.  Each entry cites the section of provider-rules.md it encodes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class NameRule:
    pattern: re.Pattern[str]
    max_length: int
    explain: str  # what the rule allows, in words, for messages


# §1.2, §2, §3, §4 — tool names
TOOL_NAME_RULES: dict[str, NameRule] = {
    # the intersection of OpenAI, Anthropic and Gemini; the default when no target is selected
    "default": NameRule(re.compile(r"[a-zA-Z0-9_-]{1,64}"), 64, "letters, digits, '_' and '-', 1 to 64 characters"),
    "openai": NameRule(re.compile(r"[a-zA-Z0-9_-]{1,64}"), 64, "letters, digits, '_' and '-', at most 64 characters"),
    "anthropic": NameRule(re.compile(r"[a-zA-Z0-9_-]{1,64}"), 64, "letters, digits, '_' and '-', 1 to 64 characters"),
    # SDK allows 128 and ':' since 2026; servers still reported 64 — lint at 64 with no colon for portability
    "gemini": NameRule(re.compile(r"[a-zA-Z_][a-zA-Z0-9_.-]{0,63}"), 64,
                       "a letter or '_' first, then letters, digits, '_', '.' or '-', at most 64 characters"),
    "mcp": NameRule(re.compile(r"[A-Za-z0-9_.-]{1,128}"), 128, "letters, digits, '_', '-' and '.', 1 to 128 characters"),
}
TOOL_NAME_RULES["openai-strict"] = TOOL_NAME_RULES["openai"]
TOOL_NAME_RULES["anthropic-strict"] = TOOL_NAME_RULES["anthropic"]

# §2 (Anthropic: top-level property keys), §3 (Gemini: parameter names)
PROPERTY_NAME_RULES: dict[str, NameRule] = {
    "default": NameRule(re.compile(r"[a-zA-Z0-9_.-]{1,64}"), 64, "letters, digits, '_', '.' and '-', 1 to 64 characters"),
    "anthropic": NameRule(re.compile(r"[a-zA-Z0-9_.-]{1,64}"), 64, "letters, digits, '_', '.' and '-', 1 to 64 characters"),
    "gemini": NameRule(re.compile(r"[a-zA-Z_][a-zA-Z0-9_]{0,63}"), 64,
                       "a letter or '_' first, then letters, digits and '_', at most 64 characters"),
}
PROPERTY_NAME_RULES["anthropic-strict"] = PROPERTY_NAME_RULES["anthropic"]

JSON_SCHEMA_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})


# --------------------------------------------------------------------------- OpenAI (§1)

# §1.2 — envelope limits
OPENAI_MAX_TOOLS = 128            # tools per request (`array_above_max_length`)
OPENAI_DESCRIPTION_MAX_CHARS = 1024  # observed 400 `string_above_max_length`
RECOMMENDED_MAX_TOOLS = 20        # "fewer than 20 functions at the start of a turn" (soft)

# §1.3 — `strict: true` (Structured Outputs subset)
OPENAI_STRICT_FORMATS = frozenset({"date-time", "time", "date", "duration", "email", "hostname",
                                   "ipv4", "ipv6", "uuid"})
# keyword → what to do instead (for messages)
OPENAI_STRICT_UNSUPPORTED_KEYWORDS: dict[str, str] = {
    "allOf": "merge the branches into this schema",
    "oneOf": "use anyOf",
    "not": "remove it and check the condition in the function",
    "if": "remove if/then/else and check the condition in the function",
    "then": "remove if/then/else and check the condition in the function",
    "else": "remove if/then/else and check the condition in the function",
    "dependentRequired": "remove it and check the dependency in the function",
    "dependentSchemas": "remove it and check the dependency in the function",
    "patternProperties": "list the keys in properties",
    "default": "remove it (strict mode sends every key; apply the default in the function when the value is null)",
}
OPENAI_STRICT_MAX_PROPERTIES = 5000        # object properties in one schema, total
OPENAI_STRICT_MAX_NESTING = 10             # nesting levels
OPENAI_STRICT_MAX_TOTAL_CHARS = 120_000    # property names + definition names + enum and const values
OPENAI_STRICT_MAX_ENUM_VALUES = 1000       # values in one enum
OPENAI_STRICT_LARGE_STRING_ENUM = 250      # a string enum with more values than this …
OPENAI_STRICT_LARGE_STRING_ENUM_CHARS = 15_000  # … may hold at most this many characters


# --------------------------------------------------------------------------- Anthropic (§2)

ANTHROPIC_STRICT_FORMATS = frozenset({"date-time", "time", "date", "duration", "email", "hostname", "uri",
                                      "ipv4", "ipv6", "uuid"})
ANTHROPIC_STRICT_UNSUPPORTED_KEYWORDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                                         "multipleOf", "minLength", "maxLength")
ANTHROPIC_STRICT_MIN_ITEMS = frozenset({0, 1})   # the only array limit strict mode takes
# summed over all strict tools of one request
ANTHROPIC_STRICT_MAX_TOOLS = 20
ANTHROPIC_STRICT_MAX_OPTIONAL_PARAMETERS = 24
ANTHROPIC_STRICT_MAX_UNION_PARAMETERS = 16


# --------------------------------------------------------------------------- Gemini (§3)

GEMINI_MAX_DECLARATIONS = 512
# `parametersJsonSchema`: the documented JSON Schema subset (what the exporter emits)
GEMINI_JSON_SCHEMA_KEYWORDS = frozenset({
    "$id", "$defs", "$ref", "$anchor", "type", "format", "title", "description", "enum", "items",
    "prefixItems", "minItems", "maxItems", "minimum", "maximum", "anyOf", "oneOf", "properties",
    "additionalProperties", "required", "propertyOrdering",
})
# `parameters`: the fields of the OpenAPI-subset `Schema` message (camelCase on the wire,
# snake_case in the SDK); any other key is "Unknown name … Cannot find field"
GEMINI_SCHEMA_FIELDS = frozenset({
    "type", "format", "title", "description", "nullable", "enum", "items", "minItems", "maxItems",
    "minimum", "maximum", "minLength", "maxLength", "pattern", "properties", "required",
    "minProperties", "maxProperties", "propertyOrdering", "anyOf", "default", "example",
    "min_items", "max_items", "min_length", "max_length", "min_properties", "max_properties",
    "property_ordering", "any_of",
})
# `parameters` keys reported by name in real failures (ax-llm/ax#293, openswarm-ai/openswarm#24)
GEMINI_SCHEMA_REJECTED_KEYWORDS = frozenset({"$schema", "const", "exclusiveMinimum", "exclusiveMaximum",
                                             "propertyNames", "multipleOf", "additionalProperties",
                                             "oneOf", "allOf", "not", "uniqueItems"})


# --------------------------------------------------------------------------- MCP (§4)

MCP_SCHEMA_VERSION = "2025-11-25"
# `_meta` key names: optional prefix of dot-separated labels + "/", then a name
_META_LABEL = r"[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
MCP_META_KEY = re.compile(rf"(?:{_META_LABEL}(?:\.{_META_LABEL})*/)?(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?")
# keys the OpenAI Apps SDK (§5) requires although their name part holds a '/'
APPS_SDK_META_KEYS = frozenset({"openai/toolInvocation/invoking", "openai/toolInvocation/invoked"})


# --------------------------------------------------------------------------- export (strict subsets kept)

# §1.3: the keywords a strict OpenAI schema may hold (everything else is removed by
# `toolclause export --strict`, its meaning moved into the description)
OPENAI_STRICT_KEYWORDS = frozenset({
    "type", "properties", "required", "additionalProperties", "items", "anyOf", "enum", "const", "description",
    "title", "$defs", "definitions", "$ref", "pattern", "format", "multipleOf", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems",
})
# §2: the keywords Anthropic's strict grammar takes
ANTHROPIC_STRICT_KEYWORDS = frozenset({
    "type", "properties", "required", "additionalProperties", "items", "anyOf", "allOf", "enum", "const",
    "description", "title", "$defs", "definitions", "$ref", "pattern", "format", "minItems", "default",
})
