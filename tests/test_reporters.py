"""Every reporter, from a run built by hand (no rules needed)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from toolclause import __version__
from toolclause.linting.engine import LintReport
from toolclause.model import Diagnostic, Fix, Severity, Unreadable
from toolclause.report import REPORTERS, FixSummary, LintRun, github, sarif

SARIF_SCHEMA = Path(__file__).parents[2] / "shared" / "schemas" / "sarif-schema-2.1.0.json"


def make_run(cwd: str = "/repo", **changes) -> LintRun:
    diagnostics = [
        Diagnostic("S003", "required-not-defined", Severity.ERROR,
                   "required names 'citty', which is not a property; did you mean 'city'?",
                   tool="get_weather", file="tools/weather.json", pointer="/function/parameters/required/0",
                   line=9, column=18, fix=Fix("replace 'citty' with 'city'", safe=False)),
        Diagnostic("C001", "open-object", Severity.WARNING, "50% open, a:b, c\nnext line",
                   tool="get_weather", file="tools/weather.json", pointer="/function/parameters", line=4, column=5),
        Diagnostic("D003", "short-description", Severity.INFO, "검색 설명이 짧습니다\x01",
                   tool="search", file="/repo/tools/검색.json", pointer="/description", line=None, column=None),
    ]
    report = LintReport(diagnostics=diagnostics, tools=3, files=3,
                        unreadable=[Unreadable("invalid-json", "invalid JSON at column 3: Expecting value",
                                               file="bad.jsonl", line=7)])
    values = dict(report=report, cwd=cwd,
                  tools_by_file={"tools/weather.json": ["get_weather", "get_forecast"],
                                 "/repo/tools/검색.json": ["search"]})
    values.update(changes)
    return LintRun(**values)


def test_the_registry_names_every_format():
    assert set(REPORTERS) == {"text", "json", "sarif", "github", "junit", "html"}


# --------------------------------------------------------------------------- json

def test_json_has_exactly_the_documented_shape():
    document = json.loads(REPORTERS["json"](make_run()))
    assert list(document) == ["version", "tools", "files", "diagnostics", "summary", "unreadable"]
    assert document["version"] == 1 and document["tools"] == 3 and document["files"] == 3
    assert document["summary"] == {"error": 1, "warning": 1, "info": 1}
    first = document["diagnostics"][0]
    assert first == {"code": "S003", "name": "required-not-defined", "severity": "error", "tool": "get_weather",
                     "file": "tools/weather.json", "pointer": "/function/parameters/required/0", "line": 9,
                     "column": 18, "message": "required names 'citty', which is not a property; did you mean 'city'?",
                     "fix": {"description": "replace 'citty' with 'city'", "safe": False}}
    assert "fix" not in document["diagnostics"][1]
    assert document["unreadable"] == [{"file": "bad.jsonl", "pointer": "",
                                       "message": "invalid JSON at column 3: Expecting value", "line": 7}]


def test_json_keeps_non_ascii_text():
    assert "검색 설명이" in REPORTERS["json"](make_run())


# --------------------------------------------------------------------------- text

def test_text_groups_by_file_then_tool_with_unreadable_first():
    out = REPORTERS["text"](make_run())
    assert "\x1b[" not in out
    lines = out.splitlines()
    assert lines[0].startswith("Unreadable (1")
    assert lines[1].split() [:2] == ["bad.jsonl:7", "invalid"]
    assert lines.index("tools/weather.json") < lines.index("  get_weather")
    assert "    9:18  S003  error  required names 'citty', which is not a property; did you mean 'city'?  " \
           "(/function/parameters/required/0)" in lines
    assert any(line.strip() == "fix: replace 'citty' with 'city'" for line in lines)
    assert lines[-1] == "1 error, 1 warning, 1 info in 3 tools, 3 files; 1 unreadable"


def test_text_colour_only_when_asked():
    assert "\x1b[" in REPORTERS["text"](make_run(), color=True)


def test_text_mentions_baseline_and_fixes():
    fixes = FixSummary(applied=[make_run().report.diagnostics[1]], files_changed=["tools/weather.json"])
    out = REPORTERS["text"](make_run(hidden_by_baseline=4, fixes=fixes))
    assert "Fixed 1 finding in 1 file: tools/weather.json" in out
    assert out.rstrip().endswith("; 4 hidden by the baseline")


def test_text_summary_when_clean():
    run = make_run(report=LintReport(tools=12, files=1))
    assert REPORTERS["text"](run).strip() == "0 errors, 0 warnings, 0 info in 12 tools, 1 file"


# --------------------------------------------------------------------------- github

def test_github_commands_and_escaping():
    lines = REPORTERS["github"](make_run()).splitlines()
    assert lines[0].startswith("::error file=bad.jsonl,line=7,title=unreadable::")
    assert lines[1].startswith("::error file=tools/weather.json,line=9,col=18,"
                               "title=S003 required-not-defined::get_weather: ")
    assert lines[2].startswith("::warning file=tools/weather.json,line=4,col=5,title=C001 open-object::")
    assert "50%25 open, a:b, c%0Anext line" in lines[2]
    assert lines[3].startswith("::notice file=tools/검색.json,title=D003 short-description::")
    assert "::" not in lines[-1]


def test_github_property_escaping():
    assert github.escape_property("a,b:c%d\r\ne") == "a%2Cb%3Ac%25d%0D%0Ae"
    assert github.escape_data("a,b:c%d\r\ne") == "a,b:c%25d%0D%0Ae"


# --------------------------------------------------------------------------- junit

def _check_junit_structure(root: ET.Element) -> None:
    """What the common JUnit schemas (Ant's, Jenkins') require of the elements written here."""
    assert root.tag == "testsuites" and set(root.attrib) <= {"name", "tests", "failures", "errors"}
    for suite in root:
        assert suite.tag == "testsuite" and suite.get("name")
        cases = suite.findall("testcase")
        assert len(cases) == len(suite) == int(suite.get("tests"))
        assert int(suite.get("failures")) == sum(c.find("failure") is not None for c in cases)
        assert int(suite.get("errors")) == sum(c.find("error") is not None for c in cases)
        for case in cases:
            assert case.get("name") and case.get("classname") == suite.get("name")
            assert [child.tag for child in case] in ([], ["failure"], ["error"], ["system-out"],
                                                     ["failure", "system-out"])
            for child in case.findall("failure") + case.findall("error"):
                assert set(child.attrib) == {"message", "type"} and child.text
    for total in ("tests", "failures", "errors"):
        assert int(root.get(total)) == sum(int(s.get(total)) for s in root)


def test_junit_has_a_case_per_tool_and_one_failure_per_tool_with_its_findings():
    run = make_run()
    run.fail_on = "warning"
    root = ET.fromstring(REPORTERS["junit"](run).encode("utf-8"))
    _check_junit_structure(root)
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    weather = suites["tools/weather.json"]
    assert [c.get("name") for c in weather.findall("testcase")] == ["get_weather", "get_forecast"]
    assert weather.get("tests") == "2" and weather.get("failures") == "1"
    (failure,) = weather.find("testcase").findall("failure")
    assert failure.get("type") == "error" and failure.get("message") == "2 findings: 1 error (S003), 1 warning (C001)"
    assert failure.text.split("\n\n") == [
        "S003 required-not-defined (error): required names 'citty', which is not a property; did you mean 'city'?\n"
        "at /function/parameters/required/0 (line 9, column 18)\nfix: replace 'citty' with 'city'",
        "C001 open-object (warning): 50% open, a:b, c\nnext line\nat /function/parameters (line 4, column 5)"]
    assert weather.findall("testcase")[1].find("failure") is None
    # an info finding is shown, but the tool passes
    (search,) = suites["tools/검색.json"].findall("testcase")
    assert search.find("failure") is None and suites["tools/검색.json"].get("failures") == "0"
    assert search.find("system-out").text.startswith("D003 short-description (info): 검색 설명이 짧습니다")
    assert suites["bad.jsonl"].get("errors") == "1"
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("4", "1", "1")
    # a control character in a message cannot break the XML
    assert "\x01" not in ET.tostring(root, encoding="unicode")


def test_junit_one_finding_is_its_own_message_and_a_tool_with_only_warnings_fails_on_warnings():
    run = make_run()
    run.report.diagnostics[:] = [run.report.diagnostics[1]]
    run.fail_on = "warning"
    root = ET.fromstring(REPORTERS["junit"](run).encode("utf-8"))
    _check_junit_structure(root)
    failure = root.find("testsuite/testcase/failure")
    assert failure.get("type") == "warning" and failure.get("message") == "C001: 50% open, a:b, c\nnext line"


@pytest.mark.parametrize("fail_on, failing", [("error", ["S003"]), ("warning", ["S003", "C001"]),
                                              ("info", ["S003", "C001"]), ("never", [])])
def test_junit_fails_a_tool_exactly_when_its_findings_fail_the_run(fail_on, failing):
    # a dashboard shows a failed test when, and only when, the run exits 1 (--fail-on, errors by default)
    run = make_run()
    run.fail_on = fail_on
    root = ET.fromstring(REPORTERS["junit"](run).encode("utf-8"))
    _check_junit_structure(root)
    weather = root.find("testsuite/testcase")
    failure, output = weather.find("failure"), weather.find("system-out")
    shown_failing = [] if failure is None else [t.split()[0] for t in failure.text.split("\n\n")]
    shown_output = [] if output is None else [t.split()[0] for t in output.text.split("\n\n")]
    assert shown_failing == failing and sorted(shown_failing + shown_output) == ["C001", "S003"]
    search = root.findall("testsuite")[1].find("testcase")  # the tool with an info finding only
    assert (search.find("failure") is not None) == (fail_on == "info")


# --------------------------------------------------------------------------- sarif

def test_sarif_matches_the_published_schema():
    jsonschema = pytest.importorskip("jsonschema")
    if not SARIF_SCHEMA.is_file():
        pytest.skip(f"the SARIF schema is not at {SARIF_SCHEMA} (shared/ is cloned beside the repository in CI)")
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    document = json.loads(REPORTERS["sarif"](make_run()))
    validator = jsonschema.validators.validator_for(schema)
    errors = sorted(validator(schema).iter_errors(document), key=lambda e: list(e.absolute_path))
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]]


def test_sarif_content():
    document = json.loads(REPORTERS["sarif"](make_run()))
    run = document["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "toolclause" and driver["version"] == __version__ and driver["informationUri"]
    ids = [r["id"] for r in driver["rules"]]
    assert "S003" in ids
    s003 = driver["rules"][ids.index("S003")]
    assert s003["name"] == "required-not-defined"
    assert s003["defaultConfiguration"]["level"] == "error"
    assert s003["fullDescription"]["text"] and "## Why is this bad?" in s003["help"]["markdown"]
    first, second, third = run["results"]
    assert [r["level"] for r in run["results"]] == ["error", "warning", "note"]
    assert driver["rules"][first["ruleIndex"]]["id"] == "S003"
    location = first["locations"][0]
    assert location["physicalLocation"]["artifactLocation"] == {"uri": "tools/weather.json", "uriBaseId": "%SRCROOT%"}
    assert location["physicalLocation"]["region"] == {"startLine": 9, "startColumn": 18}
    assert location["logicalLocations"][0]["name"] == "get_weather"
    assert first["properties"]["pointer"] == "/function/parameters/required/0"
    # an absolute path under the working directory becomes relative and URI-encoded; no region when unknown
    assert third["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "tools/%EA%B2%80%EC%83%89.json"
    assert "region" not in third["locations"][0]["physicalLocation"]
    assert run["invocations"][0]["executionSuccessful"] is False
    assert "bad.jsonl" in run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"]


def test_sarif_is_written_a_result_at_a_time_as_the_whole_log():
    unknown = Diagnostic("Z999", "from-a-plugin", Severity.WARNING, "a code no rule has", tool="t", file="x.json")
    for run in (make_run(), make_run(report=LintReport(diagnostics=[], tools=0, files=0)),
                make_run(report=LintReport(diagnostics=[unknown], tools=1, files=1))):
        pieces = list(sarif.chunks(run))
        assert "".join(pieces) == json.dumps(sarif.build(run), ensure_ascii=False, separators=(",", ":")) + "\n"
        assert len(pieces) == len(run.report.diagnostics) + 2  # the head, a result each, the tail
    assert json.loads(REPORTERS["sarif"](make_run(report=LintReport(diagnostics=[unknown], tools=1, files=1))))[
        "runs"][0]["tool"]["driver"]["rules"][-1]["id"] == "Z999"


def test_sarif_rules_link_their_documentation_and_provider_rules_cite_the_provider():
    import re

    from toolclause import targets
    from toolclause.rules import ALL_RULES

    document = json.loads(REPORTERS["sarif"](make_run()))
    driver = document["runs"][0]["tool"]["driver"]
    repository = Path(__file__).parents[1]
    for descriptor, rule in zip(driver["rules"][:len(ALL_RULES)], ALL_RULES, strict=True):
        assert descriptor["id"] == rule.code
        # the rule's documentation is its module's docstring, published in the repository
        prefix = driver["informationUri"] + "/blob/main/"
        assert descriptor["helpUri"].startswith(prefix), descriptor["helpUri"]
        module = repository / descriptor["helpUri"][len(prefix):]
        assert module.is_file() and f'"""{rule.name} ({rule.code})' in module.read_text(encoding="utf-8")
    for result in document["runs"][0]["results"]:
        assert driver["rules"][result["ruleIndex"]]["helpUri"].endswith(".py")
    # provider and widget rules cite the provider documentation they rely on, the sources toolclause.targets names
    provider_sources = set(re.findall(r"https://\S+", targets.__doc__ or ""))
    cited = {d["id"]: d["properties"].get("references", []) for d in driver["rules"]}
    for code in [r.code for r in ALL_RULES if r.code.startswith(("P", "W"))]:  # providers, ChatGPT Apps widgets
        assert cited[code], f"{code} cites no provider documentation"
        assert set(cited[code]) <= provider_sources, (code, set(cited[code]) - provider_sources)
        descriptor = driver["rules"][[r["id"] for r in driver["rules"]].index(code)]
        assert all(url in descriptor["help"]["text"] and url in descriptor["help"]["markdown"] for url in cited[code])
    p001 = cited["P001"]
    assert "https://developers.openai.com/api/docs/guides/structured-outputs" in p001
    assert cited["P007"] == ["https://modelcontextprotocol.io/specification/2025-11-25/server/tools"]


def test_sarif_fingerprints_survive_line_moves():
    a = make_run().report.diagnostics[0]
    moved = Diagnostic(**{**{f: getattr(a, f) for f in a.__dataclass_fields__}, "line": 99, "column": 1})
    assert sarif.fingerprint(a, "x.json") == sarif.fingerprint(moved, "x.json")
    assert sarif.fingerprint(a, "x.json") != sarif.fingerprint(a, "y.json")


def test_text_never_passes_terminal_escapes_through():
    nasty = Diagnostic("D001", "x", Severity.ERROR, "evil \x1b[2J text\nsecond line", tool="t\x1b]0;x\x07",
                       file="f.json", pointer="/description", line=1, column=1)
    out = REPORTERS["text"](make_run(report=LintReport(diagnostics=[nasty], tools=1, files=1)))
    assert "\x1b" not in out and "\x07" not in out
    assert "evil \\x1b[2J text\\nsecond line" in out


@pytest.mark.parametrize("separators", [(", ", ": "), (",", ":")])
def test_the_report_encoder_writes_what_json_writes(separators):
    from toolclause.report.base import value_encoder

    encode = value_encoder(separators)
    reference = json.JSONEncoder(ensure_ascii=False, separators=separators).encode
    values = ["\x00toolclause\x00", "é \u2028 \"quoted\" \\ \n\t", 3, 2.5, 1e300, float("inf"), float("nan"), None,
              True, [], {}, {"a": [1, {"b": "ü", "c": [None, False]}], "d": -0.0}, [[[["deep"]]]]]
    for value in values:
        assert encode(value) == reference(value)
