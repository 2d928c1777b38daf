"""Running `toolclause lint`: the command line's request in, finished run out.

Kept apart from argument parsing (main.py) so it can be called and tested
without click.  The lint itself is `toolclause.linting.run` (LintRequest →
LintOutcome), the one every door calls; here are what is the command line's
own: its flags turned into that request, the reading of Python targets, live
servers and standard input, the files --fix writes (or keeps for --diff), the
baseline files, a live lint's time limit, and the finished `LintRun` for the
reporters.  It never prints or exits: problems the user must fix are raised as
`CliError` (exit 2).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..linting import run as lint_run
from ..linting.config import ConfigError, LintConfig, parse_codes, parse_targets
from ..linting.run import BATCH_TOOLS, MAX_FIX_PASSES, Progress, lint_in_batches, lint_loaded_result
from ..loading import LoadResult, load_paths
from ..report.base import FixSummary, LintRun, failing_severity

if TYPE_CHECKING:
    from ..linting.baseline import Accepted

# The fixer (with difflib) and baselines are imported by the runs that use them (--fix, --diff,
# --baseline, --write-baseline): a plain lint pays for neither.


class CliError(Exception):
    """A problem with the command line, a configuration or a baseline: exit 2 with this message."""


@dataclass(frozen=True)
class LintRequest:
    """`toolclause lint`'s flags (the command line's request; `linting.run.LintRequest` is the lint's)."""

    paths: tuple[str, ...]
    targets: str | None = None
    select: str | None = None
    ignore: str | None = None
    fail_on: str | None = None
    fix: bool = False
    diff: bool = False  # --diff: the fixes as a unified diff, nothing written
    unsafe_fixes: bool = False  # --unsafe-fixes: --fix and --diff apply the fixes that could reject a value too
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
    mcp_config: str | None = None  # an MCP client configuration (or "auto"): every server it lists, instead of paths
    no_start: bool = False  # --no-start: judge the configurations only (family M); start no server
    statistics: bool = False  # a count per code after the findings
    exclude: tuple[str, ...] = ()  # globs left out of folder searches, added to the configuration's
    jobs: int = 1  # processes a large run is linted in (the findings are the same)
    show_suppressed: bool = False  # list what governed suppressions hid
    baseline_reason: str | None = None  # --write-baseline: why its findings are accepted (recorded with who)


# --------------------------------------------------------------------------- configuration

def _selectors(value: str | None, option: str) -> tuple[str, ...] | None:
    if value is None:
        return None
    try:
        return parse_codes(value, option)
    except ConfigError as exc:
        raise CliError(str(exc)) from None


def _configured(request: LintRequest) -> dict[str, Any]:
    """The lint request's configuration fields: the file given (it must exist), else the one found from the
    working directory, with the flags on top."""
    found: dict[str, Any] = {"discover_from": request.cwd}
    if request.config_file:
        path = Path(request.cwd, request.config_file)
        if not path.is_file():
            raise CliError(f"--config {request.config_file}: no such file")
        found = {"config_file": path}
    try:
        targets = parse_targets(request.targets) if request.targets is not None else None
    except ConfigError as exc:
        raise CliError(str(exc)) from None
    return {**found, "targets": targets, "select": _selectors(request.select, "--select"),
            "ignore": _selectors(request.ignore, "--ignore"), "fail_on": request.fail_on,
            "exclude": request.exclude}


# --------------------------------------------------------------------------- reading

def _is_live(request: LintRequest) -> bool:
    return request.server is not None or request.url is not None or request.mcp_config is not None


class _Sources:
    """What `toolclause lint` reads: paths (Python targets and standard input too), or live servers."""

    __slots__ = ("request",)

    def __init__(self, request: LintRequest) -> None:
        self.request = request

    def read(self, exclude: Sequence[str]) -> LoadResult:
        if _is_live(self.request):
            return _load_live(self.request)
        from .sources import TargetUnreadable, load_sources  # Python TARGETs (app.py:box) beside files

        try:
            return load_sources(list(self.request.paths), _format(self.request), exclude)
        except TargetUnreadable as exc:
            raise CliError(str(exc)) from None

    def reread(self, before: LoadResult, fixed: Mapping[str, str], exclude: Sequence[str]) -> LoadResult:
        # written files are read again from the disk; --diff's fixed texts, from memory
        return _reload_after_fix(self.request, before, exclude, dict(fixed) if self.request.diff else None)


def _format(request: LintRequest) -> str | None:
    return None if request.input_format == "auto" else request.input_format


def _load_live(request: LintRequest) -> LoadResult:
    if request.fix or request.diff:
        raise CliError("--fix edits files; a live server's tools live in its code (lint a saved snapshot to fix one)")
    if request.mcp_config is not None and request.no_start:
        from .configured import load_configured  # the configurations alone: no server, no SDK

        try:
            return load_configured(request.mcp_config, request.timeout, start=False)
        except ValueError as exc:
            raise CliError(str(exc)) from None
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
    fmt = _format(request)
    loaded = load_paths(list(on_disk), fmt, exclude=exclude) if on_disk else LoadResult()
    if texts:
        loaded = lint_run.with_texts(loaded, texts, fmt)
    if "-" in request.paths:
        loaded.tools.extend(t for t in first.tools if t.origin.file == "-")
        loaded.unreadable.extend(u for u in first.unreadable if u.file == "-")
        loaded.files += 1
    return loaded


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


def _baseline(request: LintRequest, accepted: Accepted | None) -> lint_run.Baseline | None:
    """--write-baseline (every finding accepted, written to its file) or --baseline (those it accepts hidden)."""
    if request.write_baseline:
        written = request.write_baseline

        def write(text: str) -> None:
            try:
                Path(request.cwd, written).write_text(text, encoding="utf-8")
            except OSError as exc:
                raise CliError(f"--write-baseline {written}: cannot write: {exc.strerror or exc}") from None

        accepted_by = {"by": _who(request.cwd), "on": time.strftime("%Y-%m-%d"),
                       "reason": request.baseline_reason or ""}
        return lint_run.Baseline(folder=_base_dir(written), cwd=request.cwd, write=write, accepted_by=accepted_by)
    if request.baseline and accepted is not None:
        return lint_run.Baseline(folder=_base_dir(request.baseline), cwd=request.cwd, accepted=accepted)
    return None


def _who(cwd: str) -> str:
    """Who writes a baseline: git's user (name <email>) where git knows one, else the login name."""
    import subprocess  # only --write-baseline asks

    found = []
    for key in ("user.name", "user.email"):
        try:
            done = subprocess.run(["git", "config", key], cwd=cwd, capture_output=True, text=True, timeout=5)
        except (OSError, subprocess.SubprocessError):
            break
        if done.returncode == 0 and done.stdout.strip():
            found.append(done.stdout.strip())
    if len(found) == 2:
        return f"{found[0]} <{found[1]}>"
    if found:
        return found[0]
    import getpass

    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no login name in the environment or the password database
        return ""


# --------------------------------------------------------------------------- --fix and --diff

def _fix_summary(fixes: lint_run.Fixes, request: LintRequest) -> FixSummary:
    summary = FixSummary(applied=fixes.applied, skipped=fixes.skipped, files_changed=fixes.files_changed,
                         notes=fixes.notes, texts=fixes.texts)
    if request.diff:
        summary.diff = "".join(_diff_of(file, text, request.cwd) for file, text in fixes.texts.items())
    return summary


def _diff_of(file: str, text: str, cwd: str) -> str:
    from .fixing import unified_diff

    try:
        before = Path(file).read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
    name = os.path.relpath(file, cwd) if os.path.isabs(file) else os.path.normpath(file)
    return unified_diff(before, text, Path(name).as_posix())


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


def _fix_files(request: LintRequest) -> lint_run.FixFiles | None:
    """--fix writes the files back; --diff keeps the fixed texts in memory."""
    if not (request.fix or request.diff):
        return None
    from .fixing import Files  # only a run that fixes

    return Files({} if request.diff else None)


def _bound(request: LintRequest) -> Callable[[], AbstractContextManager[Any]] | None:
    """A live lint's --timeout bounds it whole: what reading the server left of it is the linting's."""
    if request.server is None and request.url is None:
        return None
    started = time.monotonic()
    label = f"server '{request.server}'" if request.server is not None else f"server {request.url}"
    return lambda: _within(request.timeout - (time.monotonic() - started), label)


def lint_request(request: LintRequest, progress: Progress | None = None) -> lint_run.LintRequest:
    """The lint `toolclause lint` runs for these flags (the baseline read first: a bad one fails before any work)."""
    configured = _configured(request)
    accepted = _read_baseline(request)
    bound = _bound(request)
    return lint_run.LintRequest(reader=_Sources(request), **configured, jobs=1 if bound is not None else request.jobs,
                                progress=progress, bound=bound, fix=_fix_files(request),
                                unsafe_fixes=request.unsafe_fixes,
                                baseline=_baseline(request, accepted))


def run_lint(request: LintRequest, progress: Progress | None = None) -> tuple[LintRun, LintConfig]:
    lint = lint_request(request, progress)
    try:
        outcome = lint_run.run(lint)
    except ConfigError as exc:
        raise CliError(str(exc)) from None
    notes = []
    accepted = lint.baseline.accepted if lint.baseline is not None else None
    if accepted is not None and request.baseline:
        from ..linting.baseline import BASELINE_VERSION

        if accepted.version < BASELINE_VERSION:
            notes.append(f"the baseline {request.baseline} is version {accepted.version}, which knows findings by "
                         f"their place in the file; write it again with --write-baseline {request.baseline} so "
                         f"that moving or inserting tools does not bring them back")
    fixes = _fix_summary(outcome.fixes, request) if outcome.fixes is not None else None
    run = LintRun(report=outcome.report, tools_by_file=outcome.tools_by_file,
                  hidden_by_baseline=outcome.hidden_by_baseline, fixes=fixes, baseline_written=request.write_baseline,
                  cwd=request.cwd, statistics=request.statistics, notes=notes, fail_on=outcome.config.fail_on,
                  suppressed=outcome.suppressed if request.show_suppressed else None)
    return run, outcome.config


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


__all__ = ["BATCH_TOOLS", "MAX_FIX_PASSES", "CliError", "LintRequest", "exit_code",
           "lint_in_batches", "lint_loaded_result", "lint_request", "run_lint"]
