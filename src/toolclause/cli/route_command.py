"""`toolclause route TOOLS "request"`: the few tools that fit a request, best first, or none."""

from __future__ import annotations

import json
from typing import Any

import click


class RouteError(click.ClickException):
    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"toolclause: error: {self.format_message()}", err=True)


@click.command("route")
@click.argument("tools")
@click.argument("request")
@click.option("-k", "k", type=click.IntRange(min=1, max=1000), default=8, show_default=True,
              help="How many tools at most.")
@click.option("--min-score", type=click.FloatRange(min=0), default=0.0, show_default=True,
              help="Route to nothing when the best tool scores below this.")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
def route(tools: str, request: str, k: int, min_score: float, output_format: str) -> None:
    """Rank the tools in TOOLS (a file or folder of contracts) for REQUEST; print `none` when nothing fits."""
    from ..loading import load_paths
    from ..routing import Router

    loaded = load_paths([tools])
    if not loaded.tools:
        problem = loaded.unreadable[0].message if loaded.unreadable else "no tool definitions found"
        raise RouteError(f"{tools}: {problem}")
    router = Router(loaded.tools, min_score=min_score)
    scores = router.scores(request)
    chosen = router.select(request, k)
    if output_format == "json":
        by_name = {m.name: m.score for m in scores}
        click.echo(json.dumps({"request": request, "tools": [{"name": n, "score": round(by_name[n], 4)}
                                                             for n in chosen]}, ensure_ascii=False))
    elif not chosen:
        click.echo("none")
    else:
        for name in chosen:
            click.echo(name)


__all__ = ["route"]
