"""Files that are not tool definitions: detected, excluded, or explained; multi-document YAML and empty input."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from toolclause.cli.main import cli
from toolclause.loading import load_paths

HOOKS = """\
- id: toolclause-lint
  name: toolclause lint
  description: Lint LLM tool definitions (OpenAI, Anthropic, Gemini, MCP).
  entry: toolclause lint
  language: python
  types_or: [json, yaml]
"""
TOOL = {"name": "get_weather", "description": "Current weather for one city, in metric units; returns a reading.",
        "inputSchema": {"type": "object", "properties": {"city": {"type": "string", "description": "City name."}},
                        "required": ["city"], "additionalProperties": False},
        "annotations": {"readOnlyHint": True}}


def lint(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, ["lint", *args], input=input)


def test_a_pre_commit_hook_file_is_not_linted_as_a_tool(tmp_path: Path):
    (tmp_path / ".pre-commit-hooks.yaml").write_text(HOOKS)
    (tmp_path / "package.json").write_text(json.dumps({"name": "app", "description": "An app.", "version": "1.0.0",
                                                       "scripts": {"test": "jest"}}))
    (tmp_path / "tools.json").write_text(json.dumps([TOOL]))
    result = lint(str(tmp_path), "--select", "N,D002")
    assert result.exit_code == 0, result.output
    assert "N001" not in result.output and "toolclause lint" not in result.output
    assert "in 1 tool, 1 file" in result.output
    # named explicitly, the file is reported, saying why it is not a tool
    named = lint(str(tmp_path / ".pre-commit-hooks.yaml"))
    assert named.exit_code == 2
    assert ("(/0)  not a tool definition: it has a name and a description, but no parameters and keys no tool has "
            "(id, entry, language, types_or); if it is a tool, name its shape with --input-format function"
            in named.output)
    # …and read as a tool when asked
    forced = lint(str(tmp_path / ".pre-commit-hooks.yaml"), "--input-format", "function", "--select", "N001")
    assert forced.exit_code == 1 and "tool name 'toolclause lint' is invalid" in forced.output


def test_a_tool_without_parameters_is_still_a_tool(tmp_path: Path):
    path = tmp_path / "tools.json"
    path.write_text(json.dumps([{"name": "ping", "description": "Check the service answers."},
                                {"name": "now", "description": "The time.", "annotations": {"readOnlyHint": True},
                                 "x-owner": "ops", "_note": "kept"}]))
    loaded = load_paths([path])
    assert [t.name for t in loaded.tools] == ["ping", "now"] and not loaded.unreadable


def test_exclude_from_the_configuration_and_the_command_line(tmp_path: Path, monkeypatch):
    for folder in ("tools", "tests/fixtures", "legacy"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "t.json").write_text(json.dumps([{**TOOL, "name": folder.replace("/", "_")}]))
    (tmp_path / "tools" / "old.min.json").write_text(json.dumps([{**TOOL, "name": "minified"}]))
    (tmp_path / "toolclause.toml").write_text('exclude = ["tests/fixtures", "*.min.json"]\n')
    monkeypatch.chdir(tmp_path)
    result = lint(".", "--format", "json", "--exclude", "legacy/")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["tools"] == 1  # tools/t.json only
    without_flag = json.loads(lint(".", "--format", "json").stdout)
    assert without_flag["tools"] == 2  # legacy is back; the configuration's globs still apply
    # a file named explicitly is always read
    assert json.loads(lint("tests/fixtures/t.json", "--format", "json").stdout)["tools"] == 1
    (tmp_path / "toolclause.toml").write_text('exclude = "tests/fixtures"\nfail-on = "never"\n')
    assert json.loads(lint(".", "--format", "json").stdout)["tools"] == 3  # one glob as a string
    (tmp_path / "toolclause.toml").write_text("exclude = [1]\n")
    broken = lint(".")
    assert broken.exit_code == 2 and "toolclause.toml: exclude must be a list of globs" in broken.output


def test_multi_document_yaml_is_read_and_fixed(tmp_path: Path):
    path = tmp_path / "tools.yaml"
    path.write_text("# two tools\n---\nname: get weather\ndescription: Current weather.\ninputSchema:\n"
                    "  type: object\n  properties:\n    city: {type: str, description: City.}\n"
                    "  additionalProperties: false\n---\nname: get_time\ndescription: The time.\n"
                    "inputSchema: {type: object, properties: {}, additionalProperties: false}\n")
    result = lint(str(path), "--select", "N001,S002", "--format", "json")
    found = [(d["tool"], d["code"], d["pointer"], d["line"]) for d in json.loads(result.stdout)["diagnostics"]]
    assert found == [("get weather", "N001", "/0/name", 3),
                     ("get weather", "S002", "/0/inputSchema/properties/city/type", 8)]
    assert json.loads(result.stdout)["tools"] == 2
    fixed = lint(str(path), "--select", "S002", "--fix")
    assert fixed.exit_code == 0, fixed.output
    text = path.read_text()
    assert text.startswith("# two tools\n---\nname: get weather\n") and "{type: string, description: City.}" in text
    assert "\n---\nname: get_time\n" in text


def test_a_python_file_points_to_its_toolbox(tmp_path: Path):
    app = tmp_path / "app.py"
    app.write_text("from toolclause import Toolbox\n\nbox = Toolbox()\n\n@box.tool\ndef f(a: int) -> int:\n"
                   "    return a\n")
    result = lint(str(app))
    assert result.exit_code == 2
    assert (f"Python source, not a tool definition; to lint the tools a Toolbox in it registers, name the Toolbox: "
            f"toolclause lint {app}:box") in result.output
    assert "YAML" not in result.output
    plain = tmp_path / "script.py"
    plain.write_text("print('hello')\n")
    assert f"toolclause lint {plain}:box, with the name of the Toolbox it defines" in lint(str(plain)).output


def test_empty_input_says_so(tmp_path: Path):
    result = lint("-", input="")
    assert result.exit_code == 2
    assert "standard input is empty: nothing to lint (pipe a tool definition in" in result.output
    (tmp_path / "empty.json").write_text("")
    (tmp_path / "comments.yaml").write_text("# nothing yet\n")
    (tmp_path / "tools.json").write_text(json.dumps([TOOL]))
    assert not load_paths([tmp_path]).unreadable  # met in a folder: left out
    named = load_paths([tmp_path / "empty.json", tmp_path / "comments.yaml"]).unreadable
    assert [(u.code, u.message) for u in named] == [
        ("empty", "the file is empty: no tool definition in it"),
        ("empty", "the file is only YAML comments: no tool definition in it")]


def test_a_tool_without_parameters_keeps_its_providers_own_fields(tmp_path: Path):
    # Gemini's behavior, OpenAI's and Anthropic's defer_loading, an explicit "type": "function":
    # a tool that takes no arguments, not a package.json
    tools = [{"name": "turn_on_lights", "description": "Turn on the lights in the user's room; returns nothing.",
              "behavior": "NON_BLOCKING"},
             {"name": "get_time_now", "description": "The current time on the server clock as ISO 8601 text.",
              "responseJsonSchema": {"type": "string"}},
             {"type": "function", "name": "get_weather_now", "defer_loading": True,
              "description": "Weather at the user's location right now; returns the temperature."},
             {"type": "function", "name": "get_news_now", "description": "Today's headlines; returns a list.",
              "tool_choice_hint": "auto"}]
    for n, tool in enumerate(tools):
        (tmp_path / f"t{n}.json").write_text(json.dumps([tool]))
    result = lint(str(tmp_path), "--select", "N001", "--fail-on", "never")
    assert result.exit_code == 0, result.output
    assert "not a tool definition" not in result.output
    assert "in 4 tools, 4 files" in result.output


def test_an_exclude_glob_written_from_the_current_folder_still_excludes(tmp_path: Path, monkeypatch):
    (tmp_path / "tests" / "fixtures").mkdir(parents=True)
    (tmp_path / "tests" / "fixtures" / "broken.json").write_text("{not json")
    (tmp_path / "tools.json").write_text(json.dumps([TOOL]))
    monkeypatch.chdir(tmp_path)
    for glob in ("./tests/fixtures", "./tests/fixtures/", "tests/fixtures"):
        result = lint(".", "--select", "N001", "--exclude", glob)
        assert result.exit_code == 0 and "in 1 tool, 1 file" in result.output, (glob, result.output)
