"""`toolclause lint` and `toolclause rules` on the command line: exit codes, formats, errors."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from toolclause.cli import main as cli_main
from toolclause.cli import running
from toolclause.cli.main import cli
from toolclause.rules import ALL_RULES

FIXTURES = Path(__file__).parent / "fixtures" / "cli"
WEATHER = str(FIXTURES / "openai_weather.json")  # one S003 finding
CLEAN = str(FIXTURES / "mcp_clean.json")
MALFORMED = str(FIXTURES / "malformed.json")


def lint(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, ["lint", *args], input=input)


# --------------------------------------------------------------------------- exit codes

def test_clean_input_exits_0():
    result = lint(CLEAN, "--select", "S003")
    assert result.exit_code == 0, result.output
    assert "0 errors, 0 warnings, 0 info in 1 tool, 1 file" in result.output


def test_a_finding_exits_1_and_names_file_line_and_pointer():
    result = lint(WEATHER, "--select", "S003")
    assert result.exit_code == 1
    assert "openai_weather.json" in result.output
    assert "12:22  S003  error  required names 'citty'" in result.output
    assert "(/0/function/parameters/required/0)" in result.output


@pytest.mark.parametrize("fail_on, code", [("error", 1), ("warning", 1), ("info", 1), ("never", 0)])
def test_fail_on(fail_on, code):
    assert lint(WEATHER, "--select", "S003", "--fail-on", fail_on).exit_code == code


def test_fail_on_compares_with_the_configured_severity(tmp_path, monkeypatch):
    (tmp_path / "toolclause.toml").write_text('severity = {S003 = "warning"}\n')
    monkeypatch.chdir(tmp_path)
    assert lint(WEATHER, "--select", "S003").exit_code == 0
    assert lint(WEATHER, "--select", "S003", "--fail-on", "warning").exit_code == 1


def test_fail_on_default_comes_from_the_configuration(tmp_path):
    config = tmp_path / "toolclause.toml"
    config.write_text('fail-on = "never"\n')
    assert lint(WEATHER, "--select", "S003", "--config", str(config)).exit_code == 0


def test_select_and_ignore():
    assert lint(WEATHER, "--select", "S", "--ignore", "S003", "--fail-on", "info").exit_code == 0
    assert lint(WEATHER, "--select", "s003").exit_code == 1


def test_a_malformed_file_exits_2_with_one_line_naming_it():
    result = lint(MALFORMED, "--select", "S003")
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert f"{MALFORMED}  invalid JSON at line 2, column 35" in result.output


def test_unreadable_input_exits_2_even_beside_good_files_and_machine_output_stays_parseable():
    result = lint(MALFORMED, CLEAN, "--select", "S003", "--format", "json")
    assert result.exit_code == 2
    document = json.loads(result.stdout)
    assert document["unreadable"][0]["file"] == MALFORMED
    assert document["tools"] == 1


def test_a_missing_path_exits_2():
    result = lint("no/such/file.json")
    assert result.exit_code == 2
    assert "no/such/file.json" in result.output and "no such file or folder" in result.output


@pytest.mark.parametrize("args, fragment", [
    ([], "give at least one PATH"),
    ([WEATHER, "--target", "openai,gpt5"], "unknown target 'gpt5'"),
    ([WEATHER, "--select", "S03"], "did you mean 'S003'?"),
    ([WEATHER, "--format", "xml"], "Invalid value for '--format'"),
    ([WEATHER, "--input-format", "nope"], "Invalid value for '--input-format'"),
    ([WEATHER, "--config", "missing.toml"], "--config missing.toml: no such file"),
])
def test_usage_errors_exit_2(args, fragment):
    result = lint(*args)
    assert result.exit_code == 2
    assert fragment in result.output
    assert "Traceback" not in result.output


def test_a_bad_configuration_exits_2(tmp_path):
    config = tmp_path / "toolclause.toml"
    config.write_text("selekt = ['S']\n")
    result = lint(WEATHER, "--config", str(config))
    assert result.exit_code == 2
    assert "unknown key(s) selekt" in result.output
    config.write_text("select = [\n")
    assert "invalid TOML" in lint(WEATHER, "--config", str(config)).output


@pytest.mark.parametrize("option, says", [("--server", "no such command"), ("--url", "http:// or https://")])
def test_an_unusable_live_server_is_one_line_and_exit_2(option, says):
    # live servers themselves are tested in test_live_servers.py
    result = lint(option, "something")
    assert result.exit_code == 2
    assert says in result.output and "Traceback" not in result.output


def test_targets_are_accepted():
    assert lint(CLEAN, "--select", "S003", "--target", "openai-strict,anthropic").exit_code == 0
    assert lint(CLEAN, "--select", "S003", "--target", "all").exit_code == 0


# --------------------------------------------------------------------------- inputs

def test_standard_input():
    text = (FIXTURES / "openai_weather.json").read_text()
    result = lint("-", "--select", "S003", "--format", "json", input=text)
    assert result.exit_code == 1
    assert json.loads(result.stdout)["diagnostics"][0]["file"] == "-"


def test_a_folder_yaml_and_jsonl():
    result = lint(str(FIXTURES), "--select", "S003", "--format", "json")
    document = json.loads(result.stdout)
    found = {(Path(d["file"]).name, d["tool"], d["line"]) for d in document["diagnostics"]}
    assert found == {("openai_weather.json", "get_weather", 12), ("tools.yaml", "get_order", 13),
                     ("users.jsonl", "delete_user", 2)}
    jsonl = next(d for d in document["diagnostics"] if d["tool"] == "delete_user")
    assert jsonl["pointer"] == "/inputSchema/required/0"  # into that line's record
    assert result.exit_code == 2  # the folder holds malformed.json too


def test_input_format_forces_the_shape(tmp_path):
    path = tmp_path / "odd.json"
    path.write_text(json.dumps({"name": "t", "description": "d",
                                "input_schema": {"type": "object", "required": ["x"]}}))
    result = lint(str(path), "--select", "S003", "--input-format", "anthropic")
    assert result.exit_code == 1


def test_output_file(tmp_path):
    out = tmp_path / "report.sarif"
    result = lint(WEATHER, "--select", "S003", "--format", "sarif", "-o", str(out))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert json.loads(out.read_text())["runs"][0]["results"][0]["ruleId"] == "S003"


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github", "junit"])
def test_every_format_from_the_command_line(fmt):
    result = lint(WEATHER, "--select", "S003", "--format", fmt)
    assert result.exit_code == 1
    if fmt in ("json", "sarif"):
        json.loads(result.stdout)
    elif fmt == "junit":
        ET.fromstring(result.stdout.encode())
    elif fmt == "github":
        assert result.stdout.startswith("::error file=")


def test_no_colour_and_no_progress_when_not_a_terminal():
    result = lint(str(FIXTURES), "--select", "S003")
    assert "\x1b[" not in result.output


def test_an_unexpected_error_is_one_line(monkeypatch, capsys):
    def explode(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(running, "run_lint", explode)  # the lint command imports it when it runs
    monkeypatch.delenv("TOOLCLAUSE_DEBUG", raising=False)
    with pytest.raises(SystemExit) as info:
        cli_main.main(["lint", WEATHER])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error: RuntimeError: boom" in err


def test_the_console_script_keeps_every_exit_code_and_all_output():
    # console() leaves with os._exit after flushing: nothing may be lost, no code changed
    run = lambda *args: subprocess.run([sys.executable, "-m", "toolclause.cli.main", *args],  # noqa: E731
                                       capture_output=True, text=True, timeout=60)
    clean = run("lint", WEATHER, "--select", "S003", "--fail-on", "never", "--format", "sarif")
    assert clean.returncode == 0 and json.loads(clean.stdout)["version"] == "2.1.0"
    usage = run("lint", "--no-such-option")
    assert usage.returncode == 2 and "No such option" in usage.stderr
    unreadable = run("lint", "does-not-exist.json")
    assert unreadable.returncode == 2 and "does-not-exist.json" in unreadable.stdout + unreadable.stderr
    assert "Traceback" not in usage.stderr + unreadable.stderr


def test_the_console_script_runs():
    result = subprocess.run([sys.executable, "-m", "toolclause.cli.main", "lint", WEATHER, "--select", "S003",
                             "--format", "json"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1, result.stderr
    assert json.loads(result.stdout)["summary"]["error"] == 1


# --------------------------------------------------------------------------- rules

def rules(*args: str):
    return CliRunner().invoke(cli, ["rules", *args])


def test_rules_catalogue_lists_every_rule():
    result = rules()
    assert result.exit_code == 0
    for rule in ALL_RULES:
        assert rule.code in result.output and rule.name in result.output
    assert "S003  required-not-defined" in result.output


def test_rules_catalogue_json():
    document = json.loads(rules("--format", "json").stdout)
    records = {r["code"]: r for r in document["rules"]}
    assert set(records) == {r.code for r in ALL_RULES}
    assert records["S003"] == {"code": "S003", "name": "required-not-defined", "severity": "error", "targets": [],
                               "fixable": False, "summary": records["S003"]["summary"]}
    assert records["S003"]["summary"].startswith("Finds names in `required`")


@pytest.mark.parametrize("query", ["S003", "s003", "required-not-defined"])
def test_rules_shows_one_rules_documentation_as_plain_text(query):
    result = rules(query)
    assert result.exit_code == 0
    out = result.output
    assert out.startswith("S003  required-not-defined\nseverity: error")
    for section in ("What it does", "Why is this bad?", "Example", "Use instead", "Fix safety"):
        assert f"\n{section}\n" in out
    assert "```" not in out
    assert '    {"name": "get_weather"' in out


def test_rules_one_rule_json():
    document = json.loads(rules("S003", "--format", "json").stdout)
    assert document["code"] == "S003"
    assert set(document["documentation"]) >= {"What it does", "Example", "Fix safety"}


@pytest.mark.parametrize("query, hint", [("S0003", "S003"), ("required-not-definded", "required-not-defined")])
def test_rules_unknown_code_suggests_the_closest(query, hint):
    result = rules(query)
    assert result.exit_code == 2
    assert f"unknown rule {query!r}; did you mean {hint!r}?" in result.output


def test_batched_linting_finds_exactly_what_one_call_finds():
    from toolclause.cli.running import BATCH_TOOLS, lint_in_batches
    from toolclause.linting.config import LintConfig
    from toolclause.linting.engine import lint_contracts, sort_key
    from toolclause.loading import load_text

    lines = []
    for index in range(BATCH_TOOLS * 2 + 7):
        required = ["q"] if index % 3 else ["qq"]
        lines.append(json.dumps({"source": "s", "origin": f"list{index // 40}", "format": "mcp", "tool": {
            "name": f"tool_{index % 50}", "description": "Looks one thing up by its id and returns it.",
            "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": required}}}))
    tools = load_text("\n".join(lines), "many.jsonl").tools
    calls = []
    batched = lint_in_batches(tools, LintConfig(), lambda done, total: calls.append((done, total)))
    whole = sorted(lint_contracts(tools, LintConfig()), key=sort_key)
    assert [d.to_dict() for d in batched] == [d.to_dict() for d in whole]
    assert any(d.code == "S003" for d in batched)
    assert len(calls) >= 2 and calls[-1] == (len(tools), len(tools))


def test_force_color_and_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert "\x1b[" in lint(WEATHER, "--select", "S003").output
    assert "\x1b[" in rules("S003").output
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b[" not in lint(WEATHER, "--select", "S003").output
    assert "\x1b[" not in rules().output
