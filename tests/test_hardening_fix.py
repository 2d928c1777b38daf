"""--fix on hostile files: never invalid JSON, and the file stays what it was (link, hard link, mode)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from click.testing import CliRunner

from toolclause.cli.main import cli

TOOL = ('{"name": "get_thing", "description": "Gets the thing by its id and returns it.", '
        '"inputSchema": {"type": "object", "properties": {"n": {"type": "number", "maximum": %s}}}}\n')


def fix(path: Path):
    return CliRunner().invoke(cli, ["lint", str(path), "--select", "C001", "--fix", "--fail-on", "never"])


def test_a_number_json_cannot_hold_is_never_written_as_infinity(tmp_path: Path):
    path = tmp_path / "t.json"
    path.write_text(TOOL % "1e400")
    fix(path)
    text = path.read_text()
    assert "Infinity" not in text
    json.loads(text, parse_constant=lambda name: (_ for _ in ()).throw(ValueError(name)))


def test_a_symlink_is_written_through_and_stays_a_link(tmp_path: Path):
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "t.json"
    target.write_text(TOOL % "10")
    link = tmp_path / "t.json"
    link.symlink_to(target)
    fix(link)
    assert link.is_symlink()
    assert json.loads(target.read_text())["inputSchema"]["additionalProperties"] is False


def test_hard_links_and_the_mode_are_kept(tmp_path: Path):
    path = tmp_path / "t.json"
    path.write_text(TOOL % "10")
    os.chmod(path, 0o640)
    other = tmp_path / "other.json"
    os.link(path, other)
    fix(path)
    assert os.stat(path).st_ino == os.stat(other).st_ino and os.stat(path).st_mode & 0o777 == 0o640
    assert json.loads(other.read_text())["inputSchema"]["additionalProperties"] is False


def test_a_plain_file_keeps_its_mode(tmp_path: Path):
    path = tmp_path / "t.json"
    path.write_text(TOOL % "10")
    os.chmod(path, 0o600)
    fix(path)
    assert os.stat(path).st_mode & 0o777 == 0o600
    assert json.loads(path.read_text())["inputSchema"]["additionalProperties"] is False
