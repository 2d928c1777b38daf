"""Compare two JSON Schemas by what they accept, not by their text.

The question for arguments is: is every instance the old schema accepted still
accepted by the new one?  A change that says no *narrows* the schema (a call
that worked is now rejected); one that says yes *widens* it.  For results the
question turns around: a consumer written against the old output schema breaks
when the new one lets through something the old one did not.

The comparison walks both schemas in step (properties by name, items, branches by
position), follows local `$ref`s on each side, and stops at a depth bound and at
reference cycles, so hostile schemas cost bounded work.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeGuard

from ..model import escape_token, resolve_pointer
from ..schema.keywords import type_alias
from .kinds import DIFF_KINDS, change
from .model import Change, Impact

MAX_DEPTH = 64

LOWER_BOUNDS = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains")
UPPER_BOUNDS = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains")
WORDS = {"minimum": "minimum", "exclusiveMinimum": "exclusive minimum", "minLength": "minimum length",
         "minItems": "minimum item count", "minProperties": "minimum property count", "minContains": "minContains",
         "maximum": "maximum", "exclusiveMaximum": "exclusive maximum", "maxLength": "maximum length",
         "maxItems": "maximum item count", "maxProperties": "maximum property count", "maxContains": "maxContains"}


# the kind of change, by keyword, for keywords compared the same way
TEXT_KINDS = {"description": "description-changed", "title": "title-changed"}
FLAG_ADDED_KINDS = {"exclusiveMinimum": "exclusiveMinimum-added", "exclusiveMaximum": "exclusiveMaximum-added"}
FLAG_REMOVED_KINDS = {"exclusiveMinimum": "exclusiveMinimum-removed", "exclusiveMaximum": "exclusiveMaximum-removed"}
STRING_ADDED_KINDS = {"pattern": "pattern-added", "format": "format-added"}
STRING_REMOVED_KINDS = {"pattern": "pattern-removed", "format": "format-removed"}
STRING_CHANGED_KINDS = {"pattern": "pattern-changed", "format": "format-changed"}
BRANCH_ADDED_KINDS = {"anyOf": "anyOf-added", "oneOf": "oneOf-added"}
BRANCH_REMOVED_KINDS = {"anyOf": "anyOf-removed", "oneOf": "oneOf-removed"}

# what a change means on each side, after its message (see kinds.py for the effects)
_RESULTS_SURPRISE = "; a consumer written for the old results may receive what it does not expect"
_CONSEQUENCES = {
    ("narrows", "input"): "; a call that was valid is now rejected",
    ("narrows", "output"): "; results only get more predictable",
    ("widens", "input"): "; every call that was valid still is",
    ("widens", "output"): _RESULTS_SURPRISE,
    ("changes", "input"): "; a call that was valid may now be rejected",
    ("changes", "output"): _RESULTS_SURPRISE,
}


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _types(schema: dict[str, Any]) -> frozenset[str] | None:
    """The declared types, with "integer" implied by "number"; None when unconstrained.

    Type names with a certain meaning (`float`, `dict`, `str` — rule S002's table)
    are read as the JSON type they mean: `float` → `number` is not a change.
    """
    value = schema.get("type")
    if isinstance(value, str):
        raw = [value]
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        raw = value
    else:
        return None
    names: set[str] = set()
    for name in raw:
        known, meant = type_alias(name)
        if not known:
            names.add(name)
        elif meant is None:
            return None  # "any"
        else:
            names.add(meant)
    if "number" in names:
        names.add("integer")
    if schema.get("nullable") is True:
        names.add("null")
    return frozenset(names)


def _is_number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _as_dict(value: Any) -> dict[str, Any]:
    """The value when it is an object, else an empty one."""
    return value if isinstance(value, dict) else {}


def _strings(value: Any) -> list[str]:
    """The strings of a list (a `required` list), ignoring anything else; [] when it is not a list."""
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _closed(schema: Any) -> bool:
    return isinstance(schema, dict) and (schema.get("additionalProperties") is False
                                         or schema.get("unevaluatedProperties") is False)


class SchemaComparer:
    """Compares one pair of schemas (the input or the output of one tool)."""

    def __init__(self, tool: str, role: str, old_root: Any, new_root: Any, old_base: str, new_base: str) -> None:
        self.tool = tool
        self.role = role  # "input" or "output"
        self.old_root, self.new_root = old_root, new_root
        self.old_base, self.new_base = old_base, new_base
        self.changes: list[Change] = []
        self._seen: set[tuple[int, int]] = set()

    # -------------------------------------------------------------- classification

    def add(self, kind: str, old: str, new: str, message: str) -> None:
        """A change classified by `DIFF_KINDS`; the message gains what the change means on this side."""
        consequence = _CONSEQUENCES.get((DIFF_KINDS[kind].effect.label, self.role), "")
        self._add(kind, old, new, message + consequence)

    def _add(self, kind: str, old: str, new: str, message: str, impact: Impact | None = None) -> None:
        """A change whose message is complete (and, for a kind that depends on more, whose impact is given)."""
        self.changes.append(change(kind, self.tool, old, new, message, role=self.role, impact=impact))

    # -------------------------------------------------------------- walking

    def run(self) -> list[Change]:
        self.compare(self.old_root, self.new_root, self.old_base, self.new_base, 0)
        return self.changes

    def _deref(self, schema: Any, pointer: str, root: Any, base: str) -> tuple[Any, str]:
        """Follow local `$ref`s (a few hops at most) to the schema they name."""
        for _ in range(8):
            if not isinstance(schema, dict) or not isinstance(schema.get("$ref"), str):
                break
            ref = schema["$ref"]
            if not ref.startswith("#"):
                break
            try:
                target = resolve_pointer(root, ref[1:])
            except KeyError:
                break
            siblings = {k: v for k, v in schema.items() if k != "$ref"}
            pointer = base + ref[1:]
            schema = {**target, **siblings} if isinstance(target, dict) and siblings else target
        return schema, pointer

    def compare(self, old: Any, new: Any, op: str, np: str, depth: int) -> None:
        if depth > MAX_DEPTH:
            return
        old, op = self._deref(old, op, self.old_root, self.old_base)
        new, np = self._deref(new, np, self.new_root, self.new_base)
        key = (id(old), id(new))
        if key in self._seen:
            return  # a reference cycle: this pair is already being compared
        self._seen.add(key)
        if isinstance(old, bool) or isinstance(new, bool) or not isinstance(old, dict) or not isinstance(new, dict):
            self._compare_booleans(old, new, op, np)
            return
        self._compare_texts(old, new, op, np)
        self._compare_types(old, new, op, np)
        self._compare_values(old, new, op, np)
        self._compare_bounds(old, new, op, np)
        self._compare_strings(old, new, op, np)
        self._compare_object(old, new, op, np, depth)
        self._compare_array(old, new, op, np, depth)
        self._compare_branches(old, new, op, np, depth)

    def _compare_booleans(self, old: Any, new: Any, op: str, np: str) -> None:
        accepts_all = lambda s: s is True or s == {}  # noqa: E731
        if accepts_all(old) and not accepts_all(new):
            self.add("schema-restricted", op, np, "a schema that accepted anything now constrains the value")
        elif not accepts_all(old) and accepts_all(new):
            self.add("schema-unrestricted", op, np, "a constrained schema now accepts anything")
        elif old is False and new is not False:
            self.add("schema-allowed", op, np, "a schema that rejected everything now accepts values")
        elif new is False and old is not False:
            self.add("schema-forbidden", op, np, "the schema now rejects every value")

    # -------------------------------------------------------------- keyword groups

    def _compare_texts(self, old: dict, new: dict, op: str, np: str) -> None:
        for keyword in ("description", "title"):
            if old.get(keyword) != new.get(keyword) and (keyword in old or keyword in new):
                where = np if keyword in new else op
                self.add(TEXT_KINDS[keyword], op + f"/{keyword}" if keyword in old else "",
                         np + f"/{keyword}" if keyword in new else "",
                         f"the {keyword} at {where or '/'} changed: the model reads it to build arguments "
                         f"and may now fill them differently")
        if "default" in old or "default" in new:
            if _canon(old.get("default")) != _canon(new.get("default")) or ("default" in old) != ("default" in new):
                self.add("default-changed", op + "/default" if "default" in old else "",
                         np + "/default" if "default" in new else "",
                         f"the default changed from {_show(old, 'default')} to {_show(new, 'default')}: "
                         f"a call that omits the value now means something else")

    def _compare_types(self, old: dict, new: dict, op: str, np: str) -> None:
        old_types, new_types = _types(old), _types(new)
        if old_types == new_types:
            return
        if old_types is None:
            self.add("type-added", op, np + "/type", f"the value must now be of type {_names(new_types)}")
        elif new_types is None:
            self.add("type-removed", op + "/type", np, f"the type {_names(old_types)} is no longer required")
        elif old_types - new_types and new_types - old_types:
            self.add("type-changed", op + "/type", np + "/type",
                     f"the type changed from {_names(old_types)} to {_names(new_types)}")
        elif old_types - new_types:
            lost = old_types - new_types
            lost_text = "non-integer numbers" if lost == {"number"} else _names(lost)
            self.add("type-narrowed", op + "/type", np + "/type",
                     f"the type changed from {_names(old_types)} to {_names(new_types)}: "
                     f"{lost_text} no longer accepted")
        else:
            self.add("type-widened", op + "/type", np + "/type",
                     f"the type widened from {_names(old_types)} to {_names(new_types)}")

    def _compare_values(self, old: dict, new: dict, op: str, np: str) -> None:
        """`enum` and `const` as one thing: the list of values a schema is limited to."""
        (old_values, ok), (new_values, nk) = _listed(old), _listed(new)
        if old_values is None and new_values is None:
            return
        if new_values is None:
            if ok == "const":
                self.add("const-removed", op + "/const", np, "the value is no longer fixed")
            else:
                self.add("enum-removed", op + "/enum", np, "the value is no longer limited to a list")
            return
        if old_values is None:
            if nk == "const":
                self.add("const-added", op, np + "/const", f"the value must now be {_show(new, 'const')}")
            else:
                self.add("enum-added", op, np + "/enum", f"the value is now limited to {_list(new_values)}")
            return
        new_keys, old_keys = {_canon(v) for v in new_values}, {_canon(v) for v in old_values}
        removed = [v for v in old_values if _canon(v) not in new_keys]
        added = [v for v in new_values if _canon(v) not in old_keys]
        if ok == nk == "const":
            if removed:
                self.add("const-changed", op + "/const", np + "/const",
                         f"the fixed value changed from {_show(old, 'const')} to {_show(new, 'const')}")
            return
        if removed:
            self.add("enum-value-removed", f"{op}/{ok}", f"{np}/{nk}", f"enum value(s) {_list(removed)} removed")
        if added:
            self.add("enum-value-added", f"{op}/{ok}", f"{np}/{nk}", f"enum value(s) {_list(added)} added")

    def _compare_bounds(self, old: dict, new: dict, op: str, np: str) -> None:
        for keyword in LOWER_BOUNDS + UPPER_BOUNDS:
            lower = keyword in LOWER_BOUNDS
            a, b = old.get(keyword), new.get(keyword)
            if isinstance(a, bool) or isinstance(b, bool):  # draft-04 exclusive flags
                if bool(a) != bool(b) and keyword in FLAG_ADDED_KINDS:
                    self.add(FLAG_ADDED_KINDS[keyword] if b else FLAG_REMOVED_KINDS[keyword], op, np,
                             f"{WORDS[keyword]} turned {'on' if b else 'off'}")
                continue
            if a is None and _is_number(b):
                self.add("bound-added", op, np + f"/{keyword}", f"a {WORDS[keyword]} of {b} was added")
            elif _is_number(a) and b is None:
                self.add("bound-removed", op + f"/{keyword}", np, f"the {WORDS[keyword]} of {a} was removed")
            elif _is_number(a) and _is_number(b) and a != b:
                tighter = b > a if lower else b < a
                self.add("bound-tightened" if tighter else "bound-loosened", op + f"/{keyword}", np + f"/{keyword}",
                         f"the {WORDS[keyword]} changed from {a} to {b}")
        a, b = old.get("multipleOf"), new.get("multipleOf")
        if a != b and (_is_number(a) or _is_number(b)):
            if not _is_number(a):
                self.add("multiple-of-added", op, np + "/multipleOf", f"values must now be multiples of {b}")
            elif not _is_number(b):
                self.add("multiple-of-removed", op + "/multipleOf", np, f"values need no longer be multiples of {a}")
            elif b != 0 and (a / b) == int(a / b):
                self.add("multiple-of-loosened", op + "/multipleOf", np + "/multipleOf",
                         f"multipleOf changed from {a} to {b}, a divisor of it")
            else:
                self.add("multiple-of-changed", op + "/multipleOf", np + "/multipleOf",
                         f"multipleOf changed from {a} to {b}")

    def _compare_strings(self, old: dict, new: dict, op: str, np: str) -> None:
        for keyword in ("pattern", "format"):
            a, b = old.get(keyword), new.get(keyword)
            if a == b:
                continue
            if a is None:
                self.add(STRING_ADDED_KINDS[keyword], op, np + f"/{keyword}", f"a {keyword} {b!r} was added")
            elif b is None:
                self.add(STRING_REMOVED_KINDS[keyword], op + f"/{keyword}", np, f"the {keyword} {a!r} was removed")
            else:
                self.add(STRING_CHANGED_KINDS[keyword], op + f"/{keyword}", np + f"/{keyword}",
                         f"the {keyword} changed from {a!r} to {b!r}; values that matched the old one may not "
                         f"match the new one")
        if old.get("nullable") is True and new.get("nullable") is not True and "type" not in old:
            self.add("nullable-removed", op + "/nullable", np, "null is no longer accepted")

    def _compare_object(self, old: dict, new: dict, op: str, np: str, depth: int) -> None:
        old_props, new_props = _as_dict(old.get("properties")), _as_dict(new.get("properties"))
        old_required, new_required = _strings(old.get("required")), _strings(new.get("required"))
        for index, name in enumerate(new_required):
            if name not in old_required:
                if self.role == "input":
                    self._add("required-added", op, f"{np}/required/{index}",
                              f"'{name}' is now required; a call that omitted it is now rejected")
                else:
                    self._add("required-added", op, f"{np}/required/{index}",
                              f"results now always carry '{name}'")
        for index, name in enumerate(old_required):
            if name not in new_required:
                if self.role == "input":
                    self._add("required-removed", f"{op}/required/{index}", np,
                              f"'{name}' is no longer required; every call that was valid still is")
                else:
                    self._add("required-removed", f"{op}/required/{index}", np,
                              f"results may now lack '{name}', which consumers could count on")
        for name, old_sub in old_props.items():
            token = escape_token(name)
            if name in new_props:
                self.compare(old_sub, new_props[name], f"{op}/properties/{token}", f"{np}/properties/{token}",
                             depth + 1)
            elif self.role == "output":
                self._add("property-removed", f"{op}/properties/{token}", np,
                          f"result property '{name}' was removed; consumers reading it break")
            elif _closed(new):
                self._add("property-removed", f"{op}/properties/{token}", np,
                          f"property '{name}' was removed and the object is closed (additionalProperties: false); "
                          f"a call that sends it is now rejected", Impact.BREAKING_CALLS)
            else:
                self._add("property-removed", f"{op}/properties/{token}", np,
                          f"property '{name}' is no longer declared: calls that send it still validate, but the "
                          f"model no longer learns it exists and the tool may ignore it", Impact.RISKY)
        for name in new_props:
            if name not in old_props:
                token = escape_token(name)
                required = name in new_required
                if self.role == "output":
                    self._add("property-added", op, f"{np}/properties/{token}",
                              f"result property '{name}' was added")
                elif not required:
                    self._add("property-added", op, f"{np}/properties/{token}",
                              f"optional property '{name}' was added")
        old_extra, new_extra = old.get("additionalProperties"), new.get("additionalProperties")
        describes_object = "properties" in old or "properties" in new or old.get("type") == "object"
        if _closed(new) and not _closed(old) and describes_object:
            self.add("additional-properties-closed", op, np + "/additionalProperties",
                     "the object no longer accepts properties it does not declare")
        elif _closed(old) and not _closed(new):
            self.add("additional-properties-opened", op + "/additionalProperties", np,
                     "the object now accepts properties it does not declare")
        elif isinstance(old_extra, dict) and isinstance(new_extra, dict):
            self.compare(old_extra, new_extra, op + "/additionalProperties", np + "/additionalProperties", depth + 1)

    def _compare_array(self, old: dict, new: dict, op: str, np: str, depth: int) -> None:
        old_items, new_items = old.get("items"), new.get("items")
        if isinstance(old_items, (dict, bool)) and isinstance(new_items, (dict, bool)):
            self.compare(old_items, new_items, op + "/items", np + "/items", depth + 1)
        elif old_items is None and isinstance(new_items, (dict, bool)) and new_items not in (True, {}):
            self.add("items-added", op, np + "/items", "the array's elements are now constrained")
        elif isinstance(old_items, (dict, bool)) and old_items not in (True, {}) and new_items is None:
            self.add("items-removed", op + "/items", np, "the array's elements are no longer constrained")
        old_prefix, new_prefix = old.get("prefixItems"), new.get("prefixItems")
        if isinstance(old_prefix, list) and isinstance(new_prefix, list):
            for index, (a, b) in enumerate(zip(old_prefix, new_prefix, strict=False)):  # extra items are not compared
                self.compare(a, b, f"{op}/prefixItems/{index}", f"{np}/prefixItems/{index}", depth + 1)
        if "uniqueItems" in old or "uniqueItems" in new:
            a, b = old.get("uniqueItems") is True, new.get("uniqueItems") is True
            if b and not a:
                self.add("unique-items-added", op, np + "/uniqueItems", "elements must now be unique")
            elif a and not b:
                self.add("unique-items-removed", op + "/uniqueItems", np, "elements need no longer be unique")

    def _compare_branches(self, old: dict, new: dict, op: str, np: str, depth: int) -> None:
        for keyword in ("anyOf", "oneOf"):
            a, b = old.get(keyword), new.get(keyword)
            a = a if isinstance(a, list) else None
            b = b if isinstance(b, list) else None
            if a is None and b is None:
                continue
            if a is None:
                self.add(BRANCH_ADDED_KINDS[keyword], op, np + f"/{keyword}", f"the value must now match {keyword}")
                continue
            if b is None:
                self.add(BRANCH_REMOVED_KINDS[keyword], op + f"/{keyword}", np, f"{keyword} was removed")
                continue
            matched = self._match_branches(a, b)
            for i, j in matched:
                self.compare(a[i], b[j], f"{op}/{keyword}/{i}", f"{np}/{keyword}/{j}", depth + 1)
            for i in sorted(set(range(len(a))) - {i for i, _ in matched}):
                self.add("branch-removed", f"{op}/{keyword}/{i}", np + f"/{keyword}",
                         f"alternative {i} of {keyword} was removed")
            for j in sorted(set(range(len(b))) - {j for _, j in matched}):
                self.add("branch-added", op + f"/{keyword}", f"{np}/{keyword}/{j}",
                         f"an alternative was added to {keyword}")
        a, b = old.get("allOf"), new.get("allOf")
        if isinstance(a, list) or isinstance(b, list):
            a = a if isinstance(a, list) else []
            b = b if isinstance(b, list) else []
            for index, (x, y) in enumerate(zip(a, b, strict=False)):  # the longer list's tail is reported below
                self.compare(x, y, f"{op}/allOf/{index}", f"{np}/allOf/{index}", depth + 1)
            for index in range(len(a), len(b)):
                self.add("all-of-added", op, f"{np}/allOf/{index}", "a further allOf constraint was added")
            for index in range(len(b), len(a)):
                self.add("all-of-removed", f"{op}/allOf/{index}", np, "an allOf constraint was removed")

    @staticmethod
    def _match_branches(old: list, new: list) -> list[tuple[int, int]]:
        """Pair branches: identical ones first, then by declared type, then by position."""
        pairs: list[tuple[int, int]] = []
        free_new = list(range(len(new)))
        for stage in (lambda x, y: _canon(x) == _canon(y),
                      lambda x, y: isinstance(x, dict) and isinstance(y, dict) and _types(x) == _types(y),
                      lambda x, y: True):
            for i in range(len(old)):
                if any(p[0] == i for p in pairs):
                    continue
                for j in free_new:
                    if stage(old[i], new[j]):
                        pairs.append((i, j))
                        free_new.remove(j)
                        break
            if len(pairs) == min(len(old), len(new)):
                break
        return pairs


def _listed(schema: dict) -> tuple[list | None, str]:
    """(the values a schema is limited to, the keyword that lists them) or (None, "")."""
    if isinstance(schema.get("enum"), list):
        return schema["enum"], "enum"
    if "const" in schema:
        return [schema["const"]], "const"
    return None, ""


def _names(types: frozenset[str] | None) -> str:
    if not types:
        return "any"
    shown = sorted(t for t in types if not (t == "integer" and "number" in types))
    return " or ".join(repr(t) for t in shown)


def _list(values: list) -> str:
    text = ", ".join(json.dumps(v, ensure_ascii=False) for v in values[:8])
    return text + (f", … ({len(values)} in all)" if len(values) > 8 else "")


def _show(schema: dict, keyword: str) -> str:
    return json.dumps(schema[keyword], ensure_ascii=False) if keyword in schema else "(none)"


Comparer = Callable[..., list[Change]]
