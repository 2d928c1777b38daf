"""literal-credential (M001)

## What it does
Finds a credential written out in an MCP client configuration: an API key,
token or password as the value of a server's `env` variable, an HTTP header
(`Authorization`, `X-API-Key`), a command-line argument (`--api-key=…`,
`--header "Authorization: Bearer …"`, `-e TOKEN=…`), Codex's `bearer_token`,
or inside a URL (`https://user:password@host`, `?api_key=…`).  A value counts
when it has the shape of a known token (`ghp_…`, `sk-…`, `AKIA…`, `xoxb-…`)
whatever it is called, or when its name says it is a credential and the value
looks like one.  References the client fills in (`${env:TOKEN}`, `${TOKEN}`,
`$TOKEN`, `${input:token}`) and placeholders copied from a README
(`<YOUR_TOKEN>`, `your-api-key-here`) are not reported.  The message names
where the credential is and what it looks like, never the value.

## Why is this bad?
These files are backed up, synced, shared in screenshots and committed with
dotfiles, and every server the client starts can read the whole environment
it is given.  A credential in one is readable by anyone who gets the file,
and it never expires on its own.

## Example
```json
{"mcpServers": {"github": {"command": "npx",
  "args": ["-y", "@modelcontextprotocol/server-github@2025.4.8"],
  "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_R4nd0mL00k1ngT0k3nV4lue0123456789AB"}}}}
```

## Use instead
```json
{"mcpServers": {"github": {"command": "npx",
  "args": ["-y", "@modelcontextprotocol/server-github@2025.4.8"],
  "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "${env:GITHUB_TOKEN}"}}}}
```

## Fix safety
No fix: the credential must be moved out of the file (and, once exposed,
revoked) by its owner.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import parse_qsl, urlsplit

from ...loading.client_configs import ClientConfig
from ...model import Severity
from ..base import Finding
from ._launch import Launch, Part, ServerRule
from ._secrets import credential_name, literal_credential, token_shape

_HEADER_FLAGS = frozenset({"--header", "-h", "--headers"})
_AUTH_HEADERS = frozenset({"authorization", "proxy-authorization"})


def _header(name: str, value: str) -> str | None:
    return literal_credential(value, name.strip().lower() in _AUTH_HEADERS or credential_name(name))


def url_credential(url: str) -> tuple[str, str] | None:
    """(where in the URL, why) for a credential written into a URL, or None."""
    try:
        parts = urlsplit(url.strip())
        password, user = parts.password, parts.username
        query = parse_qsl(parts.query, keep_blank_values=True)
    except ValueError:
        return None
    if password:
        why = literal_credential(password, True)
        if why:
            return "the URL's user information (a password)", why
    if user and token_shape(user):
        return "the URL's user information", f"shaped like {token_shape(user)}"
    for name, value in query[:100]:
        why = literal_credential(value, credential_name(name))
        if why:
            return f"the URL's query parameter {name!r}", why
    return None


def _in_args(args: list[Part]) -> Iterator[tuple[Part, str, str]]:
    """(the argument, where, why) for each credential written into a command line."""
    flag: str | None = None
    for part in args:
        value = part.value
        found: tuple[str, str | None] | None = None
        if flag is not None and flag.lower() in _HEADER_FLAGS:
            name, colon, rest = value.partition(":")
            found = (f"the header {name.strip()!r} in the arguments", _header(name, rest) if colon else None)
        elif flag is not None and credential_name(flag):
            found = (f"the argument after {flag}", literal_credential(value, True))
        elif value.startswith("-") and "=" in value:
            name, _, rest = value.partition("=")
            found = (f"the argument {name}=…", literal_credential(rest, credential_name(name)))
        elif "://" in value:
            in_url = url_credential(value)
            if in_url:
                found = (f"{in_url[0]} of a URL argument", in_url[1])
        elif "=" in value and not value.startswith("-"):  # KEY=value, as `env` and `docker run -e` take it
            name, _, rest = value.partition("=")
            found = (f"the argument {name}=…", literal_credential(rest, credential_name(name)))
        else:
            shape = token_shape(value)
            found = ("an argument", f"shaped like {shape}" if shape else None)
        if found is not None and found[1]:
            yield part, found[0], found[1]
        flag = value if value.startswith("-") and "=" not in value else None


class LiteralCredential(ServerRule):
    code = "M001"
    name = "literal-credential"
    severity = Severity.ERROR
    tags = ("MCP01:2025",)  # OWASP MCP Top 10 (see rules/owasp.py)

    def check_server(self, run: Launch, config: ClientConfig) -> Iterator[Finding]:
        seen: set[str] = set()
        found: list[tuple[Part, str, str]] = []
        for name, part in run.env:
            why = literal_credential(part.value, credential_name(name))
            if why:
                found.append((part, f"the variable {name}", why))
        for name, part in run.headers:
            why = _header(name, part.value)
            if why:
                found.append((part, f"the header {name!r}", why))
        for part in run.tokens:
            why = literal_credential(part.value, True)
            if why:
                found.append((part, "bearer_token", why))
        found.extend(_in_args(run.argv[1:]))
        for part in run.urls:
            in_url = url_credential(part.value)
            if in_url:
                found.append((part, in_url[0], in_url[1]))
        instead = ("name the variable that holds it (env_vars, bearer_token_env_var, env_http_headers)"
                   if config.format == "toml" else "reference an environment variable instead (\"${env:NAME}\" or "
                                         "\"${NAME}\", as the client takes it)")
        for part, where, why in found:
            if part.pointer in seen:
                continue
            seen.add(part.pointer)
            yield Finding(part.pointer, f"server '{run.server}': {where} holds a credential written out ({why}); "
                                        f"anyone who can read this file can "
                                        f"use it: {instead}, and revoke the one written here")
