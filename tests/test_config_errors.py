"""A configuration that cannot be used as written is exit 2 naming the key, never ignored."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from toolclause.cli.main import cli
from toolclause.linting.config import ConfigError, config_from_mapping, discover_config

WEATHER = str(Path(__file__).parent / "fixtures" / "cli" / "openai_weather.json")


@pytest.mark.parametrize("data, names", [
    ({"select": ["S999"]}, ["select", "'S999'"]),
    ({"ignore": ["D0099"]}, ["ignore", "'D0099'"]),
    ({"ignore": ["Q"]}, ["ignore", "'Q'"]),
    ({"per-file-ignores": {"legacy/*": ["C0001"]}}, ["per-file-ignores.legacy/*", "'C0001'"]),
    ({"severity": {"D03": "info"}}, ["severity.D03", "not a rule code"]),
    ({"severity": {"D003": 1}}, ["severity.D003"]),
    ({"severity": ["D003"]}, ["severity must be a table"]),
    ({"budgets": {"max-tool": 20}}, ["budgets.max-tool", "unknown budget", "max-tools"]),
    ({"budgets": {"max-tools": "20"}}, ["budgets.max-tools", "positive whole number"]),
    ({"budgets": {"tool-tokens": 0}}, ["budgets.tool-tokens"]),
    ({"budgets": {"list-tokens": True}}, ["budgets.list-tokens"]),
    ({"budgets": 20}, ["budgets must be a table"]),
    ({"targets": 5}, ["targets must be a list"]),
    ({"targets": ["openai", 5]}, ["targets must be a list"]),
    ({"fail-on": 1}, ["fail-on must be"]),
    ({"per-file-ignores": ["x"]}, ["per-file-ignores must be a table"]),
    ({"toolset": "folders"}, ["toolset must be folder, file or all"]),
    ({"rules": {"D002": {"min-lenght": 3}}}, ["D002", "unknown option 'min-lenght'"]),
    ({"rules": {"D002": {"min-length": "3"}}}, ["D002", "'min-length' must be"]),
    ({"rules": {"Z001": {}}}, ["rules.Z001"]),
])
def test_each_wrong_setting_names_its_key(data, names):
    with pytest.raises(ConfigError) as caught:
        config_from_mapping(data, "toolclause.toml")
    for name in names:
        assert name in str(caught.value)


def test_valid_settings_still_read():
    config = config_from_mapping({"select": ["S", "d003", "ALL"], "ignore": "D009,N", "severity": {"d003": "info"},
                                  "budgets": {"max-tools": 30}, "toolset": "File", "fail-on": "Warning"})
    assert config.select == ("S", "D003", "ALL") and config.ignore == ("D009", "N")
    assert config.budgets == {"max-tools": 30} and config.toolset == "file" and config.fail_on == "warning"


def _lint_in(folder: Path, *args: str):
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        return CliRunner().invoke(cli, ["lint", WEATHER, *args])
    finally:
        os.chdir(cwd)


def test_a_broken_pyproject_found_by_discovery_is_exit_2_naming_it(tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text("[tool.toolclause]\nselect = [\n")
    with pytest.raises(ConfigError, match="pyproject.toml: invalid TOML"):
        discover_config(tmp_path)
    result = _lint_in(tmp_path)
    assert result.exit_code == 2 and "pyproject.toml: invalid TOML" in result.output


def test_a_pyproject_without_the_table_is_still_skipped(tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    assert discover_config(tmp_path).select == ("ALL",)


@pytest.mark.parametrize("toml, says", [
    ('[tool.toolclause]\nignore = ["D0099"]\n', "ignore: 'D0099' is not a rule code or prefix"),
    ('[tool.toolclause]\nbudgets = {max-tool = 3}\n', "budgets.max-tool: unknown budget"),
    ('[tool.toolclause.rules.D002]\nmin-lenght = 3\n', "unknown option 'min-lenght'"),
])
def test_the_command_line_exits_2_on_a_discovered_wrong_setting(tmp_path: Path, toml, says):
    (tmp_path / "pyproject.toml").write_text(toml)
    result = _lint_in(tmp_path)
    assert result.exit_code == 2, result.output
    assert says in result.output and "pyproject.toml" in result.output


def test_pyproject_tables_pasted_into_toolclause_toml_are_told_to_drop_the_prefix(tmp_path: Path):
    (tmp_path / "toolclause.toml").write_text('[tool.toolclause]\nselect = ["ALL"]\n\n'
                                              '[tool.toolclause.rules.D002]\nmin-length = 30\n')
    result = _lint_in(tmp_path)
    assert result.exit_code == 2, result.output
    assert "toolclause.toml" in result.output and "drop 'tool.toolclause'" in result.output
    assert "toolset" not in result.output  # not the did-you-mean of the unknown key 'tool'


@pytest.mark.parametrize("option, value, code", [
    ("select", ["S003", "X999"], "X999"), ("ignore", ["D0099"], "D0099"), ("select", "S003,Q", "Q"),
    ("ignore", iter(["C0001"]), "C0001")])
def test_the_python_api_checks_select_and_ignore_as_the_command_line_does(option, value, code):
    import toolclause

    tool = {"name": "t", "description": "Looks one record up by its id.", "inputSchema": {"type": "object"}}
    with pytest.raises(ConfigError) as raised:
        toolclause.lint(tool, **{option: value})
    message = str(raised.value)
    assert message.startswith(f"{option}: '{code}' is not a rule code or prefix")
    # the same check, the same words, behind --select / --ignore (exit 2)
    flag_value = ",".join(value) if isinstance(value, list) else value if isinstance(value, str) else code
    result = CliRunner().invoke(cli, ["lint", WEATHER, f"--{option}", flag_value])
    assert result.exit_code == 2
    assert message[len(option):] in result.output and f"--{option}" in result.output


def test_the_python_api_takes_codes_and_prefixes_in_any_case():
    import toolclause

    tool = {"name": "t", "description": "Looks one record up by its id.",
            "inputSchema": {"type": "object", "properties": {}, "required": ["id"]}}
    assert [d.code for d in toolclause.lint(tool, select=["s003"])] == ["S003"]
    assert [d.code for d in toolclause.lint(tool, select="S0", ignore={"S001"})] == ["S003"]


@pytest.mark.parametrize("command, target, says", [
    ("lint", "openai-chat", "lint checks what it sends with --target openai or openai-strict"),
    ("export", "openai-strict", "--target openai-chat --strict or --target openai-responses --strict"),
    ("export", "anthropic-strict", "export writes it with --target anthropic --strict"),
    ("export", "openai", "--target openai-chat or --target openai-responses"),
])
def test_a_target_of_the_other_command_is_answered_with_this_ones(tmp_path: Path, command, target, says):
    # lint names strictness as a target, export as a flag: each says how the other's name is written here
    result = CliRunner().invoke(cli, [command, WEATHER, "--target", target])
    assert result.exit_code == 2, result.output
    assert says in result.output


def test_an_unknown_target_gets_no_such_hint():
    result = CliRunner().invoke(cli, ["export", WEATHER, "--target", "bogus"])
    assert result.exit_code == 2 and "'bogus' is not one of" in result.output and "lint target" not in result.output
