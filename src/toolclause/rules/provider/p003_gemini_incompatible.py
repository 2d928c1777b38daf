"""gemini-incompatible (P003)

## What it does
With the `gemini` target, reports what a Gemini function declaration does not
take.  A tool is checked as it will be sent:

- by default through `parametersJsonSchema` (what toolclause exports): JSON
  Schema keywords outside the subset Gemini documents (`$id $defs $ref $anchor
  type format title description enum items prefixItems minItems maxItems
  minimum maximum anyOf oneOf properties additionalProperties required
  propertyOrdering`; annotations such as `default` and `examples` are not
  reported), and a `$ref` with sibling keys other than `$`-keywords;
- when the tool is already a Gemini declaration with `parameters` (the
  OpenAPI-subset `Schema`): every key that message lacks (`$schema`, `const`,
  `exclusiveMinimum`, `additionalProperties`, `oneOf`, …), type arrays, and
  enums with non-string values;
- more than 512 declarations in one list.

## Why is this bad?
Gemini rejects unknown `Schema` fields with "Invalid JSON payload received.
Unknown name … Cannot find field", rejects more than 512 declarations, and
does not promise to honour JSON Schema keywords outside its subset, so a
constraint written there may be rejected or silently not enforced.

## Example
```json
{"name": "set_volume", "description": "Set the speaker volume of one room, as a percentage.",
 "inputSchema": {"type": "object",
                 "properties": {"room": {"type": "string", "description": "Room name"},
                                "level": {"type": "integer", "exclusiveMaximum": 101,
                                          "description": "Volume"}},
                 "required": ["room", "level"]}}
```

## Use instead
```json
{"name": "set_volume", "description": "Set the speaker volume of one room, as a percentage.",
 "inputSchema": {"type": "object",
                 "properties": {"room": {"type": "string", "description": "Room name"},
                                "level": {"type": "integer", "minimum": 0, "maximum": 100,
                                          "description": "Volume"}},
                 "required": ["room", "level"]}}
```

## Fix safety
Not applied by `--fix`: replacing a keyword (`exclusiveMaximum: 101` by
`maximum: 100`, `const` by a one-value `enum`) is usually possible but needs
the author's eye; a type array has to become `nullable: true` or `anyOf`.  A
keyword `toolclause export --target gemini` states in the description of the
copy it sends (`pattern`, `minLength` …) is info on a contract or an MCP tool,
and an error on a Gemini declaration, which is sent as it is.

## References
- Google, Gemini API function calling (FunctionDeclaration, Schema):
  https://ai.google.dev/gemini-api/docs/function-calling
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from ...model import Severity, ToolContract
from ...schema.walk import SchemaNode
from ...targets import GEMINI_JSON_SCHEMA_KEYWORDS, GEMINI_MAX_DECLARATIONS, GEMINI_SCHEMA_FIELDS
from ..base import Finding, LintContext, Rule
from ..tightness._shapes import ancestor_via, property_label

# JSON Schema keywords that constrain (or build) a schema; outside Gemini's subset
# they are reported.  Pure annotations (default, examples, $comment, deprecated …)
# change nothing a model must follow and are left alone.
_CONSTRAINING_KEYWORDS = frozenset({
    "const", "pattern", "minLength", "maxLength", "multipleOf", "exclusiveMinimum", "exclusiveMaximum",
    "uniqueItems", "contains", "minContains", "maxContains", "minProperties", "maxProperties",
    "patternProperties", "propertyNames", "dependentRequired", "dependentSchemas", "dependencies", "allOf",
    "not", "if", "then", "else", "unevaluatedProperties", "unevaluatedItems", "additionalItems",
    "contentEncoding", "contentMediaType", "contentSchema", "$dynamicRef", "$dynamicAnchor",
    "$recursiveRef", "$recursiveAnchor",
})
_UNSUPPORTED_JSON = _CONSTRAINING_KEYWORDS - GEMINI_JSON_SCHEMA_KEYWORDS
# `$defs`/`$ref` are inlined by the SDK before a `parameters` request is sent
_INLINED_BY_SDK = frozenset({"$ref", "$defs", "definitions", "ref", "defs"})
_SCHEMA_SUBSCHEMA_KEYS = frozenset({"items", "properties", "anyOf", "any_of"})
# what `toolclause export --target gemini` does with such a keyword (the gate still enforces it in the contract)
_EXPORT_STATES_IT = ("keep it in this contract if the Toolbox gate should enforce it: `toolclause export --target "
                     "gemini` states it in the description of the copy it sends; a definition sent to Gemini as it "
                     "is must state it in the description and check it in the function")
_FALLBACK_HINT = {
    "const": "use a one-value \"enum\"",
    "exclusiveMinimum": "use \"minimum\"",
    "exclusiveMaximum": "use \"maximum\"",
    "allOf": "merge the branches into this schema",
    "oneOf": "use \"anyOf\"",
    "additionalProperties": "remove it (the Gemini Developer API accepts it only in Enterprise Agent Platform "
                            "mode) or send the tool as parametersJsonSchema",
}


def uses_gemini_parameters(tool: ToolContract) -> bool:
    """The tool is a Gemini declaration whose schema is under `parameters` (the OpenAPI subset)."""
    if tool.origin.format != "gemini":
        return False
    return tool.origin.pointers.entries.get("/inputSchema", "").rsplit("/", 1)[-1] == "parameters"


class GeminiIncompatible(Rule):
    code = "P003"
    name = "gemini-incompatible"
    severity = Severity.ERROR
    targets = frozenset({"gemini"})
    all_nodes = True

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        if uses_gemini_parameters(tool):
            yield from self._openapi_subset(node, tool)
        else:
            yield from self._json_subset(node, tool.origin.format != "gemini")

    def _json_subset(self, node: SchemaNode, converted: bool) -> Iterable[Finding]:
        schema = node.schema
        if ancestor_via(node, _UNSUPPORTED_JSON):
            return
        label = property_label(node)
        for keyword in schema:
            if keyword in _UNSUPPORTED_JSON:
                hint = _FALLBACK_HINT.get(keyword, _EXPORT_STATES_IT)
                # a tool not written as a Gemini declaration reaches Gemini as export's copy, which states the
                # keyword in the description: a note about the copy, not an error of the contract
                noted = converted and hint is _EXPORT_STATES_IT
                yield Finding(f"{node.pointer}/{keyword}",
                              f"'{keyword}' ({label}) is outside the JSON Schema subset Gemini documents for "
                              f"parametersJsonSchema, so Gemini may reject it or not enforce it; {hint}",
                              severity=Severity.INFO if noted else None)
        if "$ref" in schema:
            siblings = [k for k in schema if not k.startswith("$")]
            if siblings:
                yield Finding(node.pointer, f"Gemini takes only '$' keywords beside '$ref'; {label} also has "
                                            f"{', '.join(repr(s) for s in siblings)} — move them into the "
                                            f"referenced definition or drop them")

    def _openapi_subset(self, node: SchemaNode, tool: ToolContract) -> Iterable[Finding]:
        if any(_holder_outside_schema_fields(n) for n in _lineage(node)):
            return
        schema = node.schema
        label = property_label(node)
        for keyword in schema:
            if keyword in GEMINI_SCHEMA_FIELDS or keyword in _INLINED_BY_SDK:
                continue
            hint = _FALLBACK_HINT.get(keyword, "remove it")
            yield Finding(f"{node.pointer}/{keyword}",
                          f"Gemini's `parameters` Schema has no field '{keyword}' ({label}); the request fails "
                          f"with \"Unknown name \\\"{keyword}\\\" … Cannot find field\" — {hint}, or send the "
                          f"schema as parametersJsonSchema")
        types = schema.get("type")
        if isinstance(types, list):
            non_null = [t for t in types if t != "null"]
            hint = (f"use \"type\": {json.dumps(non_null[0])} with \"nullable\": true" if len(non_null) == 1
                    else "use anyOf with one type per branch")
            yield Finding(node.pointer + "/type", f"Gemini's `parameters` Schema takes one type, not a list "
                                                  f"({label} has {json.dumps(types)}); {hint}")
        enum = schema.get("enum")
        if isinstance(enum, list) and any(not isinstance(v, str) for v in enum):
            yield Finding(node.pointer + "/enum", f"Gemini's `parameters` Schema takes string enum values only; "
                                                  f"{label} has {json.dumps(enum, default=str)[:80]} — write them "
                                                  f"as strings (integer enums use \"format\": \"enum\")")

    def check_tools(self, tools: Sequence[ToolContract], ctx: LintContext) -> Iterable[tuple[ToolContract, Finding]]:
        if len(tools) > GEMINI_MAX_DECLARATIONS:
            yield tools[GEMINI_MAX_DECLARATIONS], Finding(
                "", f"this list has {len(tools)} function declarations; Gemini accepts at most "
                    f"{GEMINI_MAX_DECLARATIONS} in one request (\"At most 512 function declarations can be "
                    f"specified\"; this is number {GEMINI_MAX_DECLARATIONS + 1})")


def _lineage(node: SchemaNode) -> Iterable[SchemaNode]:
    current: SchemaNode | None = node
    while current is not None and current.parent is not None:
        yield current
        current = current.parent


def _holder_outside_schema_fields(node: SchemaNode) -> bool:
    """Held by a key the `Schema` message lacks (already reported on the parent)."""
    parent = node.parent
    assert parent is not None
    keyword = node.pointer[len(parent.pointer) + 1:].split("/", 1)[0]
    return keyword not in _SCHEMA_SUBSCHEMA_KEYS and keyword not in _INLINED_BY_SDK
