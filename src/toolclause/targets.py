"""The targets: what each provider or protocol accepts, and the one table of targets.

`LINT_TARGETS` is every `toolclause lint --target` (its tool and property name
rules, and the rules that run only for it); `EXPORT_TARGETS` every `toolclause
export --target` (its exporter module, whether `--strict` projects anything,
and the lint target its output must pass).  The command line's choices, the
configuration's `targets`, the exporters' registry and the name rules are all
read from these two tables, so a new target is one entry here (and, for an
export target, its module).  Below them, the providers' limits as data, so
that lint rules (N001, N005, P001–P007) and the exporters agree.  Sources are
the providers' public documentation:

    OpenAI     https://developers.openai.com/api/docs/guides/function-calling
               https://developers.openai.com/api/docs/guides/structured-outputs
    Anthropic  https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools
               https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use
               https://platform.claude.com/docs/en/build-with-claude/structured-outputs
    Gemini     https://ai.google.dev/gemini-api/docs/function-calling (google-genai `FunctionDeclaration`)
    MCP        https://modelcontextprotocol.io/specification/2025-11-25/server/tools
    Apps SDK   https://developers.openai.com/apps-sdk/reference
    A2A        https://a2a-protocol.org/latest/specification/
"""

from __future__ import annotations

from dataclasses import dataclass

from . import _lazy_re as re


@dataclass(frozen=True)
class NameRule:
    pattern: re.Pattern[str]
    max_length: int
    explain: str  # what the rule allows, in words, for messages


# --------------------------------------------------------------------------- names

# tool names; targets that share one rule share one finding, so each rule is one object
PORTABLE_TOOL_NAMES = NameRule(re.compile(r"[a-zA-Z0-9_-]{1,64}"), 64,  # what OpenAI, Anthropic and Gemini all take
                               "letters, digits, '_' and '-', 1 to 64 characters")
OPENAI_TOOL_NAMES = NameRule(re.compile(r"[a-zA-Z0-9_-]{1,64}"), 64,
                             "letters, digits, '_' and '-', at most 64 characters")
ANTHROPIC_TOOL_NAMES = NameRule(re.compile(r"[a-zA-Z0-9_-]{1,64}"), 64,
                                "letters, digits, '_' and '-', 1 to 64 characters")
# the SDK allows 128 and ':' since 2026; servers still reported 64 — lint at 64 with no colon for portability
GEMINI_TOOL_NAMES = NameRule(re.compile(r"[a-zA-Z_][a-zA-Z0-9_.-]{0,63}"), 64,
                             "a letter or '_' first, then letters, digits, '_', '.' or '-', at most 64 characters")
MCP_TOOL_NAMES = NameRule(re.compile(r"[A-Za-z0-9_.-]{1,128}"), 128,
                          "letters, digits, '_', '-' and '.', 1 to 128 characters")

# property names (Anthropic: top-level property keys; Gemini: parameter names at every level)
PORTABLE_PROPERTY_NAMES = NameRule(re.compile(r"[a-zA-Z0-9_.-]{1,64}"), 64,
                                   "letters, digits, '_', '.' and '-', 1 to 64 characters")
ANTHROPIC_PROPERTY_NAMES = NameRule(re.compile(r"[a-zA-Z0-9_.-]{1,64}"), 64,
                                    "letters, digits, '_', '.' and '-', 1 to 64 characters")
GEMINI_PROPERTY_NAMES = NameRule(re.compile(r"[a-zA-Z_][a-zA-Z0-9_]{0,63}"), 64,
                                 "a letter or '_' first, then letters, digits and '_', at most 64 characters")


# --------------------------------------------------------------------------- the table

@dataclass(frozen=True)
class LintTarget:
    """A provider or protocol that `toolclause lint --target` checks tools against."""

    name: str
    tool_names: NameRule                      # N001
    property_names: NameRule | None = None    # N005 (None: the target sets no rule for property names)
    rules: tuple[str, ...] = ()               # the rules that run only when this target is selected


@dataclass(frozen=True)
class ExportTarget:
    """A shape that `toolclause export --target` writes."""

    name: str
    exporter: str                       # the module under toolclause.exporting whose export_tools() writes it
    strict: bool = False                # whether --strict projects the schemas into a strict subset
    lint_as: str | None = None          # the lint target its output must pass…
    strict_lint_as: str | None = None   # …and with --strict
    reads: str = "tools"                # "tools", or "schemas" (JSON Schemas, named by file or title)


LINT_TARGETS: dict[str, LintTarget] = {t.name: t for t in (
    LintTarget("openai", OPENAI_TOOL_NAMES, rules=("P001",)),
    LintTarget("openai-strict", OPENAI_TOOL_NAMES, rules=("P001",)),
    LintTarget("anthropic", ANTHROPIC_TOOL_NAMES, ANTHROPIC_PROPERTY_NAMES, rules=("P002",)),
    LintTarget("anthropic-strict", ANTHROPIC_TOOL_NAMES, ANTHROPIC_PROPERTY_NAMES, rules=("P002",)),
    LintTarget("gemini", GEMINI_TOOL_NAMES, GEMINI_PROPERTY_NAMES, rules=("P003",)),
    LintTarget("mcp", MCP_TOOL_NAMES, rules=("P007",)),
)}
# a tool whose own definition says `"strict": true` is checked against its provider's strict mode
# whatever targets a run selects: its own declaration is its target (by the format it is written in)
DECLARED_STRICT_TARGETS: dict[str, str] = {"openai-chat": "openai-strict", "openai-responses": "openai-strict",
                                           "function": "openai-strict", "anthropic": "anthropic-strict"}
# names that stand for several lint targets
LINT_ALIASES: dict[str, tuple[str, ...]] = {"all": tuple(LINT_TARGETS)}

EXPORT_TARGETS: dict[str, ExportTarget] = {t.name: t for t in (
    ExportTarget("openai-chat", "openai_chat", strict=True, lint_as="openai", strict_lint_as="openai-strict"),
    ExportTarget("openai-responses", "openai_responses", strict=True, lint_as="openai",
                 strict_lint_as="openai-strict"),
    ExportTarget("anthropic", "anthropic", strict=True, lint_as="anthropic", strict_lint_as="anthropic-strict"),
    ExportTarget("gemini", "gemini", lint_as="gemini", strict_lint_as="gemini"),
    ExportTarget("mcp", "mcp", lint_as="mcp", strict_lint_as="mcp"),
    ExportTarget("structured-output", "structured_output", strict=True, reads="schemas"),
    ExportTarget("a2a", "a2a"),
)}


def other_command_target(name: str, command: str) -> str | None:
    """What to write instead when a name of the other command's targets is given (lint's `openai-strict`
    to export, export's `openai-chat` to lint): they name providers differently, and strictness is a
    lint target but an export flag."""
    if command == "lint" and name in EXPORT_TARGETS:
        target = EXPORT_TARGETS[name]
        checks = [t for t in (target.lint_as, target.strict_lint_as) if t]
        if not checks:
            return None
        shown = " or ".join(dict.fromkeys(checks))
        return f"'{name}' is an export target; lint checks what it sends with --target {shown}"
    if command == "export" and name in LINT_TARGETS:
        exports = [n for n, t in EXPORT_TARGETS.items() if name in (t.lint_as, t.strict_lint_as)]
        strict = " --strict" if name.endswith("-strict") else ""
        return (f"'{name}' is a lint target; export writes it with "
                + " or ".join(f"--target {n}{strict}" for n in exports)) if exports else None
    return None


# the name rules by lint target ("default" when none is selected), as N001, N005 and the exporters look them up
TOOL_NAME_RULES: dict[str, NameRule] = {"default": PORTABLE_TOOL_NAMES,
                                        **{t.name: t.tool_names for t in LINT_TARGETS.values()}}
PROPERTY_NAME_RULES: dict[str, NameRule] = {
    "default": PORTABLE_PROPERTY_NAMES,
    **{t.name: t.property_names for t in LINT_TARGETS.values() if t.property_names is not None}}

JSON_SCHEMA_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})


# --------------------------------------------------------------------------- OpenAI

# the request envelope
OPENAI_MAX_TOOLS = 128            # tools per request (`array_above_max_length`)
OPENAI_DESCRIPTION_MAX_CHARS = 1024  # observed 400 `string_above_max_length`
RECOMMENDED_MAX_TOOLS = 20        # "fewer than 20 functions at the start of a turn" (soft)

# `strict: true` (the Structured Outputs subset)
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


# --------------------------------------------------------------------------- Anthropic

ANTHROPIC_STRICT_FORMATS = frozenset({"date-time", "time", "date", "duration", "email", "hostname", "uri",
                                      "ipv4", "ipv6", "uuid"})
ANTHROPIC_STRICT_UNSUPPORTED_KEYWORDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                                         "multipleOf", "minLength", "maxLength")
ANTHROPIC_STRICT_MIN_ITEMS = frozenset({0, 1})   # the only array limit strict mode takes
# summed over all strict tools of one request
ANTHROPIC_STRICT_MAX_TOOLS = 20
ANTHROPIC_STRICT_MAX_OPTIONAL_PARAMETERS = 24
ANTHROPIC_STRICT_MAX_UNION_PARAMETERS = 16


# --------------------------------------------------------------------------- Gemini

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


# --------------------------------------------------------------------------- MCP

MCP_SCHEMA_VERSION = "2025-11-25"
# `_meta` key names: optional prefix of dot-separated labels + "/", then a name
_META_LABEL = r"[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
_META_NAME = r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?"
MCP_META_KEY = re.compile(rf"(?:{_META_LABEL}(?:\.{_META_LABEL})*/)?(?:{_META_NAME})?")
# keys the OpenAI Apps SDK requires although their name part holds a '/'
APPS_SDK_META_KEYS = frozenset({"openai/toolInvocation/invoking", "openai/toolInvocation/invoked"})


# --------------------------------------------------------------------------- export (strict subsets kept)

# the keywords a strict OpenAI schema may hold (everything else is removed by
# `toolclause export --strict`, its meaning moved into the description)
OPENAI_STRICT_KEYWORDS = frozenset({
    "type", "properties", "required", "additionalProperties", "items", "anyOf", "enum", "const", "description",
    "title", "$defs", "definitions", "$ref", "pattern", "format", "multipleOf", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems",
})
# the keywords Anthropic's strict grammar takes
ANTHROPIC_STRICT_KEYWORDS = frozenset({
    "type", "properties", "required", "additionalProperties", "items", "anyOf", "allOf", "enum", "const",
    "description", "title", "$defs", "definitions", "$ref", "pattern", "format", "minItems", "default",
})
