"""The mistakes models make when they fill in a tool's arguments, as mutations of a valid call.

Each kind takes valid arguments and the tool's input schema and returns the
mistaken calls it can make of them, each with the path the gate's error must
name (a JSON Pointer into the arguments) and whether the gate must refuse it:

    numbers-as-strings   {"days": "30"} for an integer
    localised-enum       "섭씨" for "celsius"
    enum-case            "Celsius" for "celsius"
    missing-required     a required property left out
    extra-key            a property the tool does not declare
    near-miss-key        "old-string" for "old_string"
    wrong-nesting        the arguments wrapped in {"parameters": {...}}
    null-for-absent      null for a required property (refused), or for an optional one
                         (accepted: strict-mode null means "not given", and the function never sees it)
    double-encoded       the whole arguments as a JSON string inside a JSON string (accepted and
                         decoded, as runtime.md promises), or one object value as a JSON string (refused)
    empty-string         "" for a required string the schema does not let be empty
    array-for-scalar     ["x"] where one "x" belongs

A mutation the schema itself accepts is no mistake for that tool and is not
made (an empty string where the schema allows one), except the two that only an
open schema lets through (extra-key, near-miss-key): that is the weakness they
look for.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..schema.keywords import json_type

KINDS = ("numbers-as-strings", "localised-enum", "enum-case", "missing-required", "extra-key", "near-miss-key",
         "wrong-nesting", "null-for-absent", "double-encoded", "empty-string", "array-for-scalar")

# what a model writes in another language for a common English enum value
_LOCALISED = {
    "celsius": "섭씨", "fahrenheit": "화씨", "kelvin": "켈빈", "low": "낮음", "medium": "보통",
    "high": "높음", "asc": "오름차순", "desc": "내림차순", "ascending": "오름차순",
    "descending": "내림차순", "male": "남성", "female": "여성", "yes": "예", "no": "아니오",
    "public": "공개", "private": "비공개", "am": "오전", "pm": "오후", "small": "작음", "large": "큼",
    "open": "열림", "closed": "닫힘", "daily": "매일", "weekly": "매주", "monthly": "매월",
    "metric": "미터법", "imperial": "야드파운드법"
}


@dataclass(frozen=True, slots=True)
class Mistake:
    """One mistaken call: the arguments as sent, the path the error must name, whether the gate must refuse it."""

    kind: str
    arguments: Any          # a dict, or JSON text (double-encoded)
    path: str               # the offending path; "" when the whole call is wrong
    refuse: bool = True
    detail: str = ""
    absent: str | None = None  # null-for-absent on an optional property: the key the function must not see
    needs_open: bool = False   # only an open schema lets it through (extra-key, near-miss-key)
    also: tuple[str, ...] = ()  # other paths an error may name instead (the key that was meant)


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _properties(schema: Mapping[str, Any]) -> dict[str, Any]:
    props = schema.get("properties")
    return {k: v for k, v in props.items() if isinstance(v, dict)} if isinstance(props, dict) else {}


def _required(schema: Mapping[str, Any]) -> list[str]:
    req = schema.get("required")
    return [r for r in req if isinstance(r, str)] if isinstance(req, list) else []


def _types(prop: Mapping[str, Any]) -> set[str]:
    declared = prop.get("type")
    if isinstance(declared, str):
        return {declared}
    if isinstance(declared, list):
        return {t for t in declared if isinstance(t, str)}
    out: set[str] = set()
    for branch in prop.get("anyOf") or prop.get("oneOf") or []:
        if isinstance(branch, dict):
            out |= _types(branch)
    if not out and isinstance(prop.get("enum"), list):
        out = {json_type(v) for v in prop["enum"]}
    return out


def _enum_strings(prop: Mapping[str, Any]) -> list[str]:
    values = prop.get("enum")
    if not isinstance(values, list):
        branches = [b for b in prop.get("anyOf") or prop.get("oneOf") or [] if isinstance(b, dict)]
        values = [v for b in branches for v in (b.get("enum") or ([b["const"]] if "const" in b else []))]
    return [v for v in values if isinstance(v, str)]


def _full_width(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def _near_miss(key: str, taken: set[str]) -> str | None:
    candidates = []
    if "_" in key:
        candidates.append(key.replace("_", "-"))
        candidates.append(key.replace("_", ""))
    if any(c.isupper() for c in key):
        candidates.append(key.lower())
    if len(key) > 3:
        candidates.append(key[:-1])            # a letter dropped
        candidates.append(key + "s")           # plural
    return next((c for c in candidates if c and c not in taken), None)


def _numbers_as_strings(args: dict[str, Any], schema: Mapping[str, Any]) -> Iterator[Mistake]:
    for key, value in args.items():
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            yield Mistake("numbers-as-strings", {**args, key: json.dumps(value)}, "/" + _escape(key))


def _localised_enum(args: dict[str, Any], schema: Mapping[str, Any]) -> Iterator[Mistake]:
    props = _properties(schema)
    for key, value in args.items():
        choices = _enum_strings(props.get(key, {}))
        if isinstance(value, str) and value in choices:
            local = _LOCALISED.get(value.lower(), _full_width(value))
            if local not in choices:
                yield Mistake("localised-enum", {**args, key: local}, "/" + _escape(key))


def _enum_case(args: dict[str, Any], schema: Mapping[str, Any]) -> Iterator[Mistake]:
    props = _properties(schema)
    for key, value in args.items():
        choices = _enum_strings(props.get(key, {}))
        if isinstance(value, str) and value in choices:
            for variant in (value.capitalize(), value.upper(), value.lower()):
                if variant != value and variant not in choices:
                    yield Mistake("enum-case", {**args, key: variant}, "/" + _escape(key))
                    break


def _missing_required(args: dict[str, Any], schema: Mapping[str, Any]) -> Iterator[Mistake]:
    for key in _required(schema):
        if key in args and "default" not in _properties(schema).get(key, {}):
            yield Mistake("missing-required", {k: v for k, v in args.items() if k != key}, "/" + _escape(key))


def _extra_key(args: dict[str, Any], schema: Mapping[str, Any]) -> Iterator[Mistake]:
    props = _properties(schema)
    for name in ("note", "reason", "user_request", "extra"):
        if name not in props and name not in args:
            yield Mistake("extra-key", {**args, name: "as the user asked"}, "/" + name, needs_open=True)
            return


def _near_miss_key(args: dict[str, Any], schema: Mapping[str, Any]) -> Iterator[Mistake]:
    props = _properties(schema)
    for key in list(args):
        wrong = _near_miss(key, set(props) | set(args))
        if wrong is not None:
            mistaken = {(wrong if k == key else k): v for k, v in args.items()}
            yield Mistake("near-miss-key", mistaken, "/" + _escape(wrong), detail=f"'{wrong}' for '{key}'",
                          needs_open=True, also=("/" + _escape(key),))


def _wrong_nesting(args: dict[str, Any], schema: Mapping[str, Any]) -> Iterator[Mistake]:
    props = _properties(schema)
    if args and "parameters" not in props:
        yield Mistake("wrong-nesting", {"parameters": args}, "/parameters", needs_open=not _required(schema),
                      also=tuple("/" + _escape(key) for key in _required(schema)))
    for key, value in args.items():  # a nested object flattened into its parent
        if isinstance(value, dict) and value and not (set(value) & set(args)):
            yield Mistake("wrong-nesting", {**{k: v for k, v in args.items() if k != key}, **value},
                          "/" + _escape(next(iter(value))), detail=f"'{key}' flattened", also=("/" + _escape(key),))
            return


def _null_for_absent(args: dict[str, Any], schema: Mapping[str, Any]) -> Iterator[Mistake]:
    props, required = _properties(schema), set(_required(schema))
    for key in args:
        if "null" in _types(props.get(key, {})) or None in (props.get(key, {}).get("enum") or []):
            continue
        if key in required:
            yield Mistake("null-for-absent", {**args, key: None}, "/" + _escape(key))
        else:
            yield Mistake("null-for-absent", {**args, key: None}, "/" + _escape(key), refuse=False, absent=key)


def _double_encoded(args: dict[str, Any], schema: Mapping[str, Any]) -> Iterator[Mistake]:
    yield Mistake("double-encoded", json.dumps(json.dumps(args)), "", refuse=False)
    props = _properties(schema)
    for key, value in args.items():
        if isinstance(value, (dict, list)) and "string" not in _types(props.get(key, {})):
            yield Mistake("double-encoded", {**args, key: json.dumps(value)}, "/" + _escape(key))
            return


def _empty_string(args: dict[str, Any], schema: Mapping[str, Any]) -> Iterator[Mistake]:
    for key in _required(schema):
        if isinstance(args.get(key), str):
            yield Mistake("empty-string", {**args, key: ""}, "/" + _escape(key))


def _array_for_scalar(args: dict[str, Any], schema: Mapping[str, Any]) -> Iterator[Mistake]:
    props = _properties(schema)
    for key, value in args.items():
        if isinstance(value, (str, int, float, bool)) and "array" not in _types(props.get(key, {})):
            yield Mistake("array-for-scalar", {**args, key: [value]}, "/" + _escape(key))


MUTATORS: dict[str, Callable[[dict[str, Any], Mapping[str, Any]], Iterator[Mistake]]] = {
    "numbers-as-strings": _numbers_as_strings, "localised-enum": _localised_enum, "enum-case": _enum_case,
    "missing-required": _missing_required, "extra-key": _extra_key, "near-miss-key": _near_miss_key,
    "wrong-nesting": _wrong_nesting, "null-for-absent": _null_for_absent, "double-encoded": _double_encoded,
    "empty-string": _empty_string, "array-for-scalar": _array_for_scalar,
}


def mistakes_of(args: dict[str, Any], schema: Mapping[str, Any]) -> Iterator[Mistake]:
    """Every mistaken call that can be made of `args`, kind by kind."""
    for kind in KINDS:
        yield from MUTATORS[kind](args, schema)


__all__ = ["KINDS", "Mistake", "mistakes_of"]
