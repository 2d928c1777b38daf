"""`toolclause fuzz TARGET | --server CMD | --url URL`: throw the mistakes models make at a Toolbox's gate,
or at a live MCP server, and report what got through.

TARGET is `path/to/app.py:box` or `package.module:box`.  A live server is fuzzed through tools/call,
its read-only tools only unless `--dangerously-include-writes`.  Exit: 0 every check held, 1 a check
failed, 2 a TARGET that names no Toolbox, or a server that cannot be started, reached or listed.
"""

from __future__ import annotations

import json
import random
import sys
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from ..workflow.fuzz import FuzzReport

FUZZ_FORMATS = ("text", "json")


class FuzzError(click.ClickException):
    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"toolclause: error: {self.format_message()}", err=True)


def load_target(spec: str) -> Any:
    """The object `path/app.py:box` or `package.module:box` names; FuzzError (one line) when it names nothing."""
    from ..mcp.target import TargetError, load_object  # the one TARGET loader, shared with serve, lint and export

    try:
        return load_object(spec)
    except TargetError as exc:
        raise FuzzError(str(exc)) from None


def render_text(report: FuzzReport, target: str) -> str:
    from ..workflow.mistakes import KINDS

    kinds = ("valid", *KINDS)
    width = max(len(k) for k in kinds)
    out = [f"toolclause fuzz {target}: {len(report.tools)} tool(s), seed {report.seed}, "
           f"{report.examples} valid example(s) a tool", ""]
    skipped = getattr(report, "skipped", {})
    if skipped:
        out.append(f"not called ({len(skipped)}; --dangerously-include-writes calls them too):")
        out += [f"  {name}: {why}" for name, why in skipped.items()]
        out.append("")
    for tool in report.tools:
        mark = "FAILED" if tool.findings else "ok"
        out.append(f"{tool.tool}  [{mark}]" + (f"  note: {tool.note}" if tool.note else ""))
        for kind in kinds:
            stats = tool.kinds.get(kind)
            if stats is None or not (stats.sent or stats.skipped):
                continue
            line = f"  {kind:<{width}}  {stats.sent:>4} sent"
            line += f", {stats.failed} failed" if stats.failed else (", all held" if stats.sent else "")
            line += f" ({stats.skipped} accepted by the schema itself, not sent)" if stats.skipped else ""
            out.append(line)
        seen: set[tuple[str, str]] = set()
        for finding in tool.findings:
            if (finding.kind, finding.check) in seen:
                continue
            seen.add((finding.kind, finding.check))
            count = sum(1 for f in tool.findings if (f.kind, f.check) == (finding.kind, finding.check))
            out.append(f"    ✗ {finding.kind} / {finding.check}: {finding.message}"
                       + (f" (×{count})" if count > 1 else ""))
            out.append(f"      e.g. {finding.arguments}")
        out.append("")
    totals = report.totals()
    out.append("per mistake kind, all tools:")
    for kind in kinds:
        stats = totals[kind]
        if stats.sent or stats.skipped:
            out.append(f"  {kind:<{width}}  {stats.sent:>5} sent  {stats.failed:>4} failed  "
                       f"{stats.skipped:>4} not sent")
    calls = sum(s.sent for s in totals.values())
    failed_tools = sum(1 for t in report.tools if t.findings)
    out.append("")
    out.append(f"{calls} calls, {len(report.findings)} finding(s) in {failed_tools} of {len(report.tools)} tool(s); "
               f"reproduce with --seed {report.seed} --examples {report.examples}")
    return "\n".join(out) + "\n"


def _headers(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    from .main import _http_headers  # the one parser of 'Name: value', shared with lint

    return _http_headers(ctx, param, values)


@click.command("fuzz")
@click.argument("target", required=False)
@click.option("--server", metavar="CMD", help="Fuzz a live MCP server: start CMD (quoted, with its arguments) and "
                                                "call its tools over stdio.")
@click.option("--url", metavar="URL", help="Fuzz a live MCP server over Streamable HTTP (e.g. http://localhost:8000/mcp).")
@click.option("--header", "headers", multiple=True, callback=_headers, metavar="'NAME: VALUE'",
              help="--url: send this HTTP header with every request (repeatable).")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=30.0, show_default=True,
              metavar="SECONDS", help="--server/--url: how long starting and listing, and each call, may take.")
@click.option("--dangerously-include-writes", "include_writes", is_flag=True,
              help="--server/--url: also call the tools not annotated read-only. They run with made-up "
                   "arguments: orders placed, messages sent, rows deleted. Only against a disposable server.")
@click.option("--examples", type=click.IntRange(min=1, max=10_000), default=25, show_default=True,
              help="Valid argument sets generated per tool (mistakes are made of the first few).")
@click.option("--seed", type=click.IntRange(min=0), help="Reproduce an earlier run [default: a new random seed].")
@click.option("--tool", "tools", multiple=True, metavar="NAME", help="Fuzz only this tool (repeatable).")
@click.option("--format", "output_format", type=click.Choice(FUZZ_FORMATS), default="text", show_default=True)
def fuzz(target: str | None, server: str | None, url: str | None, headers: tuple[tuple[str, str], ...],
         timeout: float, include_writes: bool, examples: int, seed: int | None, tools: tuple[str, ...],
         output_format: str) -> None:
    """Fuzz the gate of the Toolbox TARGET (path/to/app.py:box or package.module:box), or a live MCP server."""
    live = server is not None or url is not None
    if server is not None and url is not None:
        raise click.UsageError("give --server or --url, not both")
    if live and target is not None:
        raise click.UsageError("fuzz either a TARGET or a live server (--server/--url), not both in one run")
    if not live and target is None:
        raise click.UsageError("give a TARGET (path/to/app.py:box) or a live server with --server CMD or --url URL")
    if headers and url is None:
        raise click.UsageError("--header goes with --url (HTTP headers for a server reached over Streamable HTTP)")
    if include_writes and not live:
        raise click.UsageError("--dangerously-include-writes goes with --server/--url (a Toolbox is fuzzed through "
                               "its gate with every tool's function watched)")
    chosen_seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    if live:
        report = _fuzz_live(server, url, headers, timeout, include_writes, examples, chosen_seed, tools)
        shown = f"--server {server}" if server is not None else f"--url {url}"
    else:
        assert target is not None
        report = _fuzz_box(target, examples, chosen_seed, tools)
        shown = target
    if output_format == "json":
        click.echo(json.dumps({**report.to_dict(), "target": shown}, ensure_ascii=False, indent=2))
    else:
        click.echo(render_text(report, shown), nl=False)
    if report.failed:
        click.get_current_context().exit(1)


def _progress_bar() -> Any:
    """A rich progress bar on a terminal's stderr, else None."""
    if not bool(getattr(sys.stderr, "isatty", None) and sys.stderr.isatty()):
        return None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(TextColumn("fuzzing"), BarColumn(), MofNCompleteColumn(), TextColumn("tools {task.description}"),
                    TimeElapsedColumn(), console=Console(stderr=True), transient=True)


def _fuzz_box(target: str, examples: int, seed: int, tools: tuple[str, ...]) -> FuzzReport:
    box = load_target(target)
    from ..runtime import Toolbox
    from ..workflow.fuzz import fuzz_toolbox

    if not isinstance(box, Toolbox):
        raise FuzzError(f"{target} is a {type(box).__name__}, not a toolclause Toolbox")
    unknown = sorted(set(tools) - set(box.names))
    if unknown:
        raise FuzzError(f"{target} has no tool named {', '.join(unknown)} (it has: {', '.join(box.names[:20])})")
    bar = _progress_bar()
    if bar is None:
        return fuzz_toolbox(box, examples=examples, seed=seed, tools=tools or None)
    with bar:
        task = bar.add_task("", total=len(tools or box.names))
        return fuzz_toolbox(box, examples=examples, seed=seed, tools=tools or None,
                            progress=lambda done, total, name: bar.update(task, completed=done, description=name))


def _fuzz_live(server: str | None, url: str | None, headers: tuple[tuple[str, str], ...], timeout: float,
               include_writes: bool, examples: int, seed: int, tools: tuple[str, ...]) -> FuzzReport:
    from ..mcp.fuzzing import fuzz_server
    from ..mcp.live import LiveServerError

    bar = _progress_bar()
    options: dict[str, Any] = dict(headers=dict(headers), examples=examples, seed=seed, tools=tools or None,
                                   include_writes=include_writes, timeout=timeout)
    try:
        if bar is None:
            return fuzz_server(server, url, **options)
        with bar:
            task = bar.add_task("", total=None)
            return fuzz_server(server, url, **options,
                               progress=lambda done, total, name: bar.update(task, completed=done, total=total,
                                                                             description=name))
    except LiveServerError as exc:
        raise FuzzError(str(exc)) from None


__all__ = ["fuzz", "load_target", "render_text"]
