"""--fix never loses what the user wrote: files it refuses, and what it keeps as written.

A file that repeats a key is read with the last value winning, so writing it back would
drop the others: --fix leaves it untouched and the run fails.  A read-only file is refused
as editors refuse it.  Numbers keep their spelling (`1E2` stays `1E2`).
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from click.testing import CliRunner

from toolclause.cli.main import cli

OPEN_TOOL = ('{"tools": [{"name": "get_city", "description": "Look up one city by name and return its population.",\n'
             ' "inputSchema": {"type": "object", %s"properties": {"city": {"type": "string", "description": "City.",'
             ' "maxLength": 1E2}}, "required": ["city"]}}]}\n')


def fix(path: Path, *extra: str):
    return CliRunner().invoke(cli, ["lint", str(path), "--fix", "--no-cache", *extra])


def test_a_file_that_repeats_a_key_is_not_fixed_and_the_run_fails(tmp_path):
    path = tmp_path / "tools.json"
    text = OPEN_TOOL % '"properties": {"a": {"type": "string", "description": "A."}}, '
    path.write_text(text, encoding="utf-8")
    result = fix(path)
    assert path.read_text(encoding="utf-8") == text  # untouched: the first "properties" is still there
    assert result.exit_code == 1
    assert 'repeats the key "properties"' in result.output and "S001" in result.output


def test_a_repeated_key_in_a_json_lines_record_is_refused_too(tmp_path):
    path = tmp_path / "tools.jsonl"
    record = json.loads(OPEN_TOOL % "")["tools"][0]
    line = json.dumps(record).replace('"properties": {', '"properties": {"x": 1}, "properties": {', 1)
    path.write_text(line + "\n", encoding="utf-8")
    result = fix(path)
    assert path.read_text(encoding="utf-8") == line + "\n" and result.exit_code == 1


def test_a_read_only_file_is_refused(tmp_path):
    path = tmp_path / "tools.json"
    text = OPEN_TOOL % ""
    path.write_text(text, encoding="utf-8")
    os.chmod(path, stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)  # 0444, which root too is held to
    try:
        result = fix(path)
        assert path.read_text(encoding="utf-8") == text
        assert result.exit_code == 1 and "read-only" in result.output
    finally:
        os.chmod(path, 0o644)


def test_the_fix_keeps_number_spelling_and_everything_else(tmp_path):
    path = tmp_path / "tools.json"
    path.write_text(OPEN_TOOL % "", encoding="utf-8")
    result = fix(path)
    assert result.exit_code == 0
    fixed = path.read_text(encoding="utf-8")
    assert '"maxLength": 1E2' in fixed and '"additionalProperties": false' in fixed
    assert fixed.replace(',\n "additionalProperties": false', "").replace(', "additionalProperties": false', "") \
        == OPEN_TOOL % ""
