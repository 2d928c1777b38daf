"""R002: a contract's example results are checked against its outputSchema; examples without a result are not."""

from toolclause import lint

OUTPUT = {"type": "object", "properties": {"total": {"type": "integer", "minimum": 0}}, "required": ["total"]}


def tool(examples: dict) -> dict:
    return {"name": "count_items", "description": "Counts the items in a list and returns the count.",
            "inputSchema": {"type": "object", "properties": {"items": {"type": "array", "items": {"type": "string"}}},
                            "required": ["items"]},
            "outputSchema": OUTPUT, "examples": examples}


def r002(examples: dict) -> list:
    return [d for d in lint([tool(examples)]) if d.code == "R002"]


def test_a_result_that_breaks_the_output_schema_is_reported_where_it_fails():
    (found,) = r002({"valid": [{"arguments": {"items": ["a"]}, "result": {"total": 1}},
                               {"arguments": {"items": []}, "result": {"total": -1}}]})
    assert found.pointer.endswith("/examples/valid/1/result") and "'/total'" in found.message


def test_examples_without_a_result_and_invalid_examples_are_not_results():
    assert r002({"valid": [{"items": ["a"]}], "invalid": [{"arguments": {"items": 3}, "result": {"total": "x"}}]}) == []
