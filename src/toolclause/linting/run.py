"""One lint, whoever asks: `LintRequest` in, `LintOutcome` out.

Every door runs a lint through `run()`: `toolclause lint` (cli/running.py), `toolclause.lint()`
(_api.py), the playground's /api/lint and its export check (web/service.py), and `toolclause
export`'s lint gate (cli/exporting.py).  So "the same engine as the command line" holds by
construction: the same configuration rules, the same findings, the same order.  A run is

    configuration  a `LintConfig` given, a configuration file, or the one found from a folder,
                   with the request's targets, select, ignore (added to the configuration's),
                   fail-on and exclude on top
    reading        through the request's `SourceReader`: paths (`Paths`), a text with a name
                   (`Text`), parsed objects (`Parsed`), contracts (`Contracts`), or the door's own
                   (the command line's reads Python targets, live servers and standard input too)
    the engine     every tool's rules, in batches when someone shows progress, in `jobs` processes
                   when it is large; then the S001 warnings for keys a JSON object repeats; then
                   the report's order (`sort_diagnostics`)
    fixes          (`fix`) the safe fixes applied to each file's text by the pure text fixer
                   (`fix_text`), pass after pass; what the texts are read from and written to is
                   the door's `FixFiles` (the command line writes files, or keeps them for --diff)
    a baseline     (`baseline`) the findings it accepts hidden, or all of them written as one
    a gate         (`gate`) the findings that stop an export: errors, less those it repairs

It reads only through what it is given and writes nothing itself; it never prints or exits.
A configuration that cannot be used raises `ConfigError`.  The fixer, baselines and the S001
duplicate-key warnings are imported by the runs that need them: a plain lint pays for none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, Protocol

from ..loading import LoadResult, contracts_from_document, load_file_text, load_paths
from ..model import Diagnostic, Severity, ToolContract
from ..rules.base import LintContext
from .config import LintConfig, discover_config, read_config_file
from .engine import LintReport, lint_contracts, lint_loaded, sort_diagnostics, tool_sets

if TYPE_CHECKING:
    from .baseline import Accepted
    from .fix import SkippedFix
    from .suppressions import Suppressed

Progress = Callable[[int, int], None]  # (tools done, tools in all)

MAX_FIX_PASSES = 5  # a fix may expose another (an unknown type fixed to "object" is then an open object)
BATCH_TOOLS = 500
LONG_RUN_TOOLS = 2000  # progress is worth reporting above this many tools…
LONG_RUN_FILES = 50  # …or this many files


# --------------------------------------------------------------------------- reading

class SourceReader(Protocol):
    """Where a run's tools come from."""

    def read(self, exclude: Sequence[str]) -> LoadResult:
        """Everything read (`exclude`: globs a folder search leaves out)."""
        ...

    def reread(self, before: LoadResult, fixed: Mapping[str, str], exclude: Sequence[str]) -> LoadResult:
        """What is read once --fix has changed the files in `fixed` (file → its text now)."""
        ...


class _Reader:
    """A reader whose files, once fixed, are read again from their fixed text (the others are kept).

    (Plain classes, not dataclasses: every `toolclause lint` imports this module, and making a
    dataclass costs a lint of a few tools more than these are worth.)"""

    __slots__ = ("input_format",)

    def __init__(self, input_format: str | None = None) -> None:
        self.input_format = input_format

    def read(self, exclude: Sequence[str]) -> LoadResult:
        raise NotImplementedError

    def reread(self, before: LoadResult, fixed: Mapping[str, str], exclude: Sequence[str]) -> LoadResult:
        return with_texts(before, fixed, self.input_format)

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for cls in type(self).__mro__
                           for name in getattr(cls, "__slots__", ()))
        return f"{type(self).__name__}({fields})"


def with_texts(before: LoadResult, fixed: Mapping[str, str], input_format: str | None = None) -> LoadResult:
    """`before` with the files of `fixed` read again from their texts there."""
    if not fixed:
        return before
    out = LoadResult(tools=[t for t in before.tools if t.origin.file not in fixed],
                     unreadable=[u for u in before.unreadable if u.file not in fixed],
                     files=before.files, documents=dict(before.documents), handoffs=list(before.handoffs),
                     states=list(before.states),
                     fixtures=[f for f in before.fixtures if f.origin.file not in fixed],
                     duplicate_keys=[d for d in before.duplicate_keys if d.file not in fixed],
                     client_configs=list(before.client_configs))
    for file, text in fixed.items():
        again = load_file_text(text, file, PurePath(file), input_format)
        out.tools.extend(again.tools)
        out.unreadable.extend(again.unreadable)
        out.fixtures.extend(again.fixtures)
        out.duplicate_keys.extend(again.duplicate_keys)
        out.documents.update(again.documents)
    return out


class Paths(_Reader):
    """Files and folders (`-`: standard input), read as `toolclause lint PATH…` reads them."""

    __slots__ = ("paths",)

    def __init__(self, paths: Sequence[str | Path], input_format: str | None = None) -> None:
        super().__init__(input_format)
        self.paths = tuple(paths)

    def read(self, exclude: Sequence[str]) -> LoadResult:
        return load_paths(list(self.paths), self.input_format, exclude=exclude)


class Text(_Reader):
    """A file's text under its name (the name's suffix and place tell JSON, JSON Lines and YAML apart, and a
    contracts folder's handoffs from its tools), read as the file would be: a byte order mark is dropped, as
    reading the file drops it.  `blank_is_empty`: a blank text holds no tools, rather than being an empty
    file that cannot be read (the playground's empty editor)."""

    __slots__ = ("text", "name", "blank_is_empty")

    def __init__(self, text: str, name: str, input_format: str | None = None, blank_is_empty: bool = False) -> None:
        super().__init__(input_format)
        self.text, self.name, self.blank_is_empty = text, name, blank_is_empty

    def read(self, exclude: Sequence[str]) -> LoadResult:
        if self.blank_is_empty and not self.text.strip():
            return LoadResult(files=1)
        return load_file_text(self.text.removeprefix("\ufeff"), self.name, PurePath(self.name), self.input_format)


class Parsed(_Reader):
    """Tool objects already parsed (a dict, a list, a `tools/list` result…), named `name` in findings."""

    __slots__ = ("document", "name")

    def __init__(self, document: Any, name: str = "<object>", input_format: str | None = None) -> None:
        super().__init__(input_format)
        self.document, self.name = document, name

    def read(self, exclude: Sequence[str]) -> LoadResult:
        tools, problems = contracts_from_document(self.document, self.name, self.input_format)
        return LoadResult(tools=tools, unreadable=problems)


class ClientConfigText(_Reader):
    """An MCP client configuration's text under its name (`.toml`: Codex's TOML; else JSON with comments), read
    for the client-config rules (family M)."""

    __slots__ = ("text", "name")

    def __init__(self, text: str, name: str) -> None:
        super().__init__()
        self.text, self.name = text, name

    def read(self, exclude: Sequence[str]) -> LoadResult:
        from ..loading.client_configs import ClientConfig, client_config_text

        found = client_config_text(self.text, self.name, toml=self.name.lower().endswith(".toml"))
        if isinstance(found, ClientConfig):
            return LoadResult(files=1, client_configs=[found])
        return LoadResult(files=1, unreadable=[found])


class Contracts(_Reader):
    """Contracts already made (the export's, after its type fixes)."""

    __slots__ = ("tools",)

    def __init__(self, tools: Sequence[ToolContract]) -> None:
        super().__init__()
        self.tools = tuple(tools)

    def read(self, exclude: Sequence[str]) -> LoadResult:
        return LoadResult(tools=list(self.tools))


# --------------------------------------------------------------------------- fixing, a baseline, a gate

class FixFiles(Protocol):
    """The file side of --fix: where a file's text is read and its fixed text goes (the caller's I/O)."""

    def read(self, file: str) -> str:
        """The text to fix (OSError, UnicodeDecodeError: the file's fixes are skipped, saying why)."""
        ...

    def refusal(self, file: str) -> str | None:
        """Why the file must not be written (it is read-only), or None."""
        ...

    def write(self, file: str, text: str) -> None:
        """Put the fixed text there (OSError: its fixes are reported as not applied)."""
        ...


@dataclass
class Fixes:
    """What the fixes did: the findings fixed, those that could not be, the files changed (and their texts)."""

    applied: list[Diagnostic] = field(default_factory=list)
    skipped: list[SkippedFix] = field(default_factory=list)
    files_changed: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # e.g. "standard input is never written back"
    texts: dict[str, str] = field(default_factory=dict)  # each changed file's text now

    def merge(self, one: Fixes) -> None:
        self.applied.extend(one.applied)
        self.files_changed.extend(f for f in one.files_changed if f not in self.files_changed)
        self.notes.extend(n for n in one.notes if n not in self.notes)
        self.skipped = one.skipped  # a fix skipped earlier is tried again on each pass; the last word counts
        self.texts.update(one.texts)


@dataclass(frozen=True)
class Baseline:
    """Findings accepted for now: hidden from the outcome (`accepted`), or every finding accepted now,
    its text handed to `write` (`--write-baseline`) and then hidden.  Paths in it are relative to `folder`
    (the baseline file's), which is relative to `cwd`."""

    folder: str
    cwd: str
    accepted: Accepted | None = None
    write: Callable[[str], None] | None = None
    accepted_by: Mapping[str, str] | None = None  # written with it: who accepts the findings, when, why


@dataclass(frozen=True)
class Gate:
    """Lint as a gate: the findings at `severity` or above stop what follows, but for the codes in `repaired`
    (what an export repairs itself)."""

    severity: Severity = Severity.ERROR
    repaired: frozenset[str] = frozenset()


# --------------------------------------------------------------------------- the request and its outcome

@dataclass(frozen=True)
class LintRequest:
    """What to lint (`reader`), with which configuration, and what to do after the engine."""

    reader: SourceReader
    # the configuration: the first given of `config`, `config_file`, `discover_from` (a folder: the nearest
    # toolclause.toml or pyproject.toml with [tool.toolclause], up from it); none: the defaults
    config: LintConfig | None = None
    config_file: str | Path | None = None
    discover_from: str | Path | None = None
    # on top of it; None keeps the configuration's
    targets: frozenset[str] | None = None
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] | None = None  # added to the configuration's, as a one-off exception would be
    fail_on: str | None = None
    exclude: tuple[str, ...] = ()  # added to the configuration's
    # the engine
    jobs: int = 1  # processes a large run is linted in (the findings are the same)
    progress: Progress | None = None  # told (tools done, tools in all) as a long run goes
    bound: Callable[[], AbstractContextManager[Any]] | None = None  # what the linting runs inside (a time limit)
    # after it
    fix: FixFiles | None = None  # apply the safe fixes (--fix, --diff)
    unsafe_fixes: bool = False  # and the unsafe ones, which could reject a value the tool documents
    baseline: Baseline | None = None
    gate: Gate | None = None


@dataclass
class LintOutcome:
    """A finished lint: the configuration it ran with, what it read, what it found and what it did."""

    config: LintConfig  # the configuration the run used
    loaded: LoadResult  # what was read (after fixes, read again)
    report: LintReport  # the findings, in report order (those a baseline accepts left out), what was read
    fixes: Fixes | None = None
    hidden_by_baseline: int = 0
    blocking: list[Diagnostic] = field(default_factory=list)  # the gate's findings (in report order)
    suppressed: list[Suppressed] = field(default_factory=list)  # what governed suppressions hid, and which

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return self.report.diagnostics

    @property
    def tools_by_file(self) -> dict[str, list[str]]:
        """Each file's tool names, in order."""
        out: dict[str, list[str]] = {}
        for tool in self.loaded.tools:
            out.setdefault(tool.origin.file, []).append(tool.name)
        return out


def resolve_config(request: LintRequest) -> LintConfig:
    """The configuration a request runs with (ConfigError when it cannot be used)."""
    if request.config is not None:
        config = request.config
    elif request.config_file is not None:
        config = read_config_file(Path(request.config_file))
    elif request.discover_from is not None:
        config = discover_config(Path(request.discover_from))
    else:
        config = LintConfig()
    return config.with_overrides(
        targets=request.targets,
        select=request.select,
        ignore=tuple(config.ignore) + request.ignore if request.ignore else None,
        fail_on=request.fail_on,
        exclude=tuple(config.exclude) + request.exclude if request.exclude else None,
    )


def run(request: LintRequest) -> LintOutcome:
    config = resolve_config(request)
    loaded = request.reader.read(config.exclude)
    with (request.bound() if request.bound is not None else _unbounded()):
        report = lint_read(loaded, config, request.progress, request.jobs)
    outcome = LintOutcome(config=config, loaded=loaded, report=report)
    _govern(outcome)
    if request.fix is not None:
        _fix(request, request.fix, outcome)
    if request.baseline is not None:
        _baseline(request.baseline, outcome)
    if request.gate is not None:
        gate = request.gate
        outcome.blocking = [d for d in outcome.report.diagnostics
                            if d.severity >= gate.severity and d.code not in gate.repaired]
    return outcome


@contextmanager
def _unbounded() -> Iterator[None]:
    yield


# --------------------------------------------------------------------------- the engine

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
    """The rules' findings on what was read, in report order (in batches when a long run shows progress)."""
    long_run = len(loaded.tools) > LONG_RUN_TOOLS or loaded.files >= LONG_RUN_FILES
    if progress is None or not long_run or jobs > 1:
        return lint_loaded(loaded.tools, loaded.unreadable, loaded.files, config, jobs)
    diagnostics = lint_in_batches(loaded.tools, config, progress)
    return LintReport(diagnostics=diagnostics, tools=len(loaded.tools), files=loaded.files,
                      unreadable=list(loaded.unreadable))


def lint_read(loaded: LoadResult, config: LintConfig, progress: Progress | None = None, jobs: int = 1) -> LintReport:
    """Everything a lint finds in what was read: the rules' findings on the tools and on MCP client configurations
    (family M), and the S001 warnings for keys a JSON object repeats, in report order."""
    report = lint_loaded_result(loaded, config, progress, jobs)
    if loaded.client_configs:
        from .client_configs import lint_client_configs  # only a run over client configurations needs it

        report.diagnostics.extend(lint_client_configs(loaded.client_configs, config))
        sort_diagnostics(report.diagnostics)
    if loaded.duplicate_keys:
        from .duplicate_keys import duplicate_key_warnings  # only a file that repeats a key needs it

        report.diagnostics.extend(duplicate_key_warnings(loaded.duplicate_keys, loaded.tools, config))
        sort_diagnostics(report.diagnostics)
    return report


# --------------------------------------------------------------------------- fixes

def fix_file(file: str, diagnostics: Sequence[Diagnostic], files: FixFiles, *,
             unsafe: bool = False) -> tuple[list[Diagnostic], list[SkippedFix], str | None]:
    """Apply safe fixes (and unsafe ones with `unsafe`) to one file's text: (fixed, skipped, the text written, or
    None when nothing was)."""
    from .fix import SkippedFix
    from .fix_text import FixRefused, fix_text

    path = Path(file)
    try:
        original = files.read(file)
    except (OSError, UnicodeDecodeError) as exc:
        return [], [SkippedFix(d, f"cannot read {path}: {exc}") for d in diagnostics], None
    reason = files.refusal(file)
    if reason is not None:
        return [], [SkippedFix(d, reason, refused=True) for d in diagnostics], None
    try:
        fixed = fix_text(original, str(path), diagnostics, unsafe=unsafe)
    except FixRefused as exc:
        return [], [SkippedFix(d, f"{path}: {exc}", refused=True) for d in diagnostics], None
    except Exception as exc:  # the file changed since it was linted, or cannot be re-read
        reason = f"cannot re-read {path} to fix it: {exc or type(exc).__name__}"
        return [], [SkippedFix(d, reason) for d in diagnostics], None
    if fixed.text == original:
        return [], fixed.skipped, None
    try:
        files.write(file, fixed.text)
    except OSError as exc:
        unwritten = [SkippedFix(d, f"cannot write {path}: {exc.strerror or exc}") for d in fixed.applied]
        return [], fixed.skipped + unwritten, None
    return fixed.applied, fixed.skipped, fixed.text


def fix_pass(diagnostics: Sequence[Diagnostic], files: FixFiles, *, unsafe: bool = False) -> Fixes:
    """One pass: every safe fix of `diagnostics` (and every unsafe one with `unsafe`) applied to its file's
    text."""
    from .fix import safe_edits

    done = Fixes()
    by_file: dict[str, list[Diagnostic]] = {}
    for d in diagnostics:
        if not safe_edits(d, unsafe=unsafe) or not d.file:
            continue
        if d.file == "-":
            if not done.notes:
                done.notes.append("standard input is never written back; fixes for it were not applied")
            continue
        by_file.setdefault(d.file, []).append(d)
    for file, group in by_file.items():
        applied, skipped, written = fix_file(file, group, files, unsafe=unsafe)
        done.applied.extend(applied)
        done.skipped.extend(skipped)
        if written is not None:
            done.files_changed.append(file)
            done.texts[file] = written
    return done


def _fix(request: LintRequest, files: FixFiles, outcome: LintOutcome) -> None:
    from .fix import SkippedFix, can_write_back, safe_edits

    total = Fixes()
    for _ in range(MAX_FIX_PASSES):
        one = fix_pass(outcome.report.diagnostics, files, unsafe=request.unsafe_fixes)
        total.merge(one)
        if not one.files_changed:
            break
        outcome.loaded = request.reader.reread(outcome.loaded, total.texts, outcome.config.exclude)
        outcome.report = lint_read(outcome.loaded, outcome.config, request.progress, request.jobs)
        _govern(outcome)
    remaining = [d for d in outcome.report.diagnostics
                 if safe_edits(d, unsafe=request.unsafe_fixes) and can_write_back(d.file)]
    reported = {id(s.diagnostic) for s in total.skipped}
    total.skipped.extend(SkippedFix(d, f"still present after {MAX_FIX_PASSES} passes of --fix")
                         for d in remaining if id(d) not in reported and any(d.file == f for f in total.files_changed))
    outcome.fixes = total


# --------------------------------------------------------------------------- governed suppressions

def _has_tables(tool: ToolContract) -> bool:
    listed = tool.extra.get("x-toolclause-ignore") if tool.extra else None
    return isinstance(listed, list) and any(not isinstance(entry, str) for entry in listed)


def _govern(outcome: LintOutcome) -> None:
    """The findings governed suppressions hide set aside (outcome.suppressed); the configuration's expired
    entries reported (G001).  Nothing to do, and nothing imported, when no suppression is a table."""
    config = outcome.config
    if not config.suppressions and not any(_has_tables(tool) for tool in outcome.loaded.tools):
        return
    from .suppressions import expired_in_configuration, govern

    outcome.report.diagnostics, outcome.suppressed = govern(outcome.report.diagnostics, config)
    expired = expired_in_configuration(config)
    if expired:
        outcome.report.diagnostics.extend(expired)
        sort_diagnostics(outcome.report.diagnostics)


# --------------------------------------------------------------------------- a baseline

def _baseline(baseline: Baseline, outcome: LintOutcome) -> None:
    from .baseline import dumps_baseline, filter_new, parse_baseline

    accepted = baseline.accepted
    if baseline.write is not None:
        text = dumps_baseline(outcome.report.diagnostics, baseline.folder, baseline.cwd, baseline.accepted_by)
        baseline.write(text)
        accepted = parse_baseline(text, baseline.folder)
    if accepted is not None:
        outcome.report.diagnostics, outcome.hidden_by_baseline = filter_new(
            outcome.report.diagnostics, accepted, baseline.folder, baseline.cwd)


__all__ = ["BATCH_TOOLS", "Baseline", "ClientConfigText", "Contracts", "FixFiles", "Fixes", "Gate", "LintOutcome",
           "LintRequest",
           "MAX_FIX_PASSES", "Parsed", "Paths", "Progress", "SourceReader", "Text", "fix_file", "fix_pass",
           "lint_in_batches", "lint_loaded_result", "lint_read", "resolve_config", "run", "with_texts"]
