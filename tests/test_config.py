"""Configuration: selection, severities, per-file ignores, targets, suppressions."""

from __future__ import annotations

from pathlib import Path

import pytest

import toolclause
from toolclause.linting.config import ConfigError, config_from_mapping, discover_config, parse_targets
from toolclause.model import Severity

TYPO = {"name": "get_weather", "description": "Current weather for one city, in metric units.",
        "inputSchema": {"type": "object", "properties": {"city": {"type": "string", "description": "City"}},
                        "required": ["citty"]}}


def codes(diags):
    return sorted({d.code for d in diags})


def test_select_and_ignore_by_code_and_prefix():
    assert "S003" in codes(toolclause.lint(TYPO, select=["S"]))
    assert "S003" not in codes(toolclause.lint(TYPO, select=["S"], ignore=["S003"]))
    assert all(c.startswith("D") for c in codes(toolclause.lint(TYPO, select=["D"])))


def test_severity_override():
    config = config_from_mapping({"select": ["S003"], "severity": {"S003": "info"}})
    (diag,) = toolclause.lint(TYPO, config=config)
    assert diag.severity is Severity.INFO


def test_per_file_ignores(tmp_path: Path):
    import json

    legacy = tmp_path / "legacy"
    legacy.mkdir()
    (legacy / "w.json").write_text(json.dumps(TYPO))
    (tmp_path / "w.json").write_text(json.dumps(TYPO))
    config = config_from_mapping({"select": ["S003"], "per-file-ignores": {"legacy/*.json": ["S003"]}})
    files = {Path(d.file).parent.name for d in toolclause.lint(tmp_path, config=config)}
    assert files == {tmp_path.name}


def test_contract_level_suppression():
    quiet = dict(TYPO, **{"x-toolclause-ignore": ["S003"]})
    assert "S003" not in codes(toolclause.lint(quiet, select=["S"]))


def test_targets_parse_and_reject_unknown():
    assert parse_targets("all") >= {"openai-strict", "anthropic", "gemini", "mcp"}
    assert parse_targets(["openai-strict"]) == {"openai-strict"}
    with pytest.raises(ConfigError, match="unknown target 'opneai'"):
        parse_targets("opneai")


@pytest.mark.parametrize("data, message", [
    ({"selct": ["S"]}, "unknown key"),
    ({"severity": {"S003": "fatal"}}, "unknown severity"),
    ({"fail-on": "sometimes"}, "fail-on"),
    ({"select": 5}, "list of rule codes"),
])
def test_bad_configuration_is_a_clear_error(data, message):
    with pytest.raises(ConfigError, match=message):
        config_from_mapping(data, "toolclause.toml")


def test_discovery_pyproject_and_toolclause_toml(tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text('[tool.toolclause]\nignore = ["D009"]\ntargets = ["gemini"]\n')
    nested = tmp_path / "a" / "b"
    nested.mkdir(parents=True)
    config = discover_config(nested)
    assert config.ignore == ("D009",) and config.targets == {"gemini"}
    (tmp_path / "a" / "toolclause.toml").write_text('select = ["S"]\n')
    assert discover_config(nested).select == ("S",)


def test_invalid_toml_names_the_file(tmp_path: Path):
    path = tmp_path / "toolclause.toml"
    path.write_text("select = [\n")
    with pytest.raises(ConfigError, match="toolclause.toml: invalid TOML"):
        discover_config(tmp_path)
