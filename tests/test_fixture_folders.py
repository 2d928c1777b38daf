"""Fixtures bind to the tool (or schema) of their own contracts folder, even when another folder reuses the name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from toolclause.cli.main import cli
from toolclause.diffing import diff
from toolclause.diffing.fixtures import with_fixtures
from toolclause.loading import load_paths
from toolclause.workflow.fixtures import check_contracts

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def lookup_tool(code: str, **extra: object) -> dict[str, object]:
    """A tool named `lookup` that accepts one code only: two folders' versions refuse each other's examples."""
    return {"name": "lookup", "description": "Looks up one record by its code and returns it.",
            "inputSchema": {"type": "object", "properties": {"code": {"type": "string", "enum": [code]}},
                            "required": ["code"], "additionalProperties": False}, **extra}


def write(path: Path, value: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2), encoding="utf-8")
    return path


@pytest.fixture
def two_folders(tmp_path: Path) -> Path:
    """root/a and root/b: each a contracts folder with its own `lookup`, examples that fit only their own."""
    root = tmp_path / "root"
    for folder, code, other in (("a", "a1", "b1"), ("b", "b1", "a1")):
        contracts = root / folder
        write(contracts / "tools" / "lookup.json", lookup_tool(code, examples={
            "valid": [{"code": code}], "invalid": [{"arguments": {"code": other}, "code": "VALIDATION_ERROR"}]}))
        write(contracts / "examples" / "lookup" / "valid" / "own.json", {"code": code})
        write(contracts / "examples" / "lookup" / "invalid" / "other.json",
              {"arguments": {"code": other}, "code": "VALIDATION_ERROR"})
    return root


def failures(paths: list[Path]) -> dict[str, list[str]]:
    run = check_contracts(paths)
    return {f"{case.file}#{case.pointer}": [f.message for f in case.failures] for case in run.cases if not case.passed}


def test_the_repository_examples_pass_however_their_folders_are_named():
    for paths in ([EXAMPLES], [EXAMPLES / "contracts", EXAMPLES / "food" / "contracts"],
                  [EXAMPLES / "food" / "contracts", EXAMPLES / "contracts"]):
        assert failures(paths) == {}, paths
    result = CliRunner().invoke(cli, ["test", str(EXAMPLES)])
    assert result.exit_code == 0, result.stdout
    assert "search_restaurants.json ..." in result.stdout


@pytest.mark.parametrize("order", ["root", "a, b", "b, a"])
def test_each_folder_checks_its_examples_against_its_own_same_named_tool(two_folders: Path, order: str):
    paths = {"root": [two_folders], "a, b": [two_folders / "a", two_folders / "b"],
             "b, a": [two_folders / "b", two_folders / "a"]}[order]
    run = check_contracts(paths)
    assert failures(paths) == {}
    # per folder: an inline valid and invalid example, and a valid and an invalid fixture file
    assert len(run.cases) == 8 and {c.subject for c in run.cases} == {"lookup"}


def test_a_fixture_whose_tool_is_only_in_another_folder_fails_naming_both(two_folders: Path):
    write(two_folders / "a" / "tools" / "archive.json", dict(lookup_tool("a1"), name="archive"))
    stray = write(two_folders / "b" / "examples" / "archive" / "valid" / "x.json", {"code": "a1"})
    run = check_contracts([two_folders])
    (case,) = [c for c in run.cases if not c.passed]
    assert (case.file, case.pointer, case.subject, case.expect) == (str(stray), "", "archive", "valid")
    (message,) = [f.message for f in case.failures]
    assert f"no tool or schema named 'archive' in its contracts folder {two_folders / 'b'}" in message
    assert str(two_folders / "a" / "tools" / "archive.json") in message
    # a suggestion only ever names something this folder holds
    assert "did you mean" not in message


def test_a_misspelt_fixture_folder_is_offered_only_its_own_folders_names(two_folders: Path):
    write(two_folders / "a" / "tools" / "lookups_all.json", dict(lookup_tool("a1"), name="lookups_all"))
    write(two_folders / "b" / "examples" / "lookups_al" / "valid" / "x.json", {"code": "b1"})
    (message,) = [m for messages in failures([two_folders]).values() for m in messages]
    assert "no tool or schema named 'lookups_al'" in message and "did you mean 'lookup'?" in message


def test_tools_in_a_flat_folder_or_below_tools_still_bind(tmp_path: Path):
    flat, nested = tmp_path / "flat", tmp_path / "nested"
    write(flat / "lookup.json", lookup_tool("a1"))
    write(nested / "tools" / "billing" / "lookup.json", lookup_tool("a1"))
    for contracts in (flat, nested):
        write(contracts / "examples" / "lookup" / "valid" / "own.json", {"code": "a1"})
        write(contracts / "examples" / "lookup" / "invalid" / "bad.json", {"arguments": {"code": "zz"}})
    run = check_contracts([tmp_path])
    assert len(run.cases) == 4 and all(c.passed for c in run.cases)


def test_schema_samples_bind_to_their_own_folders_schema(tmp_path: Path):
    for folder, intent in (("a", "refund"), ("b", "question")):
        write(tmp_path / folder / "handoffs" / "brief.json",
              {"$id": f"urn:{folder}:brief", "type": "object", "properties": {"intent": {"const": intent}},
               "required": ["intent"]})
        write(tmp_path / folder / "examples" / "brief" / "valid" / "x.json", {"intent": intent})
    run = check_contracts([tmp_path])
    samples = [c for c in run.cases if c.kind == "sample"]
    assert len(samples) == 2 and all(c.passed for c in samples)


def test_diff_evidence_takes_fixture_files_from_the_tools_own_folder(two_folders: Path):
    carried = {tool.origin.file: tool.extra.get("fixtures") for tool in with_fixtures(
        two_folders, load_paths([two_folders]))}
    assert carried == {str(two_folders / folder / "tools" / "lookup.json"):
                       [(f"{folder}/examples/lookup/valid/own.json", {"code": f"{folder}1"})] for folder in "ab"}


def test_a_diff_does_not_blame_a_change_on_another_folders_fixture(two_folders: Path, tmp_path: Path):
    # the new version has folder a only, and its lookup refuses every code either folder's examples send
    new = tmp_path / "new"
    write(new / "a" / "tools" / "lookup.json", lookup_tool("z9"))
    (change,) = [c for c in diff(two_folders, new).changes if c.breaks]
    assert change.breaks == ("examples.valid[0]", "a/examples/lookup/valid/own.json")
