"""Small helpers shared by the S rules."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from ...model import ToolContract
from ...schema.keywords import JSON_TYPES, type_alias

SCHEMA_EXAMPLE = '{"type": "string"}'


def is_openapi_schema(tool: ToolContract, role: str = "input") -> bool:
    """Whether the schema is Gemini's OpenAPI-style `parameters`/`response` rather than JSON Schema.

    That dialect spells types in capitals (`STRING`) and may write int64 bounds
    as strings, so those spellings are not errors there.
    """
    if tool.origin.format != "gemini":
        return False
    source = tool.origin.pointers.entries.get("/inputSchema" if role == "input" else "/outputSchema", "")
    return source in ("/parameters", "/response")


def is_rapidapi(tool: ToolContract) -> bool:
    """ToolBench/RapidAPI parameter records: not JSON Schema but a list of query parameters,
    whose types are spelt in capitals (`STRING`, `NUMBER`) and whose defaults are always
    query-string text (`"10"`, `"true"`, `""` for none)."""
    return tool.origin.format == "rapidapi"


def capitalised_types_are_native(tool: ToolContract, role: str) -> bool:
    """Whether `STRING`, `NUMBER`… are the source format's own spelling, not a mistake."""
    return is_rapidapi(tool) or is_openapi_schema(tool, role)


def root_of(tool: ToolContract, role: str) -> Any:
    return tool.input_schema if role == "input" else tool.output_schema


def base_pointer(role: str) -> str:
    return "/inputSchema" if role == "input" else "/outputSchema"


def type_hint(value: Any) -> str:
    """'; write {"type": "string"}' when a string where a schema belongs names a type."""
    if isinstance(value, str):
        known, json_type = type_alias(value)
        if known and json_type in JSON_TYPES:
            return f'; write {{"type": "{json_type}"}}'
    return ""



class ValidExample(NamedTuple):
    position: int     # its index in examples.valid (a field named `index` would hide tuple.index)
    arguments: Any
    wrapped: bool     # written as {"arguments": {…}, "result": {…}}
    has_result: bool
    result: Any


def valid_examples(tool: ToolContract) -> Iterator[ValidExample]:
    """Each `examples.valid` entry: the argument object itself, or `{"arguments": {…}, "result": {…}}` with
    the result the call must give (S008 checks the arguments, R002 the result)."""
    examples = tool.extra.get("examples")
    valid = examples.get("valid") if isinstance(examples, dict) else None
    for index, entry in enumerate(valid if isinstance(valid, list) else ()):
        wrapped = isinstance(entry, dict) and isinstance(entry.get("arguments"), dict)
        if wrapped:
            yield ValidExample(index, entry["arguments"], True, "result" in entry, entry.get("result"))
        else:
            yield ValidExample(index, entry, False, False, None)
