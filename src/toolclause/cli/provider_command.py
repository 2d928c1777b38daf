"""`toolclause export --schema FILE --target T [--strict] [--kind output] --format json`: one JSON Schema
converted for one provider, for those who do not call `toolclause.to_provider` from Python.

Prints `{"schema": …, "losses": [{"pointer", "keyword", "lost"}]}` (pointers into FILE's schema) on
standard output, or writes it to `-o FILE`.
"""

from __future__ import annotations

import json
from pathlib import Path


class SchemaFileError(Exception):
    """FILE cannot be read as one JSON Schema object, or the target cannot take it (one line)."""


def provider_document(schema_file: str, target: str, strict: bool, kind: str) -> str:
    """The JSON text `export --schema` prints."""
    from ..exporting.provider import to_provider

    try:
        schema = json.loads(Path(schema_file).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise SchemaFileError(f"--schema: {schema_file} cannot be read ({type(exc).__name__})") from None
    except json.JSONDecodeError as exc:
        raise SchemaFileError(f"--schema: {schema_file} is not JSON (line {exc.lineno}, column {exc.colno})") \
            from None
    if not isinstance(schema, dict):
        raise SchemaFileError(f"--schema: {schema_file} holds a JSON {type(schema).__name__}, not a schema object")
    try:
        found = to_provider(schema, target, strict=strict, kind=kind)
    except ValueError as exc:
        raise SchemaFileError(f"--schema: {exc}") from None
    losses = [{key: value for key, value in loss.to_dict().items() if key != "tool"} for loss in found.losses]
    return json.dumps({"schema": found.schema, "losses": losses}, ensure_ascii=False, indent=2) + "\n"


__all__ = ["SchemaFileError", "provider_document"]
