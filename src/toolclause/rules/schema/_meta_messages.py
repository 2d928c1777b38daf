"""Turn meta-schema errors into messages that name the keyword and the fix (used by S001).

jsonschema-rs says *that* a value fails (`"string" is not of types "boolean",
"object"`); a person needs *which keyword* and *what to write instead*.  The
error's path is read against the schema itself, so that `properties/type` is
known to be a property named "type" and not the `type` keyword.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...model import Edit, Fix, join_pointer, resolve_pointer
from ...schema.keywords import (
    KEYWORD_VALUE_KINDS,
    NON_NEGATIVE_INTEGER_KEYWORDS,
    NUMBER_KEYWORDS,
    SCHEMA_LIST,
    SCHEMA_MAP,
    SCHEMA_VALUED,
    describe_value,
    json_kind,
)
from ...schema.meta import MetaError
from ._common import SCHEMA_EXAMPLE, type_hint

# Keywords other S rules own: reporting them here would say the same thing twice.
OWNED_ELSEWHERE = frozenset({"type"})  # S002 reports every bad `type`

_HOLDER_WORDS = {
    "properties": "property '{key}'",
    "patternProperties": "the schema for pattern '{key}'",
    "$defs": "definition '{key}'",
    "definitions": "definition '{key}'",
    "dependentSchemas": "the dependent schema '{key}'",
    "dependencies": "the dependency '{key}'",
}
_KIND_WORDS = {"object": "an object", "array": "a list", "string": "a string", "number": "a number",
               "boolean": "true or false", "null": "null"}


@dataclass(frozen=True, slots=True)
class Location:
    node_tokens: tuple[str | int, ...]  # path of the schema node holding the keyword
    node: Any                           # that node
    keyword: str | None                 # None: the error is about a whole subschema
    tail: tuple[str | int, ...]         # path inside the keyword's value
    holder: tuple[str, str | int | None] | None  # how the node (or the bad subschema) is held


def locate(schema: Any, path: tuple[str | int, ...]) -> Location:
    node: Any = schema
    tokens: tuple[str | int, ...] = ()
    holder: tuple[str, str | int | None] | None = None
    i = 0
    while i < len(path) and isinstance(node, dict):
        keyword = path[i]
        value = node.get(keyword) if isinstance(keyword, str) else None
        if i + 1 == len(path) or not isinstance(keyword, str):
            return Location(tokens, node, keyword if isinstance(keyword, str) else None, (), holder)
        nxt = path[i + 1]
        child_holder: tuple[str, str | int | None] | None = None
        child: Any = None
        if keyword in SCHEMA_MAP and isinstance(value, dict) and isinstance(nxt, str) and nxt in value:
            child, child_holder = value[nxt], (keyword, nxt)
            if keyword == "dependencies" and isinstance(child, list):
                return Location(tokens, node, keyword, path[i + 1:], holder)
        elif (keyword in SCHEMA_LIST or keyword == "items") and isinstance(value, list) and isinstance(nxt, int):
            child, child_holder = value[nxt], (keyword, nxt)
        elif keyword in SCHEMA_VALUED and isinstance(value, dict):
            node, tokens, holder = value, tokens + (keyword,), (keyword, None)
            i += 1
            continue
        if child_holder is None:
            return Location(tokens, node, keyword, path[i + 1:], holder)
        if i + 2 == len(path):  # the error is about this subschema as a whole
            return Location(tokens + (keyword, nxt), child, None, (), child_holder)
        node, tokens, holder = child, tokens + (keyword, nxt), child_holder
        i += 2
    return Location(tokens, node, None, (), holder)


def _where(holder: tuple[str, str | int | None] | None) -> str:
    if holder is None:
        return "the schema"
    keyword, key = holder
    if keyword in _HOLDER_WORDS:
        return _HOLDER_WORDS[keyword].format(key=key)
    if key is None:
        return f"'{keyword}'"
    return f"'{keyword}' entry {key}"


def _numeric_string(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        float(value)
    except ValueError:
        return False
    return True


def _unquote_hint(value: Any) -> str:
    return f" (write {value.strip()} without quotes)" if _numeric_string(value) or value in ("true", "false") else ""


def explain(error: MetaError, schema: dict[str, Any], base: str, dialect: str,
            openapi: bool = False) -> tuple[str, str, Fix | None] | None:
    """(pointer, message, fix) for one meta-schema error, or None when another rule owns it."""
    loc = locate(schema, error.path)
    pointer = join_pointer(base, *error.path)
    value = error.instance
    keyword = loc.keyword
    if keyword is None:
        if loc.holder is None:
            return None
        return pointer, _not_a_schema(_where(loc.holder), value, dialect), None
    if keyword in OWNED_ELSEWHERE:
        return None
    if keyword == "enum" and error.kind == "MinItems":
        return None  # an empty enum is S009's
    if openapi and keyword in NON_NEGATIVE_INTEGER_KEYWORDS and _numeric_string(value):
        return None  # protobuf JSON writes int64 as a string
    if loc.tail:
        return pointer, _inside(keyword, loc.tail, value, error), None
    if keyword == "required":
        return _required(loc, value, pointer, base, error, schema)
    if keyword in SCHEMA_VALUED:
        if keyword == "items" and isinstance(value, list):
            return pointer, ("'items' takes one schema in JSON Schema 2020-12 (the dialect when no $schema is "
                             "given); a list of schemas per position is 'prefixItems' — or declare "
                             "\"$schema\": \"http://json-schema.org/draft-07/schema#\""), None
        message = _not_a_schema(f"'{keyword}'", value, dialect, boolean_ok=dialect != "draft-04"
                                or keyword in ("additionalProperties", "additionalItems"))
        return pointer, message, None
    if keyword in SCHEMA_MAP:
        message = f"'{keyword}' must be an object mapping each name to its schema; got {describe_value(value)}"
        if isinstance(value, list) and value and all(isinstance(v, dict) and "name" in v for v in value):
            message += (" (a list of parameter records is not JSON Schema: write "
                        "{\"city\": {\"type\": \"string\"}, …})")
        return pointer, message, None
    if keyword in SCHEMA_LIST:
        if isinstance(value, list) and not value:
            return pointer, f"'{keyword}' is empty; it must list at least one schema (or be removed)", None
        return pointer, f"'{keyword}' must be a list of schemas; got {describe_value(value)}", None
    if keyword in ("exclusiveMinimum", "exclusiveMaximum") and isinstance(value, bool):
        bound = "minimum" if keyword == "exclusiveMinimum" else "maximum"
        return pointer, (f"'{keyword}: {str(value).lower()}' is draft-04 syntax; since draft-06 '{keyword}' is "
                         f"the bound itself: write \"{keyword}\": <the {bound}> and remove '{bound}'"
                         if value else f"'{keyword}: false' is draft-04 syntax; remove it"), None
    if keyword in NUMBER_KEYWORDS:
        if keyword == "multipleOf" and json_kind(value) == "number":
            return pointer, f"'multipleOf' must be greater than 0; got {value}", None
        return pointer, f"'{keyword}' must be a number; got {describe_value(value)}{_unquote_hint(value)}", None
    if keyword in NON_NEGATIVE_INTEGER_KEYWORDS:
        return pointer, (f"'{keyword}' must be a non-negative integer; got {describe_value(value)}"
                         f"{_unquote_hint(value)}"), None
    if keyword == "enum":
        if isinstance(value, list):
            return pointer, "'enum' lists the same value more than once", None
        message = f"'enum' must be a list of the allowed values; got {describe_value(value)}"
        if isinstance(value, str) and any(sep in value for sep in (",", "|", "/")):
            message += " (split it into a list: [\"a\", \"b\"])"
        return pointer, message, None
    kinds = KEYWORD_VALUE_KINDS.get(keyword)
    if kinds and json_kind(value) not in kinds:
        expected = " or ".join(_KIND_WORDS[k] for k in sorted(kinds))
        hint = ""
        if keyword == "examples":
            hint = " (write a list of example values: [\"…\", \"…\"])"
        return pointer, f"'{keyword}' must be {expected}; got {describe_value(value)}{hint}", None
    return pointer, f"'{keyword}' is invalid: {error.message}", None


def _not_a_schema(where: str, value: Any, dialect: str, boolean_ok: bool = True) -> str:
    also = " or a boolean" if boolean_ok else ""
    message = f"{where} must be a schema (an object such as {SCHEMA_EXAMPLE}){also}; got {describe_value(value)}"
    if isinstance(value, str) and value.strip().lower() in ("true", "false") and boolean_ok:
        return message + f" (write {value.strip().lower()} without quotes)"
    return message + type_hint(value)


def _inside(keyword: str, tail: tuple[str | int, ...], value: Any, error: MetaError) -> str:
    where = f"'{keyword}' entry " + "/".join(str(t) for t in tail)
    if error.kind == "Type" and keyword in ("required", "dependentRequired"):
        return f"{where} must be a property name (a string); got {describe_value(value)}"
    return f"{where} is invalid: {error.message}"


def _required(loc: Location, value: Any, pointer: str, base: str,
              error: MetaError, schema: Any) -> tuple[str, str, Fix | None]:
    if isinstance(value, bool):
        return _draft3_required(loc, value, pointer, base, schema)
    if isinstance(value, str):
        return pointer, (f"'required' must be a list of property names; got {describe_value(value)} "
                         f"(write [\"{value}\"])"), Fix(f"write \"required\": [\"{value}\"]", safe=True,
                                                         edits=(Edit("set", pointer, [value]),))
    if isinstance(value, list):
        if error.kind == "UniqueItems":
            repeated = sorted({n for n in value if isinstance(n, str) and value.count(n) > 1})
            names = ", ".join(f"'{n}'" for n in repeated) or "a name"
            return pointer, f"'required' lists {names} more than once; list each property once", None
        if error.kind == "MinItems":
            return pointer, "in draft-04 'required' must not be empty; remove it", None
    return pointer, f"'required' must be a list of property names; got {describe_value(value)}", None


def _draft3_required(loc: Location, value: bool, pointer: str, base: str, schema: Any) -> tuple[str, str, Fix | None]:
    if loc.holder is None or loc.holder[0] != "properties" or len(loc.node_tokens) < 2:
        return pointer, ("'required' must be a list of property names; a boolean 'required' is draft-3 syntax "
                         "(list the names in the parent object's 'required' instead)"), None
    name = str(loc.holder[1])
    if not value:
        return pointer, (f"'required: false' inside property '{name}' is draft-3 syntax that current JSON Schema "
                         f"rejects; remove it (a property is optional unless the parent object's 'required' "
                         f"lists it)"), Fix("remove 'required: false'", safe=True, edits=(Edit("remove", pointer),))
    message = (f"'required: true' inside property '{name}' is draft-3 syntax that current JSON Schema rejects; "
               f"remove it and add '{name}' to the parent object's 'required' list")
    return pointer, message, _move_required_fix(loc, name, pointer, base, schema)


def _move_required_fix(loc: Location, name: str, pointer: str, base: str, schema: Any) -> Fix:
    """Every sibling marked `required: true` moves into the parent's list at once, so each
    finding's fix writes the same final list and applying them all cannot lose a name."""
    description = f"move '{name}' into the parent object's 'required' list"
    parent_tokens = loc.node_tokens[:-2]
    try:
        parent = resolve_pointer(schema, join_pointer("", *parent_tokens))
    except KeyError:
        parent = None
    existing = parent.get("required", []) if isinstance(parent, dict) else None
    properties = parent.get("properties") if isinstance(parent, dict) else None
    if not isinstance(existing, list) or not all(isinstance(n, str) for n in existing) \
            or not isinstance(properties, dict):
        return Fix(description, safe=False)
    names = list(existing) + [name for name, prop in properties.items()
                              if isinstance(prop, dict) and prop.get("required") is True and name not in existing]
    return Fix(description, safe=True, edits=(Edit("remove", pointer),
                                              Edit("set", join_pointer(base, *parent_tokens, "required"), names)))
