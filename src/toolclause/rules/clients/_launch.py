"""What one server entry of a client configuration starts or reaches, with the pointer of every part.

The clients spell the same things differently: `command` + `args` (everyone; Zed once nested them
under `command: {path, args, env}`), a whole command line in `command` alone, `env` (`environment`
in some), `headers` (`http_headers` in Codex), `url` / `serverUrl` (Windsurf) / `httpUrl` (Gemini
CLI), Codex's `bearer_token`.  The M rules read this one shape instead.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...loading.client_configs import ClientConfig, ServerEntry
from ...model import join_pointer
from ..base import Finding, LintContext, Rule

MAX_PARTS = 500  # arguments, variables or headers read per entry: no real server has more


@dataclass(frozen=True)
class Part:
    """A string value of the entry and its pointer in the document."""

    pointer: str
    value: str


@dataclass
class Launch:
    server: str
    argv: list[Part] = field(default_factory=list)  # the command, then its arguments
    env: list[tuple[str, Part]] = field(default_factory=list)
    headers: list[tuple[str, Part]] = field(default_factory=list)
    urls: list[Part] = field(default_factory=list)
    tokens: list[Part] = field(default_factory=list)  # fields that hold a credential whatever their value


def _strings(value: Any, pointer: str) -> list[Part]:
    if isinstance(value, str):
        return [Part(pointer, value)]
    if isinstance(value, list):
        return [Part(join_pointer(pointer, i), str(v)) for i, v in enumerate(value[:MAX_PARTS])
                if isinstance(v, (str, int, float)) and not isinstance(v, bool)]
    return []


def _table(value: Any, pointer: str) -> list[tuple[str, Part]]:
    if not isinstance(value, Mapping):
        return []
    return [(str(k), Part(join_pointer(pointer, k), v)) for k, v in list(value.items())[:MAX_PARTS]
            if isinstance(v, str)]


def _split(part: Part) -> list[Part]:
    """A whole command line written in `command`: its words, each pointing at `command`."""
    try:
        words = shlex.split(part.value)
    except ValueError:
        words = part.value.split()
    return [Part(part.pointer, word) for word in words[:MAX_PARTS]]


def launch(server: ServerEntry) -> Launch:
    entry, base = server.entry, server.pointer
    found = Launch(server.name)
    command: Any = entry.get("command")
    command_base = base
    if isinstance(command, Mapping):  # Zed's earlier shape: "command": {"path", "args", "env"}
        command_base = join_pointer(base, "command")
        found.env += _table(command.get("env"), join_pointer(command_base, "env"))
        args = command.get("args")
        command = command.get("path")
    else:
        args = entry.get("args")
    if isinstance(command, str) and command.strip():
        head = Part(join_pointer(command_base, "command" if command_base == base else "path"), command)
        # a whole command line in `command` ("npx -y pkg") is split as a shell would; with `args` beside it,
        # `command` is one program, spaces and all ("C:\\Program Files\\nodejs\\npx.cmd")
        whole_line = args is None and any(c.isspace() for c in command.strip())
        found.argv = _split(head) if whole_line else [head]
    elif isinstance(command, list):  # a command written as a list (opencode's shape)
        found.argv = _strings(command, join_pointer(base, "command"))
    if isinstance(args, str):
        found.argv += _split(Part(join_pointer(command_base, "args"), args))
    else:
        found.argv += _strings(args, join_pointer(command_base, "args"))
    for key in ("env", "environment"):
        found.env += _table(entry.get(key), join_pointer(base, key))
    for key in ("headers", "http_headers"):
        found.headers += _table(entry.get(key), join_pointer(base, key))
    for key in ("url", "serverUrl", "httpUrl"):
        if isinstance(entry.get(key), str):
            found.urls.append(Part(join_pointer(base, key), entry[key]))
    if isinstance(entry.get("bearer_token"), str):
        found.tokens.append(Part(join_pointer(base, "bearer_token"), entry["bearer_token"]))
    return found


def program(word: str) -> str:
    """The program a command word names, lower-cased, without its folder and Windows suffix (`C:\\…\\npx.cmd` → npx)."""
    name = word.replace("\\", "/").rsplit("/", 1)[-1].lower()
    for suffix in (".exe", ".cmd", ".bat", ".ps1"):
        name = name.removesuffix(suffix)
    return name


class ServerRule(Rule):
    """A client-config rule that judges each configured server alone, from what it starts or reaches."""

    client_config = True

    def check_config(self, config: ClientConfig, ctx: LintContext) -> Iterator[Finding]:
        for server in config.servers:
            yield from self.check_server(launch(server), config)

    def check_server(self, run: Launch, config: ClientConfig) -> Iterable[Finding]:
        return ()


__all__ = ["MAX_PARTS", "Launch", "Part", "ServerRule", "launch", "program"]
