"""One spelling for schemas that accept the same values, so a diff compares meaning, not text.

Each rewrite below keeps the set of accepted instances exactly; `normal_form`
applies them bottom-up until nothing changes:

- `type: "x"`, `["x"]`, an alias (`str`), `nullable: true`: one sorted type list;
- keywords that constrain nothing (`minLength: 0`, `items: {}`, `required: []`,
  `additionalProperties: true`, `uniqueItems: false`) are dropped;
- `allOf`, `anyOf` and `oneOf` with one branch, and `allOf` branches whose keywords
  do not clash with their parent's, are merged into the parent;
- a `oneOf` whose branches cannot both match (disjoint types or values) is an `anyOf`;
- an `anyOf` whose branches only list values (`enum`, `const`, `type: "null"`) is
  one `enum`; one whose branches have disjoint types, each constrained only by
  keywords that apply to its own types, is one schema with a type list
  (`anyOf: [{type: string, minLength: 1}, {type: null}]` is
  `{type: [null, string], minLength: 1}`); nested `anyOf`s are flattened, duplicate
  and `false` branches dropped, the rest sorted;
- an `enum` or `const` keeps only the values the rest of its schema accepts,
  deduplicated (1 and 1.0 are one value) and sorted; its schema becomes just those
  values and their types, since they alone decide what is accepted.

A rewrite that cannot be shown safe (a `$ref` in the way, keywords of unknown
meaning, clashing descriptions) is not made: the schema is left as written, and the
diff falls back to comparing keyword by keyword.
"""

from __future__ import annotations

import json
from typing import Any

from ..schema.keywords import SCHEMA_LIST, SCHEMA_MAP, SCHEMA_VALUED, resolved_types, value_has_type
from ..schema.validators import COMPILE_ERRORS, DRAFT, compile_schema

MAX_DEPTH = 64
MAX_PASSES = 4

# keywords that say something about a schema without changing what it accepts
ANNOTATIONS = frozenset({"description", "title", "default", "examples", "$comment", "deprecated", "readOnly",
                         "writeOnly", "$schema", "$id", "$anchor"})
# annotations the diff reports on: two different ones cannot be merged into one schema
REPORTED = ("description", "title", "default")

# keywords that only constrain instances of some types (and say nothing about the others)
FAMILIES: dict[str, frozenset[str]] = {
    **dict.fromkeys(("minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType"),
                    frozenset({"string"})),
    **dict.fromkeys(("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"),
                    frozenset({"number", "integer"})),
    **dict.fromkeys(("items", "prefixItems", "additionalItems", "minItems", "maxItems", "uniqueItems", "contains",
                     "minContains", "maxContains", "unevaluatedItems"), frozenset({"array"})),
    **dict.fromkeys(("properties", "required", "additionalProperties", "patternProperties", "propertyNames",
                     "minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "dependencies",
                     "unevaluatedProperties"), frozenset({"object"})),
}
# the values of types that have only a few
FINITE_TYPES: dict[str, list[Any]] = {"null": [None], "boolean": [False, True]}
TRIVIAL = {"minLength": 0, "minItems": 0, "minProperties": 0, "uniqueItems": False, "required": [], "allOf": []}
ACCEPTS_ANYTHING: tuple[Any, ...] = (True, {})
_REFERENCES = ('"$ref"', '"$dynamicRef"', '"$recursiveRef"')
_MERGING = ("allOf", "anyOf", "oneOf")


class _Unsafe(Exception):
    """A rewrite that cannot be shown to keep the accepted set; the schema stays as written."""


def canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def normal_form(schema: Any) -> Any:
    """`schema` rewritten into its normal form (a new object; the input is not changed)."""
    text = canon(schema)
    if not any(f'"{keyword}"' in text for keyword in _MERGING):
        return _normal(schema, 0)  # one pass reaches the normal form when no branches are merged
    for _ in range(MAX_PASSES):
        rewritten = _normal(schema, 0)
        if canon(rewritten) == canon(schema):
            break
        schema = rewritten
    return schema


# --------------------------------------------------------------------------- types

def _expand(types: frozenset[str]) -> frozenset[str]:
    """"number" includes every integer."""
    return types | {"integer"} if "number" in types else types


def _type_value(types: frozenset[str]) -> str | list[str]:
    shown = sorted(t for t in types if not (t == "integer" and "number" in types))
    return shown[0] if len(shown) == 1 else shown


def _types_of(schema: dict[str, Any]) -> frozenset[str] | None:
    """The expanded type set a schema declares; None when it declares none; _Unsafe when unreadable."""
    if "type" not in schema:
        return None
    return _type_set(schema["type"])


def _type_set(type_value: Any) -> frozenset[str]:
    """The expanded type set a `type` value means; _Unsafe when unreadable."""
    types = resolved_types(type_value)
    if types is None:
        raise _Unsafe
    return _expand(types)


def _value_type(value: Any) -> str:
    for name in ("null", "boolean", "integer", "number", "string", "array", "object"):
        if value_has_type(value, name):
            return name
    return "unknown"


# --------------------------------------------------------------------------- the walk

def _normal(schema: Any, depth: int) -> Any:
    if not isinstance(schema, dict) or depth > MAX_DEPTH:
        return schema
    out = {key: _normal_child(key, value, depth) for key, value in schema.items()}
    for step in (_nullable, _trivial, _type, _all_of, _one_of, _any_of, _values):
        try:
            stepped = step(out)
        except _Unsafe:
            continue
        if not isinstance(stepped, dict):
            return stepped
        out = stepped
    return out


def _normal_child(key: str, value: Any, depth: int) -> Any:
    if key in SCHEMA_VALUED or (key == "items" and isinstance(value, dict)):
        return _normal(value, depth + 1)
    if key in SCHEMA_MAP and isinstance(value, dict):
        return {name: _normal(sub, depth + 1) for name, sub in value.items()}
    if (key in SCHEMA_LIST or key == "items") and isinstance(value, list):
        return [_normal(sub, depth + 1) for sub in value]
    return value


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """OpenAPI's `nullable: true` beside a type is that type or null."""
    if schema.get("nullable") is True and "type" in schema:
        types = resolved_types(schema["type"])
        if types is not None:
            schema = {k: v for k, v in schema.items() if k != "nullable"}
            schema["type"] = _type_value(types | {"null"})
    return schema


def _trivial(schema: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for key, value in schema.items():
        if key in TRIVIAL and canon(value) == canon(TRIVIAL[key]):
            continue
        if key in ("additionalProperties", "items", "unevaluatedProperties") and value in ACCEPTS_ANYTHING:
            continue
        out[key] = value
    return out


def _type(schema: dict[str, Any]) -> dict[str, Any]:
    types = _types_of(schema)
    if types is not None:
        schema = {**schema, "type": _type_value(types)}
    return schema


# --------------------------------------------------------------------------- merging

def _merge(parent: dict[str, Any], branch: Any) -> dict[str, Any]:
    """Both constraints in one schema (their conjunction), or _Unsafe when they clash."""
    if branch is True or branch == {}:
        return parent
    if not isinstance(branch, dict):
        raise _Unsafe
    if ("$ref" in parent and _bare(branch)) or ("$ref" in branch and _bare(parent)):
        raise _Unsafe  # a $ref beside other keywords is read as the referenced schema, overridden
    out = dict(parent)
    for key, value in branch.items():
        if key not in out or canon(out[key]) == canon(value):
            out[key] = value
        elif key == "required" and isinstance(value, list) and isinstance(out[key], list):
            out[key] = out[key] + [name for name in value if name not in out[key]]
        elif key == "properties" and _open(out) and _open(branch) and isinstance(value, dict) \
                and isinstance(out[key], dict) and not set(value) & set(out[key]):
            out[key] = {**out[key], **value}  # each property constrained on its own, as before
        elif key == "type":
            both = _type_set(out[key]) & _type_set(value)
            if not both:
                raise _Unsafe
            out["type"] = _type_value(both)
        elif key in ANNOTATIONS and key not in REPORTED:
            continue
        else:
            raise _Unsafe
    return out


def _bare(schema: dict[str, Any]) -> set[str]:
    return set(schema) - ANNOTATIONS


def _open(schema: dict[str, Any]) -> bool:
    """No keyword whose meaning depends on which properties are declared."""
    return not {"additionalProperties", "patternProperties", "unevaluatedProperties"} & set(schema)


def _all_of(schema: dict[str, Any]) -> dict[str, Any] | bool:
    branches = schema.get("allOf")
    if not isinstance(branches, list):
        return schema
    out = {k: v for k, v in schema.items() if k != "allOf"}
    kept = []
    for branch in branches:
        try:
            merged = _merge(out, branch)
        except _Unsafe:
            kept.append(branch)
            continue
        out = merged
    if kept:
        out["allOf"] = kept
    return out


def _disjoint(branches: list[Any]) -> bool:
    """No instance can match two of these branches (their types or their values differ)."""
    seen_types: set[str] = set()
    seen_values: set[str] = set()
    for branch in branches:
        if not isinstance(branch, dict):
            return False
        values = _listed_values(branch)
        if values is not None:
            keys = {canon(_plain(v)) for v in values}
            if keys & seen_values:
                return False
            seen_values |= keys
            types = frozenset(_value_type(v) for v in values)
        else:
            declared = _types_of(branch)
            if declared is None:
                return False
            types = declared
        types = _expand(types)
        if types & seen_types:
            return False
        seen_types |= types
    return True


def _one_of(schema: dict[str, Any]) -> dict[str, Any] | bool:
    branches = schema.get("oneOf")
    if not isinstance(branches, list) or "anyOf" in schema:
        return schema
    if len(branches) == 1 or _disjoint(branches):
        out = {k: v for k, v in schema.items() if k != "oneOf"}
        out["anyOf"] = branches
        return _any_of(out)
    return schema


def _any_of(schema: dict[str, Any]) -> dict[str, Any] | bool:
    branches = schema.get("anyOf")
    if not isinstance(branches, list):
        return schema
    flat: list[Any] = []
    for branch in branches:
        if isinstance(branch, dict) and set(branch) == {"anyOf"} and isinstance(branch["anyOf"], list):
            flat.extend(branch["anyOf"])
        elif branch is not False:
            flat.append(branch)
    rest = {k: v for k, v in schema.items() if k != "anyOf"}
    if any(branch in ACCEPTS_ANYTHING for branch in flat):
        return rest
    unique = {canon(branch): branch for branch in flat}
    flat = [unique[key] for key in sorted(unique)]
    if not flat:
        return schema
    try:
        merged = _merge_branches(flat)
    except _Unsafe:
        return {**rest, "anyOf": flat}
    try:
        return _merge(rest, merged)
    except _Unsafe:
        return {**rest, "anyOf": [merged]}


def _merge_branches(branches: list[Any]) -> dict[str, Any]:
    """The one schema that accepts what any of `branches` accepts, or _Unsafe."""
    if len(branches) == 1:
        if not isinstance(branches[0], dict):
            raise _Unsafe
        return branches[0]
    if not all(isinstance(b, dict) for b in branches):
        raise _Unsafe
    notes = _merged_annotations(branches)
    bare = [{k: v for k, v in b.items() if k not in ANNOTATIONS} for b in branches]
    listed = [_listed_values(b) if _listed_values(b) is not None else _finite_values(b) for b in bare]
    known_values = [values for values in listed if values is not None]
    if len(known_values) == len(listed):
        return {**notes, **_value_schema([v for values in known_values for v in values])}
    declared = [_types_of(b) for b in bare]
    types = [t for t in declared if t is not None]
    if len(types) != len(declared):
        raise _Unsafe
    for i, branch in enumerate(bare):
        others: frozenset[str] = frozenset().union(*(t for j, t in enumerate(types) if j != i))
        if types[i] & others:
            raise _Unsafe
        for key in branch:
            if key != "type" and (key not in FAMILIES or FAMILIES[key] & others):
                raise _Unsafe
    out: dict[str, Any] = dict(notes)
    for branch in bare:
        out.update(branch)
    out["type"] = _type_value(frozenset[str]().union(*types))
    return out


def _merged_annotations(branches: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in REPORTED:
        found = {canon(b[key]): b[key] for b in branches if key in b}
        if len(found) > 1:
            raise _Unsafe
        for value in found.values():  # at most one: two different values raised above
            out[key] = value
    return out


# --------------------------------------------------------------------------- values

def _listed_values(schema: dict[str, Any]) -> list[Any] | None:
    """The values a schema lists when it is nothing but a list of values (after `_values`)."""
    if set(schema) - ANNOTATIONS - {"type"} == {"enum"} and isinstance(schema["enum"], list):
        return schema["enum"]
    if set(schema) - ANNOTATIONS - {"type"} == {"const"}:
        return [schema["const"]]
    return None


def _finite_values(schema: dict[str, Any]) -> list[Any] | None:
    """`{type: "null"}`, `{type: "boolean"}`: a type with few values, as those values."""
    types = _types_of(schema) if set(schema) == {"type"} else None
    if types is None or not types <= set(FINITE_TYPES):
        return None
    return [value for name in sorted(types) for value in FINITE_TYPES[name]]


def _plain(value: Any) -> Any:
    """1.0 and 1 are one JSON value: integral floats as ints."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _value_schema(values: list[Any], keyword: str = "enum") -> dict[str, Any]:
    unique = {canon(_plain(v)): _plain(v) for v in values}
    ordered = [unique[key] for key in sorted(unique)]
    out: dict[str, Any] = {}
    if ordered:
        out["type"] = _type_value(frozenset(_value_type(v) for v in ordered))
    if keyword == "const" and len(ordered) == 1:
        out["const"] = ordered[0]
    else:
        out["enum"] = ordered
    return out


def _values(schema: dict[str, Any]) -> dict[str, Any]:
    """An enum or const schema as the values the rest of it accepts, and nothing else."""
    has_enum = isinstance(schema.get("enum"), list)
    if not has_enum and "const" not in schema:
        return schema
    values = list(schema["enum"]) if has_enum else [schema["const"]]
    if has_enum and "const" in schema:
        values = [v for v in values if canon(_plain(v)) == canon(_plain(schema["const"]))]
    rest = {k: v for k, v in schema.items() if k not in ANNOTATIONS and k not in ("enum", "const")}
    if set(rest) == {"type"}:
        types = _types_of(rest) or frozenset()
        values = [v for v in values if any(value_has_type(v, name) for name in types)]
    elif rest:
        text = canon(rest)
        if any(ref in text for ref in _REFERENCES):
            raise _Unsafe
        try:
            validator = compile_schema(rest, DRAFT)
        except COMPILE_ERRORS:
            raise _Unsafe from None
        values = [v for v in values if validator.is_valid(v)]
    notes = {k: v for k, v in schema.items() if k in ANNOTATIONS}
    return {**notes, **_value_schema(values, "enum" if has_enum else "const")}


__all__ = ["normal_form"]
