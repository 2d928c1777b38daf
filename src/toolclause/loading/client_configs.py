"""MCP client configurations read as documents of their own, for the client-config rules (family M).

`mcp_config` reads a configuration to start its servers; this reads it to judge what it says:
the parsed document (JSON with comments, or Codex's TOML), where every server entry is in it
(a JSON Pointer), and a locator that turns a pointer into line and column in the file as written.
A server table is found wherever the clients keep one:

    /mcpServers                    Claude Desktop, Claude Code (.mcp.json, ~/.claude.json), Cursor,
                                   Windsurf, Gemini CLI, Cline, Roo Code, Amazon Q, Kiro, LM Studio
    /projects/<folder>/mcpServers  Claude Code's per-project servers in ~/.claude.json
    /servers                       VS Code's mcp.json
    /mcp/servers                   VS Code's settings.json
    /context_servers               Zed's settings.json
    /mcp_servers                   Codex's config.toml

Nothing here raises on bad input: a file that cannot be read is an `Unreadable`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..model import Unreadable, join_pointer
from .jsonc import blank_jsonc
from .positions import json_locator
from .text import MAX_NESTING, _nesting_depth_exceeds

# a client's settings file is kilobytes; Claude Code's ~/.claude.json grows, but not to this
MAX_CONFIG_BYTES = 4 * 1024 * 1024
MAX_SERVERS = 2000  # server entries judged in one file; the rest are reported as left out


@dataclass(frozen=True)
class ServerEntry:
    """One configured server: its name and where its entry is in the document."""

    name: str
    pointer: str
    entry: Mapping[str, Any]


@dataclass(frozen=True)
class ClientConfig:
    """A client configuration file: what it says, where each server is, and how to find a pointer's line."""

    file: str
    format: str  # "json" (comments allowed) or "toml"
    document: Any
    servers: tuple[ServerEntry, ...]
    locate: Callable[[str], tuple[int, int] | None]
    client: str = ""  # the client it belongs to, when discovery knows ("Claude Desktop")

    def position(self, pointer: str) -> tuple[int | None, int | None]:
        found = self.locate(pointer)
        return found if found is not None else (None, None)


def server_tables(document: Any) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """(pointer, {name: entry}) of every server table in a client configuration document."""
    if not isinstance(document, dict):
        return
    for key in ("mcpServers", "servers", "context_servers", "mcp_servers"):
        if isinstance(document.get(key), dict):
            yield f"/{key}", document[key]
    mcp = document.get("mcp")
    if isinstance(mcp, dict) and isinstance(mcp.get("servers"), dict):
        yield "/mcp/servers", mcp["servers"]
    projects = document.get("projects")
    if isinstance(projects, dict):
        for folder, project in projects.items():
            if isinstance(project, dict) and isinstance(project.get("mcpServers"), dict):
                yield join_pointer("/projects", folder, "mcpServers"), project["mcpServers"]


def server_entries(document: Any) -> tuple[list[ServerEntry], int]:
    """Every server entry that is an object (at most MAX_SERVERS), and how many were left out."""
    entries: list[ServerEntry] = []
    left_out = 0
    for pointer, table in server_tables(document):
        for name, entry in table.items():
            if not isinstance(entry, dict):
                continue
            if len(entries) >= MAX_SERVERS:
                left_out += 1
                continue
            entries.append(ServerEntry(str(name), join_pointer(pointer, name), entry))
    return entries, left_out


def _is_toml(path: Path) -> bool:
    return path.suffix.lower() == ".toml"


def client_config_text(text: str, file: str, toml: bool = False, client: str = "") -> ClientConfig | Unreadable:
    """A configuration's text read as the client reads it (JSON with comments, or TOML)."""
    if len(text) > MAX_CONFIG_BYTES:
        return Unreadable("too-large", f"over {MAX_CONFIG_BYTES // (1024 * 1024)} MiB: no client configuration "
                                       f"is that large, so it was not read", file=file)
    text = text.removeprefix("\ufeff")
    if toml:
        import tomllib

        from .toml_positions import toml_locator

        try:
            document: Any = tomllib.loads(text)
        except (tomllib.TOMLDecodeError, RecursionError) as exc:
            return Unreadable("invalid-toml", f"invalid TOML: {str(exc)[:200]}", file=file)
        locate = toml_locator(text)
    else:
        plain = blank_jsonc(text)
        if _nesting_depth_exceeds(plain, MAX_NESTING):
            return Unreadable("too-deep", f"nested deeper than {MAX_NESTING} levels", file=file)
        try:
            document = json.loads(plain)
        except json.JSONDecodeError as exc:
            return Unreadable("invalid-json", f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}",
                              file=file)
        except (RecursionError, ValueError) as exc:
            return Unreadable("invalid-json", f"cannot be read as JSON ({type(exc).__name__})", file=file)
        locate = json_locator(plain)
    entries, left_out = server_entries(document)
    if not entries and not any(True for _ in server_tables(document)):
        return Unreadable("no-servers", "no MCP servers: a client configuration lists them under \"mcpServers\" "
                                        "(Claude, Cursor, Windsurf, Gemini CLI), \"servers\" (VS Code), "
                                        "\"context_servers\" (Zed) or [mcp_servers] (Codex)", file=file)
    if left_out:
        return Unreadable("too-many", f"{len(entries) + left_out} server entries; at most {MAX_SERVERS} are read",
                          file=file)
    return ClientConfig(file, "toml" if toml else "json", document, tuple(entries), locate, client)


def read_client_config(path: str | Path, display: str | None = None, client: str = "") -> ClientConfig | Unreadable:
    """The configuration file at `path` (named `display` in findings), or why it cannot be read."""
    path = Path(path)
    file = display or str(path)
    try:
        if path.stat().st_size > MAX_CONFIG_BYTES:
            return Unreadable("too-large", f"over {MAX_CONFIG_BYTES // (1024 * 1024)} MiB: no client configuration "
                                           f"is that large, so it was not read", file=file)
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        return Unreadable("not-utf8", f"not UTF-8 text (byte {exc.start})", file=file)
    except OSError as exc:
        return Unreadable("cannot-read", f"cannot read: {exc.strerror or exc}", file=file)
    return client_config_text(text, file, _is_toml(path), client)


__all__ = ["MAX_CONFIG_BYTES", "MAX_SERVERS", "ClientConfig", "ServerEntry", "client_config_text",
           "read_client_config", "server_entries", "server_tables"]
