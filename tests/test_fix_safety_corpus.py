"""Every safe fix, applied to real tool listings, keeps every value the tool documents and every key.

For each real server snapshot (and the public corpora, when they are beside the checkout), the
safe fixes of a default lint are applied as `--fix` applies them.  Then, for every tool:

* every key the user wrote is still there (a fix adds or changes, never removes);
* every documented call — built from the `default`, `examples`, `const` and `enum` values the
  schema itself gives, at every depth — that the original schema accepted, the fixed schema
  accepts too.  Closing a free-form map, or adding a bound the text contradicts, fails here.
"""

from __future__ import annotations

import copy
import glob
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest

import toolclause
from toolclause.linting.fix import apply_fixes

SERVERS = Path(__file__).parent / "data" / "servers"
CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"
SNAPSHOTS = sorted(p.name for p in SERVERS.glob("*.json") if p.name != "index.json")


def documented_values(schema: Any, depth: int = 0) -> list[Any]:
    """Values the schema itself documents for one place: its default, examples, const, enum, or an
    object built from its properties' documented values."""
    if not isinstance(schema, dict) or depth > 8:
        return []
    values: list[Any] = []
    if "default" in schema:
        values.append(schema["default"])
    if isinstance(schema.get("examples"), list):
        values += schema["examples"][:3]
    if "const" in schema:
        values.append(schema["const"])
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        values.append(schema["enum"][0])
    properties = schema.get("properties")
    if not values and isinstance(properties, dict):
        built = {}
        for name, sub in properties.items():
            found = documented_values(sub, depth + 1)
            if found:
                built[name] = found[0]
        if built:
            values.append(built)
    return values


def documented_calls(schema: Any) -> Iterator[dict]:
    """One call holding every property's first documented value, then one per further value."""
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return
    found = {name: documented_values(sub) for name, sub in properties.items()}
    base = {name: values[0] for name, values in found.items() if values}
    if base:
        yield base
    for name, values in found.items():
        for value in values[1:]:
            yield {**base, name: value}


def key_pointers(value: Any, at: str = "") -> Iterator[str]:
    if isinstance(value, dict):
        for key, sub in value.items():
            here = f"{at}/{key}"
            yield here
            yield from key_pointers(sub, here)
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            yield from key_pointers(sub, f"{at}/{i}")


JSON_TYPES = ("string", "number", "integer", "boolean", "object", "array", "null")


def value_at(value: Any, pointer: str) -> Any:
    for token in pointer.split("/")[1:]:
        value = value[int(token)] if isinstance(value, list) else value[token]
    return value


def accepts(schema: Any, call: dict) -> bool | None:
    try:
        return jsonschema_rs.validator_for(schema).is_valid(call)
    except Exception:  # a schema the validator cannot compile (the lint reports it): no verdict
        return None


def check_fixed(original: list[dict], fixed: list[dict], where: str) -> list[str]:
    problems = []
    for before, after in zip(original, fixed, strict=True):
        name = before.get("name") or (before.get("tool") or {}).get("name") if isinstance(before.get("tool"), dict) \
            else before.get("name")
        before, after = (before["tool"], after["tool"]) if isinstance(before.get("tool"), dict) else (before, after)
        # the one key a fix may drop: a `type` that names no JSON Schema type ("any" means no type at all)
        lost = {p for p in set(key_pointers(before)) - set(key_pointers(after))
                if not (p.endswith("/type") and value_at(before, p) not in JSON_TYPES)}
        if lost:
            problems.append(f"{where} {name}: keys removed {sorted(lost)[:3]}")
        schema_before = before.get("inputSchema") or before.get("parameters") or before.get("input_schema")
        schema_after = after.get("inputSchema") or after.get("parameters") or after.get("input_schema")
        for call in documented_calls(schema_before):
            if accepts(schema_before, call) and accepts(schema_after, call) is False:
                shown = json.dumps(call)[:200]
                problems.append(f"{where} {name}: the fixed schema rejects the documented call {shown}")
    return problems


def fixed_copy(document: Any, source: Any) -> Any:
    fixed = copy.deepcopy(document)
    apply_fixes(fixed, toolclause.lint(source))
    return fixed


@pytest.mark.parametrize("file", SNAPSHOTS)
def test_safe_fixes_keep_every_documented_call_of_a_real_server(file):
    document = json.loads((SERVERS / file).read_text(encoding="utf-8"))
    fixed = fixed_copy(document, SERVERS / file)
    assert check_fixed(document["tools"], fixed["tools"], file) == []


@pytest.mark.skipif(not CORPORA.exists(), reason="../shared/corpora is absent")
def test_safe_fixes_keep_every_documented_call_of_the_corpora():
    problems = []
    for path in sorted(glob.glob(str(CORPORA / "*" / "tools.jsonl"))):
        lines = Path(path).read_text(encoding="utf-8").splitlines()[:400]  # a bounded sample of each source
        for number, line in enumerate(lines, 1):
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if not isinstance(record, dict):
                continue
            fixed = fixed_copy(record, record)
            problems += check_fixed([record], [fixed], f"{Path(path).parent.name}:{number}")
    assert problems == []
