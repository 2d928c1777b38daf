"""`toolclause snapshot --server CMD | --url URL | --mcp-config FILE[#NAME] -o FILE`: a live server's
listing, saved as a file.

The file is the server snapshot `lint` reads (tools, resources and templates), so a
repository can commit it and CI can compare the running server against it with
`toolclause diff snapshot.json server:CMD` — the lock-file workflow.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

SERVER_PREFIX, URL_PREFIX = "server:", "url:"


class SnapshotError(click.ClickException):
    """One line on stderr, exit 2 (a server that cannot be listed, a file that cannot be written)."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"toolclause: error: {self.format_message()}", err=True)


def take_snapshot(server: str | None, url: str | None, headers: tuple[tuple[str, str], ...] = (),
                  timeout: float = 30.0) -> dict[str, Any]:
    """The snapshot document of a server started with `server` or reached at `url`; LiveServerError if it fails."""
    from ..mcp.live import snapshot_server, snapshot_url  # the SDK is imported only for live servers

    if server is not None:
        return snapshot_server(server, timeout)
    return snapshot_url(str(url), timeout, dict(headers))


def live_side(side: str) -> dict[str, Any] | None:
    """The snapshot a diff side names as `server:CMD` or `url:URL`; None for any other side."""
    if side.startswith(SERVER_PREFIX):
        return take_snapshot(side[len(SERVER_PREFIX):], None)
    if side.startswith(URL_PREFIX):
        return take_snapshot(None, side[len(URL_PREFIX):])
    return None


def _headers(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    from .main import _http_headers  # the one parser of 'Name: value', shared with lint

    return _http_headers(ctx, param, values)


@click.command("snapshot")
@click.option("--server", metavar="CMD", help="Start CMD (quoted, with its arguments) as a stdio MCP server.")
@click.option("--url", metavar="URL", help="A running MCP server over Streamable HTTP (e.g. http://localhost:8000/mcp).")
@click.option("--header", "headers", multiple=True, callback=_headers, metavar="'NAME: VALUE'",
              help="--url: send this HTTP header with every request (repeatable).")
@click.option("--mcp-config", "mcp_config", metavar="FILE[#NAME]",
              help="A server an MCP client configuration lists (Claude Desktop, Cursor, VS Code); #NAME picks "
                   "one when the file lists several.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=30.0, show_default=True,
              metavar="SECONDS", help="How long the server may take to start and list everything.")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The file to write (JSON).")
def snapshot(server: str | None, url: str | None, headers: tuple[tuple[str, str], ...], mcp_config: str | None,
             timeout: float, output: Path) -> None:
    """Save a live MCP server's tools, resources and templates to a file that lint and diff read."""
    from ..mcp.live import LiveServerError

    if sum(given is not None for given in (server, url, mcp_config)) != 1:
        raise click.UsageError("give --server CMD, --url URL or --mcp-config FILE[#NAME] (one of them)")
    if headers and url is None:
        raise click.UsageError("--header goes with --url (HTTP headers for a server reached over Streamable HTTP)")
    try:
        if mcp_config is not None:
            from ..loading.mcp_config import CONFIG_PREFIX
            from .configured import configured_side

            document = configured_side(CONFIG_PREFIX + mcp_config, timeout)
        else:
            document = take_snapshot(server, url, headers, timeout)
    except (LiveServerError, ValueError) as exc:
        raise SnapshotError(str(exc)) from None
    try:
        output.write_text(json.dumps(document, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        raise SnapshotError(f"{output}: cannot write: {exc.strerror or exc}") from None
    click.echo(f"toolclause: snapshot: wrote {output} ({_tools(len(document.get('tools', [])))})", err=True)


def _tools(count: int) -> str:
    return f"{count} tool{'' if count == 1 else 's'}"


__all__ = ["SERVER_PREFIX", "URL_PREFIX", "live_side", "snapshot", "take_snapshot"]
