"""open-object (C001)

## What it does
Finds objects in the input schema (the root, nested properties, array items,
`anyOf`/`oneOf` branches, `$defs`) that do not close themselves with
`"additionalProperties": false`, including ones that say `true` or `{}`.
A map whose values are described (`"additionalProperties": {"type": "string"}`)
is a deliberate dictionary and is left alone, as are objects closed with
`"unevaluatedProperties": false`.

A nested object with no `properties` that is free-form by design — a database
query or filter, a document to insert, an aggregation pipeline, a projection,
metadata, a `variables`/`inputs`/`values`/`headers` map, recognised by its name,
its description, or an explicit `"additionalProperties": true` or `{}` — is not
told to close itself (that would reject every real call): it is left alone when
its description says what it holds, and otherwise told how to keep it working
(say which keys it takes, a typed map, or a `[{key, value}]` array).  The
opposite mistake is reported too: an object closed with no properties whose
description asks for keys, which accepts nothing but `{}`.

Tools read from formats that are not JSON Schema (parameter lists, bare
property maps) are not reported for the objects the loader builds from them:
those formats have no way to close an object.

An object whose every declared property is required is reported as info: a
misspelt name fails there already (as a missing required one), and closing it
only refuses invented extra keys.  So is a tool that takes no arguments.

## Why is this bad?
An open object accepts argument names it never declared.  A model that writes
`"unit"` instead of `"units"`, or invents a `"force": true`, gets no error: the
extra key is silently accepted and ignored (or worse, passed through), and the
declared value is simply missing.  OpenAI strict mode refuses such schemas
outright.

## Example
```json
{"name": "get_weather", "description": "Current weather for one city.",
 "inputSchema": {"type": "object",
                 "properties": {"city": {"type": "string", "description": "City name"},
                                "units": {"enum": ["metric", "imperial"], "description": "Defaults to metric"}},
                 "required": ["city"]}}
```

## Use instead
```json
{"name": "get_weather", "description": "Current weather for one city.",
 "inputSchema": {"type": "object",
                 "properties": {"city": {"type": "string", "description": "City name"},
                                "units": {"enum": ["metric", "imperial"], "description": "Defaults to metric"}},
                 "required": ["city"], "additionalProperties": false}}
```

## Fix safety
Adding `"additionalProperties": false` to an object that declares at least one
property (and has no `allOf`/`anyOf`/`oneOf`/`$ref` that could declare more)
is safe: every argument the schema describes is still accepted.  A root object
with no `properties` is a tool without arguments, so the safe fix also adds
`"properties": {}` (OpenAI rejects "object schema missing properties"); both
edits belong to this one finding because they close the same object.
Not applied by `--fix`: an explicit `"additionalProperties": true` (the author
chose an open object), a nested object without `properties` or with
`"properties": {}` (a free-form map that would then accept only `{}`), and an
object whose keys may come from a composition or reference (there
`"unevaluatedProperties": false` is the tool).
"""

from __future__ import annotations

from collections.abc import Iterable

from ... import _lazy_re as re
from ...lexicon import identifier_words
from ...model import Edit, Fix, Severity, ToolContract
from ...schema.walk import SchemaNode
from .._reach import unused_definition
from ..base import Finding, LintContext, Rule
from ._shapes import COMPOSITION, ancestor_via, holder_keyword, is_object_schema, property_label, written_by_user

# Subschemas applied to the same instance as their parent (or negated, or
# describing keys): closing them would reject the parent's own properties.
_SAME_INSTANCE = frozenset({"allOf", "not", "if", "then", "else", "dependentSchemas", "propertyNames",
                            "unevaluatedProperties", "contains"})


def _declares_properties(schema: object) -> bool:
    return isinstance(schema, dict) and isinstance(schema.get("properties"), dict)


def _keys_elsewhere(schema: dict) -> bool:
    """Whether a $ref or a composition branch may declare more keys of this object."""
    if "$ref" in schema:
        return True
    for keyword in COMPOSITION:
        branches = schema.get(keyword)
        if isinstance(branches, list) and any(_declares_properties(b) or (isinstance(b, dict) and "$ref" in b)
                                              for b in branches):
            return True
    return False


# Names of objects that are free-form by design: the keys belong to the caller's data, not to the tool.
FREE_FORM_NAMES = frozenset("""
query filter filters where match selector document doc documents record pipeline stage projection sort update
metadata meta variables vars inputs values headers labels annotations env environment params parameters arguments
args body payload data properties fields attributes attrs tags context extra extras options settings config
configuration schema patch patchdata overrides custom customfields json object mapping map dict dictionary
""".split())
_FREE_FORM_TEXT = re.compile(r"\b(?:any|arbitrary|free[- ]?form|key[- /]value|key/value|map(?:ping)?\s+of|dictionary|"
                             r"json\s+(?:object|document)|mongo|aggregation|pipeline|projection|filter|query|metadata)\b",
                             re.I)
_ASKS_FOR_KEYS = re.compile(r"\b(?:keys?|fields?|key[- /]value|map(?:ping)?\s+of|pairs?)\b", re.I)


def _words(key: object) -> tuple[str, ...]:
    return identifier_words(key) if isinstance(key, str) else ()


def free_form_by_design(node: SchemaNode, schema: dict, extra: object) -> bool:
    """A query, document, metadata or variables map: open because its keys are the caller's."""
    if extra is True or extra == {}:
        return True
    words = _words(node.key)
    if words and ("".join(words) in FREE_FORM_NAMES or words[-1] in FREE_FORM_NAMES):
        return True
    text = schema.get("description")
    return isinstance(text, str) and bool(_FREE_FORM_TEXT.search(text))


def _every_key_required(schema: dict) -> bool:
    """Whether every declared property is required (and no pattern admits more): a misspelt name then fails."""
    properties, required = schema.get("properties"), schema.get("required")
    if not isinstance(properties, dict) or not properties or schema.get("patternProperties"):
        return False
    return isinstance(required, list) and all(name in required for name in properties)


class OpenObject(Rule):
    code = "C001"
    name = "open-object"
    severity = Severity.WARNING
    fixable = True
    keywords = frozenset({"type", "properties"})

    def skips(self, keys: tuple, declared: object, kind: object, role: str) -> bool:
        # the same early exit as check_node's first test, decided once per node shape
        return isinstance(declared, str) and declared != "object"

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        if unused_definition(tool, node, ctx):
            return  # no argument is ever checked against an unreferenced definition
        schema = node.schema
        declared = schema.get("type")
        if isinstance(declared, str) and declared != "object":
            return  # the common case (a string, a number …), decided before building any type set
        if not is_object_schema(schema):
            return
        extra = schema.get("additionalProperties", None)
        if extra is False or schema.get("unevaluatedProperties") is False:
            if extra is False and not node.is_root and not schema.get("properties") and not _keys_elsewhere(schema):
                text = schema.get("description")
                if isinstance(text, str) and _ASKS_FOR_KEYS.search(text) and written_by_user(tool, node):
                    yield Finding(node.pointer, (
                        f"{property_label(node)} is closed (additionalProperties: false) and declares no properties, "
                        f"so the only value it accepts is {{}}, yet its description asks for keys; declare them in "
                        f"\"properties\", or describe the values with \"additionalProperties\": {{\"type\": ...}}"))
            return
        if isinstance(extra, dict) and extra:
            return  # a typed map: {"additionalProperties": {"type": "string"}}
        if extra is not None and not isinstance(extra, (bool, dict)):
            return  # malformed; the meta-schema check (S001) reports it
        if ancestor_via(node, _SAME_INSTANCE):
            return
        parent = node.parent
        if holder_keyword(node) in ("anyOf", "oneOf") and parent is not None and _declares_properties(parent.schema):
            return  # the branch shares the instance with its parent's properties
        if not written_by_user(tool, node):
            return  # built by the loader from a parameter list or property map, which cannot close it
        finding = self._finding(node, schema, extra)
        if finding is not None:
            yield finding

    def _finding(self, node: SchemaNode, schema: dict, extra: object) -> Finding | None:
        label = property_label(node)
        pointer = node.pointer
        explicit = extra is True or extra == {}
        how = "says additionalProperties: true" if extra is True else \
            "has additionalProperties: {}" if explicit else "has no \"additionalProperties\": false"
        # "properties": {} declares no key: a nested object with it is as free-form as one without
        # "properties" (a map of the caller's keys), and closing it would accept only {}
        has_props = any(isinstance(schema.get(k), dict) and bool(schema[k])
                        for k in ("properties", "patternProperties"))
        if _keys_elsewhere(schema):
            return Finding(pointer, f"{label} is an open object ({how}); its keys also come from a composition or "
                                    f"$ref, so close it with \"unevaluatedProperties\": false rather than "
                                    f"additionalProperties",
                           Fix("add \"unevaluatedProperties\": false", safe=False,
                               edits=(Edit("set", pointer + "/unevaluatedProperties", False),)))
        close = Edit("set", pointer + "/additionalProperties", False)
        if has_props:
            fix = Fix("set \"additionalProperties\": false", safe=not explicit, edits=(close,))
            if _every_key_required(schema):
                # a misspelt name is then a missing required one, which fails already: closing only refuses
                # invented extra keys, a suggestion rather than a defect
                message = (f"{label} is an open object ({how}); every property it declares is required, so a "
                           f"misspelled name already fails, but an invented extra key is accepted and ignored; "
                           f"add \"additionalProperties\": false")
                return Finding(pointer, message, fix, severity=Severity.INFO)
            message = (f"{label} is an open object ({how}): arguments it does not declare are accepted and a "
                       f"misspelled name goes unnoticed; add \"additionalProperties\": false")
            return Finding(pointer, message, fix)
        if node.is_root and "properties" not in schema:
            message = (f"{label} declares no properties and {how}: the tool takes no arguments but accepts any; "
                       f"add \"properties\": {{}} and \"additionalProperties\": false")
            return Finding(pointer, message, Fix("add \"properties\": {} and \"additionalProperties\": false",
                                                 safe=not explicit,
                                                 edits=(Edit("set", pointer + "/properties", {}), close)),
                           severity=Severity.INFO)
        if node.is_root and not explicit:  # "properties": {}: a tool without arguments, which closing keeps
            message = (f"{label} declares no properties and {how}: the tool takes no arguments but accepts any; "
                       f"add \"additionalProperties\": false")
            return Finding(pointer, message, Fix("set \"additionalProperties\": false", safe=True, edits=(close,)),
                           severity=Severity.INFO)  # an argument sent to a tool that takes none is ignored
        if free_form_by_design(node, schema, extra):
            if isinstance(schema.get("description"), str) and schema["description"].strip():
                return None  # open on purpose, and its description says what goes in
            if _words(node.key)[-1:] == ("schema",):  # a JSON Schema passed as a value: its keys are keywords
                message = (f"{label} takes a JSON Schema (no properties, {how}), so closing it would reject every "
                           f"real call; keep it open and say in its description that it is a JSON Schema and "
                           f"what it describes")
                return Finding(pointer, message, Fix("describe the schema the object takes", safe=False),
                               severity=Severity.INFO)
            message = (f"{label} is free-form by design (no properties, {how}), so closing it would reject every real "
                       f"call; keep it open and say in its description which keys it takes, or make it a typed map "
                       f"(\"additionalProperties\": {{\"type\": ...}}) or an array of {{\"key\", \"value\"}} objects")
            # open on purpose: a description is the whole advice, a suggestion rather than a defect
            return Finding(pointer, message, Fix("describe the keys the object takes", safe=False),
                           severity=Severity.INFO)
        message = (f"{label} is a free-form object (no properties, {how}): any keys and values are accepted; "
                   f"declare its keys in \"properties\" and add \"additionalProperties\": false, or describe "
                   f"its values with \"additionalProperties\": {{\"type\": ...}}")
        return Finding(pointer, message, Fix("declare the object's keys", safe=False))
