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
    result = CliRunner().invoke(cli, ["export", str(tmp_path / "t.json"), "--target", "openai-chat", "--strict"])
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
