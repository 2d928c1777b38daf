"""Corpus tools exported to every target: target rules pass, provider SDK types accept, strict round-trips.

Skips when ../shared/corpora is absent.  A seeded sample keeps it to a few
seconds; bench/export_corpus.py runs the whole corpus and prints the loss table.
"""

from __future__ import annotations

import glob
import random
from pathlib import Path

import pytest

from toolclause import lint
from toolclause.exporting import LINT_TARGETS, export, to_canonical_arguments, to_strict_arguments, with_fixed_types
from toolclause.loading import load_paths

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"
pytestmark = pytest.mark.skipif(not CORPORA.exists(), reason="../shared/corpora is absent")
TARGET_RULES = ["P001", "P002", "P003", "P007", "N001", "N005"]
SAMPLE = 150


@pytest.fixture(scope="module")
def sample():
    tools = [t for t in load_paths(sorted(glob.glob(str(CORPORA / "*" / "tools.jsonl")))).tools
             if t.input_schema is not None]
    return [with_fixed_types(t) for t in random.Random(20240917).sample(tools, SAMPLE)]


VARIANTS = [(target, strict) for (target, strict) in LINT_TARGETS] + [("gemini-openapi", False)]


@pytest.mark.parametrize("target,strict", VARIANTS, ids=[f"{t}{'-strict' if s else ''}" for t, s in VARIANTS])
def test_exports_pass_the_matching_target_rules(sample, target, strict):
    settings = {}
    lint_target = "gemini" if target == "gemini-openapi" else LINT_TARGETS[(target, strict)]
    if target == "gemini-openapi":
        target, settings = "gemini", {"schema": "openapi"}
    errors = []
    for tool in sample:
        document = export([tool], target, strict, settings=settings).document()
        errors += [f"{tool.name}: {d.code} {d.pointer} {d.message}"
                   for d in lint(document, targets=[lint_target], select=TARGET_RULES) if d.severity.label == "error"]
    assert errors == []


def test_openai_exports_validate_against_the_sdk_models(sample):
    from openai.types.chat import ChatCompletionFunctionTool
    from openai.types.responses import FunctionTool

    for strict in (False, True):
        for tool in export(sample, "openai-chat", strict).payload:
            model = ChatCompletionFunctionTool.model_validate(tool)
            assert model.function.name == tool["function"]["name"]
            assert set(tool["function"]) <= set(type(model.function).model_fields)
        for tool in export(sample, "openai-responses", strict).payload:
            assert set(tool) <= set(FunctionTool.model_fields)
            FunctionTool.model_validate(tool)


def test_anthropic_exports_validate_against_the_sdk_types(sample):
    from anthropic.types import ToolParam
    from pydantic import TypeAdapter

    adapter = TypeAdapter(ToolParam)
    for strict in (False, True):
        for tool in export(sample[:50], "anthropic", strict).payload:
            adapter.validate_python(tool)
            assert set(tool) <= set(ToolParam.__annotations__)


def test_gemini_exports_validate_against_the_sdk_models(sample):
    from google.genai import types

    for shape in ("json", "openapi"):
        (tool,) = export(sample, "gemini", settings={"schema": shape}).payload
        validated = types.Tool.model_validate(tool)
        assert len(validated.function_declarations) == len(sample)


def test_mcp_exports_validate_against_the_sdk_models(sample):
    mcp_types = pytest.importorskip("mcp.types")
    result = export(sample, "mcp", settings={"shape": "list"})
    mcp_types.ListToolsResult.model_validate(result.payload)


# --------------------------------------------------------------------------- strict round trip (hypothesis)

def _round_trip_schemas(sample, count=7):
    chosen = []
    for tool in sample:
        result = export([tool], "openai-chat", strict=True)
        if result.losses or result.name_map:
            continue
        chosen.append((tool, result.payload[0]["function"]["parameters"]))
    return chosen[:count]


def _check_round_trip(original, projection, strategies, validators):
    """Arguments valid for one schema, converted, are valid for the other, both ways."""
    from hypothesis import HealthCheck, given, settings

    strategy_original, strategy_strict = strategies
    valid_original, valid_strict = validators

    @settings(max_examples=8, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy_strict)
    def strict_to_canonical(instance):
        assert valid_original.is_valid(to_canonical_arguments(instance, original)), instance

    @settings(max_examples=8, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy_original)
    def canonical_to_strict(instance):
        assert valid_strict.is_valid(to_strict_arguments(instance, projection)), instance

    strict_to_canonical()
    canonical_to_strict()


def test_strict_projection_round_trips(sample):
    import jsonschema_rs
    from hypothesis_jsonschema import from_schema

    checked = 0
    for tool, projection in _round_trip_schemas(sample):
        original = tool.input_schema
        try:
            strategy_original, strategy_strict = from_schema(original), from_schema(projection)
        except Exception:  # hypothesis-jsonschema cannot handle every schema
            continue
        validators = jsonschema_rs.validator_for(original), jsonschema_rs.validator_for(projection)
        try:
            _check_round_trip(original, projection, (strategy_original, strategy_strict), validators)
        except Exception as exc:  # an unsatisfiable or unsupported schema is skipped, an assertion is not
            if isinstance(exc, AssertionError):
                raise
            continue
        checked += 1
    assert checked >= 4
