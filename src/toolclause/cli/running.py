"""Running `toolclause lint`: request in, finished run out.

Kept apart from argument parsing (main.py) so it can be called and tested
without click.  It reads and writes files (inputs, --fix, baselines) but never
prints or exits: problems the user must fix are raised as `CliError` (exit 2).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..linting.config import ConfigError, LintConfig, discover_config, parse_codes, parse_targets, read_config_file
from ..linting.engine import LintReport, lint_contracts, lint_loaded, sort_diagnostics, tool_sets
from ..loading import LoadResult, load_paths
from ..loading.contract_files import load_file_text
from ..model import Diagnostic, ToolContract
from ..report.base import FixSummary, LintRun, failing_severity
from ..rules.base import LintContext

if TYPE_CHECKING:
    from ..linting.baseline import Accepted

# The fixer (with difflib) and baselines are imported by the runs that use them (--fix, --diff,
# --baseline, --write-baseline): a plain lint pays for neither.

MAX_FIX_PASSES = 5  # a fix may expose another (an unknown type fixed to "object" is then an open object)
BATCH_TOOLS = 500
LONG_RUN_TOOLS = 2000  # a progress bar is worth showing above this many tools…
LONG_RUN_FILES = 50  # …or this many files

Progress = Callable[[int, int], None]  # (tools done, tools in all)


class CliError(Exception):
    """A problem with the command line, a configuration or a baseline: exit 2 with this message."""


@dataclass(frozen=True)
class LintRequest:
    paths: tuple[str, ...]
    targets: str | None = None
    select: str | None = None
    ignore: str | None = None
    fail_on: str | None = None
    fix: bool = False
    diff: bool = False  # --diff: the fixes as a unified diff, nothing written
    config_file: str | None = None
    baseline: str | None = None
    write_baseline: str | None = None
    input_format: str = "auto"
    cwd: str = field(default_factory=os.getcwd)  # inputs are read as given (relative to the process's directory);
    # cwd anchors the configuration search and baseline paths
    server: str | None = None  # a live server's command line (stdio)…
    url: str | None = None  # …or its Streamable HTTP URL, instead of paths
    headers: tuple[tuple[str, str], ...] = ()  # HTTP headers for --url (credentials)
    timeout: float = 30.0  # seconds the whole live lint may take: start, list everything, lint
    mcp_config: str | None = None  # an MCP client configuration: every server it lists, instead of paths
    statistics: bool = False  # a count per code after the findings
    exclude: tuple[str, ...] = ()  # globs left out of folder searches, added to the configuration's
    jobs: int = 1  # processes a large run is linted in (the findings are the same)


# --------------------------------------------------------------------------- configuration

def _selectors(value: str | None, option: str) -> tuple[str, ...] | None:
    if value is None:
        return None
    try:
        return parse_codes(value, option)
    except ConfigError as exc:
        raise CliError(str(exc)) from None


def build_config(request: LintRequest) -> LintConfig:
    """The configuration file (given, or found from the working directory) with the flags on top."""
    try:
        if request.config_file:
            path = Path(request.cwd, request.config_file)
            if not path.is_file():
                raise CliError(f"--config {request.config_file}: no such file")
            config = read_config_file(path)
        else:
            config = discover_config(Path(request.cwd))
        targets = parse_targets(request.targets) if request.targets is not None else None
    except ConfigError as exc:
        raise CliError(str(exc)) from None
    select = _selectors(request.select, "--select")
    ignore = _selectors(request.ignore, "--ignore")
    return config.with_overrides(
        targets=targets,
        select=select,
        # flags add to the configuration's ignores, as a one-off exception would
        ignore=tuple(config.ignore) + ignore if ignore else None,
        fail_on=request.fail_on,
        exclude=tuple(config.exclude) + request.exclude if request.exclude else None,
    )


# --------------------------------------------------------------------------- linting

def lint_in_batches(tools: Sequence[ToolContract], config: LintConfig, progress: Progress) -> list[Diagnostic]:
    """The same findings as one lint_contracts call, reported as it goes.

    Batches hold whole tool sets (`tool_sets`), so list rules see exactly the
    tools they would in one call; one context keeps rule caches.
    """
    ctx = LintContext(targets=config.targets, options=config.rule_options, budgets=config.budgets)
    diagnostics: list[Diagnostic] = []
    batch: list[ToolContract] = []
    done = 0
    for members in tool_sets(tools, config.toolset):
        batch.extend(members)
        if len(batch) >= BATCH_TOOLS:
            diagnostics.extend(lint_contracts(batch, config, ctx))
            done += len(batch)
            progress(done, len(tools))
            batch = []
    if batch:
        diagnostics.extend(lint_contracts(batch, config, ctx))
        progress(len(tools), len(tools))
    sort_diagnostics(diagnostics)
    return diagnostics


def lint_loaded_result(loaded: LoadResult, config: LintConfig, progress: Progress | None,
                       jobs: int = 1) -> LintReport:
    long_run = len(loaded.tools) > LONG_RUN_TOOLS or loaded.files >= LONG_RUN_FILES
    if progress is None or not long_run or jobs > 1:
        return lint_loaded(loaded.tools, loaded.unreadable, loaded.files, config, jobs)
    diagnostics = lint_in_batches(loaded.tools, config, progress)
    return LintReport(diagnostics=diagnostics, tools=len(loaded.tools), files=loaded.files,
                      unreadable=list(loaded.unreadable))


def _load(request: LintRequest, exclude: Sequence[str]) -> LoadResult:
    if request.server is not None or request.url is not None or request.mcp_config is not None:
        return _load_live(request)
    fmt = None if request.input_format == "auto" else request.input_format
    from .sources import TargetUnreadable, load_sources  # Python TARGETs (app.py:box) beside files

    try:
        return load_sources(list(request.paths), fmt, exclude)
    except TargetUnreadable as exc:
        raise CliError(str(exc)) from None


def _load_live(request: LintRequest) -> LoadResult:
    if request.fix or request.diff:
        raise CliError("--fix edits files; a live server's tools live in its code (lint a saved snapshot to fix one)")
    from ..mcp.live import LiveServerError, load_server, load_url  # the SDK is imported only for live servers

    try:
        if request.mcp_config is not None:
            from .configured import load_configured

            return load_configured(request.mcp_config, request.timeout)
        if request.server is not None:
            return load_server(request.server, request.timeout)
        assert request.url is not None
        return load_url(request.url, request.timeout, dict(request.headers))
    except (LiveServerError, ValueError) as exc:  # ValueError: a configuration file that cannot be read
        raise CliError(str(exc)) from None


def _reload_after_fix(request: LintRequest, first: LoadResult, exclude: Sequence[str],
                      texts: dict[str, str] | None = None) -> LoadResult:
    """Read the files again (those in `texts` from there); standard input cannot be re-read, so its tools
    are kept as they were."""
    on_disk = tuple(p for p in request.paths if p != "-")
    fmt = None if request.input_format == "auto" else request.input_format
    loaded = load_paths(list(on_disk), fmt, exclude=exclude) if on_disk else LoadResult()
    if texts:
        loaded.tools = [t for t in loaded.tools if t.origin.file not in texts]
        loaded.unreadable = [u for u in loaded.unreadable if u.file not in texts]
        loaded.fixtures = [f for f in loaded.fixtures if f.origin.file not in texts]
        loaded.duplicate_keys = [d for d in loaded.duplicate_keys if d.file not in texts]
        for file, text in texts.items():
            again = load_file_text(text, file, Path(file), fmt)
            loaded.tools.extend(again.tools)
            loaded.unreadable.extend(again.unreadable)
            loaded.fixtures.extend(again.fixtures)
            loaded.duplicate_keys.extend(again.duplicate_keys)
            loaded.documents.update(again.documents)
    if "-" in request.paths:
        loaded.tools.extend(t for t in first.tools if t.origin.file == "-")
        loaded.unreadable.extend(u for u in first.unreadable if u.file == "-")
        loaded.files += 1
    return loaded


def _merge_fixes(total: FixSummary, one: FixSummary) -> None:
    total.applied.extend(one.applied)
    total.files_changed.extend(f for f in one.files_changed if f not in total.files_changed)
    total.notes.extend(n for n in one.notes if n not in total.notes)
    total.skipped = one.skipped  # a fix skipped earlier is tried again on each pass; the last word counts


def _fix(request: LintRequest, loaded: LoadResult, report: LintReport, config: LintConfig,
         progress: Progress | None) -> tuple[LoadResult, LintReport, FixSummary]:
    from ..linting.fix import SkippedFix, can_write_back
    from .fixing import fix_pass

    total = FixSummary()
    texts: dict[str, str] | None = {} if request.diff else None
    for _ in range(MAX_FIX_PASSES):
        one = fix_pass(report.diagnostics, loaded.tools, texts)
        _merge_fixes(total, one)
        if not one.files_changed:
            break
        loaded = _reload_after_fix(request, loaded, config.exclude, texts)
        report = lint_loaded_result(loaded, config, progress, request.jobs)
    remaining = [d for d in report.diagnostics
                 if d.fix is not None and d.fix.safe and d.fix.edits and can_write_back(d.file)]
    reported = {id(s.diagnostic) for s in total.skipped}
    total.skipped.extend(SkippedFix(d, f"still present after {MAX_FIX_PASSES} passes of --fix")
                         for d in remaining if id(d) not in reported and any(d.file == f for f in total.files_changed))
    if texts is not None:
        total.diff = "".join(_diff_of(file, text, request.cwd) for file, text in texts.items())
    return loaded, report, total


def _diff_of(file: str, text: str, cwd: str) -> str:
    from .fixing import unified_diff

    try:
        before = Path(file).read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
    name = os.path.relpath(file, cwd) if os.path.isabs(file) else os.path.normpath(file)
    return unified_diff(before, text, Path(name).as_posix())


# --------------------------------------------------------------------------- baselines

def _read_baseline(request: LintRequest) -> Accepted | None:
    if not request.baseline:
        return None
    from ..linting.baseline import BaselineError, parse_baseline

    path = Path(request.cwd, request.baseline)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CliError(f"--baseline {request.baseline}: no such file "
                       f"(create it with --write-baseline {request.baseline})") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"--baseline {request.baseline}: cannot read: {exc}") from None
    try:
        return parse_baseline(text, request.baseline)
    except BaselineError as exc:
        raise CliError(str(exc)) from None


def _base_dir(baseline_path: str) -> str:
    return os.path.dirname(baseline_path) or "."


def _write_baseline(request: LintRequest, diagnostics: Iterable[Diagnostic]) -> Accepted:
    assert request.write_baseline
    from ..linting.baseline import dumps_baseline, parse_baseline

    text = dumps_baseline(diagnostics, _base_dir(request.write_baseline), request.cwd)
    try:
        Path(request.cwd, request.write_baseline).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CliError(f"--write-baseline {request.write_baseline}: cannot write: {exc.strerror or exc}") from None
    return parse_baseline(text, request.write_baseline)


# --------------------------------------------------------------------------- the run

class _Expired(BaseException):
    """The live lint's --timeout passed (a BaseException: the engine reports a rule's Exception and goes on)."""


@contextmanager
def _within(seconds: float | None, label: str) -> Iterator[None]:
    """Bound what runs inside by `seconds` of wall time, with SIGALRM (main thread, POSIX); else unbounded."""
    import signal  # only a live lint is bounded

    if seconds is None or not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expired(signum: int, frame: Any) -> None:
        raise _Expired()

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.001))
    try:
        yield
    except _Expired:
        raise CliError(f"{label}: the lint did not finish within --timeout; nothing was reported "
                       f"(raise --timeout, or lint a saved snapshot)") from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_lint(request: LintRequest, progress: Progress | None = None) -> tuple[LintRun, LintConfig]:
    config = build_config(request)
    accepted = _read_baseline(request)  # a bad baseline fails before any work
    started = time.monotonic()
    loaded = _load(request, config.exclude)
    if request.server is not None or request.url is not None:
        # --timeout bounds the whole live lint: what listing left of it is the linting's
        label = f"server '{request.server}'" if request.server is not None else f"server {request.url}"
        with _within(request.timeout - (time.monotonic() - started), label):
            report = lint_loaded_result(loaded, config, progress)
    else:
        report = lint_loaded_result(loaded, config, progress, request.jobs)
    if loaded.duplicate_keys:
        from ..linting.duplicate_keys import duplicate_key_warnings  # only a file that repeats a key needs it

        report.diagnostics.extend(duplicate_key_warnings(loaded.duplicate_keys, loaded.tools, config))
        sort_diagnostics(report.diagnostics)
    fixes = None
    if request.fix or request.diff:
        loaded, report, fixes = _fix(request, loaded, report, config, progress)
    hidden = 0
    baseline_dir = None
    if request.write_baseline:
        accepted = _write_baseline(request, report.diagnostics)
        baseline_dir = _base_dir(request.write_baseline)
    elif request.baseline:
        baseline_dir = _base_dir(request.baseline)
    notes = []
    if accepted is not None and baseline_dir is not None:
        from ..linting.baseline import BASELINE_VERSION, filter_new

        report.diagnostics, hidden = filter_new(report.diagnostics, accepted, baseline_dir, request.cwd)
        if accepted.version < BASELINE_VERSION:
            notes.append(f"the baseline {request.baseline} is version {accepted.version}, which knows findings by "
                         f"their place in the file; write it again with --write-baseline {request.baseline} so "
                         f"that moving or inserting tools does not bring them back")
    tools_by_file: dict[str, list[str]] = {}
    for tool in loaded.tools:
        tools_by_file.setdefault(tool.origin.file, []).append(tool.name)
    run = LintRun(report=report, tools_by_file=tools_by_file, hidden_by_baseline=hidden, fixes=fixes,
                  baseline_written=request.write_baseline, cwd=request.cwd, statistics=request.statistics,
                  notes=notes, fail_on=config.fail_on)
    return run, config


def exit_code(run: LintRun, fail_on: str) -> int:
    """2 when anything was unreadable; 1 when a finding is at or above `fail_on`, or when --fix refused
    a file (it repeats a key, it is read-only); else 0."""
    if run.report.unreadable:
        return 2
    if run.fixes is not None and any(s.refused for s in run.fixes.skipped):
        return 1
    threshold = failing_severity(fail_on)
    if threshold is None:
        return 0
    return 1 if any(d.severity >= threshold for d in run.report.diagnostics) else 0


__all__ = ["CliError", "LintRequest", "build_config", "exit_code", "lint_in_batches", "run_lint"]
