"""Stage 1–3 of a call: every argument form, the size cap, strict nulls, defaults, validation details."""

from __future__ import annotations

import json
from typing import Literal

import pytest

from toolclause import Toolbox


@pytest.fixture
def box():
    box = Toolbox("memory://", lint="warn")

    @box.tool
    def search_restaurants(query: str, location: str, price_level: Literal["low", "medium", "high"] | None = None,
                           limit: int = 10, tags: list[str] = ["open"]) -> dict:  # noqa: B006 - copied per call
        """Find restaurant candidates by area, food and price. Not for ordering or payment."""
        tags.append("seen")  # a mutable default must not leak between calls
        return {"query": query, "location": location, "price_level": price_level, "limit": limit, "tags": tags}

    return box


GOOD = {"query": "pizza", "location": "강남역"}
EXPECTED = {"query": "pizza", "location": "강남역", "price_level": None, "limit": 10, "tags": ["open", "seen"]}


@pytest.mark.parametrize("form", [
    GOOD,
    json.dumps(GOOD),
    json.dumps(GOOD, ensure_ascii=False).encode("utf-8"),
    bytearray(json.dumps(GOOD).encode()),
    json.dumps(json.dumps(GOOD)),                 # double-encoded
    "  \n" + json.dumps(GOOD) + "\n",
], ids=["dict", "str", "bytes", "bytearray", "double-encoded", "padded"])
def test_every_accepted_form_gives_the_same_call(box, form):
    result = box.call("search_restaurants", form)
    assert result.ok, result.to_dict()
    assert result.data == EXPECTED


@pytest.mark.parametrize("empty", [None, "", "   ", b"", {}, '""'])
def test_empty_arguments_are_an_empty_object(empty):
    box = Toolbox("memory://", lint="off")

    @box.tool
    def ping() -> dict:
        """Checks that the service answers."""
        return {"pong": True}

    assert box.call("ping", empty).data == {"pong": True}


@pytest.mark.parametrize("raw, fragment", [
    ("[1, 2]", "an array, not a JSON object"),
    ("42", "a number, not a JSON object"),
    ('"just text"', "a string, not a JSON object"),
    ("null", "null, not a JSON object"),
    ('{"query": "pizza",}', "not valid JSON"),
    ("{'query': 'pizza'}", "not valid JSON"),
    ('{"query": NaN}', "NaN and Infinity are not JSON"),
    ('{"query": "pizza", "limit": ' + "9" * 5000 + "}", "a number has too many digits"),
    (b"\xff\xfe{}", "not UTF-8"),
    ('"{\\"query\\": broken}"', "a JSON string holding invalid JSON"),
    (["query"], "an array, not a JSON object"),
    (3.5, "a number, not a JSON object"),
])
def test_anything_else_is_invalid_arguments_json_never_an_empty_object(box, raw, fragment):
    result = box.call("search_restaurants", raw)
    assert not result.ok and result.error.code == "INVALID_ARGUMENTS_JSON"
    assert fragment in result.error.message and result.error.message.startswith("search_restaurants: ")
    assert not result.error.retryable and result.error.user_action == "fix_arguments"


def test_syntax_errors_give_line_column_and_masked_context(box):
    raw = '{\n  "query": "김철수 010-1234-5678",\n  "location": "x" "extra"\n}'
    detail = box.call("search_restaurants", raw).error.details[0]
    assert (detail["line"], detail["column"]) == (3, 19)
    assert len(detail["context"]) <= 200
    assert "김철수" not in detail["context"] and "1234" not in detail["context"]
    assert '"…"' in detail["context"]


def test_over_one_mebibyte_is_refused_before_parsing(box):
    big = json.dumps({"query": "x" * (1024 * 1024), "location": "y"})
    result = box.call("search_restaurants", big)
    assert result.error.code == "INVALID_ARGUMENTS_JSON" and "the limit is 1,048,576 bytes" in result.error.message
    assert box.call("search_restaurants", big.encode()).error.details[0]["problem"] == "maxSize"
    # multi-byte characters count as bytes
    assert box.call("search_restaurants", json.dumps({"query": "가" * 400_000, "location": "y"},
                                                     ensure_ascii=False)).error.code == "INVALID_ARGUMENTS_JSON"


def test_strict_mode_nulls_become_absent_and_defaults_apply(box):
    result = box.call("search_restaurants", {"query": "pizza", "location": "x", "limit": None, "tags": None,
                                             "price_level": None})
    assert result.ok and result.data["limit"] == 10 and result.data["tags"] == ["open", "seen"]
    # the mutable default is copied per call
    assert box.call("search_restaurants", GOOD).data["tags"] == ["open", "seen"]


def test_missing_and_unknown_keys_are_reported_together_with_did_you_mean(box):
    result = box.call("search_restaurants", '{"querry": "pizza", "location": "x", "price_level": "cheap"}')
    error = result.error
    assert error.code == "VALIDATION_ERROR"
    assert error.message == ("search_restaurants: 2 problems in the arguments: 'querry' given, 'query' expected; "
                             "'price_level' must be one of low, medium, high")
    assert {"path": "/query", "problem": "required", "expected": "string"} in error.details
    assert {"path": "/price_level", "problem": "enum", "allowed": ["low", "medium", "high"]} in error.details
    assert all(set(d) <= {"path", "problem", "expected", "allowed"} for d in error.details)


def test_types_are_named_values_are_not(box):
    result = box.call("search_restaurants", {"query": 4111111111111111, "location": "x", "limit": "ten"})
    text = json.dumps(result.to_dict(), ensure_ascii=False)
    assert "'query' must be string, not integer" in result.error.message
    assert "'limit' must be integer, not string" in result.error.message
    assert "4111111111111111" not in text and "ten" not in text


def test_at_most_twenty_problems():
    box = Toolbox("memory://", lint="off")
    names = [f"field_{i}" for i in range(30)]
    contract = {"name": "wide", "description": "Takes thirty numbers and stores them.",
                "inputSchema": {"type": "object", "properties": {n: {"type": "integer"} for n in names},
                                "required": names}}
    box.add(contract, lambda **kwargs: {})
    error = box.call("wide", {}).error
    assert len(error.details) == 20 and "more problems not shown" in error.message


def test_a_python_value_with_no_json_meaning_is_refused(box):
    result = box.call("search_restaurants", {"query": object(), "location": "x"})
    assert not result.ok and result.error.code in ("INVALID_ARGUMENTS_JSON", "VALIDATION_ERROR")


def test_open_schema_still_refuses_keys_the_function_cannot_take():
    box = Toolbox("memory://", lint="off")
    contract = {"name": "get_weather", "description": "Current weather for one city.",
                "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
    box.add(contract, lambda city: {"city": city})
    error = box.call("get_weather", {"city": "Seoul", "citty": "x"}).error
    assert error.code == "VALIDATION_ERROR" and "'citty' is not a parameter; did you mean 'city'?" in error.message
