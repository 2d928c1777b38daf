"""`diff` reports a change to a tool's widget contract — template, mime type, CSP, widget domain — as breaking:
ChatGPT caches the widget at registration, so each is a frontend migration (seed 002)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import toolclause
from toolclause.cli.main import cli

BOARD = "ui://widget/board.html"
CSP = {"connect_domains": ["https://api.example.com"], "resource_domains": []}


def server(template=BOARD, mime="text/html+skybridge", csp=None, domain=None, resources=True):
    meta = {"openai/widgetCSP": csp or CSP}
    if domain is not None:
        meta["openai/widgetDomain"] = domain
    tool = {"name": "show_board", "description": "Shows the kanban board of one project.",
            "inputSchema": {"type": "object", "properties": {"project": {"type": "string"}}}}
    if template is not None:
        tool["_meta"] = {"openai/outputTemplate": template}
    document = {"tools": [tool]}
    if resources:
        document["resources"] = [{"uri": template or BOARD, "name": "board", "mimeType": mime, "_meta": meta}]
    return document


def kinds(old, new):
    report = toolclause.diff(old, new)
    return [(c.kind, c.impact.label) for c in report.changes], report


@pytest.mark.parametrize(("new", "kind"), [
    (server(template="ui://widget/board-v2.html"), "widget-template-changed"),
    (server(template=None), "widget-template-changed"),
    (server(mime="text/html"), "widget-mime-type-changed"),
    (server(csp={"connect_domains": ["https://api.example.com", "https://cdn.example.com"]}), "widget-csp-changed"),
    (server(csp="default-src 'self'"), "widget-csp-changed"),
    (server(domain="https://board.example.com"), "widget-domain-changed"),
])
def test_a_widget_contract_change_is_breaking(new, kind):
    found, report = kinds(server(), new)
    assert found == [(kind, "breaking-results")]
    (change,) = report.changes
    assert "frontend migration" in change.message and change.tool == "show_board"


def test_the_same_widget_is_no_change_and_a_tool_file_compares_the_template_alone():
    assert kinds(server(), server())[0] == []
    assert kinds(server(resources=False), server(resources=False, mime="text/html"))[0] == []
    assert kinds(server(resources=False), server(resources=False, template="ui://widget/other.html"))[0] == [
        ("widget-template-changed", "breaking-results")]


def test_the_cli_fails_on_a_widget_change(tmp_path: Path):
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(server()))
    new.write_text(json.dumps(server(csp={"connect_domains": ["*"]})))
    result = CliRunner().invoke(cli, ["diff", str(old), str(new), "--format", "json", "--fail-on", "breaking"])
    assert result.exit_code == 1
    assert "widget-csp-changed" in result.output
