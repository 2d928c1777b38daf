"""The workflow commands are registered and cost nothing until they run."""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from toolclause.cli.main import cli

PROBE = r"""
import json, sys
from toolclause.cli.main import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(m for m in sys.modules if m.startswith("toolclause."))))
"""


def imported_by(*argv: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, timeout=120)
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def test_help_of_the_workflow_commands_imports_no_workflow_loader_or_runtime():
    for argv in (["--version"], ["test", "--help"], ["init", "--help"], ["fuzz", "--help"]):
        heavy = {m for m in imported_by(*argv)
                 if m.split(".")[1] in ("workflow", "loading", "runtime", "schema", "linting", "exporting")}
        assert heavy == set(), argv


def test_the_commands_are_listed():
    out = CliRunner().invoke(cli, ["--help"]).stdout
    for name in ("init", "test", "fuzz"):
        assert f"  {name} " in out
