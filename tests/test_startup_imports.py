"""What a command imports: each pays only for what it runs (start-up is most of a small lint run).

Run in a fresh interpreter, since this test process has imported everything already.
A failure here means a new eager import: import it inside the function that needs it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

PROBE = r"""
import json, sys
from toolclause.cli.main import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(m for m in sys.modules if m == "toolclause" or m.startswith("toolclause."))))
"""


def imported_by(*argv: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, timeout=120)
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def under(modules: set[str], *packages: str) -> set[str]:
    return {m for m in modules if any(m == f"toolclause.{p}" or m.startswith(f"toolclause.{p}.") for p in packages)}


def test_version_and_help_import_only_the_command_line():
    for argv in (["--version"], ["--help"], ["lint", "--help"]):
        modules = imported_by(*argv)
        assert under(modules, "loading", "schema", "rules", "linting", "report", "exporting", "diffing", "runtime",
                     "stores", "workflow", "mcp", "web") == set(), argv


def test_a_lint_run_imports_one_reporter_and_no_exporter_diff_runtime_or_mcp_client():
    modules = imported_by("lint", str(EXAMPLES / "mcp"), "--format", "json", "--fail-on", "never", "-o", "/dev/null")
    assert "toolclause.linting.engine" in modules  # it did lint
    assert under(modules, "exporting", "diffing", "runtime", "stores", "workflow", "mcp", "web") == set()
    assert under(modules, "report") == {"toolclause.report", "toolclause.report.base", "toolclause.report.json"}
