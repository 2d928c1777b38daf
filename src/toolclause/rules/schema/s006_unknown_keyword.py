"""unknown-keyword (S006)

## What it does
Finds keys of a schema node that no JSON Schema draft (nor a common extension
such as OpenAPI's `nullable` or Gemini's `propertyOrdering`) defines, but that
are close to one that exists: `require`, `properites`, `enums`, `minimun`,
`additionalProperty`, `max_length`, `Description`.  It names the keyword meant.
Other unknown keys (vendor extensions such as `example_value`, `x-*` keys) are
left alone, and property names inside `properties` are never keywords.

The tool object's own keys are checked too: a misspelt or misplaced parameter
key (`paramters`, `inputschema`, `input_schema` in an MCP or OpenAI tool,
`inputSchema` in an OpenAI function) leaves the tool silently without
parameters, so the message says so and names the key the format reads.

A misspelt constraint (`requried`, `propertys`, `additonalProperties`,
`enums`, `minimun`) is an error: the schema silently accepts what it was
written to refuse.  A misspelt annotation (`Description`, `titel`) is a
warning: the text is lost, but no argument gets through that should not.

## Why is this bad?
Validators ignore keywords they do not know, so the misspelt constraint is
silently dropped: `require` makes every argument optional, `enums` lets any
string through, `minimun` allows any number.

## Example
```json
{"name": "set_temperature", "description": "Set the thermostat target temperature in degrees Celsius.",
 "inputSchema": {"type": "object",
                 "properties": {"celsius": {"type": "number", "minimun": 5, "maximum": 30},
                                "mode": {"type": "string", "enums": ["heat", "cool"]}},
                 "require": ["celsius"]}}
```

## Use instead
```json
{"name": "set_temperature", "description": "Set the thermostat target temperature in degrees Celsius.",
 "inputSchema": {"type": "object",
                 "properties": {"celsius": {"type": "number", "minimum": 5, "maximum": 30},
                                "mode": {"type": "string", "enum": ["heat", "cool"]}},
                 "required": ["celsius"]}}
```

## Fix safety
The keyword meant is a guess from spelling, and renaming it turns on a
constraint that was never enforced, so `--fix` does not apply it.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...model import Edit, Fix, Severity, ToolContract, escape_token
from ...schema.keywords import (
    GEMINI_SNAKE_CASE,
    KNOWN_KEYWORDS,
    STANDARD_KEYWORDS,
    fits_keyword,
    is_known_keyword,
)
from ...schema.walk import SchemaNode
from ...suggest import closest
from ..base import Finding, LintContext, Rule
from ._common import is_openapi_schema

# Suggest only standard keywords, and only for what reads as a slip of the keyboard: an
# unknown key is usually a deliberate extension (`required_if`, `contentType`), so a loose
# guess would be a false alarm.
_CANDIDATES = sorted(STANDARD_KEYWORDS | {"nullable", "example"})
_CUTOFF = 80.0
_guesses: dict[str, str | None] = {}


def _fold(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def is_misspelling(key: str, keyword: str) -> bool:
    """A typo, a case or separator slip, or the plural/singular of the keyword — not a longer
    word built on it (`required_if`, `ifThen`, `examplesList`, `multiple` for `multipleOf`)."""
    a, b = _fold(key), _fold(keyword)
    if a == b:
        return True
    if a + "s" == b or b + "s" == a:
        return True
    if a.endswith("y") and a[:-1] + "ies" == b or b.endswith("y") and b[:-1] + "ies" == a:
        return True
    shorter, longer = sorted((a, b), key=len)
    if (longer.startswith(shorter) or longer.endswith(shorter)) and len(longer) - len(shorter) >= 2:
        return False
    from rapidfuzz.distance import OSA  # asked only about keys closest() matched, which imported it already

    return OSA.distance(a, b) <= (1 if len(b) <= 6 else 2)


def intended_keyword(key: str) -> str | None:
    """The keyword an unknown key most likely misspells, or None (memoised: keys repeat a lot)."""
    if key not in _guesses:
        if len(_guesses) > 50_000:
            _guesses.clear()
        meant = closest(key, _CANDIDATES, cutoff=_CUTOFF) if len(key) >= 3 else None
        _guesses[key] = meant if meant is not None and is_misspelling(key, meant) else None
    return _guesses[key]


# The key each tool format reads its parameters from.
_PARAMETER_KEYS = {"mcp": "inputSchema", "vscode": "inputSchema", "anthropic": "input_schema",
                   "openai-chat": "parameters", "openai-responses": "parameters", "function": "parameters",
                   "bfcl": "parameters", "gemini": "parameters"}
_ALL_PARAMETER_KEYS = ("inputSchema", "input_schema", "parameters", "parametersJsonSchema", "arguments")
_TOOL_KEYS = frozenset(("name", "title", "description", "annotations", "_meta", "outputSchema", "output_schema",
                        "type", "function", "strict", "cache_control", "response", "responseJsonSchema", "required",
                        "examples", "errors", "version", "$id", "x-toolclause-ignore", "icons", "modelDescription",
                        "displayName", "userDescription", "tags") + _ALL_PARAMETER_KEYS)
_FOLDED = {key.lower().replace("_", ""): key for key in _ALL_PARAMETER_KEYS}


def _tool_object(tool: ToolContract) -> tuple[dict | None, str]:
    """The object that holds the tool's keys (inside OpenAI's {"type": "function", "function": …}), and its pointer."""
    raw = tool.raw
    if not isinstance(raw, dict):
        return None, ""
    inner = raw.get("function")
    if raw.get("type") == "function" and isinstance(inner, dict):
        return inner, "/function"
    return raw, ""


def misplaced_parameter_key(tool: ToolContract) -> tuple[str, str, str] | None:
    """(pointer, key written, key the format reads) for a parameter key the format never reads."""
    obj, base = _tool_object(tool)
    if obj is None:
        return None
    expected = _PARAMETER_KEYS.get(tool.origin.format)
    if expected is None or expected in obj:
        return None
    for key in obj:
        if not isinstance(key, str) or key == expected:
            continue
        if key in _ALL_PARAMETER_KEYS:
            return f"{base}/{escape_token(key)}", key, expected
        if key in _TOOL_KEYS or len(key) < 5:
            continue
        meant = _FOLDED.get(key.lower().replace("_", "")) or closest(key, _ALL_PARAMETER_KEYS, cutoff=80)
        if meant is not None:
            # `inputschema` meant `inputSchema`, whatever format the loader then guessed
            return f"{base}/{escape_token(key)}", key, meant if meant != "arguments" else expected
    return None


# Keywords that only describe: misspelt, the schema still checks what it checked (a warning).  Any other
# misspelt keyword drops a constraint without a word (`requried`, `additonalProperties`): an error.
ANNOTATIONS = frozenset({"description", "title", "default", "examples", "example", "$comment", "deprecated",
                         "readOnly", "writeOnly", "format", "contentMediaType", "contentEncoding", "$schema", "$id"})


class UnknownKeyword(Rule):
    code = "S006"
    name = "unknown-keyword"
    severity = Severity.ERROR
    all_nodes = True
    roles = frozenset({"input", "output"})

    def skips(self, keys: tuple, declared: object, kind: object, role: str) -> bool:
        # nodes whose keys are all known are most nodes: the engine then never calls check_node
        return KNOWN_KEYWORDS.issuperset(keys)

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        found = misplaced_parameter_key(tool)
        if found is None:
            return
        pointer, key, expected = found
        yield Finding(pointer, (
            f"the tool's parameters are under '{key}', a key the tool format does not read: as written the tool "
            f"takes no parameters at all; rename it to '{expected}'"),
            Fix(f"rename '{key}' to '{expected}'", safe=False))

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        schema = node.schema
        unknown = schema.keys() - KNOWN_KEYWORDS  # one C-level set operation for the common case
        if not unknown:
            return
        for key in [k for k in schema if k in unknown]:  # in document order
            if not isinstance(key, str) or is_known_keyword(key):
                continue
            meant = intended_keyword(key)
            if meant is None or meant in schema or not fits_keyword(meant, schema[key]):
                continue  # the real keyword is there too, or the value could not be meant for it
            if key in GEMINI_SNAKE_CASE and is_openapi_schema(tool, node.role):
                continue  # Gemini's protobuf JSON accepts snake_case field names
            pointer = f"{node.pointer}/{escape_token(key)}"
            if meant in ANNOTATIONS:
                message = (f"'{key}' is not a JSON Schema keyword, so validators and models ignore it; "
                           f"did you mean '{meant}'?")
                severity: Severity | None = Severity.WARNING  # a lost annotation: no argument gets through
            else:
                message = (f"'{key}' is not a JSON Schema keyword, so validators ignore it and the schema accepts "
                           f"what '{meant}' would refuse; did you mean '{meant}'?")
                severity = None  # a lost constraint: the schema silently accepts anything it was to refuse
            yield Finding(pointer, message, Fix(
                f"rename '{key}' to '{meant}'", safe=False,
                edits=(Edit("set", f"{node.pointer}/{escape_token(meant)}", schema[key]), Edit("remove", pointer))),
                severity)
