"""`toolclause serve TARGET [--transport stdio|http] [--host H] [--port P] …`: a Toolbox as an MCP server.

TARGET names a `Toolbox` (or a server made with `box.mcp_server(...)`) as `path/to/app.py:box` or
`package.module:box`.  Before it starts, the server is linted as a client would list it; findings
at error level refuse the start (exit 1, each one named) unless `--allow-lint-errors`.  Over stdio
nothing but the protocol goes to standard output; what the command says goes to standard error.
"""

from __future__ import annotations

from typing import Any

import click

from .._http_limits import MAX_SESSIONS, READ_TIMEOUT, SESSION_IDLE


class ServeError(click.ClickException):
    """One line on stderr, exit 2 (a TARGET that cannot be imported, a port that cannot be bound)."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"toolclause: error: {self.format_message()}", err=True)


def load_server(target: str, route_k: int | None = None) -> Any:
    """The ToolboxServer that TARGET names (a Toolbox is wrapped in one, routed when `route_k` is given)."""
    from ..mcp.serving import ToolboxServer, build_server
    from ..mcp.target import TargetError, load_object
    from ..runtime import Toolbox

    try:
        found = load_object(target)
    except TargetError as exc:
        raise ServeError(str(exc)) from None
    if isinstance(found, ToolboxServer):
        if route_k is not None and found.route_k != route_k:
            raise ServeError(f"{target}: names a server made with box.mcp_server(); give it route_k={route_k} "
                             f"there, or name the Toolbox itself with --route-k")
        return found
    if isinstance(found, Toolbox):
        try:
            return build_server(found, route_k=route_k)
        except ValueError as exc:
            raise ServeError(f"{target}: {exc}") from None
    raise ServeError(f"{target}: names a {type(found).__name__}, not a toolclause Toolbox "
                     f"(or a server made with box.mcp_server())")


@click.command("serve")
@click.argument("target")
@click.option("--transport", type=click.Choice(["stdio", "http"]), default="stdio", show_default=True,
              help="stdio for a host that starts the server; http for Streamable HTTP.")
@click.option("--host", default="127.0.0.1", show_default=True, help="http: the address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="http: the port (0 picks a free one and prints it).")
@click.option("--path", "http_path", default="/mcp", show_default=True, help="http: the endpoint's path.")
@click.option("--stateless", is_flag=True,
              help="http: no session between requests, so any replica behind a load balancer can answer any one.")
@click.option("--store", metavar="URL", help="Where idempotency records live, for a Toolbox that names no store "
                                             "(sets TOOLCLAUSE_STORE before TARGET is imported).")
@click.option("--route-k", type=click.IntRange(min=1), metavar="K",
              help="List one tool, find_tools; once called with the user's request, each session lists it and "
                   "the K tools that fit (tools/list_changed tells the client).")
@click.option("--read-timeout", type=click.FloatRange(min=0, min_open=True, max=3600), metavar="SECONDS",
              default=READ_TIMEOUT, show_default=True,
              help="http: the time a connection has to send a whole request (headers and body), from its opening "
                   "or from the request's first byte; a slower one is closed.")
@click.option("--max-sessions", type=click.IntRange(min=1), metavar="N",
              help=f"http: the most sessions kept at once; at the cap the session idle longest ends to admit a new "
                   f"client.  [default: {MAX_SESSIONS}]")
@click.option("--session-idle", type=click.FloatRange(min=0, min_open=True, max=7 * 86400), metavar="SECONDS",
              help=f"http: a session without a request (and no open stream) for this long ends.  "
                   f"[default: {SESSION_IDLE:g}]")
@click.option("--allow-lint-errors", is_flag=True, help="Start even if the tools fail lint at error level.")
@click.option("--tokens", metavar="FILE", help="http: bearer tokens every request must carry, one 'IDENTITY TOKEN' a "
                                               "line; the identity scopes the idempotency keys.")
@click.option("--token-verifier", metavar="MODULE:FUNCTION",
              help="http: a function token -> identity (None refuses) that checks every request's bearer token.")
def serve(target: str, transport: str, host: str, port: int, http_path: str, stateless: bool, store: str | None,
          route_k: int | None, read_timeout: float, max_sessions: int | None, session_idle: float | None,
          allow_lint_errors: bool, tokens: str | None, token_verifier: str | None) -> None:
    """Serve the tools of a Python Toolbox (TARGET: path/app.py:box or package.module:box) over MCP."""
    from .server_logs import log_to_stderr

    log_to_stderr()
    import os

    import anyio

    from ..mcp.serving import lint_served, serve_http, serve_stdio
    from ..model import Severity

    if not http_path.startswith("/"):
        raise click.BadParameter("the path starts with /", param_hint="--path")
    if route_k is not None and stateless:
        raise click.UsageError("--route-k keeps each session's list of tools; it cannot go with --stateless")
    if stateless and (max_sessions is not None or session_idle is not None):
        raise click.UsageError("--max-sessions and --session-idle limit sessions; --stateless keeps none")
    if store is not None:
        os.environ["TOOLCLAUSE_STORE"] = store  # a host that starts the server may run it from any folder
    verifier = _verifier(transport, tokens, token_verifier)
    server = load_server(target, route_k)
    try:
        findings = lint_served(server)
        errors = [d for d in findings if d.severity >= Severity.ERROR]
        if errors and not allow_lint_errors:
            for d in errors:
                click.echo(f"  {d.code} {d.tool or 'server'}: {d.message} (at {d.pointer or '/'})", err=True)
            click.echo(f"toolclause: serve: refused to start: {len(errors)} lint error(s) in the tools (listed "
                       f"above); fix them, or start anyway with --allow-lint-errors", err=True)
            click.get_current_context().exit(1)
        warnings = sum(1 for d in findings if d.severity == Severity.WARNING)
        routed = f" (routed: find_tools, then {server.route_k} per request)" if server.route_k else ""
        summary = (f"{len(server.tools)} tool(s){routed}, {len(server.widgets)} widget(s); lint: {len(errors)} "
                   f"error(s), {warnings} warning(s)")
        if transport == "stdio":
            click.echo(f"toolclause: serve: {target} over stdio: {summary}", err=True)
            anyio.run(serve_stdio, server)
            return

        def ready(url: str) -> None:
            click.echo(f"toolclause: serve: {target} at {url} (Streamable HTTP): {summary}", err=True)

        try:
            anyio.run(lambda: serve_http(server, host, port, http_path, ready, stateless, verifier,
                                         read_timeout=read_timeout, max_sessions=max_sessions or MAX_SESSIONS,
                                         session_idle=session_idle or SESSION_IDLE))
        except OSError as exc:
            raise ServeError(f"--host {host} --port {port}: cannot listen: {exc.strerror or exc}") from None
    finally:
        server.toolbox.close()


def _verifier(transport: str, tokens: str | None, function: str | None) -> Any:
    """The token verifier --tokens or --token-verifier asks for (None: the calls are scoped by their credential)."""
    from ..mcp.principals import TokenFileError, verifier_from_options

    if (tokens is not None or function is not None) and transport != "http":
        raise click.UsageError("--tokens and --token-verifier check HTTP requests; use them with --transport http")
    try:
        return verifier_from_options(tokens, function)
    except TokenFileError as exc:
        raise ServeError(str(exc)) from None


__all__ = ["load_server", "serve"]
