"""Local `$ref` resolution: one resolver for the linter, the exporter, argument normalisation and the gate."""

from __future__ import annotations

import toolclause
from toolclause.schema.refs import MISSING, RefIndex, iter_subschemas, ref_target, resolve_ref, value_at

ROOT = {
    "$id": "https://example.com/root.json",
    "$defs": {
        "a/b": {"type": "integer"},
        "with space": {"type": "boolean"},
        "named": {"$anchor": "here", "type": "string"},
        "embedded": {"$id": "inner.json", "$defs": {"x": {"type": "null"}}},
    },
    "items": [{"type": "string"}, {"type": "number"}],
}


def test_value_at_follows_rfc_6901():
    assert value_at(ROOT, "") is ROOT
    assert value_at(ROOT, "/$defs/a~1b") == {"type": "integer"}
    assert value_at(ROOT, "/items/1/type") == "number"
    assert value_at(ROOT, "/items/2") is MISSING
    assert value_at(ROOT, "/$defs/nothing/type") is MISSING
    assert value_at({"k": None}, "/k") is None  # a null value is not a missing one


def test_resolve_ref_pointers_anchors_ids_and_external():
    assert resolve_ref(ROOT, "#").target is ROOT
    assert resolve_ref(ROOT, "#/$defs/a~1b").target == {"type": "integer"}
    assert resolve_ref(ROOT, "#/$defs/with%20space").target == {"type": "boolean"}  # a fragment is percent-encoded
    assert resolve_ref(ROOT, "#here").pointer == "/$defs/named"
    assert resolve_ref(ROOT, "https://example.com/root.json#/items/0").target == {"type": "string"}
    assert resolve_ref(ROOT, "inner.json#/$defs/x").target == {"type": "null"}
    assert resolve_ref(ROOT, "https://elsewhere.example/s.json").external
    missing = resolve_ref(ROOT, "#/$defs/nothing")
    assert not missing.ok and missing.pointer == "/$defs/nothing"
    assert resolve_ref(ROOT, "#nowhere").anchor == "nowhere"


def test_ref_target_answers_same_document_refs_only():
    assert ref_target(ROOT, "#/$defs/named/type") == "string"
    assert ref_target(ROOT, "#here") == {"$anchor": "here", "type": "string"}
    assert ref_target(ROOT, "inner.json#/$defs/x") is MISSING  # by URI: resolve_ref with an index
    assert ref_target(ROOT, 5) is MISSING and ref_target(ROOT, None) is MISSING


def test_scans_are_bounded_on_deep_and_self_referencing_schemas():
    deep: dict = {}
    node = deep
    for _ in range(5000):
        node["not"] = {}
        node = node["not"]
    node["$anchor"] = "bottom"
    assert "bottom" not in RefIndex(deep).anchors  # below the scan depth: not indexed, and no RecursionError
    assert sum(1 for _ in iter_subschemas(deep)) < 100
    loop = {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}
    assert resolve_ref(loop, "#/$defs/a").target == {"$ref": "#/$defs/b"}  # one step, never a loop


def test_lint_and_export_agree_on_percent_encoded_and_anchor_refs():
    schema = {"type": "object", "additionalProperties": False, "required": ["a", "b"],
              "properties": {"a": {"$ref": "#/$defs/the%20unit", "description": "Unit"},
                             "b": {"$ref": "#choice", "description": "Choice"}},
              "$defs": {"the unit": {"type": "string", "enum": ["c", "f"]},
                        "choice": {"$anchor": "choice", "type": "boolean"}}}
    tool = {"name": "set_unit", "description": "Sets the display unit and one choice for the current user.",
            "inputSchema": schema}
    assert not [d for d in toolclause.lint(tool, select=["S005"]) if d.code == "S005"]
    (exported,) = toolclause.export([tool], "anthropic", strict=True).payload
    properties = exported["input_schema"]["properties"]
    assert properties["a"]["enum"] == ["c", "f"] and properties["b"]["type"] == "boolean"
