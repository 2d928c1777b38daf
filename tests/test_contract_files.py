"""The contracts folder: handoffs, state schemas and fixtures are read as what they are, not as tools."""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath

import pytest
from click.testing import CliRunner

from toolclause.cli.main import cli
from toolclause.loading import contract_kind, every_fixture, load_paths

CONTRACTS = Path(__file__).parent / "fixtures" / "contracts"
GOOD, BROKEN = CONTRACTS / "good", CONTRACTS / "broken"


@pytest.mark.parametrize("path, kind", [
    ("contracts/tools/create_refund.json", None),
    ("contracts/handoffs/triage_to_billing.json", "handoff"),
    ("contracts/state/refund_flow.yaml", "state"),
    ("contracts/examples/create_refund/valid/a.json", "fixture"),
    ("contracts/examples/create_refund/invalid/b.yml", "fixture"),
    ("contracts/valid/a.json", None),                       # not under examples/<tool>/
    ("contracts/handoffs/many.jsonl", None),                # JSON Lines hold tools
    ("handoffs.json", None),
])
def test_a_files_kind_comes_from_its_folder(path, kind):
    assert contract_kind(PurePosixPath(path)) == kind


def test_a_contracts_folder_is_read_into_records_with_positions():
    loaded = load_paths([GOOD])
    assert [t.name for t in loaded.tools] == ["create_refund"]
    assert loaded.unreadable == [] and loaded.files == 1

    (handoff,) = loaded.handoffs
    assert (handoff.kind, handoff.name, handoff.id, handoff.version) == (
        "handoff", "triage_to_billing", "urn:example:handoff:triage-to-billing", None)
    assert handoff.schema["required"] == ["order_id"]
    assert handoff.origin.position("/properties/order_id") == (9, 17)

    (state,) = loaded.states
    assert (state.kind, state.name, state.id, state.version) == (
        "state", "refund_flow", "urn:example:state:refund-flow", 2)
    assert state.origin.position("/properties/step/enum") == (6, 11)


def test_fixture_files_and_inline_examples_are_the_same_records():
    loaded = load_paths([GOOD])
    found = {(f.valid, f.origin.file.rpartition("/")[2], f.origin.base): f for f in every_fixture(loaded)}
    assert set(found) == {(False, "negative.json", ""), (True, "partial.json", ""),
                          (True, "create_refund.json", "/examples/valid/0"),
                          (False, "create_refund.json", "/examples/invalid/0")}
    # a fixture's arguments may look like a tool (name, description): it is still arguments
    partial = found[True, "partial.json", ""]
    assert partial.tool == "create_refund" and partial.arguments["name"] == "Alice"
    assert partial.expected_code is None and partial.position() == (1, 1)
    negative = found[False, "negative.json", ""]
    assert negative.arguments == {"order_id": "ord_2", "amount_cents": -5}
    assert negative.expected_code == "VALIDATION_ERROR"
    inline = found[False, "create_refund.json", "/examples/invalid/0"]
    assert inline.arguments == {"order_id": "ord_1"} and inline.expected_code == "VALIDATION_ERROR"
    assert inline.position() == (15, 17)


def test_broken_documents_are_unreadable_with_codes():
    loaded = load_paths([BROKEN])
    assert loaded.tools == [] and loaded.handoffs == [] and loaded.states == [] and loaded.fixtures == []
    found = {(u.file.rpartition("/")[2], u.code, u.pointer) for u in loaded.unreadable}
    assert found == {("truncated.json", "invalid-json", ""), ("no_id.json", "missing-id", ""),
                     ("not_an_object.json", "schema-not-object", ""),
                     ("string_version.json", "missing-version", "/version")}


def _lint_json(*args: str) -> tuple[int, dict]:
    result = CliRunner().invoke(cli, ["lint", *args, "--format", "json", "--fail-on", "never"])
    return result.exit_code, json.loads(result.stdout)


def test_lint_of_a_contracts_folder_lints_the_tools_only():
    code, whole = _lint_json(str(GOOD))
    _, tools_only = _lint_json(str(GOOD / "tools"))
    assert code == 0 and whole["unreadable"] == [] and whole["tools"] == 1
    assert whole["diagnostics"] == tools_only["diagnostics"]
    assert {d["tool"] for d in whole["diagnostics"]} <= {"create_refund"}  # never the fixture's "Alice"


def test_lint_reports_broken_contract_documents():
    code, report = _lint_json(str(BROKEN))
    assert code == 2
    assert sorted(u["file"].rpartition("/")[2] for u in report["unreadable"]) == [
        "no_id.json", "not_an_object.json", "string_version.json", "truncated.json"]


def test_diff_takes_fixture_files_as_evidence_never_as_tools(tmp_path: Path):
    import shutil

    from toolclause.diffing import diff

    old, new = tmp_path / "old", tmp_path / "new"
    shutil.copytree(GOOD, old)
    shutil.copytree(GOOD, new)
    tool_file = new / "tools" / "create_refund.json"
    tool = json.loads(tool_file.read_text())
    tool["inputSchema"]["properties"]["amount_cents"]["minimum"] = 300
    tool_file.write_text(json.dumps(tool))
    report = diff(old, new)
    assert [(c.kind, c.tool, c.breaks) for c in report.changes] == [
        ("bound-tightened", "create_refund", ("examples/create_refund/valid/partial.json",))]
