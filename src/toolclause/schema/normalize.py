"""The runtime's half of strict mode: a pure function from what the model sent to canonical arguments.

A strict projection makes every optional property required and nullable, so a
model says "not given" with null.  `to_canonical_arguments` undoes that:
walking the CANONICAL schema beside the arguments, it removes a null wherever
the property is optional and the canonical schema does not itself accept null
(recursively, through `$ref`, `allOf`, items and the matching `anyOf`/`oneOf`
branch), and renames properties the export had to rename (`property_map`,
from `ExportResult.property_map[tool]`).  So strict mode costs the user
nothing: the function receives exactly what the canonical schema describes.

`to_strict_arguments` is the way back (canonical arguments → what a strict
model sends: missing optional properties filled with null, keys the projection
closed off dropped), for tests and replays.  Neither function mutates its input.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from .. import _lazy_re as re
from ..model import escape_token
from ..schema.keywords import json_type
from .nullability import allows_null
from .refs import MISSING, ref_target, resolve_ref

_MAX_DEPTH = 64


def to_canonical_arguments(arguments: Any, canonical_schema: Mapping[str, Any] | None,
                           property_map: Mapping[str, Mapping[str, str]] | None = None, *,
                           strict_nulls: bool = True) -> Any:
    """Arguments as the strict model sent them → arguments for the canonical schema.

    strict_nulls=False: the arguments may be canonical ones (a caller that read the canonical schema), so a
    null for a property whose null means something ("pass null to clear the owner") is that meaning, kept,
    not the strict projection's "not given"."""
    if not isinstance(canonical_schema, Mapping):
        return arguments
    return _Walk(canonical_schema, property_map or {}, strict_nulls).value(arguments, [(canonical_schema, "")], 0)


class _Walk:
    def __init__(self, root: Mapping[str, Any], property_map: Mapping[str, Mapping[str, str]],
                 strict_nulls: bool = True) -> None:
        self.strict_nulls = strict_nulls
        self.root = root
        self.property_map = property_map

    def applicable(self, schema: Any, pointer: str, depth: int = 0) -> Iterator[tuple[Mapping[str, Any], str]]:
        """The schema and every schema that applies to the same instance unconditionally ($ref, allOf)."""
        if not isinstance(schema, Mapping) or depth > _MAX_DEPTH:
            return
        yield schema, pointer
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith("#"):
            resolution = resolve_ref(self.root, ref)
            if resolution.ok:
                yield from self.applicable(resolution.target, resolution.pointer or "", depth + 1)
        for index, branch in enumerate(schema.get("allOf") or [] if isinstance(schema.get("allOf"), list) else []):
            yield from self.applicable(branch, f"{pointer}/allOf/{index}", depth + 1)

    def value(self, value: Any, schemas: list[tuple[Any, str]], depth: int) -> Any:
        if depth > _MAX_DEPTH:
            return value
        nodes = [n for schema, pointer in schemas for n in self.applicable(schema, pointer)]
        branch = self._branch(value, nodes)
        if branch:
            nodes += [n for schema, pointer in branch for n in self.applicable(schema, pointer)]
        if isinstance(value, list) and any(_is_map(node) for node, _ in nodes) and _pairs(value):
            value = {pair["key"]: pair["value"] for pair in value}  # a map the strict projection sent as pairs
        if isinstance(value, dict):
            return self._object(value, nodes, depth)
        if isinstance(value, list):
            return self._array(value, nodes, depth)
        return value

    def _branch(self, value: Any, nodes: list[tuple[Mapping[str, Any], str]]) -> list[tuple[Any, str]]:
        """The anyOf/oneOf branch the value belongs to: the first whose type and declared keys fit."""
        chosen: list[tuple[Any, str]] = []
        for schema, pointer in nodes:
            for keyword in ("anyOf", "oneOf"):
                branches = schema.get(keyword)
                if not isinstance(branches, list):
                    continue
                fitting = [(b, f"{pointer}/{keyword}/{i}") for i, b in enumerate(branches) if _fits(value, b, self)]
                if fitting:
                    chosen.append(fitting[0])
        return chosen

    def _object(self, value: dict[str, Any], nodes: list[tuple[Mapping[str, Any], str]], depth: int) -> dict[str, Any]:
        renames: dict[str, str] = {}
        properties: dict[str, list[tuple[Any, str]]] = {}
        extra: list[tuple[Any, str]] = []  # the schemas of keys no `properties` names
        required: set[str] = set()
        for schema, pointer in nodes:
            renames.update(self.property_map.get(pointer, {}))
            if isinstance(schema.get("additionalProperties"), Mapping):
                extra.append((schema["additionalProperties"], f"{pointer}/additionalProperties"))
            props = schema.get("properties")
            if isinstance(props, Mapping):
                for name, sub in props.items():
                    properties.setdefault(name, []).append((sub, f"{pointer}/properties/{escape_token(name)}"))
            if isinstance(schema.get("required"), list):
                required.update(r for r in schema["required"] if isinstance(r, str))
        out: dict[str, Any] = {}
        for key, item in value.items():
            name = renames.get(key, key)
            subs = properties.get(name)
            if subs and name not in required and any(keeps_not_given_apart(s) for s, _ in subs):
                if item is None and self.strict_nulls:
                    continue  # the strict projection's "not given"
                if isinstance(item, dict) and set(item) == {"set"}:
                    item = item["set"]  # the value, where null means what the description says
            elif item is None and subs and name not in required and not all(allows_null(s) for s, _ in subs):
                continue  # null meant "not given": the canonical schema has no null here
            if subs:
                out[name] = self.value(item, subs, depth + 1)
            else:
                out[name] = self.value(item, extra, depth + 1) if extra else item
        return out

    def _array(self, value: list[Any], nodes: list[tuple[Mapping[str, Any], str]], depth: int) -> list[Any]:
        out = list(value)
        for schema, pointer in nodes:
            prefix = listed if isinstance(listed := schema.get("prefixItems"), list) else []
            items = schema.get("items")
            for index, item in enumerate(out):
                if index < len(prefix):
                    out[index] = self.value(item, [(prefix[index], f"{pointer}/prefixItems/{index}")], depth + 1)
                elif isinstance(items, Mapping):
                    out[index] = self.value(item, [(items, f"{pointer}/items")], depth + 1)
        return out


# a description that says what null does: "pass null to clear the owner", "null removes the due date"
_NULL = r"(?:(?i:null)|None)"
_DOES = r"(?:clear|remov|unset|reset|delet|eras|disabl|detach|unassign|empt|drop|mean|turn[s]? off|cancel)\w*"
_NULL_MEANING = re.compile(rf"\b{_NULL}\b[^.;]{{0,40}}?\b{_DOES}|\b{_DOES}\b[^.;]{{0,40}}?\b{_NULL}\b")


def null_has_meaning(schema: Any) -> bool:
    """The schema accepts null and its description gives null a meaning of its own, so "not given" and
    null must stay apart (a strict model that sends null for "not given" would clear it)."""
    return isinstance(schema, Mapping) and isinstance(schema.get("description"), str) and \
        allows_null(schema) and _NULL_MEANING.search(schema["description"]) is not None


def never_an_object(schema: Mapping[str, Any]) -> bool:
    """Every type the schema names excludes objects (so `{"set": …}` cannot be one of its values)."""
    names = _types(schema)
    branches = schema.get("anyOf") if isinstance(schema.get("anyOf"), list) else None
    if not names and branches:
        return all(isinstance(b, Mapping) and _types(b) and "object" not in _types(b) for b in branches)
    return bool(names) and "object" not in names


def _types(schema: Mapping[str, Any]) -> list[str]:
    value = schema.get("type")
    return [value] if isinstance(value, str) else [v for v in value if isinstance(v, str)] \
        if isinstance(value, list) else []


def keeps_not_given_apart(schema: Any) -> bool:
    """A strict projection wraps this optional property: null is "not given", `{"set": value}` the value."""
    return null_has_meaning(schema) and never_an_object(schema)


def _set_wrapper(projection: Any) -> Mapping[str, Any] | None:
    """The inner schema of a `{"set": …}`-or-null projection (see keeps_not_given_apart), else None."""
    branches = projection.get("anyOf") if isinstance(projection, Mapping) else None
    if isinstance(branches, list) and len(branches) == 2 and branches[1] == {"type": "null"} and \
            isinstance(branches[0], Mapping) and branches[0].get("required") == ["set"]:
        props = branches[0].get("properties")
        if isinstance(props, Mapping) and set(props) == {"set"}:
            return props["set"]
    return None


def reshaped_by_strict(schema: Any, depth: int = 0, seen: set[int] | None = None) -> bool:
    """Whether a strict projection of this schema sends some value in another shape (a map as
    `{key, value}` pairs, a property whose null means something as `{"set": …}`), so that calls made from
    the strict export must go through to_canonical_arguments even when they hold no null."""
    seen = set() if seen is None else seen
    if depth > 64 or id(schema) in seen:  # bounded; a schema from a file is a tree, one built in code may not be
        return False
    seen.add(id(schema))
    if isinstance(schema, Mapping):
        if _is_map(schema) or keeps_not_given_apart(schema):
            return True
        return any(reshaped_by_strict(v, depth + 1, seen) for v in schema.values() if isinstance(v, (Mapping, list)))
    if isinstance(schema, list):
        return any(reshaped_by_strict(v, depth + 1, seen) for v in schema if isinstance(v, (Mapping, list)))
    return False


def _is_map(schema: Mapping[str, Any]) -> bool:
    """A canonical map (free keys, one value schema) that cannot itself be an array: strict exports send
    it as `[{"key": …, "value": …}]` (see exporting/_projector.py)."""
    extra = schema.get("additionalProperties")
    types = schema.get("type")
    types = [types] if isinstance(types, str) else types if isinstance(types, list) else []
    return isinstance(extra, Mapping) and bool(extra) and not schema.get("properties") and \
        not schema.get("patternProperties") and "object" in types and "array" not in types


def _pairs(value: list[Any]) -> bool:
    return all(isinstance(p, dict) and set(p) == {"key", "value"} and isinstance(p["key"], str) for p in value)


def _map_schema(projection: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The value schema of a map projected as `{key, value}` pairs, else None."""
    items = projection.get("items")
    types = projection.get("type")
    if not isinstance(items, Mapping) or not (types == "array" or isinstance(types, list) and "array" in types):
        return None
    props = items.get("properties")
    if isinstance(props, Mapping) and set(props) == {"key", "value"} and items.get("required") == ["key", "value"]:
        return props["value"]
    return None


def _fits(value: Any, schema: Any, walk: _Walk) -> bool:
    """A cheap guess whether `value` belongs to this branch: its type, and for objects its declared keys."""
    nodes = list(walk.applicable(schema, ""))
    types: set[str] = set()
    declared: set[str] = set()
    open_object = False
    for node, _ in nodes:
        t = node.get("type")
        types.update([t] if isinstance(t, str) else t if isinstance(t, list) else [])
        if isinstance(node.get("properties"), Mapping):
            declared.update(node["properties"])
        if node.get("additionalProperties") is not False:
            open_object = True
        if "enum" in node and isinstance(node["enum"], list) and value not in node["enum"]:
            return False
        if "const" in node and node["const"] != value:
            return False
    kind = json_type(value)
    if types and kind not in types and not (kind == "integer" and "number" in types):
        return False
    if isinstance(value, dict) and declared and not open_object:
        return all(k in declared for k in value if value[k] is not None)
    return True


def _strict_property(value: Any, projection: Any, depth: int, root: Mapping[str, Any]) -> Any:
    inner = _set_wrapper(projection)
    if inner is not None:
        return {"set": to_strict_arguments(value, inner, depth + 1, root)}
    return to_strict_arguments(value, projection, depth + 1, root)


def to_strict_arguments(arguments: Any, projection: Mapping[str, Any], depth: int = 0,
                        root: Mapping[str, Any] | None = None) -> Any:
    """Canonical arguments → what a model under the strict projection sends (null for every optional key not given)."""
    root = root if root is not None else projection
    if depth > _MAX_DEPTH or not isinstance(projection, Mapping):
        return arguments
    ref = projection.get("$ref")
    if isinstance(ref, str) and ref.startswith("#"):
        target = ref_target(root, ref)
        return arguments if target is MISSING else to_strict_arguments(arguments, target, depth + 1, root)
    for keyword in ("anyOf",):
        branches = projection.get(keyword)
        if isinstance(branches, list):
            for branch in branches:
                if _fits(arguments, branch, _Walk(root, {})):
                    return to_strict_arguments(arguments, branch, depth + 1, root)
    if isinstance(arguments, dict) and isinstance(projection.get("properties"), Mapping):
        props = projection["properties"]
        closed = projection.get("additionalProperties") is False
        out = {k: _strict_property(v, props[k], depth, root) if k in props else v
               for k, v in arguments.items() if k in props or not closed}
        for name in projection.get("required") or []:
            if name not in out and name in props and allows_null(props[name]):
                out[name] = None
        return out
    value_schema = _map_schema(projection)
    if isinstance(arguments, dict) and value_schema is not None:
        return [{"key": k, "value": to_strict_arguments(v, value_schema, depth + 1, root)}
                for k, v in arguments.items()]
    if isinstance(arguments, list) and isinstance(projection.get("items"), Mapping):
        return [to_strict_arguments(v, projection["items"], depth + 1, root) for v in arguments]
    return arguments
