"""Baselines keyed by tool, code, pointer inside the tool and what was found, not by where the tool sits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from toolclause.cli.main import cli
from toolclause.linting.baseline import fingerprint, parse_baseline


def weather(name: str = "get_weather", required: str = "citty", description: str = "City name",
            says: str = "Current weather for one city, in metric units.") -> dict:
    return {"type": "function", "function": {
        "name": name, "description": says,
        "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": description}},
                       "required": [required]}}}


def lint(*args: str):
    return CliRunner().invoke(cli, ["lint", *args, "--select", "S003", "--format", "json"])


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tools.json").write_text(json.dumps([weather(), weather("get_forecast")], indent=2))
    written = lint("tools.json", "--write-baseline", "baseline.json")
    assert written.exit_code == 0, written.output
    return tmp_path


def reported(*extra: str) -> list[tuple[str, str, str]]:
    result = lint("tools.json", "--baseline", "baseline.json", *extra)
    return [(d["tool"], d["code"], d["pointer"]) for d in json.loads(result.stdout)["diagnostics"]]


def test_the_baseline_records_the_pointer_inside_the_tool_and_a_fingerprint(project: Path):
    document = json.loads((project / "baseline.json").read_text())
    assert document["version"] == 2
    entry = next(f for f in document["findings"] if f["tool"] == "get_weather" and f["code"] == "S003")
    assert entry["pointer"] == "/function/parameters/required/0"
    assert entry["fingerprint"] == fingerprint("citty")


def test_inserting_a_tool_at_the_top_brings_back_no_recorded_finding(project: Path):
    alerts = weather("get_alerts", "zone", says="Storm and flood warnings in force for one region.")
    (project / "tools.json").write_text(json.dumps([alerts, weather(), weather("get_forecast")], indent=2))
    # only the new tool's findings; the two recorded tools moved from /0 and /1 to /1 and /2
    assert {tool for tool, _, _ in reported()} == {"get_alerts"}
    assert ("get_alerts", "S003", "/0/function/parameters/required/0") in reported()


def test_a_change_where_it_was_found_is_new_and_an_edit_elsewhere_is_not(project: Path):
    (project / "tools.json").write_text(json.dumps([weather(description="The city"),
                                                    weather("get_forecast", "town")], indent=2))
    assert reported() == [("get_forecast", "S003", "/1/function/parameters/required/0")]


def test_a_version_1_baseline_is_still_read_and_written_again_as_version_2(project: Path):
    old = {"version": 1, "tool": "toolclause", "findings": [
        {"file": "tools.json", "tool": "get_weather", "code": "S003", "name": "required-not-defined",
         "pointer": "/0/function/parameters/required/0", "count": 1}]}
    (project / "baseline.json").write_text(json.dumps(old))
    assert parse_baseline(json.dumps(old), "b.json").version == 1
    assert reported() == [("get_forecast", "S003", "/1/function/parameters/required/0")]
    text = CliRunner().invoke(cli, ["lint", "tools.json", "--select", "S003", "--baseline", "baseline.json"])
    assert "baseline.json is version 1" in text.output and "--write-baseline baseline.json" in text.output
    machine = lint("tools.json", "--baseline", "baseline.json")
    assert "baseline.json is version 1" in machine.stderr and "version 1" not in machine.stdout
    rewritten = lint("tools.json", "--baseline", "baseline.json", "--write-baseline", "baseline.json")
    assert rewritten.exit_code == 0
    assert json.loads((project / "baseline.json").read_text())["version"] == 2
    assert reported() == []


def test_jsonl_records_keep_their_identity_when_lines_move(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    record = {"name": "t", "description": "Looks up one thing by id and returns it.",
              "inputSchema": {"type": "object", "properties": {}, "required": ["id"]}}
    (tmp_path / "tools.jsonl").write_text(json.dumps(record) + "\n")
    assert lint("tools.jsonl", "--write-baseline", "baseline.json").exit_code == 0
    other = dict(record, name="u")
    (tmp_path / "tools.jsonl").write_text(json.dumps(other) + "\n" + json.dumps(record) + "\n")
    result = lint("tools.jsonl", "--baseline", "baseline.json")
    assert {d["tool"] for d in json.loads(result.stdout)["diagnostics"]} == {"u"}


def test_fingerprints_look_one_level_deep():
    assert fingerprint({"type": "object", "properties": {"a": {}}}) == fingerprint(
        {"type": "object", "properties": {"b": {"type": "string"}}})
    assert fingerprint({"type": "object"}) != fingerprint({"type": "array"})
    assert fingerprint(["a", "b"]) != fingerprint(["a"])


def test_sarif_fingerprints_are_the_baseline_identity_and_survive_an_inserted_tool(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def prints() -> dict[str, str]:
        result = CliRunner().invoke(cli, ["lint", "tools.json", "--select", "S003", "--format", "sarif"])
        results = json.loads(result.stdout)["runs"][0]["results"]
        return {r["properties"]["tool"]: r["partialFingerprints"]["toolclauseFinding/v2"] for r in results}

    (tmp_path / "tools.json").write_text(json.dumps([weather()], indent=2))
    before = prints()
    (tmp_path / "tools.json").write_text(json.dumps([weather("get_alerts", "zone"), weather()], indent=2))
    after = prints()
    assert after["get_weather"] == before["get_weather"] and after["get_alerts"] != before["get_weather"]
