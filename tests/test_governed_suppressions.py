"""Suppressions with a reason, an owner and an end date: in a tool's `x-toolclause-ignore` and the
configuration's `ignore`, beside bare codes.  Live ones hide their findings (listed by --show-suppressed);
expired ones hide nothing and are reported (G001) where they are written; baselines record who accepted
their findings and why."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

from click.testing import CliRunner

import toolclause
from toolclause.cli.main import cli
from toolclause.linting.config import LintConfig
from toolclause.linting.suppressions import govern
from toolclause.rules.governance._entries import Suppression


def _refund(name: str = "create_refund", ignore: list | None = None) -> dict:
    tool = {"name": name, "description": "Refunds one payment in full or in part and returns the refund.",
            "inputSchema": {"type": "object", "additionalProperties": False, "required": ["payment_id"],
                            "properties": {"payment_id": {"type": "string", "description": "The payment"}}}}
    if ignore is not None:
        tool["x-toolclause-ignore"] = ignore
    return tool


def _lint(folder: Path, *argv: str) -> tuple[int, dict, str]:
    result = CliRunner().invoke(cli, ["lint", *argv, "--format", "json", "--fail-on", "never",
                                      "--config", str(folder / "toolclause.toml")])
    return result.exit_code, json.loads(result.stdout) if result.stdout.startswith("{") else {}, result.output


def _write(folder: Path, toml: str = "", **tools: dict) -> None:
    (folder / "toolclause.toml").write_text(toml)
    for name, tool in tools.items():
        (folder / f"{name}.json").write_text(json.dumps(tool, indent=1))


def test_a_live_inline_entry_hides_its_finding_and_show_suppressed_lists_it_with_who_and_why(tmp_path: Path):
    entry = {"code": "X002", "reason": "keyed by the gateway", "owner": "payments", "until": "2999-01-31"}
    _write(tmp_path, refund=_refund(ignore=[entry]))
    code, report, _ = _lint(tmp_path, str(tmp_path / "refund.json"), "--show-suppressed")
    assert "X002" not in [d["code"] for d in report["diagnostics"]]
    (hidden,) = [s for s in report["suppressed"] if s["code"] == "X002"]
    assert hidden["suppressedBy"] | {"file": None} == {**entry, "tool": None, "file": None,
                                                      "pointer": "/x-toolclause-ignore/0"}
    text = CliRunner().invoke(cli, ["lint", str(tmp_path / "refund.json"), "--show-suppressed",
                                    "--config", str(tmp_path / "toolclause.toml")]).output
    assert "Suppressed (1):" in text and "suppressed by payments until 2999-01-31: keyed by the gateway" in text
    # without the flag the report has its documented shape
    assert "suppressed" not in _lint(tmp_path, str(tmp_path / "refund.json"))[1]


def test_an_expired_inline_entry_hides_nothing_and_is_reported_where_it_is_written(tmp_path: Path):
    entry = {"code": "X002", "reason": "until the gateway keys refunds", "owner": "payments", "until": "2020-01-31"}
    _write(tmp_path, refund=_refund(ignore=["D009", entry]))
    code, report, _ = _lint(tmp_path, str(tmp_path / "refund.json"))
    codes = [d["code"] for d in report["diagnostics"]]
    assert "X002" in codes and "D009" not in codes  # the bare code still silences its rule
    (expired,) = [d for d in report["diagnostics"] if d["code"] == "G001"]
    assert "expired on 2020-01-31" in expired["message"] and "payments: until the gateway keys refunds" in \
        expired["message"]
    assert expired["pointer"] == "/x-toolclause-ignore/1"
    lines = (tmp_path / "refund.json").read_text().splitlines()
    assert lines[expired["line"] - 1][expired["column"] - 1] == "{"


def test_configuration_entries_name_a_tool_and_expire_pointing_into_the_configuration(tmp_path: Path):
    toml = ('ignore = ["D009",\n'
            '  {code = "X002", tool = "create_refund", reason = "keyed upstream", owner = "payments", '
            'until = 2999-01-31},\n'
            '  {code = "C00", reason = "legacy", owner = "platform", until = 2021-06-30},\n]\n')
    _write(tmp_path, toml, refund=_refund(), payout=_refund("create_payout"))
    code, report, _ = _lint(tmp_path, str(tmp_path))
    x002 = {d["tool"] for d in report["diagnostics"] if d["code"] == "X002"}
    assert x002 == {"create_payout"}  # only the tool named is spared
    (expired,) = [d for d in report["diagnostics"] if d["code"] == "G001"]
    assert expired["file"] == str(tmp_path / "toolclause.toml") and expired["pointer"] == "/ignore/2"
    assert (expired["line"], expired["column"]) == (3, 3) and "C00 (platform: legacy) expired on 2021-06-30" in \
        expired["message"]


def test_pyproject_entries_point_under_tool_toolclause(tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.toolclause]\n'
                                             'ignore = [{code = "X002", owner = "payments", until = 2020-05-01}]\n')
    (tmp_path / "refund.json").write_text(json.dumps(_refund()))
    result = CliRunner().invoke(cli, ["lint", str(tmp_path / "refund.json"), "--format", "json", "--config",
                                      str(tmp_path / "pyproject.toml"), "--fail-on", "never"])
    (expired,) = [d for d in json.loads(result.stdout)["diagnostics"] if d["code"] == "G001"]
    assert (expired["pointer"], expired["line"], expired["column"]) == ("/tool/toolclause/ignore/0", 5, 11)


def test_a_configuration_entry_that_cannot_be_used_stops_the_run_naming_the_key(tmp_path: Path):
    for toml, says in (('ignore = [{code = "X002", untill = 2027-01-31}]', "unknown key 'untill'"),
                       ('ignore = [{code = "X002", until = "next week"}]', "ignore[0].until must be a date"),
                       ('ignore = [{code = "Q123"}]', "'Q123' is not a rule code"),
                       ('ignore = [{reason = "no code"}]', "ignore[0].code must be a rule code"),
                       ('ignore = [3]', "ignore[0] must be a rule code or a table")):
        _write(tmp_path, toml, refund=_refund())
        code, _, output = _lint(tmp_path, str(tmp_path / "refund.json"))
        assert code == 2 and says in output, (toml, output)


def test_an_inline_entry_that_cannot_be_read_is_reported_and_hides_nothing(tmp_path: Path):
    _write(tmp_path, refund=_refund(ignore=[{"code": "X002", "owner": "payments", "untill": "2027-01-31"}, 7]))
    code, report, _ = _lint(tmp_path, str(tmp_path / "refund.json"))
    g002 = [d for d in report["diagnostics"] if d["code"] == "G002"]
    assert [d["pointer"] for d in g002] == ["/x-toolclause-ignore/0", "/x-toolclause-ignore/1"]
    assert "unknown key 'untill'" in g002[0]["message"] and "X002" in [d["code"] for d in report["diagnostics"]]


def test_the_last_day_still_holds():
    suppression = Suppression("X002", until=datetime.date(2027, 1, 31))
    finding = toolclause.lint(_refund(), select=["X002"])
    config = LintConfig(suppressions=(suppression,))
    assert govern(finding, config, datetime.date(2027, 1, 31))[0] == []
    assert govern(finding, config, datetime.date(2027, 2, 1))[0] == finding


def test_the_python_api_applies_governed_suppressions_too():
    entry = {"code": "X002", "owner": "payments", "until": "2999-01-31"}
    assert "X002" not in [d.code for d in toolclause.lint(_refund(ignore=[entry]))]
    assert "X002" in [d.code for d in toolclause.lint(_refund(ignore=[{**entry, "until": "2001-01-01"}]))]


def test_a_baseline_records_who_accepted_its_findings_and_why(tmp_path: Path):
    _write(tmp_path, refund=_refund())
    baseline = tmp_path / "baseline.json"
    done = CliRunner().invoke(cli, ["lint", str(tmp_path / "refund.json"), "--write-baseline", str(baseline),
                                    "--baseline-reason", "adopting toolclause on the payments service",
                                    "--config", str(tmp_path / "toolclause.toml")])
    assert done.exit_code == 0, done.output
    accepted = json.loads(baseline.read_text())["accepted"]
    assert accepted["reason"] == "adopting toolclause on the payments service" and accepted["by"]
    assert accepted["on"] == datetime.date.today().isoformat()
    again = CliRunner().invoke(cli, ["lint", str(tmp_path / "refund.json"), "--baseline", str(baseline),
                                     "--config", str(tmp_path / "toolclause.toml")])
    assert again.exit_code == 0 and "hidden by the baseline" in again.output
    alone = CliRunner().invoke(cli, ["lint", str(tmp_path / "refund.json"), "--baseline-reason", "x"])
    assert alone.exit_code == 2 and "--baseline-reason goes with --write-baseline" in alone.output
