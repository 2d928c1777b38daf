"""`toolclause test`: every example, fixture and sample checked, failures located precisely."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from toolclause.cli.main import cli
from toolclause.workflow.fixtures import check_contracts

TOOL = {
    "name": "create_refund",
    "description": "Refund all or part of a paid order to the original payment method. Returns the refund id.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "order_id": {"type": "string", "pattern": "^ord_[A-Za-z0-9]+$", "description": "The order."},
            "amount_cents": {"type": "integer", "minimum": 1, "maximum": 100000, "description": "Cents."},
        },
        "required": ["order_id", "amount_cents"],
        "additionalProperties": False,
    },
    "outputSchema": {
        "type": "object",
        "properties": {"refund_id": {"type": "string"}, "status": {"enum": ["pending", "succeeded"]}},
        "required": ["refund_id", "status"],
    },
    "examples": {
        "valid": [{"arguments": {"order_id": "ord_1", "amount_cents": 5},
                   "result": {"refund_id": "rf_1", "status": "pending"}}],
        "invalid": [{"arguments": {"order_id": "ord_1"}, "code": "VALIDATION_ERROR"},
                    {"arguments": "{not json", "code": "INVALID_ARGUMENTS_JSON"}],
    },
}
HANDOFF = {
    "$id": "urn:example:handoff:triage-to-billing",
    "type": "object",
    "properties": {"intent": {"enum": ["refund", "question"]}, "confidence": {"type": "number", "maximum": 1},
                   "order_id": {"type": "string"}},
    "required": ["intent", "confidence"],
    "examples": [{"intent": "refund", "confidence": 0.9, "order_id": "ord_1"}],
}
STATE = {
    "$id": "urn:example:state:refund-flow",
    "version": 2,
    "type": "object",
    "properties": {"step": {"enum": ["asked", "approved", "refunded"]},
                   "handoff": {"$ref": "urn:example:handoff:triage-to-billing"}},
    "required": ["step"],
    "examples": [{"step": "asked", "handoff": {"intent": "question", "confidence": 0.5}}],
}


def write(path: Path, value: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2) if not isinstance(value, str) else value, encoding="utf-8")
    return path


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "contracts"
    write(root / "tools" / "create_refund.json", TOOL)
    write(root / "handoffs" / "triage_to_billing.json", HANDOFF)
    write(root / "state" / "refund_flow.json", STATE)
    write(root / "examples" / "create_refund" / "valid" / "small.json", {"order_id": "ord_2", "amount_cents": 1})
    write(root / "examples" / "create_refund" / "invalid" / "zero.json",
          {"arguments": {"order_id": "ord_2", "amount_cents": 0}, "code": "VALIDATION_ERROR"})
    write(root / "examples" / "triage_to_billing" / "valid" / "refund.json", {"intent": "refund", "confidence": 1})
    write(root / "examples" / "triage_to_billing" / "invalid" / "sure.json", {"intent": "refund", "confidence": 2})
    return root


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["test", *args])
    return result.exit_code, result.stdout


def test_a_good_project_passes_every_kind_of_check(project: Path):
    run = check_contracts([project])
    kinds = sorted((c.kind, c.subject, c.expect) for c in run.cases)
    assert kinds == [("arguments", "create_refund", "invalid")] * 3 + [("arguments", "create_refund", "valid")] * 2 + [
        ("sample", "refund_flow", "valid"), ("sample", "triage_to_billing", "invalid"),
        ("sample", "triage_to_billing", "valid"), ("sample", "triage_to_billing", "valid")]
    assert [c for c in run.cases if not c.passed] == []
    code, out = invoke(str(project))
    assert code == 0
    assert out.splitlines()[-1].strip("= ").startswith("9 passed, 0 failed in ")
    assert f"{project}/tools/create_refund.json ..." in out


def test_a_valid_fixture_the_gate_refuses_fails_with_its_file_line_pointer_and_reason(project: Path):
    write(project / "examples" / "create_refund" / "valid" / "small.json",
          '{\n  "order_id": "8F2K",\n  "amount_cents": 1\n}\n')
    code, out = invoke(str(project))
    assert code == 1
    assert f"{project}/examples/create_refund/valid/small.json F" in out
    assert "    /order_id (line 2): 'order_id' must be" in out
    assert out.splitlines()[-1].strip("= ").startswith("8 passed, 1 failed")


def test_each_way_an_example_can_be_wrong_is_told_apart(project: Path):
    broken = dict(TOOL, examples={
        "valid": [{"arguments": {"order_id": "ord_1", "amount_cents": 5}, "result": {"refund_id": 7, "status": "x"}}],
        "invalid": [{"arguments": {"order_id": "ord_1", "amount_cents": 5}, "code": "VALIDATION_ERROR"},
                    {"arguments": {"order_id": "ord_1"}, "code": "INVALID_ARGUMENTS_JSON"}]})
    write(project / "tools" / "create_refund.json", broken)
    run = check_contracts([project])
    failed = {c.pointer: [(f.pointer, f.message) for f in c.failures] for c in run.cases if not c.passed}
    assert set(failed) == {"/examples/valid/0", "/examples/invalid/0", "/examples/invalid/1"}
    result_problems = dict(failed["/examples/valid/0"])
    assert set(result_problems) == {"/examples/valid/0/result/refund_id", "/examples/valid/0/result/status"}
    assert all("breaks the outputSchema" in m for m in result_problems.values())
    assert failed["/examples/invalid/0"][0][1].startswith("invalid example passed the gate")
    assert failed["/examples/invalid/1"][0][1].startswith(
        "refused with VALIDATION_ERROR, but the example declares INVALID_ARGUMENTS_JSON")
    # the pointers locate the example in the file as written
    case = next(c for c in run.cases if c.pointer == "/examples/invalid/1")
    text = (project / "tools" / "create_refund.json").read_text().splitlines()
    assert case.line is not None and '"arguments"' in text[case.line - 1] or "{" in text[case.line - 1]


def test_handoff_and_state_samples_are_checked_with_schemas_found_by_id(project: Path):
    state = dict(STATE, examples=[{"step": "asked", "handoff": {"intent": "refund", "confidence": 3}}])
    write(project / "state" / "refund_flow.json", state)
    write(project / "examples" / "triage_to_billing" / "invalid" / "sure.json", {"intent": "refund", "confidence": 1})
    run = check_contracts([project])
    failed = {(c.subject, c.pointer): c.failures for c in run.cases if not c.passed}
    assert set(failed) == {("refund_flow", "/examples/0"), ("triage_to_billing", "")}
    (problem,) = failed["refund_flow", "/examples/0"]
    assert problem.pointer == "/examples/0/handoff/confidence"
    assert "state urn:example:state:refund-flow" in problem.message
    assert "an invalid sample satisfies handoff urn:example:handoff:triage-to-billing" in \
        failed["triage_to_billing", ""][0].message


def test_a_fixture_folder_that_names_nothing_and_an_unreadable_file_fail(project: Path):
    write(project / "examples" / "create_refnd" / "valid" / "a.json", {"order_id": "ord_1"})
    write(project / "examples" / "create_refund" / "valid" / "cut.json", '{"order_id": ')
    run = check_contracts([project])
    messages = sorted(f.message for c in run.cases if not c.passed for f in c.failures)
    assert len(messages) == 2
    assert messages[0].startswith("invalid JSON")
    assert "no tool or schema named 'create_refnd'; did you mean 'create_refund'?" in messages[1]


def test_a_tool_that_cannot_be_registered_fails_its_examples_instead_of_crashing(project: Path):
    write(project / "tools" / "create_refund.json",
          dict(TOOL, inputSchema={"type": "object", "properties": {"q": {"type": "string", "pattern": "("}}}))
    run = check_contracts([project])
    tool_cases = [c for c in run.cases if c.subject == "create_refund"]
    assert tool_cases and all(not c.passed for c in tool_cases)
    assert all("cannot be registered" in c.failures[0].message for c in tool_cases)


def test_json_and_junit_reports(project: Path):
    write(project / "examples" / "create_refund" / "valid" / "small.json", {"order_id": "8F2K", "amount_cents": 1})
    code, out = invoke(str(project), "--format", "json")
    report = json.loads(out)
    assert code == 1 and (report["passed"], report["failed"]) == (8, 1)
    (failed,) = [c for c in report["cases"] if c["outcome"] == "failed"]
    assert failed["file"].endswith("small.json") and failed["failures"][-1]["pointer"] == "/order_id"
    code, out = invoke(str(project), "--format", "junit")
    root = ET.fromstring(out)
    assert code == 1 and root.get("tests") == "9" and root.get("failures") == "1"
    failures = root.findall(".//failure")
    assert len(failures) == 1 and "/order_id" in (failures[0].text or "")


def test_exit_codes_and_the_default_folder(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    assert invoke(str(tmp_path / "nowhere"))[0] == 2
    monkeypatch.chdir(tmp_path)
    code, out = invoke()  # ./contracts
    assert code == 0 and "9 passed, 0 failed" in out
    (tmp_path / "empty").mkdir()
    monkeypatch.chdir(tmp_path / "empty")
    code, out = invoke()
    assert code == 0 and "no examples, fixtures or samples found" in out
