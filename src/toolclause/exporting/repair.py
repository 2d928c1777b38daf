"""S002's safe fixes, applied to a copy: `"type": "dict"` → `"object"` and the rest of the certain table.

The exporter never repairs silently (an unknown type name is a loss); callers
that want the repaired contract — the corpus tests, `toolclause export
--fix-types` — ask for it explicitly.  The table is `schema.keywords.type_alias`,
the one S002 itself reads.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..model import ToolContract
from ..schema.keywords import type_alias

_MAX_DEPTH = 200


# keywords whose value maps names to subschemas: the names are data, never keywords
# (a property called "type" is not the `type` keyword)
_NAME_MAPS = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"})


def fix_types(schema: Any, depth: int = 0) -> Any:
    """A copy of `schema` with every safely mappable type name replaced (and `any` removed)."""
    if depth > _MAX_DEPTH:
        return schema
    if isinstance(schema, list):
        return [fix_types(item, depth + 1) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if key in _NAME_MAPS and isinstance(value, dict):
            out[key] = {name: fix_types(sub, depth + 1) for name, sub in value.items()}
        elif key == "type":
            fixed = _fixed_type(value)
            if fixed is not _REMOVE:
                out[key] = fixed
        elif key in ("enum", "const", "default", "examples", "example", "required"):
            out[key] = value
        else:
            out[key] = fix_types(value, depth + 1)
    return out


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
