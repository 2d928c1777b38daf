"""Hostile files: alias bombs, numbers too long to read, a rule that raises on one tool.

Each test reproduces an attack that once ended a run (minutes of CPU and all
memory, or one "internal error" naming no file).  Memory is bounded with
`ulimit -v` in a child process, never in the test session itself.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from toolclause.cli.main import cli
from toolclause.linting import engine
from toolclause.linting.config import LintConfig
from toolclause.loading import load_paths
from toolclause.loading.documents import contracts_from_document
from toolclause.model import Severity
from toolclause.rules import RuleEntry
from toolclause.rules.base import Finding, Rule

ALIAS_BOMB = "\n".join(
    [f'a: &a [{",".join(["lol"] * 9)}]']
    + [f"{name}: &{name} [{','.join(['*' + prev] * 9)}]"
       for prev, name in zip("abcdefgh", "bcdefghi", strict=True)]) + "\n"

TOOL = {"name": "count_items", "description": "Counts the items in a list and returns the count as an integer.",
        "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}}


def run_limited(args: list[str], cwd: Path, memory_kib: int = 2_000_000, seconds: int = 60):
    """The CLI in a child process with its address space capped (`ulimit -v`)."""
    code = "from toolclause.cli.main import main; main()"
    command = f"ulimit -v {memory_kib}; exec {sys.executable} -c '{code}' " + " ".join(args)
    return subprocess.run(["bash", "-c", command], cwd=cwd, capture_output=True, text=True, timeout=seconds)


# --------------------------------------------------------------------------- YAML alias bomb

def test_a_yaml_alias_bomb_is_refused_within_a_memory_cap(tmp_path: Path):
    assert len(ALIAS_BOMB) < 400
    (tmp_path / "bomb.yaml").write_text(ALIAS_BOMB)
    done = run_limited(["lint", "bomb.yaml"], tmp_path)
    assert done.returncode == 2, done.stderr
    assert "bomb.yaml" in done.stdout and "aliases" in done.stdout  # too-many-aliases
    assert "MemoryError" not in done.stderr + done.stdout


def test_anchors_that_share_a_small_schema_are_read(tmp_path: Path):
    text = ("- name: first_tool\n  description: Reads the first thing and returns it.\n"
            "  inputSchema: &schema\n    type: object\n    properties:\n      q: {type: string}\n"
            "- name: second_tool\n  description: Reads the second thing and returns it.\n  inputSchema: *schema\n")
    (tmp_path / "tools.yaml").write_text(text)
    loaded = load_paths([tmp_path / "tools.yaml"])
    assert [t.name for t in loaded.tools] == ["first_tool", "second_tool"] and not loaded.unreadable


# --------------------------------------------------------------------------- numbers

def test_an_integer_too_long_to_convert_makes_that_record_unreadable_not_the_run(tmp_path: Path):
    huge = "9" * 4301
    good = json.dumps(TOOL)
    bad = good.replace('"type": "integer"}', f'"type": "integer", "maximum": {huge}}}')
    (tmp_path / "tools.jsonl").write_text(f"{bad}\n{good}\n")
    (tmp_path / "one.json").write_text(bad)
    loaded = load_paths([tmp_path / "tools.jsonl", tmp_path / "one.json"])
    assert [t.name for t in loaded.tools] == ["count_items"]
    found = [(u.code, u.file.endswith(name), u.line)
             for u, name in zip(loaded.unreadable, ("jsonl", "json"), strict=True)]
    assert found == [("number-too-long", True, 1), ("number-too-long", True, None)]
    result = CliRunner().invoke(cli, ["lint", str(tmp_path / "one.json")])
    assert result.exit_code == 2 and "internal error" not in result.output and "one.json" in result.output


def test_an_integer_too_long_in_yaml_is_unreadable(tmp_path: Path):
    (tmp_path / "t.yaml").write_text(f"name: t\nmaximum: {'9' * 4301}\n")
    assert [u.code for u in load_paths([tmp_path / "t.yaml"]).unreadable] == ["number-too-long"]


def test_a_309_digit_bound_is_linted_and_named_not_an_internal_error(tmp_path: Path):
    tool = json.loads(json.dumps(TOOL))
    tool["inputSchema"]["properties"]["n"]["maximum"] = int("9" * 309)
    (tmp_path / "t.json").write_text(json.dumps(tool))
    result = CliRunner().invoke(cli, ["lint", str(tmp_path / "t.json")])
    assert "internal error" not in result.output
    assert result.exit_code in (0, 1) and "count_items" in result.output


# --------------------------------------------------------------------------- a rule that raises

class _Raises(Rule):
    code, name, severity = "X990", "raises-on-n", Severity.WARNING
    keywords = frozenset({"type"})

    def check_node(self, node, tool, ctx):
        if node.key == "n":
            raise OverflowError("int too large to convert to float")
        yield from ()


class _RaisesOnTool(Rule):
    code, name, severity = "X991", "raises-on-a-tool", Severity.WARNING

    def check_tool(self, tool, ctx):
        if tool.name == "bad_tool":
            raise ValueError("boom")
        yield Finding("/name", "seen")


def test_a_rule_that_raises_on_one_tool_is_reported_for_that_tool_and_the_run_goes_on(monkeypatch):
    monkeypatch.setattr(engine, "INDEX", (RuleEntry.of(_Raises), RuleEntry.of(_RaisesOnTool)))
    other = {**TOOL, "name": "other_tool", "inputSchema": {"type": "object", "properties": {"m": {"type": "string"}}}}
    tools, _ = contracts_from_document([{**TOOL, "name": "bad_tool"}, other], "f.json")
    diags = engine.lint_contracts(tools, LintConfig())
    failed = [(d.code, d.tool, d.severity, d.pointer) for d in diags if "could not check" in d.message]
    assert failed == [("X991", "bad_tool", Severity.ERROR, "/0"),
                      ("X990", "bad_tool", Severity.ERROR, "/0/inputSchema/properties/n")]
    assert [(d.code, d.tool) for d in diags if d.message == "seen"] == [("X991", "other_tool")]


# --------------------------------------------------------------------------- special files in a folder

def _folder_with(tmp_path: Path, special: str) -> Path:
    folder = tmp_path / "tools"
    folder.mkdir()
    (folder / "good.json").write_text(json.dumps(TOOL))
    if special == "zero":
        (folder / "zero.json").symlink_to("/dev/zero")
    else:
        os.mkfifo(folder / "pipe.json")
    return folder


@pytest.mark.parametrize("special", ["zero", "fifo"])
@pytest.mark.parametrize("command", ["lint", "diff", "export"])
def test_a_device_or_fifo_named_like_a_tool_file_is_reported_not_read(tmp_path: Path, special: str, command: str):
    _folder_with(tmp_path, special)
    args = {"lint": ["lint", "tools"], "diff": ["diff", "tools", "tools"],
            "export": ["export", "tools", "--target", "mcp", "--check", "-o", "out.json"]}[command]
    done = run_limited(args, tmp_path, memory_kib=1_000_000, seconds=60)
    assert "MemoryError" not in done.stdout + done.stderr and "internal error" not in done.stdout + done.stderr
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "not a regular file" in done.stdout + done.stderr


def test_a_special_file_named_explicitly_is_unreadable(tmp_path: Path):
    os.mkfifo(tmp_path / "pipe.jsonl")
    loaded = load_paths([tmp_path / "pipe.jsonl", "/dev/zero"])
    assert [u.code for u in loaded.unreadable] == ["not-a-regular-file", "not-a-regular-file"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every folder whatever its mode")
def test_an_unreadable_subfolder_is_reported_with_exit_2(tmp_path: Path):
    (tmp_path / "tools" / "locked").mkdir(parents=True)
    (tmp_path / "tools" / "locked" / "t.json").write_text(json.dumps(TOOL))
    (tmp_path / "tools" / "locked").chmod(0)
    try:
        result = CliRunner().invoke(cli, ["lint", str(tmp_path / "tools")])
    finally:
        (tmp_path / "tools" / "locked").chmod(0o755)
    assert result.exit_code == 2 and "locked" in result.output and "cannot list" in result.output
