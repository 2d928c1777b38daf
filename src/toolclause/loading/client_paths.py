"""Where MCP clients keep their configurations, on the operating system toolclause runs on: `--mcp-config auto`.

Each client documents its own place; a user's files are found from the home folder (and, on
Windows, %APPDATA%; on Linux, $XDG_CONFIG_HOME), a project's from the working folder.  Only
files that exist are returned, each once, with the client it belongs to.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class KnownConfig:
    client: str
    path: Path


def _app_config(home: Path, platform: str, env: Mapping[str, str]) -> Path:
    """Where desktop applications keep their settings: Application Support, %APPDATA%, or ~/.config."""
    if platform == "darwin":
        return home / "Library" / "Application Support"
    if platform.startswith("win"):
        return Path(env["APPDATA"]) if env.get("APPDATA") else home / "AppData" / "Roaming"
    return Path(env["XDG_CONFIG_HOME"]) if env.get("XDG_CONFIG_HOME") else home / ".config"


def candidates(home: Path, cwd: Path, platform: str = sys.platform,
               env: Mapping[str, str] | None = None) -> list[KnownConfig]:
    """Every place a client's configuration may be, user files first, then the project's."""
    env = os.environ if env is None else env
    apps = _app_config(home, platform, env)
    xdg = Path(env["XDG_CONFIG_HOME"]) if env.get("XDG_CONFIG_HOME") and not platform.startswith("win") \
        else home / ".config"
    codex_home = Path(env["CODEX_HOME"]) if env.get("CODEX_HOME") else home / ".codex"
    found = [
        KnownConfig("Claude Desktop", apps / "Claude" / "claude_desktop_config.json"),
        KnownConfig("Claude Code", home / ".claude.json"),
        KnownConfig("Cursor", home / ".cursor" / "mcp.json"),
        KnownConfig("Windsurf", home / ".codeium" / "windsurf" / "mcp_config.json"),
        KnownConfig("Codex", codex_home / "config.toml"),
        KnownConfig("Gemini CLI", home / ".gemini" / "settings.json"),
        KnownConfig("Amazon Q Developer", home / ".aws" / "amazonq" / "mcp.json"),
        KnownConfig("Kiro", home / ".kiro" / "settings" / "mcp.json"),
        KnownConfig("LM Studio", home / ".lmstudio" / "mcp.json"),
        KnownConfig("Zed", apps / "Zed" / "settings.json" if platform.startswith("win")
                    else xdg / "zed" / "settings.json"),
    ]
    for editor in ("Code", "Code - Insiders", "VSCodium"):
        user = apps / editor / "User"
        found += [KnownConfig(f"VS Code ({editor})" if editor != "Code" else "VS Code", user / "mcp.json"),
                  KnownConfig(f"VS Code ({editor})" if editor != "Code" else "VS Code", user / "settings.json")]
        storage = user / "globalStorage"
        found += [KnownConfig("Cline", storage / "saoudrizwan.claude-dev" / "settings" / "cline_mcp_settings.json"),
                  KnownConfig("Roo Code", storage / "rooveterinaryinc.roo-cline" / "settings" / "mcp_settings.json")]
    found += [
        KnownConfig("Claude Code (project)", cwd / ".mcp.json"),
        KnownConfig("Cursor (project)", cwd / ".cursor" / "mcp.json"),
        KnownConfig("VS Code (workspace)", cwd / ".vscode" / "mcp.json"),
        KnownConfig("Gemini CLI (project)", cwd / ".gemini" / "settings.json"),
        KnownConfig("Amazon Q Developer (project)", cwd / ".amazonq" / "mcp.json"),
        KnownConfig("Kiro (project)", cwd / ".kiro" / "settings" / "mcp.json"),
        KnownConfig("Roo Code (project)", cwd / ".roo" / "mcp.json"),
        KnownConfig("Codex (project)", cwd / ".codex" / "config.toml"),
    ]
    return found


def discover(home: Path | None = None, cwd: Path | None = None, platform: str = sys.platform,
             env: Mapping[str, str] | None = None) -> list[KnownConfig]:
    """The client configurations that exist here, each file once (the first client named for it)."""
    home = Path.home() if home is None else home
    cwd = Path.cwd() if cwd is None else cwd
    seen: set[Path] = set()
    out: list[KnownConfig] = []
    for known in candidates(home, cwd, platform, env):
        try:
            if not known.path.is_file():
                continue
            real = known.path.resolve()
        except OSError:
            continue
        if real not in seen:
            seen.add(real)
            out.append(known)
    return out


__all__ = ["KnownConfig", "candidates", "discover"]
