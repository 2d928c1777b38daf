"""One place turns a Python signature into schemas (through pydantic, as the MCP and OpenAI SDKs do).

- parameters → `inputSchema` (Literal → enum, `Annotated[..., Field(description=…)]`,
  pydantic models, Optional, defaults); Google-style `Args:` lines in the
  docstring describe parameters that have no `Field` description;
- the docstring (up to its `Args:`/`Returns:` sections) → the description;
- the return annotation → `outputSchema`.  MCP requires an object there, so a
  non-object result (a list, a string, a number) is wrapped as
  `{"result": <value>}` and the schema says so with `"x-toolclause-wrapped": true`;
  the function still returns the bare value and `Result.data` holds it bare —
  only `to_mcp()`'s `structuredContent` is wrapped.

Parameters whose annotation is plain JSON (str, int, float, bool, None, list,
dict, Literal, Optional/Union of those, TypedDict) reach the function as
parsed; any other (a pydantic model, a dataclass, datetime, an Enum …) is
converted by a pydantic `TypeAdapter` after the JSON Schema check.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import re
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Union

import pydantic
from pydantic import TypeAdapter
from pydantic.fields import FieldInfo

WRAPPED_KEY = "x-toolclause-wrapped"
IDEMPOTENCY_KEY = "idempotency_key"
IDEMPOTENCY_KEY_SCHEMA = {
    "type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[A-Za-z0-9_.:-]+$",
    "description": "A key that identifies this operation. Reuse the same key when retrying the same call; "
                   "use a new key for a new operation.",
}
_SECTION = re.compile(r"^\s*(Args|Arguments|Parameters|Params|Returns|Return|Yields|Raises|Examples?|Notes?)\s*:?\s*$")
_ARG_LINE = re.compile(r"^\s{0,8}(\*{0,2}[A-Za-z_][A-Za-z0-9_]*)\s*(?:\([^)]*\))?\s*:\s*(.+)$")


@dataclass(frozen=True)
class Signature:
    input_schema: dict[str, Any]
    output_schema: dict[str, Any] | None
    description: str | None
    wrapped: bool = False
    converters: Mapping[str, TypeAdapter] = field(default_factory=dict)  # parameters pydantic converts
    output_adapter: TypeAdapter | None = None


def describe_function(fn: Callable[..., Any], skip: frozenset[str] = frozenset()) -> Signature:
    """Schemas and description for `fn`; `skip` names parameters the gate supplies itself."""
    sig = inspect.signature(fn)
    hints = typing.get_type_hints(fn, include_extras=True)
    summary, arg_docs = split_docstring(inspect.getdoc(fn))
    fields: dict[str, Any] = {}
    converters: dict[str, TypeAdapter] = {}
    for name, param in sig.parameters.items():
        if name in skip or param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        if param.kind is param.POSITIONAL_ONLY:
            raise TypeError(f"parameter '{name}' is positional-only; a tool's arguments are passed by name")
        annotation = hints.get(name, Any)
        default = param.default if param.default is not param.empty else ...
        info = pydantic.Field(default=default)
        if name in arg_docs and not _has_description(annotation):
            info = pydantic.Field(default=default, description=arg_docs[name])
        fields[name] = (annotation, info)
        if not is_plain_json(annotation):
            converters[name] = TypeAdapter(annotation)
    model = pydantic.create_model(f"{fn.__name__}_arguments", **fields)
    schema = model.model_json_schema()
    _strip_titles(schema, root=True)
    schema.setdefault("properties", {})
    schema["additionalProperties"] = False
    output, wrapped, adapter = output_schema_for(hints.get("return", inspect.Signature.empty))
    return Signature(schema, output, summary, wrapped, converters, adapter)


def output_schema_for(annotation: Any) -> tuple[dict[str, Any] | None, bool, TypeAdapter | None]:
    if annotation is inspect.Signature.empty or annotation is Any or annotation is None or annotation is type(None):
        return None, False, None
    adapter = TypeAdapter(annotation)
    schema = adapter.json_schema(mode="serialization")
    _strip_titles(schema, root=True)
    if _is_object_schema(schema):
        return schema, False, adapter
    defs = schema.pop("$defs", None)
    wrapper: dict[str, Any] = {"type": "object", "properties": {"result": schema}, "required": ["result"],
                               WRAPPED_KEY: True}
    if defs:
        wrapper["$defs"] = defs
    return wrapper, True, adapter


def _is_object_schema(schema: dict[str, Any]) -> bool:
    if schema.get("type") == "object":
        return True
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/") and set(schema) <= {"$ref", "$defs"}:
        target = schema.get("$defs", {}).get(ref.rsplit("/", 1)[1], {})
        if target.get("type") == "object":
            # MCP wants the root to be an object: inline the one referenced model
            schema.update({k: v for k, v in target.items()})
            schema.pop("$ref", None)
            schema["$defs"].pop(ref.rsplit("/", 1)[1], None)
            if not schema["$defs"]:
                schema.pop("$defs", None)
            return True
    return False


def _strip_titles(schema: Any, root: bool = False) -> None:
    """Drop the titles pydantic derives from names ('Query' for `query`): they repeat the key."""
    if isinstance(schema, dict):
        title = schema.get("title")
        if isinstance(title, str) and (root or "type" in schema or "$ref" in schema or "anyOf" in schema
                                       or "enum" in schema or "items" in schema):
            schema.pop("title")
        for key, value in schema.items():
            if key in ("properties", "$defs") and isinstance(value, dict):
                for sub in value.values():
                    _strip_titles(sub, root=key == "$defs")
            elif key not in ("enum", "const", "default", "examples"):
                _strip_titles(value)
    elif isinstance(schema, list):
        for item in schema:
            _strip_titles(item)


def _has_description(annotation: Any) -> bool:
    if typing.get_origin(annotation) is typing.Annotated:
        return any(isinstance(m, FieldInfo) and m.description for m in annotation.__metadata__)
    return False


_PLAIN = (str, int, float, bool, type(None), list, dict, Any, object)


def is_plain_json(annotation: Any, depth: int = 0) -> bool:
    """True when pydantic would hand the function the parsed JSON value unchanged (no conversion needed)."""
    if depth > 8:
        return False
    if annotation in _PLAIN:
        return True
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return is_plain_json(annotation.__origin__, depth + 1)
    if origin is Literal:
        return all(isinstance(v, (str, int, bool, type(None))) for v in typing.get_args(annotation))
    if origin in (Union, types.UnionType, list, dict):
        return all(is_plain_json(a, depth + 1) for a in typing.get_args(annotation))
    if typing.is_typeddict(annotation):
        return all(is_plain_json(a, depth + 1) for a in typing.get_type_hints(annotation).values())
    return False


def split_docstring(doc: str | None) -> tuple[str | None, dict[str, str]]:
    """(description without the Args/Returns sections, {parameter: its Args line})."""
    if not doc:
        return None, {}
    kept: list[str] = []
    args: dict[str, str] = {}
    section: str | None = None
    current: str | None = None
    for line in doc.splitlines():
        heading = _SECTION.match(line)
        if heading:
            section = heading.group(1).lower()
            current = None
            continue
        if section is None:
            kept.append(line)
        elif section in ("args", "arguments", "parameters", "params"):
            found = _ARG_LINE.match(line)
            if found and not line.startswith(" " * 9):
                current = found.group(1).lstrip("*")
                args[current] = found.group(2).strip()
            elif current and line.strip():
                args[current] += " " + line.strip()
    text = "\n".join(kept).strip()
    return (text or None), args


def function_defaults(fn: Callable[..., Any]) -> dict[str, Any]:
    return {n: p.default for n, p in inspect.signature(fn).parameters.items() if p.default is not p.empty}


def accepts_any_keyword(fn: Callable[..., Any]) -> bool:
    return any(p.kind is p.VAR_KEYWORD for p in inspect.signature(fn).parameters.values())


def _not_json(value: Any) -> Any:
    raise TypeError(type(value).__name__)


# One C encoder for every check, built once: no markers dict (so no state shared between threads);
# a cycle ends in RecursionError like any value too deep to write.
_c_make_encoder = getattr(json.encoder, "c_make_encoder", None)
_json_check: Callable[..., Any] = (
    _c_make_encoder(None, _not_json, json.encoder.encode_basestring, None, ":", ",", False, False, False)
    if _c_make_encoder is not None else
    lambda value, _level: json.JSONEncoder(allow_nan=False, separators=(",", ":")).encode(value))
# NaN and Infinity stay floats through the conversion, so the check after it refuses them (never null)
_ANY = TypeAdapter(Any, config=pydantic.ConfigDict(ser_json_inf_nan="constants"))


def flat_json(value: dict[Any, Any]) -> bool:
    """Whether a dict is JSON data at a glance: text keys, and values that are text, whole numbers,
    booleans, null or finite floats (exactly those types, no subclasses).  False says nothing."""
    for key, item in value.items():
        kind = type(item)
        if type(key) is not str or not (kind is str or kind is int or kind is bool or item is None
                                        or (kind is float and item - item == 0)):
            return False
    return True


def json_data(value: Any) -> Any:
    """`value` when it is JSON data, else its JSON form (datetime → text, set → list …); raises when it has none.

    The check is one C encode (cycles, NaN, Infinity and depth are refused
    there); only a value that fails it is converted, by pydantic, and checked again.
    What the encoder takes as it is stays as it is (a tuple is written as an array,
    a number key as text).
    """
    if type(value) is dict and flat_json(value):  # the common case: one loop
        return value
    try:
        _json_check(value, 0)
        return value
    except (TypeError, ValueError, RecursionError):
        pass
    converted = _ANY.dump_python(value, mode="json")
    _json_check(converted, 0)
    return converted


def to_json_value(value: Any, adapter: TypeAdapter | None) -> Any:
    """A function's return value as JSON data (pydantic models, dataclasses, enums … dumped)."""
    if type(value) in (dict, list, str, int, float, bool) or value is None:
        return value
    if adapter is not None:  # a value of another type than annotated: the output check reports it, no warning
        return adapter.dump_python(value, mode="json", warnings=False)
    if isinstance(value, pydantic.BaseModel):
        return value.model_dump(mode="json")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return TypeAdapter(type(value)).dump_python(value, mode="json")
    return TypeAdapter(Any).dump_python(value, mode="json")
