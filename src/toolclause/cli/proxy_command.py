"""`toolclause proxy --server CMD | --url URL [--transport stdio|http] [--store URL]`: the gate in front of any
MCP server (toolclause.mcp.proxy).  The client talks to the proxy as it would to the server."""

from __future__ import annotations

import click

from .serve_command import ServeError
from .snapshot_command import _headers  # the one 'Name: value' parser, as lint and snapshot use it


@click.command("proxy")
@click.option("--server", metavar="CMD", help="Start CMD (quoted, with its arguments) as the upstream stdio server.")
@click.option("--url", metavar="URL", help="The upstream server over Streamable HTTP.")
@click.option("--header", "headers", multiple=True, callback=_headers, metavar="'NAME: VALUE'",
              help="--url: send this HTTP header upstream with every request (repeatable).")
@click.option("--transport", type=click.Choice(["stdio", "http"]), default="stdio", show_default=True,
              help="How clients reach the proxy.")
@click.option("--host", default="127.0.0.1", show_default=True, help="http: the address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="http: the port.")
@click.option("--path", "http_path", default="/mcp", show_default=True, help="http: the endpoint's path.")
@click.option("--store", metavar="URL", help="Where idempotency records live [default: TOOLCLAUSE_STORE, else "
                                             "sqlite:///.toolclause/state.db].")
def proxy(server: str | None, url: str | None, headers: tuple[tuple[str, str], ...], transport: str, host: str,
          port: int, http_path: str, store: str | None) -> None:
    """Serve an MCP server's tools through the gate: validated arguments, checked results, one run per key."""
    if (server is None) == (url is None):
        raise click.UsageError("give --server CMD or --url URL (one of them)")
    if headers and url is None:
        raise click.UsageError("--header goes with --url (HTTP headers for the upstream server)")
    import anyio

    from ..mcp.proxy import build_proxy, upstream
    from ..mcp.serving import serve_http, serve_stdio
    from ..runtime import ToolboxConfigError

    label = f"server '{server}'" if server is not None else f"server {url}"

    async def run() -> None:
        try:
            connection = upstream(server, url, dict(headers))
            session = await connection.__aenter__()
        except Exception as exc:  # noqa: BLE001 - one line naming the upstream, not a traceback
            raise ServeError(f"{label} could not be reached: {_innermost(exc)}") from None
        try:
            proxied, skipped = await build_proxy(session, store, label)
            for line in skipped:
                click.echo(f"toolclause: proxy: not proxied: {line}", err=True)
            summary = f"{len(proxied.tools)} tool(s) of {label}, {len(proxied.keys)} keyed"
            if transport == "stdio":
                click.echo(f"toolclause: proxy: over stdio: {summary}", err=True)
                await serve_stdio(proxied)
            else:
                def ready(where: str) -> None:
                    click.echo(f"toolclause: proxy: at {where} (Streamable HTTP): {summary}", err=True)

                await serve_http(proxied, host, port, http_path, ready)
            proxied.toolbox.close()
        finally:
            await connection.__aexit__(None, None, None)

    try:
        anyio.run(run)
    except ToolboxConfigError as exc:
        raise ServeError(f"--store: {exc}") from None
    except OSError as exc:
        raise ServeError(f"--host {host} --port {port}: cannot listen: {exc.strerror or exc}") from None


def _innermost(exc: BaseException) -> str:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return f"{type(exc).__name__}: {exc}"[:300]


__all__ = ["proxy"]
