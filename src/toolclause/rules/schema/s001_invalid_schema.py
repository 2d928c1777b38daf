"""invalid-schema (S001)

## What it does
Checks `inputSchema` and `outputSchema` against the meta-schema of the JSON
Schema dialect they declare with `$schema` (2020-12 when they declare none, as
MCP specifies) and names the keyword, where it is, and what it must be:
a string where a schema belongs (`"items": "string"`), `properties` written as
a list, a draft-3 `"required": true` inside a property, a bound written as a
string.  Problems other rules describe better are left to them: a bad `type`
name (S002), contradictory bounds (S009), an invalid `pattern` (S010).

## Why is this bad?
A schema that is not valid JSON Schema is rejected outright by providers and
MCP clients that validate it, or silently misread by those that do not: a
`"required": true` inside a property is ignored, so the model is told the
argument is optional.

## Example
```json
{"name": "search_files", "description": "Search file contents in the workspace for a text query.",
 "inputSchema": {"type": "object",
                 "properties": {"query": {"type": "string", "required": true},
                                "paths": {"type": "array", "items": "string"}}}}
```

## Use instead
```json
{"name": "search_files", "description": "Search file contents in the workspace for a text query.",
 "inputSchema": {"type": "object",
                 "properties": {"query": {"type": "string"},
                                "paths": {"type": "array", "items": {"type": "string"}}},
                 "required": ["query"]}}
```

## Fix safety
Moving a draft-3 `"required": true` into the parent's `required` list, removing
`"required": false`, and wrapping a lone `"required": "name"` in a list keep
the author's meaning, so `--fix` applies them.  Other repairs need a person.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...model import Fix, Severity, ToolContract
from ...schema.keywords import describe_value
from ...schema.meta import dialect_of, meta_errors
from ...schema.walk import MAX_DEPTH
from ..base import Finding, LintContext, Rule
from ._common import is_openapi_schema
from ._meta_messages import explain


class InvalidSchema(Rule):
    code = "S001"
    name = "invalid-schema"
    severity = Severity.ERROR
    fixable = True

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        for role, schema, base in (("input", tool.input_schema, "/inputSchema"),
                                   ("output", tool.output_schema, "/outputSchema")):
            if schema is None:
                continue
            if not isinstance(schema, dict):
                if role == "output":  # a non-object input schema is S004's
                    yield Finding(base, f"outputSchema must be a JSON Schema object such as "
                                        f"{{\"type\": \"object\", \"properties\": {{…}}}}; "
                                        f"got {describe_value(schema)}",
                                  Fix("replace it with an object schema"))
                continue
            yield from self._check_schema(schema, base, tool, role)

    def check_depth_limit(self, pointer: str, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        yield Finding(pointer, f"schema nested deeper than {MAX_DEPTH} levels; nothing below this point was checked "
                               f"(providers reject far shallower schemas: OpenAI strict allows 10 levels)")

    def _check_schema(self, schema: dict, base: str, tool: ToolContract, role: str) -> Iterable[Finding]:
        dialect = dialect_of(schema)
        if dialect is None:
            return  # draft-03 or older: no validator implements it
        errors = meta_errors(schema, dialect)
        if not errors:
            return
        openapi = is_openapi_schema(tool, role)
        for error in errors:
            explained = explain(error, schema, base, dialect, openapi)
            if explained is None:
                continue
            pointer, message, fix = explained
            yield Finding(pointer, message, fix)
