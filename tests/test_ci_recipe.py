"""The README's CI recipe passes on the contracts toolclause itself calls clean.

`toolclause init` promises contracts that pass lint, and examples/README.md calls
create_refund.json "the shape to aim for"; the README's CI step runs
`toolclause lint contracts/ --target all`.  A finding about what `export` changes in the
copy it sends (a strict copy making optional properties required and nullable, a bound moved
into the description for Anthropic's strict mode or Gemini) is a note on such contracts, not a
failure; a tool written in the provider's own shape is sent as it is, and still fails.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import toolclause

ROOT = Path(__file__).resolve().parents[1]


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "toolclause.cli.main", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=120)


def test_the_ci_command_passes_on_the_init_scaffold(tmp_path):
    assert _cli("init", "myagent/", cwd=tmp_path).returncode == 0
    run = _cli("lint", "contracts/", "--target", "all", "--format", "github", "--no-cache", cwd=tmp_path / "myagent")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "::error" not in run.stdout


def test_the_ci_command_passes_on_the_example_the_docs_call_the_shape_to_aim_for(tmp_path):
    run = _cli("lint", str(ROOT / "examples" / "contracts" / "tools" / "create_refund.json"), "--target", "all",
               "--no-cache", "--format", "json", cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert not [d for d in json.loads(run.stdout)["diagnostics"] if d["severity"] == "error"]


_OPTIONAL = {"type": "object", "properties": {"city": {"type": "string", "description": "City"},
                                              "unit": {"type": "string", "enum": ["c", "f"], "description": "Unit"}},
             "required": ["city"], "additionalProperties": False}


@pytest.mark.parametrize(("tool", "target", "code", "severity"), [
    ({"name": "get_weather", "description": "Weather of one city now.", "inputSchema": _OPTIONAL},
     "openai-strict", "P001", "info"),
    ({"type": "function", "function": {"name": "get_weather", "description": "Weather of one city now.",
                                       "parameters": _OPTIONAL, "strict": True}}, "openai-strict", "P001", "error"),
    ({"name": "get_weather", "description": "Weather of one city now.", "inputSchema": {
        "type": "object", "properties": {"days": {"type": "integer", "minimum": 1, "description": "Days"}}}},
     "anthropic-strict", "P002", "info"),
    ({"name": "get_weather", "description": "Weather of one city now.", "input_schema": {
        "type": "object", "properties": {"days": {"type": "integer", "minimum": 1, "description": "Days"}}}},
     "anthropic-strict", "P002", "error"),
    ({"name": "get_weather", "description": "Weather of one city now.", "inputSchema": {
        "type": "object", "properties": {"id": {"type": "string", "pattern": "^[a-z]+$", "description": "Id"}}}},
     "gemini", "P003", "info"),
    ({"functionDeclarations": [{"name": "get_weather", "description": "Weather of one city now.",
                                "parametersJsonSchema": {"type": "object", "properties": {
                                    "id": {"type": "string", "pattern": "^[a-z]+$", "description": "Id"}}}}]},
     "gemini", "P003", "error"),
])
def test_what_export_changes_is_a_note_on_a_contract_and_an_error_in_the_providers_own_shape(tool, target, code,
                                                                                            severity):
    found = [d for d in toolclause.lint(tool, targets=[target], select=[code]) if d.code == code]
    assert found and {d.severity.label for d in found} == {severity}


def test_a_path_that_does_not_exist_is_not_counted_as_a_file(tmp_path):
    run = _cli("lint", "nothere.json", "--no-cache", cwd=tmp_path)
    assert run.returncode == 2
    assert "no such file or folder" in run.stdout and "0 files; 1 unreadable" in run.stdout


def test_export_check_says_a_file_is_not_written_yet(tmp_path):
    run = _cli("export", str(ROOT / "examples" / "contracts" / "tools" / "create_refund.json"), "--target", "mcp",
               "--check", "-o", "out.json", cwd=tmp_path)
    assert run.returncode == 1
    assert "out.json: not written yet" in run.stdout and "drifted" in run.stderr
    assert not (tmp_path / "out.json").exists()


def test_a_misspelt_target_gets_a_did_you_mean(tmp_path):
    run = _cli("lint", str(ROOT / "examples" / "contracts" / "tools" / "create_refund.json"), "--target", "openia",
               cwd=tmp_path)
    assert run.returncode == 2 and "did you mean 'openai'?" in run.stderr
