"""The package ships `py.typed`, so a user's mypy checks their calls against toolclause's own types."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

CONSUMER = '''\
import toolclause

findings: list[toolclause.Diagnostic] = toolclause.lint({"name": "t", "inputSchema": {"type": "object"}})
wrong: int = toolclause.lint([])
'''


@pytest.mark.timeout(600)
def test_a_users_mypy_sees_the_packages_types(tmp_path: Path):
    assert (Path(__file__).resolve().parents[1] / "src" / "toolclause" / "py.typed").is_file()
    consumer = tmp_path / "consumer.py"
    consumer.write_text(CONSUMER, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir", str(tmp_path / "cache"),
                          "--config-file", "/dev/null", str(consumer)], capture_output=True, text=True, timeout=580,
                         cwd=tmp_path)
    # the one error is the one the consumer makes: lint() returns a list, not an int; without py.typed mypy
    # would say the module is untyped ("missing library stubs or py.typed marker") instead
    assert "consumer.py:4: error: Incompatible types in assignment" in run.stdout, run.stdout + run.stderr
    assert "py.typed" not in run.stdout and "import-untyped" not in run.stdout
    assert run.stdout.count(": error:") == 1, run.stdout
