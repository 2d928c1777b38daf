"""The servers of an MCP client configuration, started and listed: lint's `--mcp-config FILE`, diff's
`config:FILE#NAME` side.

The file is read by `loading.mcp_config`; each server is then listed as `--server` or
`--url` would list it, and its tools are filed under `FILE#NAME`, so findings say which
server they belong to.  A server that cannot be started or listed is one unreadable
entry under its name; the others are still read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..loading import LoadResult, contracts_from_document
from ..loading.mcp_config import CONFIG_PREFIX, ConfiguredServer, read_mcp_config
from ..model import Unreadable


def _snapshot(server: ConfiguredServer, timeout: float) -> dict[str, Any]:
    from ..mcp.live import snapshot_server, snapshot_url  # the SDK is imported only for live servers

    if server.command is not None:
        return snapshot_server(server.command, timeout)
    return snapshot_url(str(server.url), timeout, dict(server.headers))


AUTO = "auto"  # --mcp-config auto: every client configuration found on this machine and in this folder


def configuration_files(given: str) -> list[tuple[str, str]]:
    """(path, client) of the configurations `--mcp-config` names: the file, or those `auto` finds (ValueError: none)."""
    if given != AUTO:
        return [(given, "")]
    from ..loading.client_paths import candidates, discover

    found = discover()
    if not found:
        looked = len(candidates(Path.home(), Path.cwd()))
        raise ValueError(f"--mcp-config auto: no MCP client configuration found (looked in {looked} places: "
                         f"Claude Desktop, Claude Code, Cursor, VS Code, Windsurf, Codex, Gemini CLI and others; "
                         f"see the README)")
    return [(str(known.path), known.client) for known in found]


def load_configured(given: str, timeout: float = 30.0, start: bool = True) -> LoadResult:
    """Every configuration `given` names (a file, or `auto`), read for the client-config rules, and unless not
    `start`, every server in it started and listed: its tools, filed under `path#name`."""
    from ..loading.client_configs import read_client_config

    result = LoadResult()
    for path, client in configuration_files(given):
        document = read_client_config(path, client=client)
        if isinstance(document, Unreadable):
            if given == AUTO and document.code == "no-servers":
                continue  # a settings file that configures no server (VS Code's settings.json, most of the time)
            if given != AUTO and not start:
                raise ValueError(f"{path}: {document.message}")
            if given == AUTO:
                result.unreadable.append(document)
                continue
        else:
            result.client_configs.append(document)
            if not start:
                result.files += 1  # the configuration is the file judged (started, each server counts)
        if start:
            result.extend(_started(path, timeout))
    return result


def _started(path: str, timeout: float) -> LoadResult:
    """The servers of one configuration, listed."""
    from ..mcp.live import LiveServerError

    result = LoadResult()
    for server in read_mcp_config(path):
        label = f"{path}#{server.name}"
        result.files += 1
        if server.problem is not None:
            result.unreadable.append(Unreadable("server-not-listed", f"server '{server.name}' {server.problem}", "",
                                                file=label))
            continue
        try:
            snapshot = _snapshot(server, timeout)
        except LiveServerError as exc:
            result.unreadable.append(Unreadable("server-not-listed", str(exc), "", file=label))
            continue
        tools, problems = contracts_from_document(snapshot, label, "mcp")
        result.tools.extend(tools)
        result.unreadable.extend(problems)
    return result


def configured_side(side: str, timeout: float = 30.0) -> dict[str, Any]:
    """The snapshot of the one server a diff side names: `config:FILE#NAME` (`config:FILE` when it has one).

    ValueError when the file or the server cannot be read; LiveServerError when it cannot be listed."""
    path, _, name = side[len(CONFIG_PREFIX):].partition("#")
    servers = read_mcp_config(path)
    if not name:
        if len(servers) != 1:
            raise ValueError(f"{path} configures {len(servers)} servers ({', '.join(s.name for s in servers)}); "
                             f"name one: {CONFIG_PREFIX}{path}#NAME")
        name = servers[0].name
    server = next((s for s in servers if s.name == name), None)
    if server is None:
        raise ValueError(f"{path} configures no server '{name}' (it has: {', '.join(s.name for s in servers)})")
    if server.problem is not None:
        raise ValueError(f"{path}: server '{name}' {server.problem}")
    return _snapshot(server, timeout)
