"""Stage 3 of a call: a compiled validator's errors → envelope `details` + one message.

Each problem is a small record, like pydantic-core's: `path` (a JSON Pointer
into the arguments), `problem` (the JSON Schema keyword that failed, a stable
slug), and where they help `expected` (a type or a description) and `allowed`
(enum values, or the declared property names for an unknown key).  Messages
are filled from those records only; the validator's own text is never used,
because it repeats the input value ("'4111…' is not of type integer").

Missing and unknown keys come first and together, each unknown key paired with
the missing or declared name it most likely meant (`'old-string' given,
'old_string' expected`).  At most `MAX_PROBLEMS` records.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import jsonschema_rs

from ..model import escape_token
from ..schema.failures import failed_keyword
from ..schema.keywords import json_type
from ..schema.refs import MISSING, ref_target
from ..suggest import closest

MAX_PROBLEMS = 20


def schema_errors(validator: Any, instance: Any, schema: Mapping[str, Any],
                  hide_undeclared: bool = False) -> tuple[list[dict[str, Any]], bool]:
    """(problems as `details` records, missing/unknown keys first, at most MAX_PROBLEMS; whether some were cut).

    A record may carry `_got` (the JSON type that was sent) for the message;
    `public` drops it from the envelope, whose records are exactly
    {path, problem, expected, allowed}.  With `hide_undeclared` (the gate: the
    paths go to a model) paths name only what the schema declares (see `safe_path`).
    """
    keys: list[dict[str, Any]] = []
    others: list[dict[str, Any]] = []
    names = declared_names(schema) if hide_undeclared else None
    for error in validator.iter_errors(instance):
        for record in _records(error, instance, schema, names):
            (keys if record["problem"] in ("required", "additionalProperties") else others).append(record)
        if len(keys) + len(others) >= MAX_PROBLEMS * 2:
            break
    found = keys + others
    return found[:MAX_PROBLEMS], len(found) > MAX_PROBLEMS


def public(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if not k.startswith("_")} for r in records]


# --------------------------------------------------------------------------- what a path may show

MAX_PATH_CHARS = 256
HIDDEN = "*"
"""A key the schema does not declare stands as this in a path: the model wrote it, and it may hold anything."""
_NAMES_MEMO: dict[int, tuple[Any, frozenset[str]]] = {}
_MAX_SCHEMA_NODES = 100_000


def declared_names(schema: Any) -> frozenset[str]:
    """Every property name (and required name) declared anywhere in `schema`, kept per schema object."""
    memo = _NAMES_MEMO.get(id(schema))
    if memo is not None and memo[0] is schema:
        return memo[1]
    names: set[str] = set()
    stack, seen = [schema], 0
    while stack and seen < _MAX_SCHEMA_NODES:
        node = stack.pop()
        seen += 1
        if isinstance(node, dict):
            properties = node.get("properties")
            if isinstance(properties, dict):
                names.update(k for k in properties if isinstance(k, str))
            required = node.get("required")
            if isinstance(required, list):
                names.update(k for k in required if isinstance(k, str))
            stack.extend(v for k, v in node.items() if isinstance(v, (dict, list)) and k not in ("enum", "const",
                                                                                               "default", "examples"))
        elif isinstance(node, list):
            stack.extend(v for v in node if isinstance(v, (dict, list)))
    found = frozenset(names)
    if len(_NAMES_MEMO) >= 256:
        _NAMES_MEMO.clear()
    _NAMES_MEMO[id(schema)] = (schema, found)
    return found


def safe_path(tokens: Iterable[Any], names: frozenset[str] | None) -> str:
    """A JSON Pointer into what the model sent that repeats only array indexes and declared names, cut at
    MAX_PATH_CHARS: any other key (a free-form dict's, or one no schema declares) is HIDDEN.  Without
    `names`, every key is shown."""
    return _cut_path("".join("/" + (str(t) if type(t) is int else escape_token(t) if names is None or t in names
                                    else HIDDEN) for t in tokens))


def _cut_path(path: str) -> str:
    return path if len(path) <= MAX_PATH_CHARS else path[: MAX_PATH_CHARS - 1] + "…"


def unknown_key_path(parent: Iterable[Any], key: str, declared: Iterable[str], names: frozenset[str] | None) -> str:
    """The path of a key that is not a parameter: shown only when it is a near miss of a declared name
    (`old-string` for `old_string`, what did-you-mean needs), else HIDDEN (without `names`, always shown)."""
    shown = key if names is None or (len(key) <= 64 and closest(key, list(declared)) is not None) else HIDDEN
    return _cut_path(safe_path(parent, names) + "/" + escape_token(shown))


def _records(error: Any, instance: Any, root: Mapping[str, Any],
             names: frozenset[str] | None) -> Iterable[dict[str, Any]]:
    failure = _Failure(error, safe_path(error.instance_path, names), failed_keyword(error),
                       _at(instance, error.instance_path), root, names)
    explain = _EXPLAIN.get(type(error.kind))
    if explain is not None:
        yield from explain(failure)
    else:
        words = _FIXED_EXPECTED.get(type(error.kind), f"a value that satisfies '{failure.problem}'")
        yield _record(failure.path, failure.problem, expected=words)


@dataclass(frozen=True, slots=True)
class _Failure:
    """One validator error, with what every record needs: where, the code (`failed_keyword`), the value sent."""

    error: Any
    path: str
    problem: str
    value: Any
    root: Mapping[str, Any]
    names: frozenset[str] | None

    @property
    def kind(self) -> Any:
        return self.error.kind

    def parent_schema(self) -> Mapping[str, Any]:
        """The schema object the failing keyword sits in."""
        return _schema_at(self.root, list(self.error.schema_path)[:-1])


def _missing(f: _Failure) -> Iterable[dict[str, Any]]:
    prop = f.kind.property
    node = f.parent_schema()
    sub = node.get("properties", {}).get(prop) if isinstance(node.get("properties"), dict) else None
    yield _record(f"{f.path}/{escape_token(prop)}", f.problem, expected=describe_type(sub))


def _unknown_keys(f: _Failure) -> Iterable[dict[str, Any]]:
    node = f.parent_schema()
    declared = sorted(node.get("properties", {})) if isinstance(node.get("properties"), dict) else []
    for key in f.kind.unexpected:
        yield _record(unknown_key_path(f.error.instance_path, key, declared, f.names), f.problem,
                      allowed=declared[:MAX_PROBLEMS] if declared else None)


def _wrong_type(f: _Failure) -> Iterable[dict[str, Any]]:
    yield _record(f.path, f.problem, expected=" or ".join(f.kind.types), got=json_type(f.value))


def _not_listed(f: _Failure) -> Iterable[dict[str, Any]]:
    yield _record(f.path, f.problem, allowed=list(f.kind.options)[:MAX_PROBLEMS])


def _not_fixed(f: _Failure) -> Iterable[dict[str, Any]]:
    yield _record(f.path, f.problem, allowed=[f.kind.expected_value])


def _no_alternative(f: _Failure) -> Iterable[dict[str, Any]]:
    branches = _node_at(f.root, list(f.error.schema_path))
    choices = _enum_choices(branches, f.root) if f.value is not None else None
    if choices is not None:  # Optional[Literal[...]]: the model sent a value outside the list
        yield _record(f.path, "enum", allowed=choices[:MAX_PROBLEMS])
    else:
        yield _record(f.path, f.problem, expected=_branch_types(f.error), got=json_type(f.value))


def _past_limit(f: _Failure) -> Iterable[dict[str, Any]]:
    attribute, template = _LIMITS[type(f.kind)]
    limit = getattr(f.kind, attribute, None)
    one = limit == 1
    yield _record(f.path, f.problem, expected=template.format(limit=limit, s="" if one else "s",
                                                              ies="y" if one else "ies"))


def _no_match(f: _Failure) -> Iterable[dict[str, Any]]:
    yield _record(f.path, f.problem, expected=f"text matching the pattern {f.kind.pattern}")


def _wrong_format(f: _Failure) -> Iterable[dict[str, Any]]:
    yield _record(f.path, f.problem, expected=f"a valid {f.kind.format}")


_K = jsonschema_rs.ValidationErrorKind
_LIMITS = {
    _K.Minimum: ("limit", "a number ≥ {limit}"),
    _K.Maximum: ("limit", "a number ≤ {limit}"),
    _K.ExclusiveMinimum: ("limit", "a number > {limit}"),
    _K.ExclusiveMaximum: ("limit", "a number < {limit}"),
    _K.MultipleOf: ("multiple_of", "a multiple of {limit}"),
    _K.MinLength: ("limit", "at least {limit} character{s}"),
    _K.MaxLength: ("limit", "at most {limit} character{s}"),
    _K.MinItems: ("limit", "at least {limit} item{s}"),
    _K.MaxItems: ("limit", "at most {limit} item{s}"),
    _K.MinProperties: ("limit", "at least {limit} propert{ies}"),
    _K.MaxProperties: ("limit", "at most {limit} propert{ies}"),
}
# how each kind of validator error becomes records; the rest say what was expected in fixed words
_EXPLAIN = {
    _K.Required: _missing,
    _K.AdditionalProperties: _unknown_keys,
    _K.Type: _wrong_type,
    _K.Enum: _not_listed,
    _K.Constant: _not_fixed,
    _K.AnyOf: _no_alternative,
    _K.OneOfNotValid: _no_alternative,
    _K.Pattern: _no_match,
    _K.Format: _wrong_format,
    **{kind: _past_limit for kind in _LIMITS},
}
_FIXED_EXPECTED = {
    _K.OneOfMultipleValid: "exactly one of the allowed shapes (several match)",
    _K.UniqueItems: "no repeated items",
    _K.FalseSchema: "nothing (this value is not allowed)",
    _K.Not: "a value the schema's 'not' does not match",
    _K.Contains: "at least one item of the required shape",
    _K.PropertyNames: "property names of the required shape",
    _K.UnevaluatedProperties: "no properties beyond the declared ones",
    _K.UnevaluatedItems: "no items beyond the declared ones",
    _K.AdditionalItems: "no items beyond the declared ones",
}


def _record(path: str, problem: str, *, expected: str | None = None, allowed: list | None = None,
            got: str | None = None) -> dict[str, Any]:
    record: dict[str, Any] = {"path": path, "problem": problem}
    if expected:
        record["expected"] = expected
    if allowed is not None:
        record["allowed"] = allowed
    if got:
        record["_got"] = got  # the JSON type of what was sent, never the value
    return record


def _enum_choices(branches: Any, root: Mapping[str, Any]) -> list | None:
    """The allowed values when every non-null branch is an enum or const, else None."""
    if not isinstance(branches, list):
        return None
    values: list = []
    for branch in branches:
        if isinstance(branch, dict) and "$ref" in branch:
            branch = ref_target(root, branch["$ref"])
        if not isinstance(branch, dict):
            return None
        if branch.get("type") == "null" and len(branch) == 1:
            continue
        if isinstance(branch.get("enum"), list):
            values.extend(v for v in branch["enum"] if v is not None)
        elif "const" in branch:
            values.append(branch["const"])
        else:
            return None
    return values or None


def _branch_types(error: Any) -> str:
    types: list[str] = []
    for branch in getattr(error.kind, "context", None) or []:
        found = [t for e in branch if type(e.kind).__name__ == "Type" for t in e.kind.types]
        for t in found or ["another shape"]:
            if t not in types:
                types.append(t)
    return " or ".join(types) if types else "one of the allowed shapes"


def _at(instance: Any, path: Sequence[Any]) -> Any:
    for token in path:
        try:
            instance = instance[token]
        except (KeyError, IndexError, TypeError):
            return None
    return instance


def _schema_at(root: Mapping[str, Any], tokens: list[Any]) -> Mapping[str, Any]:
    """The schema object a keyword sits in, following local `$ref`s the path goes through."""
    node = _node_at(root, tokens)
    return node if isinstance(node, dict) else {}


def _node_at(root: Mapping[str, Any], tokens: list[Any]) -> Any:
    """The schema value at an error's schema path; a `$ref` token there means the path went through it."""
    node: Any = root
    for token in tokens:
        if isinstance(node, dict) and token == "$ref" and isinstance(node.get("$ref"), str):
            node = ref_target(root, node["$ref"])
            if node is MISSING:
                return None
            continue
        if isinstance(node, dict):
            node = node.get(str(token))
        elif isinstance(node, list) and str(token).isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return node


def describe_type(schema: Any) -> str | None:
    if not isinstance(schema, dict):
        return None
    declared = schema.get("type")
    if isinstance(declared, str):
        return declared
    if isinstance(declared, list) and all(isinstance(t, str) for t in declared):
        return " or ".join(declared)
    if "enum" in schema:
        return "one of the listed values"
    branches = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(branches, list):
        types = [describe_type(b) for b in branches]
        described = [t for t in types if t]
        if len(described) == len(types):
            return " or ".join(dict.fromkeys(described))
    if isinstance(schema.get("properties"), dict):
        return "object"
    return None


# --------------------------------------------------------------------------- the message


def readable_path(pointer: str) -> str:
    """'/filters/0/name' → 'filters[0].name' (what a model reads most easily)."""
    out = ""
    for token in pointer[1:].split("/") if pointer else []:
        token = token.replace("~1", "/").replace("~0", "~")
        if token.isdigit() and out:
            out += f"[{token}]"
        else:
            out += ("." if out else "") + token
    return out or "the arguments"


def _short(text: str, limit: int = 64) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def describe(records: Sequence[dict[str, Any]]) -> list[str]:
    """One phrase per record; an unknown key and the missing key it most likely meant become one phrase."""
    missing = [r["path"] for r in records if r["problem"] == "required"]
    pairs: dict[str, str] = {}  # unknown key's path → the missing path it most likely meant
    for record in records:
        if record["problem"] == "additionalProperties":
            parent, _, key = record["path"].rpartition("/")
            candidates = [m.rpartition("/")[2] for m in missing
                          if m.rpartition("/")[0] == parent
                          and f"{parent}/{m.rpartition('/')[2]}" not in pairs.values()]
            guess = closest(key, candidates) if candidates else None
            if guess is not None:
                pairs[record["path"]] = f"{parent}/{guess}"
    paired = set(pairs.values())
    phrases: list[str] = []
    for record in records:
        path, problem = record["path"], record["problem"]
        name = f"'{_short(readable_path(path))}'"
        if problem == "additionalProperties":
            if path.rpartition("/")[2] == HIDDEN:
                where = path.rpartition("/")[0]
                names = ", ".join(_short(str(a), 40) for a in record.get("allowed", [])[:10])
                phrases.append(("an argument" if not where else f"'{_short(readable_path(where))}' has a key")
                               + " that is not a parameter (its name is not repeated here)"
                               + (f"; the names allowed are {names}" if names else ""))
                continue
            if path in pairs:
                phrases.append(f"{name} given, '{_short(readable_path(pairs[path]))}' expected")
                continue
            guess = closest(path.rpartition("/")[2], record.get("allowed", []))
            phrases.append(f"{name} is not a parameter" + (f"; did you mean '{guess}'?" if guess else ""))
        elif problem == "required":
            if path in paired:
                continue
            expected = record.get("expected")
            phrases.append(f"{name} is missing" + (f" (expected {expected})" if expected else ""))
        elif problem in ("enum", "const"):
            allowed = ", ".join(_short(str(v), 40) for v in record.get("allowed", []))
            phrases.append(f"{name} must be one of {allowed}" if problem == "enum" else f"{name} must be {allowed}")
        elif problem in ("type", "anyOf", "oneOf") and record.get("_got"):
            phrases.append(f"{name} must be {record.get('expected')}, not {record['_got']}")
        else:
            phrases.append(f"{name} must be {record.get('expected', 'valid')}")
    return phrases


def validation_message(tool: str, records: Sequence[dict[str, Any]], truncated: bool = False) -> str:
    phrases = describe(records)
    count = len(phrases)
    head = f"{tool}: {count}{'+' if truncated else ''} problem{'s' if count != 1 else ''} in the arguments: "
    return head + "; ".join(phrases) + ("; more problems not shown" if truncated else "")
