"""shell-wrapper (M004)

## What it does
Finds a server started through a shell: `sh -c`, `bash -c` (`-lc` too),
`zsh -c`, `cmd /c`, `powershell -Command` (and `pwsh`, `-EncodedCommand`),
and a script downloaded and piped into an interpreter (`curl … | sh`,
`wget -O- … | bash`, `irm … | iex`).  Piping a download is reported wherever
it appears in the command line.  `cmd /c` followed by a single program and its
arguments, as Claude Code's documentation asks for `npx` on native Windows, is
reported at info; with shell operators (`&&`, `|`, `>`) it is a warning.

## Why is this bad?
The client no longer starts a program with arguments: it hands a string to a
shell, which expands variables, globs and quotes in it, so what runs is hard
to see and easy to change by editing one string.  A piped download runs
whatever the address serves at that moment, with the user's rights and the
server's credentials, without a version to review.

## Example
```json
{"mcpServers": {"tools": {"command": "bash",
  "args": ["-c", "curl -fsSL https://get.example.com/install.sh | sh && example-mcp --stdio"]}}}
```

## Use instead
```json
{"mcpServers": {"tools": {"command": "example-mcp", "args": ["--stdio"]}}}
```

## Fix safety
No fix: what the shell string should become is for the user to write.
"""

from __future__ import annotations

from collections.abc import Iterator

from ... import _lazy_re as re
from ...loading.client_configs import ClientConfig
from ...model import Severity
from ..base import Finding
from ._launch import Launch, Part, ServerRule, program

_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "fish", "ash"})
_POWERSHELLS = frozenset({"powershell", "pwsh"})
_SH_COMMAND = re.compile(r"^-[a-z]*c[a-z]*$")  # -c, -lc, -ic, -xc
_PS_COMMAND = frozenset({"-command", "-c", "-encodedcommand", "-enc", "-e", "-ec", "/command", "/c"})
_OPERATORS = re.compile(r"&&|\|\||[|&><^]|%[A-Za-z_]")
_PIPED_DOWNLOAD = re.compile(
    r"(?i)\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod|fetch)\b[^|;&]*\|\s*(?:sudo\s+)?"
    r"(?:sh|bash|zsh|dash|python3?|node|perl|ruby|iex|invoke-expression|powershell|pwsh)\b")


def _wrapper(argv: list[Part]) -> tuple[Part, str, bool] | None:
    """(where, how it is wrapped, is it a plain program after `cmd /c`) when the command line runs a shell string."""
    if not argv:
        return None
    shell = program(argv[0].value)
    rest = argv[1:]
    if shell in _SHELLS:
        for part in rest:
            if _SH_COMMAND.match(part.value):
                return part, f"{shell} {part.value}", False
            if not part.value.startswith("-"):
                break
    elif shell in _POWERSHELLS:
        for part in rest:
            if part.value.lower() in _PS_COMMAND:
                return part, f"{shell} {part.value}", False
    elif shell == "cmd":
        for at, part in enumerate(rest):
            if part.value.lower() in ("/c", "/k"):
                script = " ".join(p.value for p in rest[at + 1:])
                return part, f"cmd {part.value}", not _OPERATORS.search(script)
    return None


class ShellWrapper(ServerRule):
    code = "M004"
    name = "shell-wrapper"
    severity = Severity.WARNING
    tags = ("MCP05:2025", "MCP04:2025")  # OWASP MCP Top 10 (see rules/owasp.py)

    def check_server(self, run: Launch, config: ClientConfig) -> Iterator[Finding]:
        piped = next((p for p in run.argv if _PIPED_DOWNLOAD.search(p.value)), None)
        if piped is None and len(run.argv) > 1 and _PIPED_DOWNLOAD.search(" ".join(p.value for p in run.argv)):
            piped = run.argv[0]
        if piped is not None:
            yield Finding(piped.pointer, f"server '{run.server}' downloads a script and pipes it into an "
                                         f"interpreter: what runs is whatever the address serves at that moment, "
                                         f"with the user's rights and the server's credentials; install a pinned "
                                         f"release and start the program itself with command and args")
            return
        wrapped = _wrapper(run.argv)
        if wrapped is None:
            return
        part, how, plain = wrapped
        if plain:
            yield Finding(part.pointer, f"server '{run.server}' starts through {how}: Windows needs it for npx's "
                                        f".cmd shim, but the line after it is read by cmd.exe, which expands "
                                        f"%VARIABLES% and operators in it; keep it one program and its arguments",
                          severity=Severity.INFO)
        else:
            yield Finding(part.pointer, f"server '{run.server}' starts through a shell ({how}): the client hands the "
                                        f"shell a string whose variables, globs and quotes it expands, so what runs "
                                        f"is hard to see and easy to change; start the program itself with command "
                                        f"and args")
