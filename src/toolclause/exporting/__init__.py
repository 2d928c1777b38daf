"""`toolclause export`: one canonical definition, every protocol's shape.

One module per target, each with the same function (`export_tools(tools,
options) -> ExportResult`), registered here by name.  Projections live in
strict.py, name mapping in names.py, the runtime's half of strict mode in
normalize.py, the drift diff in check.py.

    >>> result = export({"name": "math.factorial", "description": "Computes n!.",
    ...                  "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}},
    ...                 "openai-chat", strict=True)
    >>> result.payload[0]["function"]["name"], result.name_map
    ('math_factorial', {'math_factorial': 'math.factorial'})
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any

from ..model import ToolContract
from ..schema.normalize import to_canonical_arguments, to_strict_arguments
from ..targets import EXPORT_TARGETS
from .base import ExportOptions, ExportResult, Loss, dumps
from .check import Drift, file_drift, structural_diff
from .repair import as_json_schema, with_fixed_types
from .schema_sources import SchemaSources, documents_of_mapping, read_schema_sources

# each target's exporter module, as targets.EXPORT_TARGETS names it
TARGETS: dict[str, ModuleType] = {name: import_module(f".{target.exporter}", __name__)
                                  for name, target in EXPORT_TARGETS.items()}

# the lint targets whose rules an export must pass: (export target, strict) → lint target
LINT_TARGETS: dict[tuple[str, bool], str] = {
    (name, strict): lint_target
    for name, target in EXPORT_TARGETS.items()
    for strict, lint_target in ((False, target.lint_as), (True, target.strict_lint_as)) if lint_target is not None
}


def export(source: Any, target: str, strict: bool = False, *, fix_types: bool = False,
           settings: Mapping[str, Any] | None = None, input_format: str | None = None) -> ExportResult:
    """Export tools (contracts, paths, a JSON string or parsed objects) to one target's shape.

    For `structured-output` the source is JSON Schemas instead: a {name: schema}
    mapping, one schema, or paths of schema files (named by their stem) and
    contracts folders (their handoff and state schemas; fixtures and tools
    left out).  A schema that refers to another by `$id` goes out with a copy
    of it under `$defs`.
    `fix_types` applies S002's safe type fixes first (`"dict"` → `"object"`).
    Returns an `ExportResult`: `payload` (ready for the SDK), `losses`,
    `name_map` and `property_map` (route a call back), `document()` and
    `files(stem)` (what the CLI writes).
    """
    if target not in TARGETS:
        raise ValueError(f"unknown export target {target!r}; choose from {', '.join(TARGETS)}")
    known = TARGETS[target].SETTINGS
    unknown = [key for key in settings or {} if key not in known]
    if unknown:
        raise ValueError(f"{target} takes no setting {unknown[0]!r} "
                         f"({'its settings: ' + ', '.join(known) if known else 'it has no settings'})")
    options = ExportOptions(strict=strict, settings=dict(settings or {}))
    if EXPORT_TARGETS[target].reads == "schemas" and not _is_contracts(source):
        tools = _schema_sources(source).bundled()
    else:
        tools = [as_json_schema(t) for t in _contracts(source, input_format)]
    if fix_types:
        tools = [with_fixed_types(t) for t in tools]
    return TARGETS[target].export_tools(tools, options)


def _is_contracts(source: Any) -> bool:
    """Contracts given as they are (one, or a list): carriers of schemas for `structured-output`."""
    return isinstance(source, ToolContract) or (
        isinstance(source, (list, tuple)) and bool(source) and all(isinstance(t, ToolContract) for t in source))


def _contracts(source: Any, input_format: str | None) -> list[ToolContract]:
    if _is_contracts(source):
        return [source] if isinstance(source, ToolContract) else list(source)
    from ..loading import load

    return load(source, input_format)


def _schema_sources(source: Any) -> SchemaSources:
    """The schemas of a mapping of schemas, one schema, or schema files and folders."""
    if isinstance(source, Mapping) and _looks_like_schema(source):
        return documents_of_mapping({_schema_name(source, "schema"): dict(source)})
    if isinstance(source, Mapping):
        return documents_of_mapping(source)
    return read_schema_sources([source] if isinstance(source, (str, Path)) else list(source))


def read_document(path: Path) -> Any:
    """A JSON or YAML file, parsed (ValueError naming the file when it cannot be)."""
    import json

    text = path.read_text(encoding="utf-8")
    try:
        if path.suffix in (".yaml", ".yml"):
            from ruamel.yaml import YAML

            return YAML(typ="safe", pure=True).load(text)
        return json.loads(text)
    except Exception as exc:  # any parser's error becomes one message naming the file
        raise ValueError(f"{path}: not valid {'YAML' if path.suffix in ('.yaml', '.yml') else 'JSON'}: {exc}") from None


def _looks_like_schema(obj: Mapping[str, Any]) -> bool:
    return any(k in obj for k in ("type", "properties", "$schema", "anyOf", "oneOf", "allOf", "$ref"))


def _schema_name(schema: Mapping[str, Any] | None, fallback: str) -> str:
    title = schema.get("title") if schema is not None else None
    return title if isinstance(title, str) and title else fallback


Exporter = Callable[[Sequence[ToolContract], ExportOptions], ExportResult]

__all__ = ["TARGETS", "LINT_TARGETS", "Drift", "ExportOptions", "ExportResult", "Loss", "dumps", "export",
           "file_drift", "read_document", "structural_diff", "to_canonical_arguments", "to_strict_arguments",
           "with_fixed_types"]
