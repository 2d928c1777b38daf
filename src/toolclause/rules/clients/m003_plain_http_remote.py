"""plain-http-remote (M003)

## What it does
Finds a remote server reached over plain `http://` on a host other than this
machine: a server's `url` (`serverUrl` in Windsurf, `httpUrl` in Gemini CLI),
or a URL handed to a bridge such as `mcp-remote` in its arguments.  Loopback
addresses (`localhost`, `127.0.0.1`, `[::1]`, `*.localhost`) are left alone:
their traffic never leaves the machine.  The message names the host only,
never the path or query (they may carry a key).

## Why is this bad?
Everything the client and server say crosses the network in clear: the tool
results, the arguments the model sends, and the `Authorization` header or
token that comes with every request.  Anyone on the path (a café's Wi-Fi, a
proxy) can read them, or change the tool descriptions the model obeys.

## Example
```json
{"mcpServers": {"tickets": {"type": "http", "url": "http://mcp.example.com/mcp"}}}
```

## Use instead
```json
{"mcpServers": {"tickets": {"type": "http", "url": "https://mcp.example.com/mcp"}}}
```

## Fix safety
No fix: whether the server answers over https is for its owner to make sure.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator
from urllib.parse import urlsplit

from ...loading.client_configs import ClientConfig
from ...model import Severity
from ..base import Finding
from ._launch import Launch, ServerRule

_THIS_MACHINE = frozenset({"localhost", "host.docker.internal", "0.0.0.0"})


def is_loopback(host: str) -> bool:
    host = host.strip("[]").lower().rstrip(".")
    if host in _THIS_MACHINE or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def plain_http_host(url: str) -> str | None:
    """The host of an `http://` URL that leaves this machine, or None."""
    try:
        parts = urlsplit(url.strip())
        host = parts.hostname
    except ValueError:
        return None
    if parts.scheme.lower() != "http" or not host or "${" in url[:url.find(host)] or is_loopback(host):
        return None
    return host


class PlainHttpRemote(ServerRule):
    code = "M003"
    name = "plain-http-remote"
    severity = Severity.WARNING
    tags = ("MCP01:2025", "MCP07:2025")  # OWASP MCP Top 10 (see rules/owasp.py)

    def check_server(self, run: Launch, config: ClientConfig) -> Iterator[Finding]:
        for part in [*run.urls, *(p for p in run.argv[1:] if p.value.lower().startswith("http://"))]:
            host = plain_http_host(part.value)
            if host is not None:
                yield Finding(part.pointer, f"server '{run.server}' is reached over plain http:// at {host[:100]}: "
                                            f"tool results, arguments and any credential sent with them cross the "
                                            f"network unencrypted, and the tool descriptions can be changed on the "
                                            f"way; use https://")
