"""`toolclause playground [PATH] [--port P]`: the local web page — paste, lint, fix, export, diff.

Everything it needs (Starlette, uvicorn, the linter) is imported when it runs,
so `toolclause --help` pays nothing for it.
"""

from __future__ import annotations

import webbrowser
from pathlib import Path
from typing import Any

import click


class PlaygroundError(click.ClickException):
    """One line on stderr, exit 2 (a port in use, a PATH that does not exist)."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"toolclause: error: {self.format_message()}", err=True)


@click.command("playground")
@click.argument("path", required=False, type=click.Path(exists=True, path_type=Path))
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="The port on 127.0.0.1 to serve on (0: any free port).")
@click.option("--open/--no-open", "open_browser", default=False, show_default=True,
              help="Open the page in the default browser.")
def playground(path: Path | None, port: int, open_browser: bool) -> None:
    """A local web page to paste, lint, fix, export and diff tool definitions (nothing leaves this machine).

    Opened on PATH (a folder or a file) it lists those tool files and writes a fix back only when you
    press Save.
    """
    from ..web.server import bind, serve, url_of

    try:
        sock = bind(port)
    except OSError as exc:
        raise PlaygroundError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc} "
                              f"(choose another with --port, or --port 0 for any free one)") from None
    url = url_of(sock)
    where = f" on {path}" if path is not None else ""
    click.echo(f"toolclause: playground{where} at {url} (Ctrl-C stops it)", err=True)
    if open_browser:
        webbrowser.open(url)
    try:
        serve(sock, path)
    finally:
        sock.close()


__all__ = ["playground"]
