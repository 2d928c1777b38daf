"""MCP client configurations as sources: the servers Claude Desktop, Cursor and VS Code start.

`claude_desktop_config.json` and `.cursor/mcp.json` list servers under `mcpServers`,
`.vscode/mcp.json` under `servers` (and a VS Code `settings.json` under `mcp.servers`),
Codex's `config.toml` under `[mcp_servers.NAME]`, Zed's settings under `context_servers`;
each server is a command (`command`, `args`, `env`) or an address (`url`, `headers`,
VS Code's `type: "http"`).  VS Code files may hold comments and trailing commas.
`${env:NAME}`, `${workspaceFolder}` and `${userHome}` are filled in as the clients do;
a server that needs something only the client can ask for (`${input:…}`) or names no
command or URL is listed with its problem, so the others are still read.

This module only reads the file; starting the servers is the caller's (see
`toolclause.cli.configured`).
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .jsonc import blank_jsonc

CONFIG_PREFIX = "config:"
_VARIABLE = re.compile(r"\$\{([^}]*)\}")


@dataclass(frozen=True)
class ConfiguredServer:
    """One server of a client configuration: a command line to start, or a URL to reach."""

    name: str
    command: str | None = None          # one shell-quoted line (`env K=V cmd args` when the config sets env)
    url: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    problem: str | None = None          # why it cannot be started; None when it can


def read_mcp_config(path: str | Path) -> list[ConfiguredServer]:
    """The servers a client configuration file lists; ValueError naming the file when it has none."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        if path.suffix.lower() == ".toml":  # Codex's config.toml
            import tomllib

            document = tomllib.loads(text)
        else:
            document = json.loads(blank_jsonc(text))
    except (ValueError, RecursionError) as exc:  # tomllib.TOMLDecodeError is a ValueError
        kind = "TOML" if path.suffix.lower() == ".toml" else "JSON"
        raise ValueError(f"{path}: not a {kind} MCP client configuration: {exc}") from None
    servers = configured_servers(document)
    if servers is None:
        raise ValueError(f"{path}: no MCP servers: a client configuration lists them under \"mcpServers\" "
                         f"(Claude Desktop, Cursor) or \"servers\" (VS Code)")
    folder = path.resolve().parent
    workspace = folder.parent if folder.name in (".vscode", ".cursor") else folder
    return [_server(str(name), entry, workspace) for name, entry in servers.items()]


def configured_servers(document: Any) -> Mapping[str, Any] | None:
    """The `{name: server}` table of a client configuration document, or None when it is not one."""
    if not isinstance(document, dict):
        return None
    for table in (document.get("mcpServers"), document.get("servers"), document.get("mcp_servers"),
                  document.get("context_servers"),
                  (document.get("mcp") or {}).get("servers") if isinstance(document.get("mcp"), dict) else None):
        if isinstance(table, dict):
            return table
    return None


def _server(name: str, entry: Any, workspace: Path) -> ConfiguredServer:
    if not isinstance(entry, dict):
        return ConfiguredServer(name, problem="the entry is not an object")
    try:
        entry = _filled(entry, workspace)
    except ValueError as exc:
        return ConfiguredServer(name, problem=str(exc))
    kind = entry.get("type")
    url = entry.get("url", entry.get("serverUrl", entry.get("httpUrl")))  # Windsurf's, Gemini CLI's
    if isinstance(url, str) and kind in (None, "http", "streamable-http", "sse"):
        headers = entry.get("headers", entry.get("http_headers"))  # Codex's
        headers = headers if isinstance(headers, dict) else {}
        if kind == "sse":
            return ConfiguredServer(name, url=url, problem="an SSE server (type \"sse\"): only Streamable HTTP "
                                                           "is read")
        return ConfiguredServer(name, url=url, headers={str(k): str(v) for k, v in headers.items()})
    command = entry.get("command")
    if not isinstance(command, str) or not command.strip():
        return ConfiguredServer(name, problem="names neither a command nor a url")
    args = entry.get("args") if isinstance(entry.get("args"), list) else []
    env = entry.get("env") if isinstance(entry.get("env"), dict) else {}
    argv = [command, *(str(a) for a in args)]
    if env:  # the variables the client would add to its own environment
        argv = ["env", *(f"{k}={v}" for k, v in env.items()), *argv]
    return ConfiguredServer(name, command=shlex.join(argv))


def _filled(value: Any, workspace: Path) -> Any:
    """`${env:NAME}`, `${workspaceFolder}`, `${userHome}` filled in; ValueError for `${input:…}`."""
    if isinstance(value, dict):
        return {k: _filled(v, workspace) for k, v in value.items()}
    if isinstance(value, list):
        return [_filled(v, workspace) for v in value]
    if not isinstance(value, str) or "${" not in value:
        return value

    def fill(match: re.Match[str]) -> str:
        variable = match.group(1)
        if variable.startswith("env:"):
            return os.environ.get(variable[4:], "")
        if variable in ("workspaceFolder", "workspaceRoot"):
            return str(workspace)
        if variable == "userHome":
            return str(Path.home())
        raise ValueError(f"needs ${{{variable}}}, which only the client can fill in")

    return _VARIABLE.sub(fill, value)
