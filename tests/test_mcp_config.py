"""MCP client configurations (Claude Desktop, Cursor, VS Code) read as lint and diff sources: each configured
server is started and linted under its name; the file is read as the clients read it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from toolclause.cli.main import cli
from toolclause.loading.mcp_config import read_mcp_config

SERVERS = Path(__file__).parent / "fixtures" / "servers"


def _entry(name: str) -> dict:
    return {"command": sys.executable, "args": [str(SERVERS / f"{name}.py")]}


def test_claude_desktop_and_cursor_configs(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("TC_TOKEN", "s3cret")
    config = tmp_path / ".cursor" / "mcp.json"
    config.parent.mkdir()
    config.write_text(json.dumps({"mcpServers": {
        "files": {"command": "npx", "args": ["-y", "server-files", "${workspaceFolder}/docs"],
                  "env": {"TOKEN": "${env:TC_TOKEN}"}},
        "remote": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer ${env:TC_TOKEN}"}},
        "broken": {"args": ["x"]}}}))
    files, remote, broken = read_mcp_config(config)
    assert files.command == f"env TOKEN=s3cret npx -y server-files {tmp_path}/docs" and files.problem is None
    assert remote.url == "https://mcp.example.com/mcp" and remote.headers == {"Authorization": "Bearer s3cret"}
    assert broken.problem == "names neither a command nor a url"


def test_vscode_mcp_json_with_comments_trailing_commas_and_inputs(tmp_path: Path):
    config = tmp_path / ".vscode" / "mcp.json"
    config.parent.mkdir()
    config.write_text('''{
      // servers for this workspace
      "inputs": [{"type": "promptString", "id": "api-key", "password": true}],
      "servers": {
        "github": {"type": "http", "url": "https://api.example.com/mcp/", /* remote */ },
        "keyed": {"type": "stdio", "command": "keyed-server", "env": {"KEY": "${input:api-key}"}},
        "odd": {"type": "stdio", "command": "echo", "args": ["a // not a comment,]"]},
      },
    }''')
    github, keyed, odd = read_mcp_config(config)
    assert github.url == "https://api.example.com/mcp/" and github.problem is None
    assert keyed.problem == "needs ${input:api-key}, which only the client can fill in"
    assert odd.command == "echo 'a // not a comment,]'"


def test_a_file_that_is_no_client_config_is_refused(tmp_path: Path):
    (tmp_path / "x.json").write_text(json.dumps({"tools": []}))
    with pytest.raises(ValueError, match="no MCP servers"):
        read_mcp_config(tmp_path / "x.json")
    result = CliRunner().invoke(cli, ["lint", "--mcp-config", str(tmp_path / "x.json")])
    assert result.exit_code == 2 and "no MCP servers" in result.output


def test_lint_starts_every_configured_server_and_files_findings_under_its_name(tmp_path: Path):
    config = tmp_path / "claude_desktop_config.json"
    config.write_text(json.dumps({"mcpServers": {"weather": _entry("clean"), "adder": _entry("poisoned"),
                                                 "gone": _entry("crash")}}))
    result = CliRunner().invoke(cli, ["lint", "--mcp-config", str(config), "--format", "json", "--fail-on", "never"])
    report = json.loads(result.stdout)
    files = {d["file"] for d in report["diagnostics"]}
    assert f"{config}#adder" in files
    assert any(d["code"] == "X007" and d["file"] == f"{config}#adder" for d in report["diagnostics"])
    assert [u["file"] for u in report["unreadable"]] == [f"{config}#gone"]
    assert result.exit_code == 2  # a server that could not be listed


def test_diff_a_snapshot_against_a_configured_server(tmp_path: Path):
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"servers": {"weather": {"type": "stdio", **_entry("clean")},
                                              "adder": _entry("poisoned")}}))
    saved = tmp_path / "weather.snapshot.json"
    assert CliRunner().invoke(cli, ["snapshot", "--server", f"{sys.executable} {SERVERS / 'clean.py'}",
                                    "-o", str(saved)]).exit_code == 0
    same = CliRunner().invoke(cli, ["diff", str(saved), f"config:{config}#weather", "--fail-on", "any"])
    assert same.exit_code == 0, same.output
    unnamed = CliRunner().invoke(cli, ["diff", str(saved), f"config:{config}"])
    assert unnamed.exit_code == 2 and "name one" in unnamed.output and "weather, adder" in unnamed.output


def test_snapshot_saves_a_configured_server_and_names_the_choices_when_unnamed(tmp_path: Path):
    config = tmp_path / "claude_desktop_config.json"
    config.write_text(json.dumps({"mcpServers": {"weather": _entry("clean"), "adder": _entry("poisoned")}}))
    saved = tmp_path / "weather.snapshot.json"
    done = CliRunner().invoke(cli, ["snapshot", "--mcp-config", f"{config}#weather", "-o", str(saved)])
    assert done.exit_code == 0, done.output
    direct = tmp_path / "direct.snapshot.json"
    assert CliRunner().invoke(cli, ["snapshot", "--server", f"{sys.executable} {SERVERS / 'clean.py'}",
                                    "-o", str(direct)]).exit_code == 0
    assert json.loads(saved.read_text())["tools"] == json.loads(direct.read_text())["tools"]
    unnamed = CliRunner().invoke(cli, ["snapshot", "--mcp-config", str(config), "-o", str(tmp_path / "x.json")])
    assert unnamed.exit_code == 2 and "name one" in unnamed.output and not (tmp_path / "x.json").exists()
    both = CliRunner().invoke(cli, ["snapshot", "--mcp-config", str(config), "--url", "http://x", "-o", "y.json"])
    assert both.exit_code == 2 and "one of them" in both.output


def test_a_client_config_linted_as_a_file_is_pointed_to_mcp_config(tmp_path: Path):
    # the shape is named, and the option that reads it, not --input-format (no input format reads it)
    plain = tmp_path / "claude_desktop_config.json"
    plain.write_text(json.dumps({"mcpServers": {"files": {"command": "npx", "args": ["server-files"]}}}))
    result = CliRunner().invoke(cli, ["lint", str(plain)])
    assert result.exit_code == 2
    assert "an MCP client's configuration" in result.output and f"--mcp-config {plain}" in result.output
    assert "--input-format" not in result.output
    # with the comments clients allow, the JSON error says where, and which option allows them
    commented = tmp_path / "mcp.json"
    commented.write_text('{\n  // the servers\n  "servers": {"files": {"command": "npx"}}\n}')
    result = CliRunner().invoke(cli, ["lint", str(commented)])
    assert result.exit_code == 2
    assert "invalid JSON at line 2, column 3" in result.output and "--mcp-config" in result.output
    # a tool file of another name with the same mistake gets no such hint
    tools = tmp_path / "tools.json"
    tools.write_text('[\n  // a tool\n]')
    assert "--mcp-config" not in CliRunner().invoke(cli, ["lint", str(tools)]).output
