"""Running `toolclause export`: request in, files (or a drift report) out.

Kept apart from argument parsing (main.py): this module reads inputs and
writes outputs but never prints or exits; problems the user must fix are
`CliError` (exit 2).  `--check` writes nothing: it regenerates the export in
memory and compares it with the committed files, structurally.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..exporting import Drift, ExportResult, dumps, export, file_drift, with_fixed_types
from ..exporting.schema_sources import SchemaSources, read_schema_sources
from ..linting.config import ConfigError
from ..linting.run import Contracts, Gate, LintRequest, run
from ..model import Diagnostic, ToolContract
from ..targets import EXPORT_TARGETS
from .running import CliError
from .sources import TargetUnreadable, load_sources


@dataclass(frozen=True)
class ExportRequest:
    paths: tuple[str, ...]
    target: str
    strict: bool = False
    output: str | None = None
    check: bool = False
    fix_types: bool = False
    settings: Mapping[str, Any] = field(default_factory=dict)
    input_format: str = "auto"
    allow_lint_errors: bool = False
    cwd: str = "."


@dataclass
class ExportRun:
    result: ExportResult
    written: list[str] = field(default_factory=list)     # files written
    stdout: str | None = None                             # the document, when no -o was given
    drift: dict[str, list[Drift]] | None = None          # --check: file → changes (empty: up to date)
    missing: list[str] = field(default_factory=list)     # --check: expected files not written yet
    warnings: list[str] = field(default_factory=list)     # flags that change nothing, and the like


# what an export repairs itself, so lint's error does not stop it: names are mapped and routed back
REPAIRED_BY_EXPORT = frozenset({"N001", "N005"})
LISTED = 10  # findings a refusal lists one by one; past them, counts per code


class LintRefusal(Exception):
    """The tools have lint errors and --allow-lint-errors was not given: nothing is written (exit 1)."""

    def __init__(self, findings: list[Diagnostic]) -> None:
        super().__init__(f"{len(findings)} lint error(s)")
        self.findings = findings

    def lines(self) -> list[str]:
        tools = len({(d.file, d.tool) for d in self.findings})
        out = [f"refused: lint reports {len(self.findings)} error(s) in {tools} tool(s), and an export would ship "
               f"them; fix them (each is listed with its file, line, JSON Pointer and fix) or export anyway with "
               f"--allow-lint-errors"]
        out += [_listed(d) for d in self.findings[:LISTED]]
        rest = Counter(d.code for d in self.findings[LISTED:])
        if rest:
            by_count = sorted(rest.items(), key=lambda kv: (-kv[1], kv[0]))
            out.append(f"  and {sum(rest.values())} more: " + ", ".join(f"{code} ×{count}" for code, count in by_count))
        if any(d.code == "S002" for d in self.findings):
            out.append("  (S002: --fix-types applies the safe type fixes first, \"dict\" → \"object\")")
        return out


def _listed(finding: Diagnostic) -> str:
    """One finding of a refusal: file, line and pointer, tool, code, message and, where it does not say it, the fix
    (a handoff or state schema is linted by export alone, so this line is all the user sees of it)."""
    where = ":".join(str(x) for x in (finding.file, finding.line) if x is not None)
    if finding.pointer:
        where += f" {finding.pointer}"
    fix = finding.fix.description if finding.fix is not None else ""
    told = f"{finding.message}; fix: {fix}" if fix and fix not in finding.message else finding.message
    return f"  {where}  {finding.tool or '-'}  {finding.code}  {told}".replace("\n", " ")


def lint_errors(tools: list[ToolContract], request: ExportRequest,
                schemas: SchemaSources | None = None) -> list[Diagnostic]:
    """The errors `toolclause lint` reports on these tools (the configuration found from the working folder,
    without its targets: the export projects for its own target, and reports what it cannot keep), less
    those the export repairs, in lint's order.  Schemas for structured-output are checked by the schema rules
    only, as written, and a `$ref` to another schema of theirs by `$id` is no error: the export copies it in."""
    reads_schemas = EXPORT_TARGETS[request.target].reads == "schemas"
    if request.fix_types:
        tools = [with_fixed_types(t) for t in tools]
    try:
        outcome = run(LintRequest(reader=Contracts(tuple(tools)), discover_from=request.cwd, targets=frozenset(),
                                  select=("S",) if reads_schemas else None, ignore=("S011",) if reads_schemas else None,
                                  gate=Gate(repaired=REPAIRED_BY_EXPORT)))
    except ConfigError as exc:
        raise CliError(str(exc)) from None
    return outcome.blocking if schemas is None else _schema_errors(outcome.blocking, schemas)


def _schema_errors(errors: list[Diagnostic], schemas: SchemaSources) -> list[Diagnostic]:
    """A schema's S005 on a `$ref` by `$id` is no error when the project has that schema (the export copies it
    in), and names the `$id`s it does have when it has not."""
    out = []
    for finding in errors:
        if finding.code != "S005":
            out.append(finding)
        elif not schemas.resolves(finding):
            out.append(schemas.explained(finding))
    return out


def parse_settings(pairs: tuple[str, ...]) -> dict[str, str]:
    """`--set KEY=VALUE` pairs.  Every setting is text: a quoted JSON string ("x") is unquoted, and a
    JSON object or array is refused rather than put where a target wants a string (an A2A name)."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise CliError(f"--set {pair!r}: write KEY=VALUE")
        try:
            parsed = json.loads(value)
        except (json.JSONDecodeError, RecursionError, ValueError):
            parsed = value
        if isinstance(parsed, (dict, list)):
            raise CliError(f"--set {key.strip()}=…: a setting is text, not a JSON "
                           f"{'object' if isinstance(parsed, dict) else 'array'}")
        out[key.strip()] = parsed if isinstance(parsed, str) else value.strip()
    return out


def _stem(request: ExportRequest) -> str:
    return request.target + ("-strict" if request.strict else "")


def _is_directory_output(output: str) -> bool:
    path = Path(output)
    return path.is_dir() or output.endswith(("/", "\\")) or (not path.exists() and path.suffix == "")


def _map_file(output: str, request: ExportRequest) -> str:
    """Where the routing map goes: `<target>.names.json` in a folder, `FILE.names.json` beside a file."""
    if _is_directory_output(output):
        return str(Path(output) / f"{_stem(request)}.names.json")
    return str(Path(output).with_suffix(".names.json"))


def expected_files(request: ExportRequest, result: ExportResult) -> dict[str, str]:
    """{path: text} the export writes for `-o`: the payload (one shape per target, whatever was renamed)
    and, when names moved, the routing map beside it."""
    assert request.output is not None
    payload = str(Path(request.output) / f"{_stem(request)}.json") if _is_directory_output(request.output) \
        else request.output
    out = {payload: dumps(result.payload)}
    routing = result.routing()
    if routing:
        out[_map_file(request.output, request)] = dumps(routing)
    return out


def flag_warnings(request: ExportRequest) -> list[str]:
    """Flags that would change nothing, said instead of passed over silently."""
    target = EXPORT_TARGETS[request.target]
    out = []
    if request.strict and not target.strict:
        out.append(f"--strict changes nothing for {request.target}: it has no strict mode")
    if request.target == "a2a" and "url" not in request.settings:
        out.append("the AgentCard's interface url is http://localhost:8000/a2a, which only this machine can reach; "
                   "give the agent's address with --set url=…")
    return out


def _tools(request: ExportRequest):
    try:
        loaded = load_sources(request.paths, None if request.input_format == "auto" else request.input_format)
    except TargetUnreadable as exc:
        raise CliError(str(exc)) from None
    if loaded.unreadable:
        first = loaded.unreadable[0]
        line = f":{first.line}" if first.line is not None else ""
        raise CliError(f"{len(loaded.unreadable)} input(s) could not be read (first: {first.file}{line}"
                       f"{first.pointer}: {first.message})")
    if not loaded.tools:
        raise CliError("no tool definitions found in " + ", ".join(request.paths))
    return loaded.tools


def _schemas(request: ExportRequest) -> SchemaSources:
    try:
        schemas = read_schema_sources(request.paths)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if not schemas.documents:
        raise CliError("no handoff, state or other JSON Schema found in " + ", ".join(request.paths))
    return schemas


def run_export(request: ExportRequest) -> ExportRun:
    if request.target not in EXPORT_TARGETS:
        raise CliError(f"unknown export target {request.target!r}; choose from {', '.join(EXPORT_TARGETS)}")
    if request.check and request.output is None:
        raise CliError("--check compares with the committed export: give it with -o FILE or -o DIR")
    schemas = _schemas(request) if EXPORT_TARGETS[request.target].reads == "schemas" else None
    # schemas are linted as written, in their files, and exported with the schemas they refer to copied in
    source = _tools(request) if schemas is None else schemas.bundled()
    if not request.allow_lint_errors:
        findings = lint_errors(source if schemas is None else schemas.as_written(), request, schemas)
        if findings:
            raise LintRefusal(findings)
    try:
        result = export(source, request.target, request.strict, fix_types=request.fix_types, settings=request.settings)
    except ValueError as exc:  # a bad --set value
        raise CliError(str(exc)) from None
    run = ExportRun(result=result, warnings=flag_warnings(request))
    if request.output is None:
        run.stdout = dumps(result.payload)
        if result.routing():
            run.warnings.append("names moved and stdout holds only the tools: write with -o FILE to keep the "
                                "nameMap/propertyMap beside them (FILE.names.json)")
        return run
    files = expected_files(request, result)
    if request.check:
        committed = _committed(files, request)
        run.drift = file_drift({p: json.loads(t) for p, t in files.items()}, committed)
        run.missing = [p for p in files if committed.get(p) is None]
        return run
    for path, text in files.items():
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            Path(path).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise CliError(f"-o {path}: cannot write: {exc.strerror or exc}") from None
        run.written.append(path)
    return run


def _committed(files: dict[str, str], request: ExportRequest) -> dict[str, Any]:
    """What is on disk now: the expected files, and in a folder any stale map file of this export."""
    out: dict[str, Any] = {}
    paths = set(files)
    if request.output is not None:
        paths.add(_map_file(request.output, request))
    for path in sorted(paths):
        file = Path(path)
        if not file.exists():
            out[path] = None
            continue
        try:
            out[path] = json.loads(file.read_text(encoding="utf-8"))
        except (ValueError, OSError) as exc:
            raise CliError(f"--check: {path}: cannot read the committed export: {exc}") from None
    return out
