"""Constraints a projection moves into a description, written as words a model reads.

`{"minLength": 1, "default": null}` becomes "At least 1 character; defaults to null." A keyword
without a phrase here is written as `keyword: value`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def _count(noun: str, plural: str | None = None) -> Callable[[Any], str]:
    def phrase(n: Any) -> str:
        return f"{n} {noun if n == 1 else plural or noun + 's'}"
    return phrase


def _one_of(values: Any) -> str:
    if isinstance(values, list):
        return "one of " + ", ".join(_json(v) for v in values)
    return f"one of {_json(values)}"


_ARTICLE = {"string": "a string", "number": "a number", "integer": "an integer", "boolean": "true or false",
            "object": "an object", "array": "a list", "null": "null"}


def _schema(value: Any) -> str:
    """A schema of types only, in words ("a string or null"); any other schema as JSON."""
    types = value.get("type") if isinstance(value, dict) and set(value) <= {"type", "description"} else None
    names = [types] if isinstance(types, str) else types if isinstance(types, list) else None
    if names and all(isinstance(t, str) and t in _ARTICLE for t in names):
        return " or ".join(_ARTICLE[t] for t in names)
    return _json(value)


def _closed(value: Any) -> str:
    if value is False:
        return "no properties besides those listed"
    if value is True:
        return "other properties allowed"
    return f"every other property is {_schema(value)}"


PHRASES: dict[str, Callable[[Any], str]] = {
    "minLength": lambda n: f"at least {_count('character')(n)}",
    "maxLength": lambda n: f"at most {_count('character')(n)}",
    "pattern": lambda p: f"matches the regular expression {p}" if isinstance(p, str) else f"pattern {_json(p)}",
    "format": lambda f: f"in {f} format" if isinstance(f, str) else f"format {_json(f)}",
    "minimum": lambda n: f"at least {_json(n)}",
    "maximum": lambda n: f"at most {_json(n)}",
    "exclusiveMinimum": lambda n: f"more than {_json(n)}" if not isinstance(n, bool) else "minimum excluded",
    "exclusiveMaximum": lambda n: f"less than {_json(n)}" if not isinstance(n, bool) else "maximum excluded",
    "multipleOf": lambda n: f"a multiple of {_json(n)}",
    "minItems": lambda n: f"at least {_count('item')(n)}",
    "maxItems": lambda n: f"at most {_count('item')(n)}",
    "uniqueItems": lambda v: "no item twice" if v is True else f"uniqueItems {_json(v)}",
    "minProperties": lambda n: f"at least {_count('property', 'properties')(n)}",
    "maxProperties": lambda n: f"at most {_count('property', 'properties')(n)}",
    "default": lambda v: f"defaults to {_json(v)}",
    "const": lambda v: f"always {_json(v)}",
    "enum": _one_of,
    "additionalProperties": _closed,
    "not": lambda s: f"never {_schema(s)}",
    "items": lambda s: f"each item is {_schema(s)}",
}


def describe(constraints: dict[str, Any]) -> str:
    """One sentence, the phrases in the schema's order: "At least 1 character; at most 64 characters." """
    phrases = [PHRASES[k](v) if k in PHRASES else f"{k}: {_json(v)}" for k, v in constraints.items()]
    text = "; ".join(phrases)
    return text[:1].upper() + text[1:] + "."


def append_sentence(description: Any, sentence: str) -> str:
    """`sentence` after the description (a full stop between them where it has none), or alone."""
    if not isinstance(description, str) or not description.strip():
        return sentence
    text = description.rstrip()
    return f"{text}{'' if text.endswith(('.', '!', '?', ':', ';', '。')) else '.'} {sentence}"
