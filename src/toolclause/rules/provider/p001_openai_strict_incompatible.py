"""openai-strict-incompatible (P001)

## What it does
With the `openai-strict` target, reports every part of the input schema that
OpenAI's strict mode (`"strict": true`, Structured Outputs) rejects, each
reason as its own finding with the exact change:

- properties missing from `required` (strict mode needs every key there; an
  optional one becomes required and nullable: `["string", "null"]`): one
  finding per tool naming them all, as `toolclause export --strict` makes
  this change mechanically;
- an array without `items`;
- an object without `"additionalProperties": false`, or without `properties`;
- `allOf`, `oneOf`, `not`, `if`/`then`/`else`, `dependentRequired`,
  `dependentSchemas`, `patternProperties` and `default`;
- a `format` other than date-time, time, date, duration, email, hostname,
  ipv4, ipv6 and uuid;
- a subschema with no `type` (and no `anyOf`, `$ref`, `enum` or `const`);
- a root that is not `type: object`, or a root `anyOf`;
- the size limits: 5,000 properties, 10 nesting levels, 120,000 characters of
  property names, definition names and enum/const values, 1,000 values in one
  enum, 15,000 characters in a string enum of more than 250 values.

An OpenAI function tool whose own definition says `"strict": true` is
checked against strict mode whatever the targets: its declaration is its
target.

Nothing below a keyword strict mode rejects is analysed (removing the keyword
is the fix), nor below an `additionalProperties` schema.

With the `openai` target (no strict mode) it reports arrays without `items`,
at any depth: OpenAI rejects those schemas with or without `strict`.

## Why is this bad?
OpenAI answers such a request with a 400 ("'required' is required to be
supplied and to be an array including every key in properties", "'default' is
not permitted", "object schema missing properties", "array schema missing
items"), so no call is made at all.

## Example
```json
{"name": "get_weather", "description": "Current weather for one city, in the requested unit.",
 "inputSchema": {"type": "object",
                 "properties": {"city": {"type": "string", "description": "City name"},
                                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"],
                                         "default": "celsius"}},
                 "required": ["city"]}}
```

## Use instead
```json
{"name": "get_weather", "description": "Current weather for one city, in the requested unit.",
 "inputSchema": {"type": "object",
                 "properties": {"city": {"type": "string", "description": "City name"},
                                "unit": {"type": ["string", "null"], "enum": ["celsius", "fahrenheit", null],
                                         "description": "Temperature unit; null means celsius"}},
                 "required": ["city", "unit"], "additionalProperties": false}}
```

## Fix safety
Not applied by `--fix`: making a property required and nullable changes what
the function receives (null instead of a missing key), and dropping a keyword
moves a check into the function.  `toolclause export --strict` performs these
changes on the exported copy instead.  So for a contract or an MCP tool (which
OpenAI receives only as a converted copy), the optional properties are reported
as info: the copy `export --strict` writes makes them required and nullable; a
tool written in OpenAI's own shape is sent as it is, and stays an error.

## References
- OpenAI, Structured Outputs, "Supported schemas":
  https://developers.openai.com/api/docs/guides/structured-outputs
- OpenAI, Function calling (the strict flag on function tools):
  https://developers.openai.com/api/docs/guides/function-calling
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from ...model import Edit, Fix, Severity, ToolContract
from ...schema.nullability import declares_null, nullable_type
from ...schema.strict_size import NOT_COUNTED_BELOW, StrictSize, enum_size, openai_strict_size
from ...schema.walk import NodeKind, SchemaNode, walk
from ...targets import (
    JSON_SCHEMA_TYPES,
    OPENAI_STRICT_FORMATS,
    OPENAI_STRICT_LARGE_STRING_ENUM,
    OPENAI_STRICT_LARGE_STRING_ENUM_CHARS,
    OPENAI_STRICT_MAX_ENUM_VALUES,
    OPENAI_STRICT_MAX_NESTING,
    OPENAI_STRICT_MAX_PROPERTIES,
    OPENAI_STRICT_MAX_TOTAL_CHARS,
    OPENAI_STRICT_UNSUPPORTED_KEYWORDS,
)
from ..base import Finding, LintContext, Rule
from ..tightness._shapes import (
    COMPOSITION,
    ancestor_via,
    declared_types,
    is_array_schema,
    is_object_schema,
    property_label,
    written_by_user,
)
from ..tightness.c002_array_without_items import element_type_hint

# Below these the subtree is not analysed (the fix removes or replaces the whole keyword), nor counted.
_NOT_ANALYSED_BELOW = NOT_COUNTED_BELOW
_TYPE_NOT_NEEDED = ("anyOf", "$ref", "enum", "const", "allOf", "oneOf", "not", "if")
_ITEMS_ELSEWHERE = ("$ref", *COMPOSITION)  # an array whose elements a reference or composition may give
STRICT = "openai-strict"


def nullable_change(schema: dict[str, Any]) -> str:
    """The exact edit that lets a property accept null."""
    types = schema.get("type")
    listed = types if isinstance(types, list) else [types]
    unknown = [t for t in listed if isinstance(t, str) and t not in JSON_SCHEMA_TYPES]
    if unknown:
        return f"make it nullable once its type {unknown[0]!r} is a JSON Schema type (e.g. [\"string\", \"null\"])"
    enum = schema.get("enum")
    enum_note = " and add null to its enum" if isinstance(enum, list) and None not in enum else ""
    if isinstance(types, (str, list)):
        return f"make its type {json.dumps(nullable_type(types) or ['null'])}{enum_note}"
    if "anyOf" in schema:
        return "add {\"type\": \"null\"} to its anyOf"
    if "$ref" in schema:
        return "wrap it as {\"anyOf\": [{\"$ref\": ...}, {\"type\": \"null\"}]}"
    return "give it a type that includes \"null\""


# formats whose tools reach a provider only through a converter (toolclause export, an MCP host's adapter)
CONVERTED_FORMATS = frozenset({"mcp", ""})


class OpenAIStrictIncompatible(Rule):
    code = "P001"
    name = "openai-strict-incompatible"
    severity = Severity.ERROR
    targets = frozenset({"openai", STRICT})
    all_nodes = True

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        schema = node.schema
        if "items" not in schema and is_array_schema(schema) and not any(k in schema for k in _ITEMS_ELSEWHERE):
            yield self._no_items(node, schema)
        if STRICT not in ctx.targets or ancestor_via(node, _NOT_ANALYSED_BELOW):
            return
        enum = schema.get("enum")
        if isinstance(enum, list):
            yield from self._enum(node, enum)
        if node.is_root:
            # the whole schema's totals, counted once at its root: nothing here depends on
            # the order the other nodes are visited in
            yield from self._totals(node.pointer, openai_strict_size(schema, node.pointer))
            yield from self._root(node, schema)
            optional = self._optional(node)
            if optional is not None:
                if tool.origin.format in CONVERTED_FORMATS:
                    # an MCP tool or a contract is not what OpenAI receives: the strict copy a converter makes
                    # (`export --strict`, an MCP host) carries this change, so it is a note, not a CI failure
                    optional = Finding(optional.pointer, optional.message, optional.fix, severity=Severity.INFO)
                yield optional
        yield from self._keywords(node, schema)
        if "type" not in schema and not any(k in schema for k in _TYPE_NOT_NEEDED) and not (
                node.is_root and "object" not in declared_types(schema)):
            yield Finding(node.pointer, f"{property_label(node)} has no \"type\"; strict mode needs one on every "
                                        f"schema (\"schema must have a 'type' key\"): add the type it holds")
        if is_object_schema(schema) and written_by_user(tool, node):
            # objects a loader built from a parameter list cannot be edited in the user's format
            yield from self._object(node, schema)

    # ------------------------------------------------------------------ checks

    def _root(self, node: SchemaNode, schema: dict[str, Any]) -> Iterable[Finding]:
        if "anyOf" in schema:
            yield Finding(node.pointer + "/anyOf", "the root of a strict schema cannot be anyOf; make the root one "
                                                   "object and move the alternatives into a property")
        if "object" not in declared_types(schema):
            yield Finding(node.pointer, f"the root of a strict schema must be \"type\": \"object\" "
                                        f"(found {json.dumps(schema.get('type'))})")

    def _keywords(self, node: SchemaNode, schema: dict[str, Any]) -> Iterable[Finding]:
        if not OPENAI_STRICT_UNSUPPORTED_KEYWORDS.keys().isdisjoint(schema):  # most schemas hold none of them
            for keyword, instead in OPENAI_STRICT_UNSUPPORTED_KEYWORDS.items():
                if keyword not in schema:
                    continue
                if keyword == "allOf" and isinstance(schema["allOf"], list) and len(schema["allOf"]) == 1:
                    instead = "merge its single branch into this schema"
                edits = (Edit("remove", f"{node.pointer}/{keyword}"),) if keyword == "default" else ()
                yield Finding(f"{node.pointer}/{keyword}", f"strict mode does not permit '{keyword}' "
                                                           f"({property_label(node)}); {instead}",
                              Fix(f"remove '{keyword}'", safe=False, edits=edits))
        fmt = schema.get("format")
        if isinstance(fmt, str) and fmt not in OPENAI_STRICT_FORMATS:
            yield Finding(node.pointer + "/format",
                          f"strict mode does not support format '{fmt}' ({property_label(node)}); supported: "
                          f"{', '.join(sorted(OPENAI_STRICT_FORMATS))} — remove it or use a \"pattern\"",
                          Fix("remove 'format'", safe=False, edits=(Edit("remove", node.pointer + "/format"),)))

    def _object(self, node: SchemaNode, schema: dict[str, Any]) -> Iterable[Finding]:
        label = property_label(node)
        extra = schema.get("additionalProperties", None)
        if not node.is_root and extra is not False and not schema.get("properties") \
                and not schema.get("patternProperties"):
            # a free-form map: closing it (and adding "properties": {}) would make it accept only {}, so every
            # real call would fail; strict mode has no map, only an array of pairs
            yield Finding(node.pointer, (
                f"{label} is a free-form map, which strict mode cannot express: closing it would accept only "
                f"{{}}; send its entries as an array of {{\"key\", \"value\"}} objects (export --target "
                f"openai-strict reports this map as a loss), or list its keys in \"properties\""),
                Fix("make the map an array of {key, value} objects", safe=False))
            return
        if extra is not False:
            if isinstance(extra, dict) and extra:
                why = ("it describes a map (additionalProperties is a schema), which strict mode cannot express; "
                       "list the keys in properties, or send the entries as an array of {key, value} objects")
            else:
                shown = "missing" if extra is None else json.dumps(extra)
                why = f"set \"additionalProperties\": false (now {shown})"
            yield Finding(node.pointer,
                          f"strict mode needs \"additionalProperties\": false on every object; {label}: {why}",
                          Fix("set \"additionalProperties\": false", safe=False,
                              edits=(Edit("set", node.pointer + "/additionalProperties", False),)))
        if not isinstance(schema.get("properties"), dict):
            yield Finding(node.pointer, f"{label} is an object without \"properties\"; strict mode rejects it "
                                        f"(\"object schema missing properties\"): add \"properties\" (\"{{}}\" "
                                        f"for an object with no keys)",
                          Fix("add \"properties\": {}", safe=False,
                              edits=(Edit("set", node.pointer + "/properties", {}),)))

    def _optional(self, root: SchemaNode) -> Finding | None:
        """One finding for every optional property of the schema: the change is one mechanical step."""
        changes: dict[str, list[str]] = {}
        names = []
        for node in walk(root.schema, root.pointer, root.role)[0]:
            if node.kind is NodeKind.PROPERTY and not node.required and node.parent is not None \
                    and not ancestor_via(node, _NOT_ANALYSED_BELOW):
                name = _property_path(root.pointer, node.pointer)
                names.append(name)
                if not declares_null(node.schema):
                    changes.setdefault(nullable_change(node.schema), []).append(name)
        if not names:
            return None
        if len(names) == 1:
            (change,) = changes or {"": []}
            change = (f"add '{names[0]}' to required and {change}" if change
                      else f"add '{names[0]}' to required (it already accepts null)")
            head = f"'{names[0]}' is optional: {change}"
        else:
            changed = {name for group in changes.values() for name in group}
            already = [name for name in names if name not in changed]
            if not changes:
                change = "add them to required (they already accept null)"
            elif len(changes) == 1 and not already:
                change = f"add them to required and {next(iter(changes)).replace('its ', 'the ')}"
            else:
                steps = "; ".join(f"{_quoted(group)}: {change.replace('its ', 'the ')}"
                                  for change, group in changes.items())
                change = f"add them to required; {steps}" + (
                    f" ({_quoted(already)} already accept{'s' if len(already) == 1 else ''} null)" if already else "")
            head = f"{len(names)} properties are optional: {_quoted(names)}: {change}"
        return Finding(root.pointer, f"strict mode needs every property in \"required\"; {head}, and treat null as "
                                     f"\"not given\" in the function. `toolclause export --strict` makes this change "
                                     f"on the exported copy", Fix("add every property to required, made nullable "
                                                                  "(toolclause export --strict does it)", safe=False))

    def _no_items(self, node: SchemaNode, schema: dict[str, Any]) -> Finding:
        hint = element_type_hint(schema)
        items = f"{{\"type\": \"{hint}\"}}" if hint else "{\"type\": \"string\"} (the element schema)"
        fix = (Fix(f"add \"items\": {{\"type\": \"{hint}\"}}", safe=False,
                   edits=(Edit("set", node.pointer + "/items", {"type": hint}),)) if hint
               else Fix("add an \"items\" schema", safe=False))
        return Finding(node.pointer, f"array {property_label(node)} has no \"items\"; OpenAI rejects the whole request "
                                     f"with or without strict mode (400 \"array schema missing items\"): add "
                                     f"\"items\": {items}", fix)

    def _enum(self, node: SchemaNode, enum: list[Any]) -> Iterable[Finding]:
        size = enum_size(enum)
        if size is None:
            return
        if size.too_many:
            yield Finding(node.pointer + "/enum", f"{property_label(node)} has {size.values:,} enum values; "
                                                  f"strict mode allows at most {OPENAI_STRICT_MAX_ENUM_VALUES:,}")
        else:
            yield Finding(node.pointer + "/enum",
                          f"{property_label(node)} is a string enum of {size.values:,} values holding "
                          f"{size.chars:,} characters; strict mode allows at most "
                          f"{OPENAI_STRICT_LARGE_STRING_ENUM_CHARS:,} characters in an enum of more "
                          f"than {OPENAI_STRICT_LARGE_STRING_ENUM} values")

    def _totals(self, root: str, size: StrictSize) -> Iterable[Finding]:
        if size.too_many_properties:
            yield Finding(root, f"the schema has {size.properties:,} properties; strict mode allows "
                                f"{OPENAI_STRICT_MAX_PROPERTIES:,} in total — split the tool")
        if size.too_many_chars:
            yield Finding(root, f"property names, definition names and enum/const values hold {size.chars:,} "
                                f"characters; strict mode allows {OPENAI_STRICT_MAX_TOTAL_CHARS:,} in total — "
                                f"shorten enums or split the tool")
        if size.too_deep:
            label = (f"'{size.deepest_property}'" if size.deepest_property is not None
                     else f"the schema at {size.deepest}")
            yield Finding(size.deepest, f"{label} is nested {size.depth} levels below the root; strict mode "
                                        f"allows {OPENAI_STRICT_MAX_NESTING} levels of nesting — flatten the schema")


def _property_path(root: str, pointer: str) -> str:
    """A property's name as a path from the root: 'filter.owner', 'rows[].id', '#Address.street'."""
    tokens = [t.replace("~1", "/").replace("~0", "~") for t in pointer[len(root):].split("/")[1:]]
    out = ""
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token in ("properties", "$defs", "definitions") and index + 1 < len(tokens):
            name = tokens[index + 1]
            out += ("#" if token != "properties" else "." if out else "") + name
            index += 2
            continue
        if token in ("items", "additionalItems"):
            out += "[]"
        index += 1
    return out


def _quoted(names: list[str]) -> str:
    shown = [f"'{name}'" for name in names]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]

