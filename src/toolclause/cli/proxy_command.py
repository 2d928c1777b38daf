"""`toolclause proxy --server CMD | --url URL [--transport stdio|http] [--store URL]`: the gate in front of any
MCP server (toolclause.mcp.proxy).  The client talks to the proxy as it would to the server.

Exit codes: 0 when the client disconnected (stdio) or on SIGINT/SIGTERM (http); 2 when the proxy cannot
start (bad options, the server cannot be started or reached, the port cannot be bound); 3 when a stdio
server kept stopping and was restarted as often as `--max-restarts` allows.  One line on standard error.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from .serve_command import ServeError
from .snapshot_command import _headers  # the one 'Name: value' parser, as lint and snapshot use it

MIB = 1024 * 1024


class UpstreamGoneError(ServeError):
    """The upstream server kept stopping: one line, exit 3."""

    exit_code = 3


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
@click.option("--timeout", type=click.FloatRange(min=0.1), default=300.0, show_default=True, metavar="SECONDS",
              help="How long a call waits for the server's answer; after that a call that changes state is "
                   "OUTCOME_UNKNOWN (kept under its key).")
@click.option("--max-answer-bytes", type=click.IntRange(min=1024), default=16 * MIB, show_default=True,
              metavar="BYTES", help="The largest answer taken from the server; a larger one is dropped unread "
                                    "(UPSTREAM_ANSWER_TOO_LARGE).")
@click.option("--max-restarts", type=click.IntRange(min=0), default=5, show_default=True, metavar="N",
              help="--server: restart a server that stopped at most N times within 60 s (waiting 0.5 s, 1 s, "
                   "2 s … before each); one more stop and the proxy exits (code 3).")
def proxy(server: str | None, url: str | None, headers: tuple[tuple[str, str], ...], transport: str, host: str,
          port: int, http_path: str, store: str | None, timeout: float, max_answer_bytes: int,
          max_restarts: int) -> None:
    """Serve an MCP server's tools through the gate: validated arguments, checked results, one run per key."""
    from .server_logs import log_to_stderr

    log_to_stderr()
    if (server is None) == (url is None):
        raise click.UsageError("give --server CMD or --url URL (one of them)")
    if headers and url is None:
        raise click.UsageError("--header goes with --url (HTTP headers for the upstream server)")
    import anyio

    from ..mcp.proxy import Upstream, UpstreamError, UpstreamGone, build_proxy
    from ..mcp.serving import serve_http, serve_stdio
    from ..runtime import ToolboxConfigError

    try:
        upstream = Upstream(server, url, dict(headers), max_answer_bytes=max_answer_bytes,
                            max_restarts=max_restarts, timeout=timeout)
    except UpstreamError as exc:
        raise ServeError(str(exc)) from None

    boxes: list[Any] = []

    async def supervise(*, task_status: Any = anyio.TASK_STATUS_IGNORED) -> None:
        try:
            await upstream.run(task_status=task_status)
        except UpstreamGone as exc:
            if transport != "stdio":
                raise
            # the SDK reads the client's standard input in a worker thread that no cancellation stops,
            # so the proxy could not end until the client wrote again: say why, and leave at once
            for box in boxes:
                box.close()
            click.echo(f"toolclause: error: {exc}", err=True)
            sys.stderr.flush()
            os._exit(UpstreamGoneError.exit_code)

    async def run() -> None:
        async with anyio.create_task_group() as tg:
            try:
                await tg.start(supervise)
            except UpstreamError as exc:
                raise ServeError(str(exc)) from None
            try:
                proxied, skipped = await build_proxy(upstream, store)
            except ToolboxConfigError:
                raise
            except Exception as exc:  # noqa: BLE001 - one line naming the upstream, not a traceback
                raise ServeError(f"{upstream.label}: its tools could not be listed: {_innermost(exc)}") from None
            boxes.append(proxied.toolbox)
            for line in skipped:
                click.echo(f"toolclause: proxy: not proxied: {line}", err=True)
            summary = f"{len(proxied.tools)} tool(s) of {upstream.label}, {len(proxied.keys)} keyed"

            async def serve() -> None:
                try:
                    if transport == "stdio":
                        click.echo(f"toolclause: proxy: over stdio: {summary}", err=True)
                        await serve_stdio(proxied)
                    else:
                        def ready(where: str) -> None:
                            click.echo(f"toolclause: proxy: at {where} (Streamable HTTP): {summary}", err=True)

                        await serve_http(proxied, host, port, http_path, ready)
                finally:
                    proxied.toolbox.close()
                    tg.cancel_scope.cancel()  # the client is gone: so is the upstream connection

            tg.start_soon(serve)

    try:
        anyio.run(run)
    except BaseExceptionGroup as group:
        found = _first(group)
        if isinstance(found, UpstreamGone):
            raise UpstreamGoneError(str(found)) from None
        if isinstance(found, ServeError | ToolboxConfigError | OSError):
            _fail(found, host, port)
        raise
    except (ServeError, ToolboxConfigError, OSError) as exc:
        _fail(exc, host, port)


def _first(group: BaseException) -> BaseException:
    while isinstance(group, BaseExceptionGroup) and group.exceptions:
        group = group.exceptions[0]
    return group


def _fail(exc: BaseException, host: str, port: int) -> None:
    from ..runtime import ToolboxConfigError

    if isinstance(exc, ServeError):
        raise exc
    if isinstance(exc, ToolboxConfigError):
        raise ServeError(f"--store: {exc}") from None
    assert isinstance(exc, OSError)
    raise ServeError(f"--host {host} --port {port}: cannot listen: {exc.strerror or exc}") from None


def _innermost(exc: BaseException) -> str:
    exc = _first(exc)
    return f"{type(exc).__name__}: {exc}"[:300]


__all__ = ["proxy"]
