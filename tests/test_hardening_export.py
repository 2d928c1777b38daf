"""Malformed schemas and settings never end an export as "internal error"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from toolclause.cli.main import cli
from toolclause.exporting import TARGETS, export

MALFORMED = [False, True, {"type": "object", "properties": {"a": {"type": "string", "format": {}}}},
             {"type": "object", "properties": {"a": {"type": "string", "format": ["date"]}}}]


@pytest.mark.parametrize("schema", MALFORMED, ids=["false", "true", "format-object", "format-list"])
@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("target", [t for t in TARGETS if t != "structured-output"])
def test_a_malformed_input_schema_is_a_loss_not_a_crash(schema, strict, target):
    tool = {"name": "get_thing", "description": "Gets the thing and returns it.", "inputSchema": schema}
    result = export([tool], target, strict=strict)
    json.dumps(result.payload)  # what goes out is JSON
    if isinstance(schema, bool):
        assert [(loss.code, loss.tool) for loss in result.losses][:1] == [("root-not-object", "get_thing")]


def test_the_cli_reports_the_tool_and_exits_normally(tmp_path: Path):
    (tmp_path / "t.json").write_text(json.dumps({"name": "get_thing", "description": "Gets it.", "inputSchema": False}))
    refused = CliRunner().invoke(cli, ["export", str(tmp_path / "t.json"), "--target", "openai-chat", "--strict"])
    assert refused.exit_code == 1 and "internal error" not in refused.output and "S004" in refused.stderr
    result = CliRunner().invoke(cli, ["export", str(tmp_path / "t.json"), "--target", "openai-chat", "--strict",
                                      "--allow-lint-errors"])
    assert result.exit_code == 0 and "internal error" not in result.output
    assert "get_thing" in result.stderr and "not an object" in result.stderr


def test_a_json_object_where_a_setting_wants_text_is_refused(tmp_path: Path):
    (tmp_path / "t.json").write_text(json.dumps({"name": "get_thing", "description": "Gets it."}))
    result = CliRunner().invoke(cli, ["export", str(tmp_path / "t.json"), "--target", "a2a", "--set", 'name={"a":1}'])
    assert result.exit_code == 2 and "a setting is text" in result.output


def test_settings_are_text(tmp_path: Path):
    (tmp_path / "t.json").write_text(json.dumps({"name": "get_thing", "description": "Gets it."}))
    result = CliRunner().invoke(cli, ["export", str(tmp_path / "t.json"), "--target", "a2a",
                                      "--set", "protocolVersion=1.0", "--set", 'name="my agent"'])
    card = json.loads(result.stdout)
    assert card["name"] == "my agent" and card["supportedInterfaces"][0]["protocolVersion"] == "1.0"


def _doubling_refs(levels: int) -> dict:
    defs = {f"d{i}": {"type": "object", "properties": {"a": {"$ref": f"#/$defs/d{i + 1}"},
                                                       "b": {"$ref": f"#/$defs/d{i + 1}"}}} for i in range(levels)}
    defs[f"d{levels}"] = {"type": "string"}
    return {"name": "nested_thing", "description": "Gets the nested thing and returns it.",
            "inputSchema": {"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}}, "$defs": defs}}


@pytest.mark.parametrize("target,settings", [("anthropic", {}), ("gemini", {"schema": "openapi"})])
def test_inlining_twenty_levels_of_double_refs_is_refused_within_a_budget(target, settings):
    result = export([_doubling_refs(20)], target, strict=True, settings=settings)
    assert [loss.code for loss in result.losses] == ["too-large-to-inline"]
    assert len(json.dumps(result.payload)) < 10_000


def test_a_few_levels_of_double_refs_are_still_inlined():
    result = export([_doubling_refs(4)], "gemini", strict=True, settings={"schema": "openapi"})
    assert not [loss for loss in result.losses if loss.code == "too-large-to-inline"]
    assert json.dumps(result.payload).count('"a"') == 2 ** 4 - 1
