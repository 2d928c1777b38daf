"""`toolclause fuzz TARGET`: throw the mistakes models make at a Toolbox's gate and report what got through.

TARGET is `path/to/app.py:box` or `package.module:box`.  Exit: 0 every check held,
1 a check failed, 2 a TARGET that names no Toolbox.
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


@click.command("fuzz")
@click.argument("target")
@click.option("--examples", type=click.IntRange(min=1, max=10_000), default=25, show_default=True,
              help="Valid argument sets generated per tool (mistakes are made of the first few).")
@click.option("--seed", type=click.IntRange(min=0), help="Reproduce an earlier run [default: a new random seed].")
@click.option("--tool", "tools", multiple=True, metavar="NAME", help="Fuzz only this tool (repeatable).")
@click.option("--format", "output_format", type=click.Choice(FUZZ_FORMATS), default="text", show_default=True)
def fuzz(target: str, examples: int, seed: int | None, tools: tuple[str, ...], output_format: str) -> None:
    """Fuzz the gate of the Toolbox TARGET (path/to/app.py:box or package.module:box)."""
    box = load_target(target)
    from ..runtime import Toolbox
    from ..workflow.fuzz import fuzz_toolbox

    if not isinstance(box, Toolbox):
        raise FuzzError(f"{target} is a {type(box).__name__}, not a toolclause Toolbox")
    unknown = sorted(set(tools) - set(box.names))
    if unknown:
        raise FuzzError(f"{target} has no tool named {', '.join(unknown)} (it has: {', '.join(box.names[:20])})")
    chosen_seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    if bool(getattr(sys.stderr, "isatty", None) and sys.stderr.isatty()):
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        with Progress(TextColumn("fuzzing"), BarColumn(), MofNCompleteColumn(), TextColumn("tools {task.description}"),
                      TimeElapsedColumn(), console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task("", total=len(tools or box.names))
            report = fuzz_toolbox(box, examples=examples, seed=chosen_seed, tools=tools or None,
                                  progress=lambda done, total, name: bar.update(task, completed=done,
                                                                                description=name))
    else:
        report = fuzz_toolbox(box, examples=examples, seed=chosen_seed, tools=tools or None)
    if output_format == "json":
        click.echo(json.dumps({**report.to_dict(), "target": target}, ensure_ascii=False, indent=2))
    else:
        click.echo(render_text(report, target), nl=False)
    if report.failed:
        click.get_current_context().exit(1)


__all__ = ["fuzz", "load_target", "render_text"]
