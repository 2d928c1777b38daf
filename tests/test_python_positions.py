"""A finding on a tool written in Python points at its code: the `def`, or the parameter a property is.

`toolclause lint app.py:box` reads the tools as a client lists them; without this every such
finding had the position `-`.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

APP = textwrap.dedent('''
    from toolclause import Toolbox

    box = Toolbox()


    @box.tool()
    def get_weather(
        city: str,
        units,
    ) -> dict:
        """Weather."""
        return {}
''')


def _lint(tmp_path: Path, target: str) -> list[dict]:
    run = subprocess.run([sys.executable, "-m", "toolclause.cli.main", "lint", target, "--format", "json",
                          "--no-cache", "--fail-on", "never"], capture_output=True, text=True, cwd=tmp_path,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)["diagnostics"]


def test_findings_on_a_python_tool_point_at_its_def_and_its_parameters(tmp_path):
    (tmp_path / "app.py").write_text(APP, encoding="utf-8")
    found = _lint(tmp_path, "app.py:box")
    lines = APP.splitlines()
    def_line = next(i for i, line in enumerate(lines, 1) if line.startswith("def get_weather"))
    units_line = next(i for i, line in enumerate(lines, 1) if line.strip().startswith("units"))
    on_tool = [d for d in found if d["pointer"] in ("/tools/0", "/tools/0/description")]
    on_units = [d for d in found if d["pointer"].startswith("/tools/0/inputSchema/properties/units")]
    assert on_tool and {d["line"] for d in on_tool} == {def_line}
    assert on_units and {(d["line"], d["column"]) for d in on_units} == {(units_line, 5)}


def test_a_tool_whose_function_lives_in_another_file_has_no_position_in_this_one(tmp_path):
    (tmp_path / "impl.py").write_text(APP, encoding="utf-8")
    (tmp_path / "app.py").write_text("from impl import box\n", encoding="utf-8")
    found = _lint(tmp_path, "app.py:box")
    assert found and all(d["line"] is None for d in found)
