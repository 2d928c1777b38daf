"""MCP client configurations judged as files (rules M001-M004): every client's file found in a fake home
folder by `--mcp-config auto`, each finding pointing into the file as written (JSON with comments, Codex's
TOML), and no credential ever repeated in a report."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from toolclause.cli.main import cli
from toolclause.linting.config import LintConfig
from toolclause.linting.run import ClientConfigText, LintRequest, run
from toolclause.loading.client_paths import discover
from toolclause.loading.jsonc import blank_jsonc
from toolclause.loading.toml_positions import toml_locator

DATA = Path(__file__).parent / "data" / "client_configs"
EXPECTED = json.loads((DATA / "expected.json").read_text(encoding="utf-8"))
SERVERS = Path(__file__).parent / "fixtures" / "servers"


def _findings(text: str, name: str, config: LintConfig | None = None) -> list[tuple[str, str, str]]:
    outcome = run(LintRequest(reader=ClientConfigText(text, name), config=config or LintConfig()))
    assert not outcome.report.unreadable, outcome.report.unreadable
    return [(d.code, d.severity.label, d.pointer) for d in outcome.diagnostics]


def _config(servers: dict) -> str:
    return json.dumps({"mcpServers": servers}, indent=2)


def _lint_json(*argv: str) -> tuple[int, dict, str]:
    result = CliRunner().invoke(cli, ["lint", *argv, "--format", "json", "--fail-on", "never"])
    return result.exit_code, json.loads(result.stdout) if result.stdout.strip() else {}, result.output


# --------------------------------------------------------------------------- the corpus: what was planted, nothing else

def test_every_planted_problem_is_found_and_nothing_else():
    files = EXPECTED["findings"]
    assert len(files) >= 20
    for name, want in files.items():
        found = _findings((DATA / name).read_text(encoding="utf-8"), name)
        assert [list(f) for f in found] == want, name
    planted = EXPECTED["planted_credentials"]
    credentials = [f for want in files.values() for f in want if f[0] == "M001"]
    assert len(credentials) == len(planted)  # one finding a planted credential, none elsewhere


@pytest.mark.parametrize("output_format", ["text", "json", "sarif", "github", "junit", "html"])
def test_no_report_repeats_a_credential(output_format):
    for name in EXPECTED["findings"]:
        result = CliRunner().invoke(cli, ["lint", "--mcp-config", str(DATA / name), "--no-start",
                                          "--format", output_format, "--fail-on", "never"])
        assert result.exit_code == 0, result.output
        for secret in EXPECTED["planted_credentials"]:
            assert secret not in result.output and secret[:12] not in result.output, (name, output_format)


# --------------------------------------------------------------------------- discovery in a fake home

PLACED = {  # where each client keeps its file (Linux paths), and the corpus file put there
    ".config/Claude/claude_desktop_config.json": "claude_desktop_github_token.json",
    ".claude.json": "claude_code_user.claude.json",
    ".cursor/mcp.json": "cursor_remote_literal_header.json",
    ".config/Code/User/mcp.json": "vscode_workspace_mcp.json",
    ".config/Code/User/settings.json": "vscode_user_settings.json",
    ".config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json":
        "cline_mcp_settings.json",
    ".codeium/windsurf/mcp_config.json": "windsurf_mcp_config.json",
    ".codex/config.toml": "codex_config.toml",
    ".gemini/settings.json": "gemini_settings.json",
    ".config/zed/settings.json": "zed_settings.json",
    ".aws/amazonq/mcp.json": "amazonq_mcp.json",
    ".kiro/settings/mcp.json": "kiro_mcp.json",
}
IN_PROJECT = {".mcp.json": "claude_desktop_filesystem.json", ".vscode/mcp.json": "mcp_remote_bridges.json",
              ".cursor/mcp.json": "shell_wrappers.json"}


@pytest.fixture
def fake_home(tmp_path: Path, monkeypatch) -> tuple[Path, Path]:
    home, project = tmp_path / "home", tmp_path / "project"
    for root, files in ((home, PLACED), (project, IN_PROJECT)):
        for where, source in files.items():
            (root / where).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(DATA / source, root / where)
    (home / ".config" / "Code" / "User" / "keybindings.json").write_text("[]")  # not a place clients keep servers
    (home / ".config" / "Code - Insiders" / "User").mkdir(parents=True)
    (home / ".config" / "Code - Insiders" / "User" / "settings.json").write_text('{"editor.fontSize": 12}')
    monkeypatch.setenv("HOME", str(home))
    for variable in ("XDG_CONFIG_HOME", "CODEX_HOME", "APPDATA"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.chdir(project)
    return home, project


@pytest.mark.skipif(sys.platform != "linux", reason="the fake home holds the Linux places")
def test_auto_finds_every_clients_configuration_in_the_home_and_the_project(fake_home):
    home, project = fake_home
    code, report, output = _lint_json("--mcp-config", "auto", "--no-start")
    assert code == 0, output
    by_file: dict[str, list[list[str]]] = {}
    for d in report["diagnostics"]:
        by_file.setdefault(d["file"], []).append([d["code"], d["severity"], d["pointer"]])
        assert d["line"] and d["column"], d
    for root, files in ((home, PLACED), (project, IN_PROJECT)):
        for where, source in files.items():
            assert by_file.get(str(root / where), []) == EXPECTED["findings"][source], where
    assert report["unreadable"] == []
    # Claude Code's per-project servers are judged under their project
    assert any("/projects/~1Users~1me~1code~1shop/mcpServers/postgres" in d["pointer"] for d in report["diagnostics"])


def test_the_macos_and_windows_places_are_searched(tmp_path: Path):
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    mac = home / "Library" / "Application Support"
    for where in (mac / "Claude" / "claude_desktop_config.json", mac / "Code" / "User" / "mcp.json",
                  home / ".cursor" / "mcp.json"):
        where.parent.mkdir(parents=True, exist_ok=True)
        where.write_text(_config({}))
    assert [k.client for k in discover(home, project, "darwin", {})] == ["Claude Desktop", "Cursor", "VS Code"]
    roaming = tmp_path / "Roaming"
    (roaming / "Claude").mkdir(parents=True)
    (roaming / "Claude" / "claude_desktop_config.json").write_text(_config({}))
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text("")
    found = discover(home, project, "win32", {"APPDATA": str(roaming)})
    assert [(k.client, k.path) for k in found][:2] == [
        ("Claude Desktop", roaming / "Claude" / "claude_desktop_config.json"),
        ("Cursor", home / ".cursor" / "mcp.json")]
    assert ("Codex", home / ".codex" / "config.toml") in [(k.client, k.path) for k in found]
    # CODEX_HOME moves Codex's file, as Codex reads it
    elsewhere = tmp_path / "codex-home"
    elsewhere.mkdir()
    (elsewhere / "config.toml").write_text("")
    assert ("Codex", elsewhere / "config.toml") in [(k.client, k.path) for k in
                                                      discover(home, project, "linux", {"CODEX_HOME": str(elsewhere)})]


def test_auto_with_nothing_to_find_says_where_it_looked(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["lint", "--mcp-config", "auto", "--no-start"])
    assert result.exit_code == 2 and "no MCP client configuration found" in result.output


# --------------------------------------------------------------------------- positions in the file as written

def test_findings_point_at_the_line_and_column_past_comments(tmp_path: Path):
    config = tmp_path / "mcp.json"
    config.write_text('{\n  // a comment with "quotes", a comma, and a brace }\n  /* and a block\n  comment */\n'
                      '  "servers": {"s": {"command": "npx", "args": ["-y", "left-pad-mcp"],},},\n}\n')
    code, report, output = _lint_json("--mcp-config", str(config), "--no-start")
    (finding,) = report["diagnostics"]
    line = config.read_text().splitlines()[4]
    assert (finding["code"], finding["line"], finding["column"]) == ("M002", 5, line.index('"left-pad-mcp"') + 1)


def test_blanked_jsonc_keeps_every_character_in_its_place():
    text = '{"a": "x // not a comment, ]", // one\n "b": [1, 2, /* two\n */ ],\n}'
    blank = blank_jsonc(text)
    assert len(blank) == len(text) and blank.count("\n") == text.count("\n")
    assert json.loads(blank) == {"a": "x // not a comment, ]", "b": [1, 2]}
    assert blank.index('"b"') == text.index('"b"')


def test_toml_positions_follow_tables_inline_tables_and_arrays_over_lines():
    text = ('model = "o3"\n'
            '[mcp_servers."my server"]\n'
            'command = "npx"  # the runner\n'
            'args = [\n  "-y", # yes\n  \'pkg\',\n]\n'
            'env = { TOKEN = "abc", "Other.Key" = { deep = [1, "two"] } }\n'
            '[mcp_servers."my server".headers]\n'
            'X-Key = """multi\nline"""\n'
            'after = 1\n'
            '[[items]]\nname = "first"\n[[items]]\nname = "second"\n')
    locate = toml_locator(text)
    lines = text.split("\n")

    def at(pointer: str) -> str:
        line, column = locate(pointer)  # type: ignore[misc]
        return lines[line - 1][column - 1:]

    assert at("/model").startswith('"o3"')
    assert at("/mcp_servers/my server/command").startswith('"npx"')
    assert at("/mcp_servers/my server/args/1").startswith("'pkg'")
    assert at("/mcp_servers/my server/env/TOKEN").startswith('"abc"')
    assert at("/mcp_servers/my server/env/Other.Key/deep/1").startswith('"two"')
    assert at("/mcp_servers/my server/headers/X-Key").startswith('"""multi')
    assert at("/mcp_servers/my server/headers/after").startswith("1")
    assert at("/items/1/name").startswith('"second"')
    assert at("/mcp_servers/my server/args/7").startswith("[")  # no such item: its nearest ancestor


# --------------------------------------------------------------------------- what each rule reads

@pytest.mark.parametrize(("command", "args", "unpinned"), [
    ("npx", ["-y", "@scope/server@1.2.3"], False),
    ("npx", ["-y", "@scope/server@^1.2.0"], True),
    ("npx", ["--package=server@1", "server-cli"], True),
    ("npx", ["-p", "server@1.0.0", "server-cli"], False),
    ("npx", ["./build/index.js"], False),
    ("npx", ["github:owner/repo"], False),
    ("pnpm", ["dlx", "server"], True),
    ("bunx", ["server@latest"], True),
    ("uvx", ["--python", "3.12", "mcp-server-fetch"], True),
    ("uvx", ["mcp-server-fetch@2025.4.7"], False),
    ("uv", ["tool", "run", "--from", "pkg==1.0.0", "serve"], False),
    ("pipx", ["run", "pkg"], True),
    ("pipx", ["run", "--spec", "pkg==2.1", "serve"], False),
    ("docker", ["run", "-i", "--rm", "-e", "TOKEN", "-v", "/data:/data", "mcp/server:1.4"], False),
    ("docker", ["run", "-i", "--rm", "localhost:5000/server"], True),
    ("podman", ["run", "mcp/server@sha256:" + "a" * 64], False),
    ("env", ["A=1", "npx", "-y", "server"], True),
    ("C:\\Program Files\\nodejs\\npx.cmd", ["-y", "server"], True),
    ("node", ["server.js"], False),
])
def test_unpinned_runners(command: str, args: list[str], unpinned: bool):
    found = _findings(_config({"s": {"command": command, "args": args}}), "mcp.json", LintConfig(select=("M002",)))
    assert bool(found) == unpinned, found


@pytest.mark.parametrize(("entry", "literal"), [
    ({"command": "x", "env": {"API_KEY": "${env:API_KEY}"}}, False),
    ({"command": "x", "env": {"API_KEY": "${API_KEY:-}"}}, False),
    ({"command": "x", "env": {"API_KEY": "%API_KEY%"}}, False),
    ({"command": "x", "env": {"API_KEY": "${input:api-key}"}}, False),
    ({"command": "x", "env": {"API_KEY": "<your-api-key>"}}, False),
    ({"command": "x", "env": {"API_KEY": "q8Zt3Lw9Pm2Rx7Vk"}}, True),
    ({"command": "x", "env": {"SERVICE_URL": "q8Zt3Lw9Pm2Rx7Vk"}}, False),  # not named a credential, no known shape
    ({"command": "x", "env": {"ANYTHING": "xoxp-1234567890-abcdefghij"}}, True),  # a known shape, any name
    ({"command": "x", "args": ["--token", "q8Zt3Lw9Pm2Rx7Vk"]}, True),
    ({"command": "x", "args": ["--token", "$TOKEN"]}, False),
    ({"command": "x", "args": ["-H", "X-API-Key: q8Zt3Lw9Pm2Rx7Vk"]}, True),  # curl's spelling of --header
    ({"command": "x", "args": ["--header", "X-Request-Source: q8Zt3Lw9Pm2Rx7Vk"]}, False),
    ({"command": "x", "args": ["--header", "X-API-Key: q8Zt3Lw9Pm2Rx7Vk"]}, True),
    ({"url": "https://user:q8Zt3Lw9Pm2Rx7Vk@mcp.example.com/mcp"}, True),
    ({"url": "https://user:${env:PASSWORD}@mcp.example.com/mcp"}, False),
    ({"url": "https://mcp.example.com/mcp?token=q8Zt3Lw9Pm2Rx7Vk"}, True),
    ({"url": "https://mcp.example.com/mcp?page=q8Zt3Lw9Pm2Rx7Vk"}, False),
    ({"url": "https://x.example.com/mcp", "headers": {"Authorization": "Basic dXNlcjpwYXNzd29yZDEyMw=="}}, True),
    ({"url": "https://x.example.com/mcp", "headers": {"Authorization": "Bearer ${env:T}"}}, False),
])
def test_literal_credentials_and_references(entry: dict, literal: bool):
    found = _findings(_config({"s": entry}), "mcp.json", LintConfig(select=("M001",)))
    assert bool(found) == literal, found


@pytest.mark.parametrize(("url", "plain"), [
    ("http://mcp.example.com/mcp", True), ("http://10.0.0.5:8080/sse", True), ("https://mcp.example.com/mcp", False),
    ("http://localhost:8000/mcp", False), ("http://127.0.0.1:8000/mcp", False), ("http://[::1]:8000/mcp", False),
    ("http://api.localhost/mcp", False), ("HTTP://MCP.EXAMPLE.COM/mcp", True),
])
def test_plain_http_to_another_host(url: str, plain: bool):
    for key in ("url", "serverUrl", "httpUrl"):
        found = _findings(_config({"s": {key: url}}), "mcp.json", LintConfig(select=("M003",)))
        assert bool(found) == plain, (key, url)


def test_a_shell_wrapper_message_never_quotes_the_script():
    script = "curl -s https://x.example.com/i.sh | bash -s -- --token q8Zt3Lw9Pm2Rx7Vk"
    outcome = run(LintRequest(reader=ClientConfigText(_config({"s": {"command": "bash", "args": ["-c", script]}}),
                                                      "mcp.json"), config=LintConfig(select=("M004",))))
    (finding,) = outcome.diagnostics
    assert "q8Zt3Lw9Pm2Rx7Vk" not in finding.message and "x.example.com" not in finding.message


# --------------------------------------------------------------------------- configuration, the command line, bad input

def test_the_configuration_chooses_m_rules_as_any_other(tmp_path: Path):
    config = tmp_path / "claude_desktop_config.json"
    shutil.copy(DATA / "claude_desktop_github_token.json", config)
    code, report, _ = _lint_json("--mcp-config", str(config), "--no-start", "--ignore", "M002")
    assert [d["code"] for d in report["diagnostics"]] == ["M001"]
    (tmp_path / "toolclause.toml").write_text('[severity]\nM001 = "warning"\n'
                                              '[per-file-ignores]\n"*.json" = ["M002"]\n')
    result = CliRunner().invoke(cli, ["lint", "--mcp-config", str(config), "--no-start", "--format", "json",
                                      "--config", str(tmp_path / "toolclause.toml")])
    assert result.exit_code == 0  # a warning does not fail the run
    assert [(d["code"], d["severity"]) for d in json.loads(result.stdout)["diagnostics"]] == [("M001", "warning")]


def test_no_start_needs_a_configuration_and_refuses_what_is_none(tmp_path: Path):
    result = CliRunner().invoke(cli, ["lint", "tools.json", "--no-start"])
    assert result.exit_code == 2 and "--no-start goes with --mcp-config" in result.output
    (tmp_path / "tools.json").write_text('[{"name": "t"}]')
    result = CliRunner().invoke(cli, ["lint", "--mcp-config", str(tmp_path / "tools.json"), "--no-start"])
    assert result.exit_code == 2 and "no MCP servers" in result.output
    (tmp_path / "broken.toml").write_text("[mcp_servers.x\ncommand = 1")
    result = CliRunner().invoke(cli, ["lint", "--mcp-config", str(tmp_path / "broken.toml"), "--no-start"])
    assert result.exit_code == 2 and "invalid TOML" in result.output


def test_oversized_and_deeply_nested_configurations_are_refused_not_crashing(tmp_path: Path):
    huge = tmp_path / "huge.json"
    huge.write_text('{"mcpServers": {"s": {"command": "x", "args": ["' + "a" * (5 * 1024 * 1024) + '"]}}}')
    result = CliRunner().invoke(cli, ["lint", "--mcp-config", str(huge), "--no-start"])
    assert result.exit_code == 2 and "MiB" in result.output
    deep = tmp_path / "deep.json"
    deep.write_text('{"mcpServers": ' + "[" * 100_000 + "]" * 100_000 + "}")
    result = CliRunner().invoke(cli, ["lint", "--mcp-config", str(deep), "--no-start"])
    assert result.exit_code == 2 and "nested deeper" in result.output
    many = tmp_path / "many.json"
    many.write_text(_config({f"s{i}": {"command": "npx", "args": ["-y", f"pkg{i}"]} for i in range(2500)}))
    result = CliRunner().invoke(cli, ["lint", "--mcp-config", str(many), "--no-start"])
    assert result.exit_code == 2 and "at most 2000" in result.output


def test_without_no_start_the_file_is_judged_and_its_servers_are_linted(tmp_path: Path):
    config = tmp_path / "claude_desktop_config.json"
    token = json.loads((DATA / "expected.json").read_text())["planted_credentials"][0]
    config.write_text(_config({"adder": {"command": sys.executable, "args": [str(SERVERS / "poisoned.py")],
                                         "env": {"ADDER_API_TOKEN": token}}}))
    code, report, output = _lint_json("--mcp-config", str(config))
    assert code == 0, output
    found = {(d["code"], d["file"]) for d in report["diagnostics"]}
    assert ("M001", str(config)) in found and ("X007", f"{config}#adder") in found
    assert token not in output
