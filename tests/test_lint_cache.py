"""lint's cache: an unchanged run writes what a fresh run writes, byte for byte, without linting."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

RUN = r"""
import json, sys
from toolclause.cli.main import main
try:
    main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
sys.stdout.flush()
sys.stderr.write("\nMODULES " + json.dumps(sorted(m for m in sys.modules if m.startswith("toolclause."))))
sys.exit(code)
"""


def lint(folder: Path, *args: str) -> tuple[int, str, str, set[str]]:
    """(exit code, stdout, stderr, the package's modules imported) of `toolclause lint ARGS` run in folder."""
    env = {k: v for k, v in os.environ.items() if k != "TOOLCLAUSE_NO_CACHE"}  # the suite turns the cache off
    done = subprocess.run([sys.executable, "-c", RUN, "lint", *args], cwd=folder, capture_output=True, text=True,
                          timeout=300, env=env)
    err, _, modules = done.stderr.rpartition("\nMODULES ")
    return done.returncode, done.stdout, err, set(json.loads(modules))


@pytest.fixture
def project(tmp_path):
    shutil.copytree(EXAMPLES, tmp_path / "tools")
    (tmp_path / "tools" / "broken.json").write_text("{not json", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("args", [("--format", "json", "--statistics"), ("--format", "text", "--no-color"),
                                  ("--format", "sarif", "--target", "all"), ("--format", "json", "--quiet")])
def test_an_unchanged_run_writes_what_a_fresh_run_writes_without_linting(project, args):
    first = lint(project, "tools", *args)
    assert "toolclause.linting.engine" in first[3] and (project / ".toolclause_cache").is_dir()
    again = lint(project, "tools", *args)
    assert again[:3] == first[:3]
    assert "toolclause.linting.engine" not in again[3]  # read and hashed the files, linted nothing
    assert lint(project, "tools", *args, "--no-cache")[:3] == first[:3]


def test_the_report_file_of_o_is_written_again(project):
    first = lint(project, "tools", "--format", "json", "-o", "report.json")
    report = (project / "report.json").read_text(encoding="utf-8")
    (project / "report.json").unlink()
    again = lint(project, "tools", "--format", "json", "-o", "report.json")
    assert again[:3] == first[:3] and (project / "report.json").read_text(encoding="utf-8") == report
    assert "toolclause.linting.engine" not in again[3]


def test_a_changed_input_or_configuration_is_linted_again(project):
    first = lint(project, "tools", "--format", "json")
    contract = project / "tools" / "mcp" / "tools_list.json"
    tools = json.loads(contract.read_text(encoding="utf-8"))
    contract.write_text(json.dumps(tools[:1] if isinstance(tools, list) else {**tools, "extra": 1}), encoding="utf-8")
    changed = lint(project, "tools", "--format", "json")
    assert changed[1] != first[1] and "toolclause.linting.engine" in changed[3]
    assert changed[:3] == lint(project, "tools", "--format", "json", "--no-cache")[:3]
    (project / "toolclause.toml").write_text('ignore = ["D"]\n', encoding="utf-8")
    configured = lint(project, "tools", "--format", "json")
    assert "toolclause.linting.engine" in configured[3] and configured[1] != changed[1]


def test_runs_that_depend_on_more_than_files_are_not_kept_and_clean_deletes_the_cache(project):
    lint(project, "tools", "--format", "json", "--fix")
    assert not (project / ".toolclause_cache").exists()
    done = subprocess.run([sys.executable, "-m", "toolclause", "lint", "tools", "--format", "json"], cwd=project,
                          capture_output=True, timeout=300, env={**os.environ, "TOOLCLAUSE_NO_CACHE": "1"})
    assert done.stdout and not (project / ".toolclause_cache").exists()
    lint(project, "tools", "--format", "json")
    assert (project / ".toolclause_cache" / ".gitignore").is_file()
    done = subprocess.run([sys.executable, "-m", "toolclause", "clean"], cwd=project, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and not (project / ".toolclause_cache").exists()


def test_the_cache_reads_through_the_loaders_reader_a_fifo_neither_blocks_nor_is_kept(project):
    fifo = project / "tools" / "pipe.json"
    os.mkfifo(fifo)  # a reader that opened it would wait for a writer forever
    code, out, err, _ = lint(project, "tools", "--format", "json")
    assert code == 2 and "pipe.json" in out + err  # reported as unreadable, as lint reports it
    assert not list((project / ".toolclause_cache").glob("lint/*.run"))  # a run with an unreadable input: not kept


def test_a_link_to_dev_zero_is_refused_not_read(project):
    (project / "tools" / "zero.json").symlink_to("/dev/zero")
    code, out, err, _ = lint(project, "tools", "--format", "json")
    assert code == 2 and "zero.json" in out + err


def test_a_report_is_not_kept_when_an_input_changed_while_it_was_linted(project, monkeypatch):
    # a file edited while the run lints it (here: just after the lint read it) must leave nothing kept, so
    # the next run lints the file as it now is instead of replaying the report of other bytes
    from click.testing import CliRunner

    from toolclause.cli import main as cli_main
    from toolclause.cli import running

    edited = project / "tools" / "edited.json"
    edited.write_text(json.dumps([{"name": "get_city", "description": "Look up one city and return its data.",
                                   "inputSchema": {"type": "object", "properties": {}}}]), encoding="utf-8")
    real_run_lint = running.run_lint

    def run_lint_then_edit(*args, **kwargs):
        outcome = real_run_lint(*args, **kwargs)
        edited.write_text("{broken", encoding="utf-8")  # the bytes change after they were linted
        return outcome

    monkeypatch.setattr(running, "run_lint", run_lint_then_edit)
    monkeypatch.delenv("TOOLCLAUSE_NO_CACHE", raising=False)
    monkeypatch.chdir(project)
    CliRunner().invoke(cli_main.cli, ["lint", "tools", "--format", "json"])
    assert not list((project / ".toolclause_cache").glob("lint/*.run"))
    code, out, _, _ = lint(project, "tools", "--format", "json")  # linted again: the broken file is seen
    assert code == 2 and "edited.json" in out
