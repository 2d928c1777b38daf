"""What the integrations share (toolclause.mcp.listed_gate, raw_call): closing pydantic-made objects, and
reading the key and the arguments from a raw tools/call request."""

from __future__ import annotations

from typing import Any

import pytest

from toolclause.mcp.listed_gate import closed_objects
from toolclause.mcp.raw_call import RawCall, lift


@pytest.mark.parametrize(("schema", "closed"), [
    # a model: closed, at any depth, through $defs and items
    ({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"properties": {"x": {}}}}},
     {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "additionalProperties": False,
      "$defs": {"A": {"properties": {"x": {}}, "additionalProperties": False}}}),
    ({"type": "array", "items": {"properties": {"x": {}}}},
     {"type": "array", "items": {"properties": {"x": {}}, "additionalProperties": False}}),
    # open on purpose (a map, extra="allow", pattern properties): kept as it is
    ({"type": "object", "additionalProperties": {"type": "string"}},
     {"type": "object", "additionalProperties": {"type": "string"}}),
    ({"properties": {"x": {}}, "additionalProperties": True}, {"properties": {"x": {}}, "additionalProperties": True}),
    ({"properties": {"x": {}}, "patternProperties": {"^y": {}}},
     {"properties": {"x": {}}, "patternProperties": {"^y": {}}}),
    # names and values are not schemas: a property called "properties", an enum of objects
    ({"properties": {"properties": {"type": "string"}}},
     {"properties": {"properties": {"type": "string"}}, "additionalProperties": False}),
    ({"enum": [{"properties": {}}], "default": {"properties": {}}},
     {"enum": [{"properties": {}}], "default": {"properties": {}}}),
])
def test_closed_objects_closes_what_pydantic_validates_closed(schema: dict[str, Any], closed: dict[str, Any]) -> None:
    assert closed_objects(schema) == closed


@pytest.mark.parametrize(("params", "expected"), [
    ({"name": "t", "arguments": {"a": 1}, "idempotencyKey": "k-1", "_meta": {"idempotencyKey": "m-1"}},
     RawCall({"a": 1}, "k-1", {"idempotencyKey": "m-1"})),
    ({"name": "t", "arguments": '{"a": 1}', "_meta": {"idempotencyKey": "m-1"}},
     RawCall('{"a": 1}', "m-1", {"idempotencyKey": "m-1"})),
    ({"name": "t", "idempotencyKey": 7, "_meta": "nonsense"}, RawCall(None, None, None)),  # not a key, not a map
    (None, RawCall(None)),
])
def test_lift_reads_the_key_and_the_arguments_as_sent(params: Any, expected: RawCall) -> None:
    assert lift(params) == expected
