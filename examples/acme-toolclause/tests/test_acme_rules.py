"""ACME's rules run through toolclause once the plugin is installed (`pip install examples/acme-toolclause`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("acme_toolclause")  # the plugin must be installed: its rules are found by entry point

from click.testing import CliRunner  # noqa: E402

from toolclause.cli.main import cli  # noqa: E402

HERE = Path(__file__).resolve().parents[1]


def test_the_plugin_and_the_pack_report_on_acmes_tools():
    result = CliRunner().invoke(cli, ["lint", str(HERE / "tools"), "--config", str(HERE / "toolclause.toml"),
                                      "--format", "json"])
    findings = json.loads(result.stdout)["diagnostics"]
    assert sorted((d["code"], d["tool"], d["pointer"]) for d in findings) == [
        ("ACME001", "charge_card", "/inputSchema"),
        ("ACME101", "charge_card", "/description"),
    ]
    assert {d["code"]: d["tags"] for d in findings} == {"ACME001": ["MCP02:2025"], "ACME101": ["MCP10:2025"]}
    assert result.exit_code == 1  # fail-on = "warning"
