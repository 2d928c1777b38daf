"""R004: "nothing found" declared as an error (the seeds: an empty list with a reason, ok: true)."""

from __future__ import annotations

import pytest

import toolclause


def tool(errors):
    return {"name": "suggest_gifts", "description": "Suggests gifts for one person within a budget.",
            "inputSchema": {"type": "object", "properties": {"budget": {"type": "integer", "description": "In won"}},
                            "required": ["budget"]}, "errors": errors}


def lint(obj):
    return [d for d in toolclause.lint(obj, select=["R004"]) if d.code == "R004"]


# --------------------------------------------------------------------------- R004 (the seeds' "nothing found")

@pytest.mark.parametrize("code", ["NO_RESULTS", "no_results", "NO_MATCHES", "NOTHING_FOUND", "EMPTY_RESULT",
                                  "ZERO_RESULTS", "NO_GIFTS_FOUND", "RESULTS_EMPTY"])
def test_r004_nothing_found_declared_as_an_error(code):
    (found,) = lint(tool([{"code": "UPSTREAM_ERROR", "retryable": True}, {"code": code}]))
    assert found.pointer == "/errors/1/code" and "empty list" in found.message


@pytest.mark.parametrize("code", ["ORDER_NOT_FOUND", "NOT_FOUND", "NO_ORDER_FOUND", "RESTAURANT_CLOSED", "NO_ACCESS"])
def test_r004_leaves_real_errors_alone(code):
    assert lint(tool([code])) == []
