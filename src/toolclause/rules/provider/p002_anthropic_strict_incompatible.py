"""anthropic-strict-incompatible (P002)

## What it does
With the `anthropic-strict` target, reports what Anthropic's strict tool use
(`"strict": true`) rejects, each reason as its own finding (an Anthropic tool
whose own definition says `"strict": true` is checked whatever the targets):

- `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`,
  `minLength`, `maxLength`;
- `additionalProperties` set to anything but `false`;
- `maxItems`, and `minItems` other than 0 or 1;
- an `enum` holding objects or arrays;
- `allOf` combined with `$ref`;
- a `format` other than date-time, time, date, duration, email, hostname, uri,
  ipv4, ipv6 and uuid;
- a `pattern` with backreferences, lookaround or `\\b`/`\\B`;
- over one request's limits, summed over every strict tool in the list: 20
  strict tools, 24 optional properties, 16 properties with a union type
  (`anyOf` or a type array).

Recursive schemas and external `$ref`s, which strict tool use rejects too, are
reported once, by S005 (unresolvable-ref), which resolves references fully.

With the `anthropic` target as well as `anthropic-strict`, it reports `oneOf`,
`anyOf` or `allOf` at the root of the input schema, which Anthropic rejects in
any mode.  A tool whose definition says `"strict": false` is not counted as
strict.

## Why is this bad?
The request fails with a 400 ("input_schema does not support oneOf, allOf, or
anyOf at the top level", "Schema is too complex for compilation").

A bound (`minimum`, `maxLength`, `maxItems` …) is still worth keeping in the
contract when the tool is exported: the `Toolbox` gate enforces it, and
`toolclause export --target anthropic --strict` writes it into the description
of the copy it sends. Its message says so; only a definition sent to Anthropic
as it is must drop it.

## Example
```json
{"name": "list_orders", "description": "List a customer's recent orders, newest first.",
 "inputSchema": {"type": "object",
                 "properties": {"customer_id": {"type": "string", "description": "Customer id"},
                                "limit": {"type": "integer", "minimum": 1, "maximum": 50,
                                          "description": "How many orders"}},
                 "required": ["customer_id", "limit"], "additionalProperties": false}}
```

## Use instead
```json
{"name": "list_orders", "description": "List a customer's recent orders, newest first.",
 "inputSchema": {"type": "object",
                 "properties": {"customer_id": {"type": "string", "description": "Customer id"},
                                "limit": {"type": "integer", "description": "How many orders, 1 to 50"}},
                 "required": ["customer_id", "limit"], "additionalProperties": false}}
```

## Fix safety
Not applied by `--fix`: each change moves a check out of the schema, so the
function has to make it instead (`toolclause export --strict` writes the
bounds into the description of the exported copy).  So an unsupported bound on
a contract or an MCP tool, which Anthropic receives only as such a copy, is
info; on a tool written in Anthropic's own shape (`input_schema`), sent as it
is, it is an error.

## References
- Anthropic, Strict tool use:
  https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use
- Anthropic, Structured outputs (the grammar strict tool use shares, its limits):
  https://platform.claude.com/docs/en/build-with-claude/structured-outputs
- Anthropic, Define tools (input_schema):
  https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from ...model import Edit, Fix, Severity, ToolContract
from ...schema.regex_features import unsupported_regex_features
from ...schema.walk import NodeKind, SchemaNode, walk
from ...targets import (
    ANTHROPIC_STRICT_FORMATS,
    ANTHROPIC_STRICT_MAX_OPTIONAL_PARAMETERS,
    ANTHROPIC_STRICT_MAX_TOOLS,
    ANTHROPIC_STRICT_MAX_UNION_PARAMETERS,
    ANTHROPIC_STRICT_MIN_ITEMS,
    ANTHROPIC_STRICT_UNSUPPORTED_KEYWORDS,
)
from ..base import Finding, LintContext, Rule
from ..tightness._shapes import COMPOSITION, property_label

STRICT = "anthropic-strict"


def is_strict_candidate(tool: ToolContract) -> bool:
    """Counted as strict unless the definition itself says "strict": false."""
    raw = tool.raw
    if isinstance(raw, dict):
        inner = wrapped if isinstance(wrapped := raw.get("function"), dict) else raw
        return inner.get("strict") is not False
    return True


def _is_union(schema: dict[str, Any]) -> bool:
    return "anyOf" in schema or (isinstance(schema.get("type"), list) and len(schema["type"]) > 1)


# A bound the gate enforces stays in the contract: the strict export moves it into the description of the copy
# it sends, so removing it here (what the provider's own error suggests) would only stop the gate checking it.
_EXPORT_STATES_IT = ("keep it in this contract (the Toolbox gate enforces it): `toolclause export --target anthropic "
                     "--strict` states it in the description of the copy it sends; only a definition sent to "
                     "Anthropic as it is must drop it and check the bound in the function")

class AnthropicStrictIncompatible(Rule):
    code = "P002"
    name = "anthropic-strict-incompatible"
    severity = Severity.ERROR
    targets = frozenset({STRICT, "anthropic"})
    all_nodes = True

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        schema = node.schema
        if node.is_root:
            found = [k for k in COMPOSITION if k in schema]
            if found:
                yield Finding(f"{node.pointer}/{found[0]}",
                              f"Anthropic rejects {', '.join(found)} at the top level of input_schema (in any "
                              f"mode); make the root one object and move the alternatives into a property")
        if STRICT not in ctx.targets:
            return
        label = property_label(node)
        # a tool not written in Anthropic's own shape reaches Anthropic as export's copy, which carries the bound in
        # its description: a note about that copy; a definition sent as it is must drop the keyword (an error)
        copied = tool.origin.format != "anthropic"
        for keyword in ANTHROPIC_STRICT_UNSUPPORTED_KEYWORDS:
            if keyword in schema:
                yield Finding(f"{node.pointer}/{keyword}",
                              f"strict tool use does not support '{keyword}' ({label}); {_EXPORT_STATES_IT}",
                              Fix("export with `toolclause export --target anthropic --strict` (it states the bound "
                                  "in the description of the copy it sends)", safe=False),
                              severity=Severity.INFO if copied else None)
        for finding in self._objects_and_arrays(node, schema, label):
            # 'maxItems', too, is one export states in the copy's description
            yield (Finding(finding.pointer, finding.message, finding.fix, severity=Severity.INFO)
                   if copied and _EXPORT_STATES_IT in finding.message else finding)
        yield from self._strings(node, schema, label)
        yield from self._references(node, schema, label)

    def _objects_and_arrays(self, node: SchemaNode, schema: dict[str, Any], label: str) -> Iterable[Finding]:
        if "additionalProperties" in schema and schema["additionalProperties"] is not False:
            yield Finding(node.pointer + "/additionalProperties",
                          f"strict tool use needs \"additionalProperties\": false; {label} has "
                          f"{json.dumps(schema['additionalProperties'])[:60]}",
                          Fix("set \"additionalProperties\": false", safe=False,
                              edits=(Edit("set", node.pointer + "/additionalProperties", False),)))
        if "maxItems" in schema:
            yield Finding(node.pointer + "/maxItems", f"strict tool use does not support 'maxItems' ({label}); "
                                                      f"{_EXPORT_STATES_IT}")
        min_items = schema.get("minItems")
        is_number = isinstance(min_items, (int, float)) and not isinstance(min_items, bool)
        if is_number and min_items not in ANTHROPIC_STRICT_MIN_ITEMS:
            yield Finding(node.pointer + "/minItems", f"strict tool use takes minItems 0 or 1 only; {label} has "
                                                      f"{min_items:g}: use 1 and check the rest in the function")
        enum = schema.get("enum")
        if isinstance(enum, list) and any(isinstance(v, (dict, list)) for v in enum):
            yield Finding(node.pointer + "/enum", f"strict tool use takes enums of strings, numbers, booleans and "
                                                  f"null only; {label} lists objects or arrays")

    def _strings(self, node: SchemaNode, schema: dict[str, Any], label: str) -> Iterable[Finding]:
        fmt = schema.get("format")
        if isinstance(fmt, str) and fmt not in ANTHROPIC_STRICT_FORMATS:
            yield Finding(node.pointer + "/format", f"strict tool use does not support format '{fmt}' ({label}); "
                                                    f"supported: {', '.join(sorted(ANTHROPIC_STRICT_FORMATS))}")
        pattern = schema.get("pattern")
        if isinstance(pattern, str):
            features = unsupported_regex_features(pattern)
            if features:
                yield Finding(node.pointer + "/pattern", f"strict tool use cannot compile the pattern of {label}: "
                                                         f"{', '.join(features)} are not supported; rewrite it "
                                                         f"without them")

    def _references(self, node: SchemaNode, schema: dict[str, Any], label: str) -> Iterable[Finding]:
        if "allOf" in schema:
            branches = schema["allOf"] if isinstance(schema["allOf"], list) else []
            if "$ref" in schema or any(isinstance(b, dict) and "$ref" in b for b in branches):
                yield Finding(node.pointer + "/allOf", f"strict tool use does not support allOf together with "
                                                       f"$ref ({label}); inline the referenced schema")
        # recursion and external references: S005 reports them for this target

    # ------------------------------------------------------------------ per request

    def check_tools(self, tools: Sequence[ToolContract], ctx: LintContext) -> Iterable[tuple[ToolContract, Finding]]:
        if STRICT not in ctx.targets:
            return
        strict_tools = [t for t in tools if is_strict_candidate(t)]
        if len(strict_tools) > ANTHROPIC_STRICT_MAX_TOOLS:
            over = strict_tools[ANTHROPIC_STRICT_MAX_TOOLS]
            yield over, Finding("", f"this list has {len(strict_tools)} strict tools; Anthropic accepts at most "
                                    f"{ANTHROPIC_STRICT_MAX_TOOLS} strict tools in one request (this is number "
                                    f"{ANTHROPIC_STRICT_MAX_TOOLS + 1}) — send fewer, or drop strict on some")
        optional = unions = 0
        optional_seen = union_seen = None
        for tool in strict_tools:
            nodes, _ = walk(tool.input_schema, "/inputSchema")
            for node in nodes:
                if node.kind is not NodeKind.PROPERTY:
                    continue
                if not node.required:
                    optional += 1
                    if optional == ANTHROPIC_STRICT_MAX_OPTIONAL_PARAMETERS + 1:
                        optional_seen = (tool, node)
                if _is_union(node.schema):
                    unions += 1
                    if unions == ANTHROPIC_STRICT_MAX_UNION_PARAMETERS + 1:
                        union_seen = (tool, node)
        if optional_seen:
            tool, node = optional_seen
            yield tool, Finding(node.pointer, f"the strict tools of this list have {optional} optional properties "
                                              f"in all ('{node.key}' is number "
                                              f"{ANTHROPIC_STRICT_MAX_OPTIONAL_PARAMETERS + 1}); Anthropic allows "
                                              f"{ANTHROPIC_STRICT_MAX_OPTIONAL_PARAMETERS} across all strict tools of "
                                              f"one request — make some required, or drop strict on some tools")
        if union_seen:
            tool, node = union_seen
            yield tool, Finding(node.pointer, f"the strict tools of this list have {unions} properties with a union "
                                              f"type (anyOf or a type array; '{node.key}' is number "
                                              f"{ANTHROPIC_STRICT_MAX_UNION_PARAMETERS + 1}); Anthropic allows "
                                              f"{ANTHROPIC_STRICT_MAX_UNION_PARAMETERS} across all strict tools of "
                                              f"one request")
