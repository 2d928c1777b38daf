"""`toolclause` on the command line: parse arguments, run, print, exit.

This is the only module that prints or exits.  Exit codes everywhere:
0 clean, 1 findings at or above --fail-on, 2 a usage error, unreadable input,
a bad configuration or baseline.  Bad input never shows a traceback: it is one
line naming the file and the problem.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING

import click

from .. import _dataclass_code
from .. import _lazy_re as re
from .._gc import gc_paused
from .._version import __version__
from ..formats import DIFF_FORMATS, INPUT_FORMATS, REPORT_FORMATS
from ..targets import EXPORT_TARGETS, LINT_ALIASES, LINT_TARGETS

# Each command imports what it runs when it runs (the linter, the reporters, the exporters, the diff
# classifier), so `toolclause --version`, `--help` and a usage error cost only click and this module.

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from ..report.base import LintRun


class CommandError(click.ClickException):
    """One line on stderr, exit 2."""

    exit_code = 2

    def show(self, file: IO[str] | None = None) -> None:
        click.echo(f"toolclause: error: {self.format_message()}", err=True)


def wants_color(stream: IO[str]) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and os.environ.get("TERM") != "dumb"


class ProgressBar:
    """A progress bar on stderr, started only when the run turns out to be long."""

    def __init__(self) -> None:
        self._running: tuple[Progress, TaskID] | None = None

    def __call__(self, done: int, total: int) -> None:
        if self._running is None:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            bar = Progress(TextColumn("linting"), BarColumn(), MofNCompleteColumn(), TextColumn("tools"),
                           TimeElapsedColumn(), console=Console(stderr=True), transient=True)
            bar.start()
            self._running = (bar, bar.add_task("lint", total=total))
        bar, task = self._running
        bar.update(task, completed=done, total=total)

    def close(self) -> None:
        if self._running is not None:
            self._running[0].stop()


@contextmanager
def progress_bar(enabled: bool) -> Iterator[ProgressBar | None]:
    bar = ProgressBar() if enabled else None
    try:
        yield bar
    finally:
        if bar is not None:
            bar.close()


def _emit(text: str, output: str | None, color: bool) -> None:
    if output is None:
        click.echo(text, nl=False, color=color)
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"--output {output}: cannot write: {exc.strerror or exc}") from None


def _show_diff(run: LintRun, output: str | None) -> None:
    """--diff: the fixes as a unified diff on stdout (or --output), a count on stderr; exit 1 if any, 2 if
    an input could not be read."""
    fixes = run.fixes
    patch = fixes.diff if fixes is not None and fixes.diff else ""
    _emit(patch, output, False)
    fixed = len(fixes.applied) if fixes is not None else 0
    files = len(fixes.files_changed) if fixes is not None else 0
    click.echo(f"toolclause: --fix would fix {fixed} finding(s) in {files} file(s); nothing was written", err=True)
    notes = fixes.notes if fixes is not None else []  # fixes for standard input: not shown, still to do
    for note in notes:
        click.echo(f"toolclause: {note}", err=True)
    for problem in run.report.unreadable[:1]:
        click.echo(f"toolclause: error: {len(run.report.unreadable)} input(s) could not be read "
                   f"(first: {problem.file}: {problem.message})", err=True)
    click.get_current_context().exit(2 if run.report.unreadable else 1 if patch or notes else 0)


def _emit_pieces(pieces: Iterable[str], output: str | None, say: Callable[..., None]) -> None:
    """`_emit` for a report made piece by piece: written in blocks of about a megabyte, never whole
    (to standard output through `say(text, nl=False)`)."""

    def blocks() -> Iterator[str]:
        block: list[str] = []
        size = 0
        for piece in pieces:
            block.append(piece)
            size += len(piece)
            if size >= 1 << 20:
                yield "".join(block)
                block, size = [], 0
        yield "".join(block)

    if output is None:
        for text in blocks():
            say(text, nl=False)
        return
    try:
        with open(output, "w", encoding="utf-8") as stream:
            for text in blocks():
                stream.write(text)
    except OSError as exc:
        raise CommandError(f"--output {output}: cannot write: {exc.strerror or exc}") from None


def _findings_only(run: LintRun, rendered: str) -> str:
    """--quiet: the text report without its closing summary line, and nothing at all for a clean run."""
    if not run.report.diagnostics and not run.report.unreadable and run.fixes is None and not run.statistics:
        return ""
    body = rendered.rstrip("\n").rpartition("\n")[0].rstrip("\n")
    return body + "\n" if body else ""


def _comma_choice(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    return value.strip() if value is not None else None


class _ExportTarget(click.Choice):
    """click.Choice, and where a lint target was given (`openai-strict`), the export that writes it."""

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> object:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as exc:
            from ..targets import other_command_target

            other = other_command_target(str(value), "export")
            if other is None:
                raise
            raise click.BadParameter(f"{exc.message.rstrip('.')}; {other}", ctx, param) from None


# Set by console(), the executable, which leaves with os._exit: a large run's findings and tools are then kept
# here rather than freed one by one as the command returns (about 0.07 s on 13,000 tools).
_leaving_at_once = False
_kept_until_exit: list[object] = []

_CACHE_DIR = ".toolclause_cache"  # toolclause.cli.lint_cache.CACHE_DIR, named here for --help without importing it

# the other commands: name → (module in this package, the command in it), imported when that command
# runs or `--help` lists it (the serving commands import the SDK and the runtime only when they run)
_COMMANDS_ELSEWHERE = {
    "state": ("state_command", "state"), "snapshot": ("snapshot_command", "snapshot"),
    "test": ("test_command", "run_tests"), "init": ("init_command", "init"), "fuzz": ("fuzz_command", "fuzz"),
    "route": ("route_command", "route"), "playground": ("playground_command", "playground"),
    "serve": ("serve_command", "serve"), "proxy": ("proxy_command", "proxy"), "lsp": ("lsp_command", "lsp"),
}


class _Commands(click.Group):
    """The command group, with the commands of other modules imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *_COMMANDS_ELSEWHERE})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in _COMMANDS_ELSEWHERE:
            module, name = _COMMANDS_ELSEWHERE[cmd_name]
            self.add_command(getattr(importlib.import_module(f"{__package__}.{module}"), name))
        return super().get_command(ctx, cmd_name)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="toolclause")
def cli() -> None:
    """LLM tool definitions as contracts: linted, exported, versioned and enforced."""


_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # an HTTP token (RFC 9110)


def _http_headers(ctx: click.Context, param: click.Parameter,
                  values: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """'Name: value' pairs; a malformed one is refused without echoing its value (it may be a secret)."""
    out = []
    for value in values:
        name, colon, rest = value.partition(":")
        if not colon or not _HEADER_NAME.fullmatch(name.strip()):
            raise click.BadParameter("write each header as 'Name: value', e.g. 'Authorization: Bearer <token>'",
                                     ctx, param)
        out.append((name.strip(), rest.strip()))
    return tuple(out)


@cli.command("lint")
@click.argument("paths", nargs=-1)
@click.option("--target", "targets", callback=_comma_choice, metavar="LIST",
              help=f"Providers to check against, comma separated: {', '.join([*LINT_TARGETS, *LINT_ALIASES])}.")
@click.option("--format", "output_format", type=click.Choice(REPORT_FORMATS), default="text", show_default=True)
@click.option("--select", metavar="CODES", help="Only these rule codes or prefixes (e.g. S,N001).")
@click.option("--ignore", metavar="CODES", help="Skip these rule codes or prefixes (added to the configuration's).")
@click.option("--fail-on", type=click.Choice(["error", "warning", "info", "never"]),
              help="Exit 1 when a finding is at or above this severity [default: configuration, else error].")
@click.option("--fix", is_flag=True, help="Apply safe fixes to the files, then report what remains.")
@click.option("--diff", is_flag=True, help="Show what --fix would change as a unified diff, and write nothing "
                                          "(exit 1 when there is something to fix).")
@click.option("--unsafe-fixes", is_flag=True,
              help="With --fix or --diff, apply the unsafe fixes too: those that could reject a value the tool "
                   "documents (a bound, an enum, a closed object). Review the result.")
@click.option("--exclude", "exclude", multiple=True, metavar="GLOB",
              help="Leave out files and folders this glob matches when searching folders (repeatable; added "
                   "to the configuration's exclude), e.g. --exclude 'tests/fixtures'.")
@click.option("--config", "config_file", metavar="FILE",
              help="A toolclause.toml or pyproject.toml [default: found from the current directory].")
@click.option("--baseline", metavar="FILE", help="Report only findings not recorded in this baseline.")
@click.option("--write-baseline", metavar="FILE", help="Record the current findings as the baseline.")
@click.option("--baseline-reason", metavar="TEXT", help="--write-baseline: why these findings are accepted "
                                                       "(recorded in the file with who wrote it and when).")
@click.option("--input-format", type=click.Choice(list(INPUT_FORMATS)), default="auto", show_default=True,
              help="The shape of the tool objects when detection guesses wrong.")
@click.option("--output", "-o", metavar="FILE", help="Write the report to FILE instead of standard output.")
@click.option("--server", metavar="CMD", help="Lint a live MCP server: start CMD (quoted, with its arguments) "
                                                "and talk to it over stdio.")
@click.option("--url", metavar="URL", help="Lint a live MCP server over Streamable HTTP (e.g. http://localhost:8000/mcp).")
@click.option("--header", "headers", multiple=True, callback=_http_headers, metavar="'NAME: VALUE'",
              help="--url: send this HTTP header with every request (repeatable), e.g. "
                   "--header \"Authorization: Bearer $TOKEN\".")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=30.0, show_default=True,
              metavar="SECONDS", help="--server/--url: how long the whole live lint may take (start, list, lint).")
@click.option("--statistics", is_flag=True,
              help="End with a count of findings per code (on stderr for machine formats).")
@click.option("--mcp-config", metavar="FILE|auto",
              help="Check an MCP client configuration (claude_desktop_config.json, .cursor/mcp.json, "
                   ".vscode/mcp.json, ~/.codex/config.toml…; auto: every one found here) with the M rules, and lint "
                   "every server it lists.")
@click.option("--no-start", is_flag=True, help="--mcp-config: check the configuration only (rules M001-M004); "
                                               "start no server.")
@click.option("--show-suppressed", is_flag=True, help="List the findings that ignore entries with a reason, owner "
              "and date (x-toolclause-ignore, the configuration's ignore) hid, and who hid them until when.")
@click.option("--quiet", "-q", is_flag=True, help="Print the findings only: no summary line, no progress bar, "
                                                  "nothing when there are none.")
@click.option("--no-cache", is_flag=True, help=f"Lint even if the inputs are unchanged since a run kept in "
              f"{_CACHE_DIR}/ (as TOOLCLAUSE_NO_CACHE=1 does; see `toolclause clean`).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), metavar="N",
              help="Lint a large run in N processes (default: the machine's cores); the report is the same.")
@click.option("--no-color", is_flag=True, help="Never colour the output (as NO_COLOR=1 does).")
def lint_command(paths: tuple[str, ...], targets: str | None, output_format: str, select: str | None,
                 ignore: str | None, fail_on: str | None, fix: bool, config_file: str | None,
                 baseline: str | None, write_baseline: str | None, baseline_reason: str | None, input_format: str,
                 output: str | None,
                 server: str | None, url: str | None, headers: tuple[tuple[str, str], ...], timeout: float,
                 statistics: bool, mcp_config: str | None, no_start: bool, no_cache: bool, jobs: int | None,
                 quiet: bool, show_suppressed: bool, no_color: bool, exclude: tuple[str, ...], diff: bool,
                 unsafe_fixes: bool) -> None:
    """Lint tool definitions in PATHS (files or folders; - for standard input), or a live MCP server."""
    if server is not None and url is not None:
        raise click.UsageError("give --server or --url, not both")
    if mcp_config is not None and (server is not None or url is not None):
        raise click.UsageError("--mcp-config lints the servers it lists: give it without --server or --url")
    if mcp_config is not None and paths:
        raise click.UsageError("lint either PATHS or the servers of --mcp-config, not both in one run")
    if (server is not None or url is not None) and paths:
        raise click.UsageError("lint either PATHS or a live server (--server/--url), not both in one run")
    if unsafe_fixes and not (fix or diff):
        raise click.UsageError("--unsafe-fixes goes with --fix or --diff (it says which fixes they may apply)")
    if baseline_reason is not None and write_baseline is None:
        raise click.UsageError("--baseline-reason goes with --write-baseline (why the findings it records are "
                               "accepted)")
    if no_start and mcp_config is None:
        raise click.UsageError("--no-start goes with --mcp-config (check a client configuration without starting "
                               "its servers)")
    if headers and url is None:
        raise click.UsageError("--header goes with --url (HTTP headers for a server reached over Streamable HTTP)")
    if not paths and server is None and url is None and mcp_config is None:
        raise click.UsageError("give at least one PATH (a file, a folder, or - for standard input), "
                               "or a live server with --server CMD or --url URL")
    color = not no_color and output is None and output_format == "text" and wants_color(sys.stdout)
    key = None
    if not (no_cache or os.environ.get("TOOLCLAUSE_NO_CACHE") or fix or diff or baseline or write_baseline or server
            or url or mcp_config or "-" in paths or (output is None and sys.stdout.isatty())):
        import datetime  # a suppression's `until` makes the day part of what a run depends on

        from . import lint_cache

        options = {"targets": targets, "format": output_format, "select": select, "ignore": ignore,
                   "fail_on": fail_on, "input_format": input_format, "output": output, "statistics": statistics,
                   "quiet": quiet, "color": color, "exclude": exclude, "show_suppressed": show_suppressed,
                   "day": datetime.date.today().isoformat()}
        key = lint_cache.run_key(options, paths, os.getcwd(), config_file)
        kept = lint_cache.load(os.getcwd(), key) if key is not None else None
        if kept is not None:  # the inputs have not changed: write what that run wrote
            for stream, text, newline in kept["writes"]:
                click.echo(text, err=stream == "err", nl=newline, color=color)
            if output is not None and kept["output"] is not None:
                _emit(kept["output"], output, color)
            click.get_current_context().exit(kept["code"])
    writes: list[tuple[str, str, bool]] = []

    def say(text: str, err: bool = False, nl: bool = True) -> None:
        click.echo(text, err=err, nl=nl, color=color)
        if key is not None:  # kept for the cache
            writes.append(("err" if err else "out", text, nl))

    from ._validator_import import import_jsonschema_rs

    import_jsonschema_rs()  # before anything imports it, so that it comes without the e-mail package
    from ..report import REPORTERS
    from .running import CliError, LintRequest, exit_code, run_lint

    request = LintRequest(paths=paths, targets=targets, select=select, ignore=ignore, fail_on=fail_on, fix=fix,
                          config_file=config_file, baseline=baseline, write_baseline=write_baseline,
                          input_format=input_format, server=server, url=url, headers=headers, timeout=timeout,
                          statistics=statistics, mcp_config=mcp_config, no_start=no_start, exclude=exclude, diff=diff,
                          show_suppressed=show_suppressed, baseline_reason=baseline_reason,
                          unsafe_fixes=unsafe_fixes, jobs=jobs or os.cpu_count() or 1)
    show_progress = not quiet and bool(getattr(sys.stderr, "isatty", None) and sys.stderr.isatty())
    try:
        with progress_bar(show_progress) as progress:
            run, config = run_lint(request, progress)
    except CliError as exc:
        raise CommandError(str(exc)) from None
    if diff:
        _show_diff(run, output)
    with gc_paused():  # a report of 60,000 findings is acyclic dicts and strings: see toolclause._gc
        render = REPORTERS[output_format]
        pieces = getattr(sys.modules[render.__module__], "chunks", None)  # a reporter that writes as it goes
        if pieces is not None and not (quiet and output_format == "text"):
            _emit_pieces(pieces(run), output, say)
        else:
            rendered = render(run, color=color)
            if quiet and output_format == "text":
                rendered = _findings_only(run, rendered)
            if output is None:
                say(rendered, nl=False)
            else:
                _emit(rendered, output, color)
    code = exit_code(run, config.fail_on)
    if output_format != "text":
        # the machine formats have fixed shapes; what --fix and the baseline did goes to stderr
        if run.fixes is not None:
            say(f"toolclause: fixed {len(run.fixes.applied)} finding(s) in {len(run.fixes.files_changed)} "
                f"file(s); {len(run.fixes.skipped)} fix(es) could not be applied", err=True)
        if run.hidden_by_baseline:
            say(f"toolclause: {run.hidden_by_baseline} finding(s) hidden by the baseline", err=True)
        for note in run.notes:
            say(f"toolclause: {note}", err=True)
        if statistics:
            from ..report.base import statistics_lines

            say("\n".join(statistics_lines(run.report.diagnostics)), err=True, nl=False)
    if code == 2 and output_format != "text" and output is None:
        # machine formats keep stdout parseable; say why the exit is 2 on stderr too
        say(f"toolclause: error: {len(run.report.unreadable)} input(s) could not be read "
            f"(first: {run.report.unreadable[0].file}: {run.report.unreadable[0].message})", err=True)
    if key is not None:
        from . import lint_cache

        # kept only when the inputs still hash to the key: the report is then of exactly the bytes keyed
        if lint_cache.run_key(options, paths, os.getcwd(), config_file) == key:
            written = Path(output).read_text(encoding="utf-8") if output is not None else None
            lint_cache.store(os.getcwd(), key, writes, written, code)
    if _leaving_at_once:
        _kept_until_exit.append(run)  # see console(): freed by leaving, not finding by finding as exit unwinds
    click.get_current_context().exit(code)


@cli.command("clean")
def clean_command() -> None:
    """Delete lint's cache of earlier runs in this directory (.toolclause_cache/)."""
    from .lint_cache import clean

    removed = clean(os.getcwd())
    click.echo(f"toolclause: removed {removed}/" if removed else f"toolclause: no {_CACHE_DIR}/ here", err=True)


@cli.command("rules")
@click.argument("code", required=False)
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
def rules_command(code: str | None, output_format: str) -> None:
    """List every rule, or show one rule's documentation (e.g. `toolclause rules S003`)."""
    from ..report.rules import UnknownRule, render_rules  # rich's Markdown: only `rules` pays for it

    try:
        text = render_rules(code, output_format, color=output_format == "text" and wants_color(sys.stdout))
    except UnknownRule as exc:
        raise CommandError(str(exc)) from None
    click.echo(text, nl=False, color=wants_color(sys.stdout))


@cli.command("diff")
@click.argument("old")
@click.argument("new")
@click.option("--format", "output_format", type=click.Choice(DIFF_FORMATS), default="text", show_default=True)
@click.option("--fail-on", type=click.Choice(["breaking", "any", "never"]), default="breaking", show_default=True,
              help="exit 1 on breaking changes, on any change, or never")
def diff_command(old: str, new: str, output_format: str, fail_on: str) -> None:
    """What changed from OLD to NEW (files, folders, or git:REF:PATH), and does it break anyone."""
    from .diffing import DiffInputError, run_diff  # only `diff` pays for the change classifier

    try:
        text, code = run_diff(old, new, output_format, fail_on, wants_color(sys.stdout))
    except DiffInputError as exc:
        raise CommandError(str(exc)) from None
    click.echo(text, nl=False, color=wants_color(sys.stdout))
    click.get_current_context().exit(code)


def _export_schema(schema_file: str, paths: tuple[str, ...], target: str, strict: bool, kind: str,
                   output: str | None) -> None:
    """`export --schema FILE`: one schema for one provider (cli/provider_command.py)."""
    from .provider_command import SchemaFileError, provider_document

    if paths:
        raise CommandError("--schema converts one schema file; give it without PATHS")
    try:
        text = provider_document(schema_file, target, strict, kind)
    except SchemaFileError as exc:
        raise CommandError(str(exc)) from None
    if output is None:
        click.echo(text, nl=False)
    else:
        Path(output).write_text(text, encoding="utf-8")


@cli.command("export")
@click.argument("paths", nargs=-1)
@click.option("--target", required=True, type=_ExportTarget(list(EXPORT_TARGETS)), help="The protocol shape to write.")
@click.option("--strict", is_flag=True, help="Project the schemas into the provider's strict subset.")
@click.option("--output", "-o", metavar="FILE|DIR",
              help="Write to FILE, or into DIR (the payload and, when names moved, <target>.names.json).")
@click.option("--check", is_flag=True, help="Compare with the committed export at -o; exit 1 on drift.")
@click.option("--fix-types", is_flag=True, help="Apply S002's safe type fixes first (\"dict\" → \"object\").")
@click.option("--gemini-schema", type=click.Choice(["json", "openapi"]), default="json", show_default=True,
              help="gemini: parametersJsonSchema, or the OpenAPI-subset parameters.")
@click.option("--mcp-shape", type=click.Choice(["tools", "list"]), default="tools", show_default=True,
              help="mcp: a list of Tool objects, or a tools/list result.")
@click.option("--set", "settings", multiple=True, metavar="KEY=VALUE",
              help="A target setting, e.g. a2a name=…, url=…, version=…, protocolBinding=….")
@click.option("--input-format", type=click.Choice(list(INPUT_FORMATS)), default="auto", show_default=True)
@click.option("--allow-lint-errors", is_flag=True,
              help="Export even when lint reports errors in the tools (refused by default: exit 1).")
@click.option("--schema", "schema_file", metavar="FILE",
              help="Convert one JSON Schema instead of tools: prints {schema, losses} (toolclause.to_provider).")
@click.option("--kind", type=click.Choice(["tool", "output"]), default="tool", show_default=True,
              help="--schema: a tool's arguments, or a structured output.")
@click.option("--format", "output_format", type=click.Choice(["json"]), default="json", help="--schema: the output.")
def export_command(paths: tuple[str, ...], target: str, strict: bool, output: str | None, check: bool,
                   fix_types: bool, gemini_schema: str, mcp_shape: str, settings: tuple[str, ...],
                   input_format: str, allow_lint_errors: bool, schema_file: str | None, kind: str,
                   output_format: str) -> None:
    """Export the tools in PATHS (or, for structured-output, JSON Schemas) to one protocol's shape."""
    if schema_file is not None:
        shown = "gemini-openapi" if target == "gemini" and gemini_schema == "openapi" else target
        _export_schema(schema_file, paths, shown, strict, kind, output)
        return
    if not paths:
        raise click.UsageError("give at least one PATH (a file or a folder)")
    from ..report.drift import render_drift
    from .exporting import ExportRequest, LintRefusal, parse_settings, run_export  # only `export` needs them
    from .running import CliError

    ctx = click.get_current_context()
    given = {name for name in ("gemini_schema", "mcp_shape")
             if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT}
    for name, owner in (("gemini_schema", "gemini"), ("mcp_shape", "mcp")):
        if name in given and target != owner:
            click.echo(f"toolclause: export: warning: --{name.replace('_', '-')} is for --target {owner}; "
                       f"it changes nothing for {target}", err=True)
    try:
        options = {**({"schema": gemini_schema} if target == "gemini" else {}),
                   **({"shape": mcp_shape} if target == "mcp" else {}), **parse_settings(settings)}
        run = run_export(ExportRequest(paths=paths, target=target, strict=strict, output=output, check=check,
                                       fix_types=fix_types, settings=options, input_format=input_format,
                                       allow_lint_errors=allow_lint_errors, cwd=os.getcwd()))
    except CliError as exc:
        raise CommandError(str(exc)) from None
    except LintRefusal as refusal:
        for line in refusal.lines():
            click.echo(f"toolclause: export: {line}" if not line.startswith(" ") else line, err=True)
        click.get_current_context().exit(1)
    for warning in run.warnings:
        click.echo(f"toolclause: export: warning: {warning}", err=True)
    for loss in run.result.losses:
        click.echo(f"toolclause: export: {loss}", err=True)
    if run.result.losses:
        tools = len({loss.tool for loss in run.result.losses})
        click.echo(f"toolclause: export: {len(run.result.losses)} thing(s) in {tools} tool(s) could not be kept "
                   f"exactly by {target}{' --strict' if strict else ''} (listed above)", err=True)
    moved = len(run.result.name_map) + len(run.result.property_map)
    if moved:
        click.echo(f"toolclause: export: {len(run.result.name_map)} tool name(s) and the properties of "
                   f"{len(run.result.property_map)} tool(s) renamed for {target}; nameMap/propertyMap route "
                   f"calls back", err=True)
    if run.stdout is not None:
        click.echo(run.stdout, nl=False)
    if run.drift is not None:
        if run.drift:
            changed = {p: d for p, d in run.drift.items() if p not in run.missing}
            if changed:
                click.echo(render_drift(changed), nl=False)
            for path in run.missing:
                click.echo(f"{path}: not written yet (nothing committed to compare with)")
            click.echo(f"toolclause: export: {len(changed)} file(s) drifted from the contracts and "
                       f"{len(run.missing)} not written yet; run the same command without --check to write them",
                       err=True)
            click.get_current_context().exit(1)
        click.echo(f"toolclause: export: {output} is up to date", err=True)
    for path in run.written:
        click.echo(f"toolclause: export: wrote {path}", err=True)




def main(argv: Sequence[str] | None = None) -> None:
    """The console script.  Unexpected errors become one line (set TOOLCLAUSE_DEBUG=1 for the traceback)."""
    try:
        cli.main(args=list(argv) if argv is not None else None, prog_name="toolclause", standalone_mode=True)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        click.echo("toolclause: interrupted", err=True)
        sys.exit(130)
    except Exception as exc:  # a bug, or input nothing anticipated: still no traceback by default
        if os.environ.get("TOOLCLAUSE_DEBUG"):
            import traceback  # only here: it costs every run a few milliseconds to import

            traceback.print_exc()
        click.echo(f"toolclause: internal error: {type(exc).__name__}: {exc} "
                   f"(set TOOLCLAUSE_DEBUG=1 to see where; please report it)", err=True)
        sys.exit(2)


def console() -> None:
    """The `toolclause` executable (entered through toolclause/__main__.py): main(), then leave without tearing
    the heap down.

    Everything is printed and every file written by the time main() returns; what
    is left is freeing each loaded tool and finding one by one, which on a large
    run costs a quarter of a second and helps nobody.  So, like mypy, flush and
    exit at once.  (Tests call main() and keep their process.)
    """
    global _leaving_at_once
    _leaving_at_once = True
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if exc.code is not None and not isinstance(exc.code, int):
            click.echo(str(exc.code), err=True)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a reader that went away (`| head`), or a closed stream
            pass
    if "logging" in sys.modules:  # handlers a command set up are flushed; otherwise logging was never imported
        sys.modules["logging"].shutdown()
    re.save()  # what atexit would have done: keep the patterns this run compiled (see toolclause._lazy_re)
    _dataclass_code.save()  # and the dataclass methods (see toolclause._dataclass_code)
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    console()
