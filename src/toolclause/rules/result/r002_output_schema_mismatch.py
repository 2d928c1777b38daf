"""output-schema-mismatch (R002)

## What it does
Checks the results a contract shows for its own examples against its
`outputSchema`: each entry of `examples.valid` written as
`{"arguments": {…}, "result": {…}}` must have a `result` that satisfies the
output schema, the same way `toolclause test` checks fixtures.

## Why is this bad?
An example result is what the author says the tool returns, and what readers,
tests and sometimes the model take as the truth.  If it does not fit the
declared `outputSchema`, one of them is wrong: either the tool's real results
break their contract (MCP clients validate `structuredContent` against
`outputSchema` and reject the call), or the schema describes something the tool
never returns, and a consumer written against it breaks.

## Example
```json
{"name": "get_order_status", "description": "Returns the status of one order by its id.",
 "inputSchema": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]},
 "outputSchema": {"type": "object", "properties": {"status": {"type": "string", "enum": ["placed", "delivered"]}},
                  "required": ["status"]},
 "examples": {"valid": [{"arguments": {"order_id": "ord_1"}, "result": {"status": "shipped"}}]}}
```

## Use instead
```json
{"name": "get_order_status", "description": "Returns the status of one order by its id.",
 "inputSchema": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]},
 "outputSchema": {"type": "object",
                  "properties": {"status": {"type": "string", "enum": ["placed", "shipped", "delivered"]}},
                  "required": ["status"]},
 "examples": {"valid": [{"arguments": {"order_id": "ord_1"}, "result": {"status": "shipped"}}]}}
```

## Fix safety
Which side is wrong — the example or the schema — is the author's call, so
nothing is changed automatically; the message names the failing place.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...model import Fix, Severity, ToolContract
from ...schema.meta import is_safe_to_validate
from ...schema.walk import NodeKind, SchemaNode
from ..base import Finding, LintContext, Rule
from ..schema._common import valid_examples
from ..schema._value_check import short_message, value_errors


class OutputSchemaMismatch(Rule):
    code = "R002"
    name = "output-schema-mismatch"
    severity = Severity.ERROR

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        schema = tool.output_schema
        if not isinstance(schema, dict):
            return
        root = SchemaNode("/outputSchema", schema, NodeKind.ROOT, None, None, 0, False, "output")
        for index, _, _, has_result, result in valid_examples(tool):
            if not has_result or not is_safe_to_validate(result):
                continue  # a bare argument object shows a call, not its result
            problem = value_errors(root, schema, result)
            if problem is not None:
                where = f" at '{problem[2]}'" if problem[2] else ""
                yield Finding(f"/examples/valid/{index}/result", (
                    f"the result of valid example {index} does not satisfy the outputSchema{where}: "
                    f"{short_message(problem[1])}; fix the example, or the schema if the tool really returns this"),
                    Fix("make the example result satisfy the outputSchema", safe=False))
