"""`toolclause.to_provider`: one schema in, the provider's form and its losses out — exactly what `export`
gives for the same tool, for every target (checked over the real servers' tools in tests/data, and a
sample of the shared corpus when it is there)."""

from __future__ import annotations

import glob
import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from toolclause import ProviderSchema, export, to_provider
from toolclause.cli.main import cli
from toolclause.exporting import with_fixed_types
from toolclause.exporting.provider import OUTPUT_TARGETS, TOOL_TARGETS, arguments_of, relative_losses
from toolclause.loading import load_paths

SERVERS = sorted(glob.glob(str(Path(__file__).parent / "data" / "servers" / "*.json")))
CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"
VARIANTS = [(target, strict) for target in TOOL_TARGETS for strict in (False, True)]


def tools_of(paths: list[str]) -> list[Any]:
    """The tools with an argument schema, with S002's safe type fixes ("str" → "string") made first, as a
    user exports them (a loader reads "str" in a BFCL file as a Python name, in a bare schema as unknown)."""
    return [with_fixed_types(tool) for tool in load_paths(paths).tools if isinstance(tool.input_schema, dict)]


def assert_same_as_export(tools: list[Any], target: str, strict: bool) -> None:
    exporter, settings = ("gemini", {"schema": "openapi"}) if target == "gemini-openapi" else (target, None)
    for tool in tools:
        exported = export([tool], exporter, strict, settings=settings)
        found = to_provider(tool.input_schema, target, strict=strict)
        assert found.schema == arguments_of(exported.payload), tool.name
        assert [loss.to_dict() | {"tool": ""} for loss in found.losses] == \
            [loss.to_dict() | {"tool": ""} for loss in relative_losses(exported.losses)], tool.name


@pytest.mark.timeout(600)
@pytest.mark.parametrize(("target", "strict"), VARIANTS, ids=[f"{t}{'-strict' if s else ''}" for t, s in VARIANTS])
def test_to_provider_equals_export_for_every_tool_of_the_real_servers(target: str, strict: bool) -> None:
    tools = tools_of(SERVERS)
    assert len(tools) > 500
    assert_same_as_export(tools, target, strict)


@pytest.mark.skipif(not CORPORA.exists(), reason="the shared corpus (../shared/corpora) is absent")
@pytest.mark.timeout(600)
@pytest.mark.parametrize(("target", "strict"), VARIANTS, ids=[f"{t}{'-strict' if s else ''}" for t, s in VARIANTS])
def test_to_provider_equals_export_over_a_corpus_sample(target: str, strict: bool) -> None:
    tools = tools_of(sorted(glob.glob(str(CORPORA / "*" / "tools.jsonl"))))
    assert_same_as_export(random.Random(35).sample(tools, min(200, len(tools))), target, strict)


def test_losses_point_into_the_schema_given() -> None:
    schema = {"type": "object", "properties": {"city": {"type": "string", "minLength": 2},
                                               "n": {"type": "integer", "minimum": 1}}, "required": ["city"]}
    found = to_provider(schema, "anthropic", strict=True)
    assert isinstance(found, ProviderSchema) and (found.target, found.strict) == ("anthropic", True)
    assert [(loss.pointer, loss.keyword) for loss in found.losses] == [("/properties/city/minLength", "minLength"),
                                                                      ("/properties/n/minimum", "minimum")]
    assert found.schema["additionalProperties"] is False
    assert to_provider(schema, "mcp").schema == schema and to_provider(schema, "mcp").losses == ()


@pytest.mark.parametrize("target", sorted(OUTPUT_TARGETS))
def test_an_output_schema_is_projected_as_the_structured_output_export_does(target: str) -> None:
    schema = {"type": "object", "properties": {"intent": {"type": "string", "minLength": 1}}, "required": ["intent"]}
    found = to_provider(schema, target, strict=True, kind="output")
    shape = OUTPUT_TARGETS[target]
    exported = export({"schema": schema}, "structured-output", True).payload["schema"][shape]
    assert found.schema == (exported["json_schema"]["schema"] if shape == "openai" else exported["format"]["schema"])
    assert [loss.pointer for loss in found.losses] == ["/properties/intent/minLength"]
    assert not found.losses[0].message.startswith(("OpenAI", "Anthropic"))


@pytest.mark.parametrize(("call", "message"), [
    (lambda: to_provider({"type": "object"}, "cohere"), "unknown target 'cohere'"),
    (lambda: to_provider({"type": "object"}, "gemini", kind="output"), "structured output"),
    (lambda: to_provider({"type": "object"}, "mcp", kind="input"), "kind is 'tool' or 'output'"),
])
def test_a_target_or_kind_it_cannot_give_is_refused_by_name(call: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


def test_the_cli_converts_one_schema_file(tmp_path: Path) -> None:
    path = tmp_path / "weather.json"
    path.write_text(json.dumps({"type": "object", "properties": {"city": {"type": "string", "minLength": 2}}}))
    result = CliRunner().invoke(cli, ["export", "--schema", str(path), "--target", "gemini", "--format", "json"])
    assert result.exit_code == 0, result.output
    printed = json.loads(result.output)
    assert printed["schema"] == to_provider(json.loads(path.read_text()), "gemini").schema
    assert printed["losses"] == [{"pointer": "/properties/city/minLength", "keyword": "minLength",
                                  "lost": to_provider(json.loads(path.read_text()), "gemini").losses[0].lost}]
    openapi = CliRunner().invoke(cli, ["export", "--schema", str(path), "--target", "gemini", "--gemini-schema",
                                       "openapi"])
    assert json.loads(openapi.output)["schema"] == to_provider(json.loads(path.read_text()), "gemini-openapi").schema


@pytest.mark.parametrize(("content", "extra", "said"), [
    ("{not json", [], "is not JSON (line 1, column 2)"),
    ("[1, 2]", [], "holds a JSON list, not a schema object"),
    ('{"type": "object"}', ["tools.json"], "give it without PATHS"),
])
def test_the_cli_refuses_what_it_cannot_convert_in_one_line(tmp_path: Path, content: str, extra: list[str],
                                                            said: str) -> None:
    path = tmp_path / "schema.json"
    path.write_text(content)
    result = CliRunner().invoke(cli, ["export", *extra, "--schema", str(path), "--target", "gemini"])
    assert result.exit_code == 2 and said in result.output and "Traceback" not in result.output
