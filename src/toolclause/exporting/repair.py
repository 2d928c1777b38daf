"""S002's safe fixes, applied to a copy: `"type": "dict"` → `"object"` and the rest of the certain table.

The exporter never repairs silently (an unknown type name is a loss); callers
that want the repaired contract — the corpus tests, `toolclause export
--fix-types` — ask for it explicitly.  The table is `schema.keywords.type_alias`,
the one S002 itself reads.  Reading a Gemini or RapidAPI schema as the JSON
Schema it means (`as_json_schema`) is no repair: it lives in `schema.dialects`.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..model import ToolContract
from ..schema.dialects import as_json_schema, copy_nodes
from ..schema.keywords import type_alias


def fix_types(schema: Any, depth: int = 0) -> Any:
    """A copy of `schema` with every safely mappable type name replaced (and `any` removed)."""
    return copy_nodes(schema, _fix_node, depth)


def _fix_node(node: dict[str, Any]) -> None:
    if "type" in node:
        fixed = _fixed_type(node["type"])
        if fixed is _REMOVE:
            del node["type"]
        else:
            node["type"] = fixed


_REMOVE = object()


def _fixed_type(value: Any) -> Any:
    if isinstance(value, str):
        known, json_type = type_alias(value)
        if not known:
            return value
        return _REMOVE if json_type is None else json_type
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        mapped = [_fixed_type(v) for v in value]
        if any(m is _REMOVE for m in mapped):
            return _REMOVE
        return list(dict.fromkeys(mapped))
    return value


def with_fixed_types(tool: ToolContract) -> ToolContract:
    return dataclasses.replace(tool, input_schema=fix_types(tool.input_schema) if tool.input_schema else None,
                               output_schema=fix_types(tool.output_schema) if tool.output_schema else None)


__all__ = ["as_json_schema", "fix_types", "with_fixed_types"]
