"""`toolclause lsp`: the language server, over stdio (the extra `lsp`: pygls and lsprotocol)."""

from __future__ import annotations

import click


@click.command("lsp")
def lsp() -> None:
    """Run the language server over stdio: findings in the editor as you type, with quick fixes."""
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
    except ImportError:
        from .main import CommandError

        raise CommandError("the language server needs the lsp extra: pip install 'toolclause[lsp]'") from None
    from ..lsp.server import main

    main()
