"""Baselines: identity that survives line moves, counted duplicates, and the CLI round trip."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from toolclause.cli.main import cli
from toolclause.linting.baseline import BaselineError, dumps_baseline, filter_new, parse_baseline, path_key
from toolclause.model import Diagnostic, Severity

FIXTURES = Path(__file__).parent / "fixtures" / "cli"


def d(pointer="/inputSchema/required/0", line=3, file="tools/a.json", tool="t", code="S003", message="m"):
    return Diagnostic(code, "required-not-defined", Severity.ERROR, message, tool=tool, file=file,
                      pointer=pointer, line=line, column=1)


def test_identity_ignores_line_and_message():
    accepted = parse_baseline(dumps_baseline([d(line=3)], ".", "/repo"), "b.json")
    new, hidden = filter_new([d(line=30, message="reworded")], accepted, ".", "/repo")
    assert (new, hidden) == ([], 1)


def test_a_different_pointer_tool_or_code_is_new():
    accepted = parse_baseline(dumps_baseline([d()], ".", "/repo"), "b.json")
    others = [d(pointer="/inputSchema/required/1"), d(tool="u"), d(code="S004")]
    new, hidden = filter_new(others, accepted, ".", "/repo")
    assert (new, hidden) == (others, 0)


def test_duplicates_are_counted():
    text = dumps_baseline([d(), d()], ".", "/repo")
    assert json.loads(text)["findings"][0]["count"] == 2
    new, hidden = filter_new([d(), d(), d()], parse_baseline(text, "b.json"), ".", "/repo")
    assert hidden == 2 and len(new) == 1


def test_the_file_is_sorted_versioned_and_stable():
    findings = [d(file="b.json"), d(file="a.json", pointer="/z"), d(file="a.json", pointer="/a")]
    text = dumps_baseline(findings, ".", "/repo")
    assert text == dumps_baseline(list(reversed(findings)), ".", "/repo")
    document = json.loads(text)
    assert document["version"] == 2
    assert [(f["file"], f["pointer"]) for f in document["findings"]] == [
        ("a.json", "/a"), ("a.json", "/z"), ("b.json", "/inputSchema/required/0")]


def test_paths_are_relative_to_the_baseline_folder():
    assert path_key("tools/a.json", "ci", "/repo") == "../tools/a.json"
    assert path_key("tools/a.json", ".", "/repo") == "tools/a.json"
    assert path_key("/repo/tools/a.json", ".", "/repo") == "tools/a.json"
    assert path_key("./tools//a.json", ".", "/repo") == "tools/a.json"
    assert path_key("sub/tools/a.json", "sub", "/repo") == "tools/a.json"
    assert path_key("-", ".", "/repo") == "-"
    # the same file named from another working directory has the same key
    assert path_key("a.json", "../baseline", "/repo/tools") == path_key("tools/a.json", "baseline", "/repo")


@pytest.mark.parametrize("text, fragment", [
    ("{not json", "invalid JSON"),
    ("[]", "not a toolclause baseline"),
    ('{"version": 9, "findings": []}', "version 9"),
    ('{"version": 1, "findings": [{"code": "S003"}]}', "findings[0]"),
    ('{"version": 1, "findings": [{"code": "S003", "file": "a", "tool": "t", "pointer": "", "count": 0}]}', "count"),
])
def test_a_corrupt_baseline_is_a_clear_error(text, fragment):
    with pytest.raises(BaselineError, match="b.json") as info:
        parse_baseline(text, "b.json")
    assert fragment in str(info.value)


# --------------------------------------------------------------------------- CLI

@pytest.fixture
def project(tmp_path, monkeypatch):
    shutil.copy(FIXTURES / "openai_weather.json", tmp_path / "weather.json")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_cli_round_trip_hides_old_findings_and_reports_new_ones(project):
    runner = CliRunner()
    written = runner.invoke(cli, ["lint", "weather.json", "--select", "S003", "--write-baseline", "baseline.json"])
    assert written.exit_code == 0, written.output
    assert "1 hidden by the baseline" in written.output
    assert json.loads((project / "baseline.json").read_text())["findings"][0]["file"] == "weather.json"

    old = runner.invoke(cli, ["lint", "weather.json", "--select", "S003", "--baseline", "baseline.json"])
    assert old.exit_code == 0, old.output
    assert "0 errors" in old.output and "1 hidden by the baseline" in old.output

    # move the tool down the file (lines change) and add a new mistake
    doc = json.loads((project / "weather.json").read_text())
    doc[0]["function"]["parameters"]["required"].append("zip")
    (project / "weather.json").write_text("\n\n\n" + json.dumps(doc, indent=2))
    new = runner.invoke(cli, ["lint", "weather.json", "--select", "S003", "--baseline", "baseline.json",
                              "--format", "json"])
    assert new.exit_code == 1, new.output
    report = json.loads(new.stdout)
    assert [x["pointer"] for x in report["diagnostics"]] == ["/0/function/parameters/required/1"]


def test_cli_missing_baseline_exits_2_with_a_message(project):
    result = CliRunner().invoke(cli, ["lint", "weather.json", "--baseline", "nope.json"])
    assert result.exit_code == 2
    assert "--baseline nope.json: no such file" in result.output
    assert "Traceback" not in result.output


def test_cli_corrupt_baseline_exits_2(project):
    (project / "baseline.json").write_text("{oops")
    result = CliRunner().invoke(cli, ["lint", "weather.json", "--baseline", "baseline.json"])
    assert result.exit_code == 2
    assert "baseline.json: not a toolclause baseline" in result.output
