"""Null in a schema: each question has its own function, and they differ where they should."""

from __future__ import annotations

import pytest

from toolclause.schema.nullability import allows_null, declares_null, make_nullable, nullable_type, openapi_nullable

CASES = [
    # schema,                                                allows, declares, openapi
    ({}, True, False, False),                                 # anything, null included, yet nothing says so
    ({"type": "string"}, False, False, False),
    ({"type": ["string", "null"]}, True, True, False),
    ({"anyOf": [{"type": "integer"}, {"type": "null"}]}, True, True, False),
    ({"type": "string", "nullable": True}, False, False, True),  # OpenAPI's spelling; JSON Schema ignores it
    ({"enum": ["a", None]}, True, False, False),
    ({"type": ["string", "null"], "enum": ["a"]}, False, True, False),  # declared, yet the enum refuses it
    ({"$ref": "#/$defs/x"}, False, False, False),             # read shallowly
    ({"const": None}, True, False, False),
]


@pytest.mark.parametrize(("schema", "allows", "declares", "openapi"), CASES)
def test_each_question_answers_its_own_meaning(schema, allows, declares, openapi):
    assert (allows_null(schema), declares_null(schema), openapi_nullable(schema)) == (allows, declares, openapi)


def test_nullable_type_writes_json_schema_names():
    assert nullable_type("string") == ["string", "null"]
    assert nullable_type(["float", "number", "int"]) == ["number", "integer", "null"]
    assert nullable_type("HashMap") == ["object", "null"]
    assert nullable_type("mystery") == ["mystery", "null"]  # unknown names are kept for the author to see
    assert nullable_type(None) == [] and nullable_type([5]) == []


@pytest.mark.parametrize("schema", [case[0] for case in CASES] + [{"type": "integer", "enum": [1, 2]},
                                                                  {"const": "x"}, {"anyOf": [{"type": "string"}]}])
def test_make_nullable_always_gives_a_schema_that_allows_null(schema):
    assert allows_null(make_nullable(schema))
