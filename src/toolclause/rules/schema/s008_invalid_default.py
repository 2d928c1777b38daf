"""invalid-default (S008)

## What it does
Validates each `default` and each entry of `examples` against the schema it
sits in (with the root's `$defs`/`definitions`, so local references resolve)
and reports the values that fail: a `null` default on a property whose type
does not allow null, `"false"` on a boolean, a default outside the `enum`.
Type names S002 can read (`float`, `dict`) are read that way; a schema that
cannot be compiled, or references outside the definitions, is skipped.

A contract's own examples are checked the same way: every argument object in
`examples.valid` (bare, or as `{"arguments": …, "result": …}`) must pass the
input schema, and every `examples.invalid`
entry refused as `VALIDATION_ERROR` (`{"arguments": …, "code": "VALIDATION_ERROR"}`)
must fail it — an invalid example the
schema accepts documents a rule the schema does not enforce.

## Why is this bad?
A model copies defaults and examples into its calls.  A default the schema
itself rejects teaches the model an invalid call, and the code behind the
tool may apply a value it can never receive through validation.

## Example
```json
{"name": "list_issues", "description": "List open issues of a repository, newest first.",
 "inputSchema": {"type": "object",
                 "properties": {"repo": {"type": "string"},
                                "label": {"type": "string", "default": null},
                                "closed": {"type": "boolean", "default": "false"}},
                 "required": ["repo"]}}
```

## Use instead
```json
{"name": "list_issues", "description": "List open issues of a repository, newest first.",
 "inputSchema": {"type": "object",
                 "properties": {"repo": {"type": "string"},
                                "label": {"type": ["string", "null"], "default": null},
                                "closed": {"type": "boolean", "default": false}},
                 "required": ["repo"]}}
```

## Fix safety
Whether the default or the type is wrong needs a person, so `--fix` applies
nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from ...model import Fix, Severity, ToolContract
from ...schema.keywords import show_value
from ...schema.meta import is_safe_to_validate
from ...schema.nullability import nullable_type, openapi_nullable
from ...schema.walk import NodeKind, SchemaNode
from ..base import Finding, LintContext, Rule
from ._common import is_rapidapi, root_of, valid_examples
from ._value_check import short_message, value_errors


class InvalidDefault(Rule):
    code = "S008"
    name = "invalid-default"
    severity = Severity.WARNING
    keywords = frozenset({"default", "examples"})
    roles = frozenset({"input", "output"})

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        if is_rapidapi(tool):
            return  # RapidAPI defaults are query-string text by design ("10", "true", "" for none)
        schema = node.schema
        candidates: list[tuple[str, str, Any]] = []
        if "default" in schema:
            candidates.append(("default", f"{node.pointer}/default", schema["default"]))
        examples = schema.get("examples")
        if isinstance(examples, list):
            candidates.extend((f"example {i}", f"{node.pointer}/examples/{i}", v) for i, v in enumerate(examples))
        for label, pointer, value in candidates:
            if value is None and openapi_nullable(schema):
                continue  # OpenAPI's way of admitting null
            if not is_safe_to_validate(value):
                continue
            problem = value_errors(node, root_of(tool, node.role), value)
            if problem is not None:
                yield Finding(pointer, _message(label, value, problem, schema), Fix(_fix(value)))


    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        examples = tool.extra.get("examples")
        schema = tool.input_schema
        if not isinstance(examples, dict) or not isinstance(schema, dict):
            return
        root = SchemaNode("/inputSchema", schema, NodeKind.ROOT, None, None, 0, False, "input")
        for index, value, wrapped, _, _ in valid_examples(tool):
            if not is_safe_to_validate(value):
                continue
            problem = value_errors(root, schema, value)
            if problem is not None:
                where = f" at '{problem[2]}'" if problem[2] else ""
                yield Finding(f"/examples/valid/{index}" + ("/arguments" if wrapped else ""), (
                    f"valid example {index} fails the input schema{where}: {short_message(problem[1])}; fix the "
                    f"example, or the schema if the example shows a call it must accept"),
                    Fix("make the example satisfy the input schema", safe=False))
        invalid = examples.get("invalid")
        for index, entry in enumerate(invalid if isinstance(invalid, list) else ()):
            value = entry.get("arguments") if isinstance(entry, dict) and "arguments" in entry else entry
            code = entry.get("code") if isinstance(entry, dict) and "arguments" in entry else None
            if code not in (None, "VALIDATION_ERROR"):
                continue  # refused by the function (NOT_FOUND, a business rule), not by the schema
            if not is_safe_to_validate(value) or not _checkable(root, schema):
                continue
            if value_errors(root, schema, value) is None:
                yield Finding(f"/examples/invalid/{index}", (
                    f"invalid example {index} passes the input schema, so the rule it documents is not enforced "
                    f"before the call; tighten the schema (a pattern, a minimum, an enum) or move the example to "
                    f"'valid'"), Fix("make the schema reject the invalid example", safe=False))


def _checkable(root: SchemaNode, schema: dict[str, Any]) -> bool:
    """Whether the schema compiles here: an uncompilable one accepts nothing and proves nothing."""
    from ._value_check import _validator_for
    return _validator_for(root, schema) is not None


def _nullable(declared: Any) -> str:
    """The `type` that also admits null, written with standard type names."""
    names = nullable_type(declared)
    return json.dumps({"type": names})[1:-1] if names else '"type": [..., "null"]'


def _declared(schema: dict[str, Any]) -> str:
    declared = schema.get("type")
    if isinstance(declared, str):
        return f"'{declared}'"
    if isinstance(declared, list):
        return "[" + ", ".join(f"'{t}'" for t in declared if isinstance(t, str)) + "]"
    return "the schema"


def _message(label: str, value: Any, problem: tuple[str, str, str], schema: dict[str, Any]) -> str:
    kind, message, path = problem
    shown = show_value(value)
    if kind == "Type" and not path:
        if value is None:
            return (f"{label} null is not allowed by the type {_declared(schema)}: make it nullable "
                    f"({_nullable(schema.get('type'))}) or drop the default")
        hint = ""
        if isinstance(value, str) and (value in ("true", "false") or _numeric(value)):
            hint = " (write it without quotes)"
        return f"{label} {shown} does not match the declared type {_declared(schema)}{hint}"
    if kind == "Enum" and not path:
        return f"{label} {shown} is not one of the enum values"
    if kind == "Constant" and not path:
        return f"{label} {shown} is not the const value {show_value(schema.get('const'))}"
    if kind == "Pattern" and not path and isinstance(schema.get("pattern"), str):
        return f"{label} {shown} does not match the pattern {show_value(schema['pattern'], 80)}"
    where = f" at '{path}'" if path else ""
    return f"{label} {shown} fails its own schema{where}: {short_message(message)}"


def _fix(value: Any) -> str:
    if value is None:
        return "make the type nullable or remove the default"
    return "change the value so that it satisfies the schema, or remove it"


def _numeric(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
