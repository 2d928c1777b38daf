"""toolclause diff: rewrites that keep what a schema accepts are "identical in meaning".

A property test draws a random schema, rewrites it into another spelling that
accepts exactly the same instances (type lists as anyOf, enums as anyOf of
consts, one-branch wrappers, allOf splits, trivial keywords, reordering), checks
that both really accept the same sample instances, and asks the diff: no change.
"""

from __future__ import annotations

import copy
import json

import jsonschema_rs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolclause.diffing import diff
from toolclause.diffing.equivalence import FAMILIES, normal_form
from toolclause.diffing.model import Impact

PAIRS = {"generated": 0}
EXAMPLES = 400

WORDS = ["web", "app", "cli", "api"]
NAMES = ["a", "b", "c"]
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 5), st.sampled_from([1.5, 2.0]), st.sampled_from(WORDS))


def tool(schema):
    return {"name": "t", "description": "Does one thing.", "inputSchema": schema}


# --------------------------------------------------------------------------- random schemas

def _string():
    return st.fixed_dictionaries({"type": st.just("string")}, optional={
        "minLength": st.integers(1, 3), "maxLength": st.integers(3, 6), "pattern": st.sampled_from(["^a", "b"])})


def _number(kind):
    return st.fixed_dictionaries({"type": st.just(kind)}, optional={
        "minimum": st.integers(-2, 1), "maximum": st.integers(2, 4)})


def _enum():
    return st.one_of(
        st.lists(st.sampled_from(WORDS), min_size=1, max_size=4, unique=True).map(
            lambda v: {"type": "string", "enum": v}),
        st.lists(SCALARS, min_size=1, max_size=4, unique_by=json.dumps).map(lambda v: {"enum": v}),
        SCALARS.map(lambda v: {"const": v}))


LEAVES = st.one_of(_string(), _number("integer"), _number("number"), st.just({"type": "boolean"}),
                   st.just({"type": "null"}), _enum())


def _object(children):
    return st.builds(
        lambda props, required, closed: {"type": "object", "properties": props,
                                         **({"required": [n for n in props if n in required]} if required else {}),
                                         **({"additionalProperties": False} if closed else {})},
        st.dictionaries(st.sampled_from(NAMES), children, min_size=1, max_size=3),
        st.sets(st.sampled_from(NAMES)), st.booleans())


def _array(children):
    return st.builds(lambda items, least: {"type": "array", "items": items, **({"minItems": least} if least else {})},
                     children, st.integers(0, 2))


def _union(children):
    """A schema with a type list: string or integer constraints beside `null` or another type."""
    return st.builds(lambda a, b: _combine(a, b), st.one_of(_string(), _number("integer")),
                     st.sampled_from(["null", "boolean", "array", "object"]))


def _combine(typed, other):
    return {**typed, "type": [typed["type"], other]}


SCHEMAS = st.recursive(st.one_of(LEAVES, _union(LEAVES)),
                       lambda children: st.one_of(_object(children), _array(children)), max_leaves=6)


# --------------------------------------------------------------------------- equivalent rewrites

def _types(schema):
    value = schema.get("type")
    return [value] if isinstance(value, str) else list(value or [])


def _split_types(schema, draw, keyword):
    """`{type: [a, b], ...}` → `anyOf: [{type: a, ...a's keywords}, {type: b, ...}]`."""
    branches = []
    for name in _types(schema):
        covered = {"number", "integer"} if name in ("number", "integer") else {name}
        branch = {"type": name}
        branch.update({k: v for k, v in schema.items() if k in FAMILIES and FAMILIES[k] & covered})
        branches.append(branch)
    rest = {k: v for k, v in schema.items() if k != "type" and k not in FAMILIES}
    return {**rest, keyword: draw(st.permutations(branches))}


def _split_values(schema, draw):
    """`enum: [x, y]` → `anyOf: [{const: x}, {enum: [y]}]`; the type, implied by the values, is dropped."""
    values = schema["enum"] if "enum" in schema else [schema["const"]]
    branches = [draw(st.sampled_from([{"const": v}, {"enum": [v]}])) for v in values]
    return {"anyOf": draw(st.permutations(branches))}


def rewrite(schema, draw):
    """Another spelling of `schema` that accepts the same instances."""
    schema = copy.deepcopy(schema)
    for key in ("properties",):
        if key in schema:
            schema[key] = {name: rewrite(sub, draw) for name, sub in draw(st.permutations(list(schema[key].items())))}
    if "items" in schema:
        schema["items"] = rewrite(schema["items"], draw)
    if "required" in schema:
        schema["required"] = draw(st.permutations(schema["required"]))
    choices = ["wrap-allOf", "wrap-anyOf", "wrap-oneOf", "same"]
    if "enum" in schema or "const" in schema:
        choices += ["values-anyOf", "values-shuffle", "const-enum"]
    elif isinstance(schema.get("type"), list):
        choices += ["types-anyOf", "types-oneOf", "types-shuffle"]
    elif isinstance(schema.get("type"), str):
        choices += ["type-list"]
    if schema.get("type") == "string":
        choices += ["trivial-minLength"]
    if schema.get("type") == "object" and "additionalProperties" not in schema:
        choices += ["trivial-additional", "split-properties"]
    choice = draw(st.sampled_from(choices))
    if choice == "wrap-allOf":
        return {"allOf": [schema]}
    if choice == "wrap-anyOf":
        return {"anyOf": [schema]}
    if choice == "wrap-oneOf":
        return {"oneOf": [schema]}
    if choice == "values-anyOf":
        return _split_values(schema, draw)
    if choice == "values-shuffle" and "enum" in schema:
        schema["enum"] = draw(st.permutations(schema["enum"])) + schema["enum"][:1]
    if choice == "const-enum":
        if "const" in schema:
            schema["enum"] = [schema.pop("const")]
        elif len(schema["enum"]) == 1:
            schema["const"] = schema.pop("enum")[0]
    if choice == "types-anyOf":
        return _split_types(schema, draw, "anyOf")
    if choice == "types-oneOf":
        return _split_types(schema, draw, "oneOf")
    if choice == "types-shuffle":
        schema["type"] = draw(st.permutations(schema["type"]))
    if choice == "type-list":
        schema["type"] = [schema["type"]]
    if choice == "trivial-minLength" and "minLength" not in schema:
        schema["minLength"] = 0
    if choice == "trivial-additional":
        schema["additionalProperties"] = True
    if choice == "split-properties" and len(schema["properties"]) > 1:
        first, *others = list(schema["properties"].items())
        rest = {k: v for k, v in schema.items() if k != "properties"}
        return {**rest, "allOf": [{"properties": dict([first])}, {"properties": dict(others)}]}
    return schema


INSTANCES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(NAMES + ["z"]), inner, max_size=3)), max_leaves=5)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_an_equivalent_rewrite_is_identical_in_meaning(data):
    old = data.draw(SCHEMAS, label="old")
    new = rewrite(old, data.draw)
    samples = data.draw(st.lists(INSTANCES, min_size=8, max_size=8), label="instances")
    samples += [None, "web", 3, [], {}, {"a": "web"}, {"a": None, "b": 2}]
    # the rewrite really is equivalent: both accept the same instances
    before, after = jsonschema_rs.validator_for(old), jsonschema_rs.validator_for(new)
    assert [before.is_valid(s) for s in samples] == [after.is_valid(s) for s in samples], (old, new)
    for schema in (old, new):  # a normal form is its own normal form
        assert normal_form(normal_form(schema)) == normal_form(schema)
    changes = diff(tool(old), tool(new)).changes
    assert changes == [], (json.dumps(old), json.dumps(new), [(c.kind, c.old_pointer, c.new_pointer) for c in changes])
    PAIRS["generated"] += 1


def test_the_property_test_compared_many_pairs():
    if PAIRS["generated"] == 0:
        pytest.skip("the property test did not run in this session")
    print(f"\n{PAIRS['generated']} equivalent pairs generated and compared")
    assert PAIRS["generated"] >= EXAMPLES // 2


# --------------------------------------------------------------------------- the rewrites people write

NULLABLE_STRING = {"type": ["string", "null"]}
CASES = [
    ("type list as anyOf", NULLABLE_STRING, {"anyOf": [{"type": "string"}, {"type": "null"}]}),
    ("enums as anyOf of enums", {"enum": ["web", "app"]}, {"anyOf": [{"enum": ["web"]}, {"enum": ["app"]}]}),
    ("typed enum as anyOf of consts", {"type": "string", "enum": ["web", "app"]},
     {"anyOf": [{"const": "app"}, {"const": "web"}]}),
    ("nullable enum", {"type": ["string", "null"], "enum": ["web", None]},
     {"anyOf": [{"type": "string", "enum": ["web"]}, {"type": "null"}]}),
    ("OpenAPI nullable", {"type": "string", "nullable": True}, NULLABLE_STRING),
    ("constrained branch", {"type": ["string", "null"], "minLength": 1},
     {"anyOf": [{"type": "string", "minLength": 1}, {"type": "null"}]}),
    ("oneOf of disjoint types", NULLABLE_STRING, {"oneOf": [{"type": "null"}, {"type": "string"}]}),
    ("const is a one-value enum", {"const": "web"}, {"enum": ["web"]}),
    ("enum values the type rejects", {"type": "string", "enum": ["web", 1]}, {"enum": ["web"]}),
    ("1 and 1.0", {"enum": [1, 2]}, {"type": "number", "enum": [1.0, 2]}),
    ("allOf split", {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
     {"type": "object", "allOf": [{"properties": {"a": {"type": "string"}}}, {"required": ["a"]}]}),
]


@pytest.mark.parametrize("old, new", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_common_rewrites_are_identical_in_meaning(old, new):
    property_schema = lambda s: {"type": "object", "properties": {"mode": s}}  # noqa: E731
    assert diff(tool(property_schema(old)), tool(property_schema(new))).changes == []
    assert diff(tool(property_schema(new)), tool(property_schema(old))).changes == []


def test_a_rewrite_that_changes_the_accepted_set_is_still_reported():
    old = {"type": "object", "properties": {"mode": {"anyOf": [{"enum": ["web"]}, {"enum": ["app"]}]}}}
    new = {"type": "object", "properties": {"mode": {"enum": ["web"]}}}
    assert [(c.kind, c.impact) for c in diff(tool(old), tool(new)).changes] == [
        ("enum-value-removed", Impact.BREAKING_CALLS)]
    nullable = {"type": "object", "properties": {"mode": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}
    strict = {"type": "object", "properties": {"mode": {"type": "string"}}}
    assert [(c.kind, c.impact) for c in diff(tool(nullable), tool(strict)).changes] == [
        ("type-narrowed", Impact.BREAKING_CALLS)]


def test_normal_form_leaves_its_input_alone_and_stops_at_depth():
    schema = {"anyOf": [{"type": "string"}, {"type": "null"}]}
    kept = copy.deepcopy(schema)
    assert normal_form(schema) == {"type": ["null", "string"]} and schema == kept
    deep: dict = {"type": "string"}
    for _ in range(200):
        deep = {"anyOf": [deep]}
    normal_form(deep)  # bounded: no recursion error


def test_a_definition_moved_behind_a_ref_is_identical_in_meaning():
    inline = {"type": "object", "properties": {"a": {"type": ["string", "null"], "minLength": 1}}}
    behind_ref = {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}},
                  "$defs": {"A": {"anyOf": [{"type": "string", "minLength": 1}, {"type": "null"}]}}}
    assert diff(tool(inline), tool(behind_ref)).changes == []
    assert diff(tool(behind_ref), tool(inline)).changes == []
