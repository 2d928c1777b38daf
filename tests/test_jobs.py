"""`lint --jobs N`: the report is the one `--jobs 1` makes, byte for byte, in the same order."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from toolclause.cli.main import cli
from toolclause.linting import engine

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"


def lint(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["lint", *args, "--fail-on", "never"])
    return result.exit_code, result.output


def many_tools(folder: Path) -> Path:
    """A file of a few hundred tools: look-alikes, a duplicate name, a tool declaring strict mode, bad schemas."""
    tools = []
    for i in range(300):
        tools.append({"name": f"get_item_{i % 290}", "description": f"Gets item {i} from the store. " * (i % 3),
                      "inputSchema": {"type": "object", "properties": {
                          "id": {"type": "string" if i % 4 else "strin", "default": 3 if i % 5 == 0 else "a"},
                          "limit": {"type": "integer"}, "when": {"type": "string", "description": "the date"}},
                          "required": ["id", "missing"] if i % 7 == 0 else ["id"]},
                      **({"strict": True} if i % 50 == 0 else {})})
    path = folder / "many.json"
    path.write_text(json.dumps(tools, indent=1), encoding="utf-8")
    return path


@pytest.mark.parametrize("output_format", ["json", "text", "sarif"])
def test_the_report_is_the_same_with_any_number_of_processes(tmp_path, monkeypatch, output_format):
    monkeypatch.setattr(engine, "MIN_TOOLS_PER_PROCESS", 5)  # even the examples are split between processes
    inputs = [str(EXAMPLES), str(many_tools(tmp_path))]
    alone = lint(*inputs, "--format", output_format, "--jobs", "1", "--target", "all")
    assert alone[0] == 0 and alone[1]
    for jobs in ("2", "3"):
        assert lint(*inputs, "--format", output_format, "--jobs", jobs, "--target", "all") == alone
    assert lint(*inputs, "--format", output_format, "--target", "all") == alone  # the default: the machine's cores


def test_a_corpus_sample_is_reported_the_same_in_processes(tmp_path, monkeypatch):
    sources = sorted(CORPORA.glob("*/tools.jsonl"))
    if not sources:
        pytest.skip("no corpora next to the repository")
    monkeypatch.setattr(engine, "MIN_TOOLS_PER_PROCESS", 50)
    sample = tmp_path / "sample.jsonl"
    with sample.open("w", encoding="utf-8") as out:
        for source in sources:
            with source.open(encoding="utf-8") as lines:
                for _, line in zip(range(150), lines, strict=False):
                    out.write(line)
    alone = lint(str(sample), "--format", "json", "--jobs", "1")
    assert json.loads(alone[1])["diagnostics"]
    assert lint(str(sample), "--format", "json", "--jobs", "2") == alone


def test_a_finding_crosses_between_processes_whole():
    from dataclasses import fields

    from toolclause.linting.parallel import from_plain, to_plain
    from toolclause.model import Diagnostic, Edit, Fix, Severity, ToolContract

    # a new field must be carried too: this list changes with the dataclass, and to_plain with it
    assert [f.name for f in fields(Diagnostic)] == ["code", "name", "severity", "message", "tool", "file", "pointer",
                                                    "line", "column", "fix", "contract"]
    contract = ToolContract(name="t")
    edits = (Edit("set", "/inputSchema/properties/a/enum", ["x", {"y": [1, None]}]), Edit("remove", "/b"))
    for found in (Diagnostic("S002", "unknown-type", Severity.ERROR, "m", "t", "f.json", "/inputSchema", 3, 7,
                             Fix("add enum", True, edits), contract),
                  Diagnostic("D001", "missing-description", Severity.INFO, "m"),
                  Diagnostic("N004", "n", Severity.WARNING, "m", fix=Fix("advice only"))):
        back = from_plain(to_plain(found), found.contract)
        assert back == found and back.contract is found.contract and type(back.severity) is Severity
        assert back.fix is None or back.fix.edits == found.fix.edits
