"""Running `toolclause export`: request in, files (or a drift report) out.

Kept apart from argument parsing (main.py): this module reads inputs and
writes outputs but never prints or exits; problems the user must fix are
`CliError` (exit 2).  `--check` writes nothing: it regenerates the export in
memory and compares it with the committed files, structurally.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..exporting import Drift, ExportResult, dumps, export, file_drift, read_document
from ..exporting.structured_output import schemas_as_contracts
from ..loading import load_paths
from ..targets import EXPORT_TARGETS
from .running import CliError


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


@dataclass
class ExportRun:
    result: ExportResult
    written: list[str] = field(default_factory=list)     # files written
    stdout: str | None = None                             # the document, when no -o was given
    drift: dict[str, list[Drift]] | None = None          # --check: file → changes (empty: up to date)


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


def expected_files(request: ExportRequest, result: ExportResult) -> dict[str, str]:
    """{path: text} the export writes for `-o` (one file, or the payload and its name map in a folder)."""
    assert request.output is not None
    if _is_directory_output(request.output):
        return {str(Path(request.output) / name): dumps(doc) for name, doc in result.files(_stem(request)).items()}
    return {request.output: dumps(result.document())}


def _tools(request: ExportRequest):
    loaded = load_paths(request.paths, None if request.input_format == "auto" else request.input_format)
    if loaded.unreadable:
        first = loaded.unreadable[0]
        line = f":{first.line}" if first.line is not None else ""
        raise CliError(f"{len(loaded.unreadable)} input(s) could not be read (first: {first.file}{line}"
                       f"{first.pointer}: {first.message})")
    if not loaded.tools:
        raise CliError("no tool definitions found in " + ", ".join(request.paths))
    return loaded.tools


def _schemas(request: ExportRequest):
    schemas: dict[str, Any] = {}
    for raw in request.paths:
        path = Path(raw)
        schema_files = (p for p in path.rglob("*") if p.suffix in (".json", ".yaml", ".yml"))
        files = sorted(schema_files) if path.is_dir() else [path]
        for file in files:
            if not file.exists():
                raise CliError(f"{file}: no such file or folder")
            try:
                schemas[file.stem] = read_document(file)
            except (ValueError, OSError) as exc:
                raise CliError(str(exc)) from None
    return schemas_as_contracts(schemas)


def run_export(request: ExportRequest) -> ExportRun:
    if request.target not in EXPORT_TARGETS:
        raise CliError(f"unknown export target {request.target!r}; choose from {', '.join(EXPORT_TARGETS)}")
    if request.check and request.output is None:
        raise CliError("--check compares with the committed export: give it with -o FILE or -o DIR")
    source = _schemas(request) if EXPORT_TARGETS[request.target].reads == "schemas" else _tools(request)
    try:
        result = export(source, request.target, request.strict, fix_types=request.fix_types, settings=request.settings)
    except ValueError as exc:  # a bad --set value
        raise CliError(str(exc)) from None
    run = ExportRun(result=result)
    if request.output is None:
        run.stdout = dumps(result.document())
        return run
    files = expected_files(request, result)
    if request.check:
        run.drift = file_drift({p: json.loads(t) for p, t in files.items()}, _committed(files, request))
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
    if request.output is not None and _is_directory_output(request.output):
        paths.add(str(Path(request.output) / f"{_stem(request)}.names.json"))
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
