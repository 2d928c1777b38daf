"""description-too-long (P004)

## What it does
Finds a tool description, or a description inside the input schema, longer
than the `description-chars` budget (default 1,024 characters).

## Why is this bad?
OpenAI has rejected tool descriptions over 1,024 characters with
`string_above_max_length` ("Invalid 'tools[13].function.description': string
too long"), so a long MCP description breaks the whole request there.  Every
character is also sent on every turn; a property description that long
dwarfs the schema it explains.

## Example
```json
{"name": "run_report", "description": "Builds a sales report. Lorem ipsum dolor sit amet, consectetur adipiscing \
elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud \
exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. Duis aute irure dolor in reprehenderit in \
voluptate velit esse cillum dolore eu fugiat nulla pariatur. Excepteur sint occaecat cupidatat non proident, sunt \
in culpa qui officia deserunt mollit anim id est laborum. Lorem ipsum dolor sit amet, consectetur adipiscing elit, \
sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud \
exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. Duis aute irure dolor in reprehenderit in \
voluptate velit esse cillum dolore eu fugiat nulla pariatur. Excepteur sint occaecat cupidatat non proident, sunt \
in culpa qui officia deserunt mollit anim id est laborum. Lorem ipsum dolor sit amet, consectetur adipiscing elit, \
sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud \
exercitation ullamco laboris.",
 "inputSchema": {"type": "object", "properties": {}, "additionalProperties": false}}
```

## Use instead
```json
{"name": "run_report",
 "description": "Builds this month's sales report for one region and returns it as a table of totals per product.",
 "inputSchema": {"type": "object", "properties": {}, "additionalProperties": false}}
```

## Fix safety
No automatic fix: shortening text is the author's work.

## References
- OpenAI, Function calling (no limit is documented there; the 400 is reported in getsentry/sentry-mcp#106):
  https://developers.openai.com/api/docs/guides/function-calling
"""

from __future__ import annotations

from collections.abc import Iterable

from ...model import Severity, ToolContract
from ...schema.walk import SchemaNode
from ...targets import OPENAI_DESCRIPTION_MAX_CHARS
from ..base import Finding, LintContext, Rule
from ..tightness._shapes import property_label

BUDGET_KEY = "description-chars"


def _limit(ctx: LintContext) -> int:
    value = ctx.budget(BUDGET_KEY, OPENAI_DESCRIPTION_MAX_CHARS)
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    return OPENAI_DESCRIPTION_MAX_CHARS


class DescriptionTooLong(Rule):
    code = "P004"
    name = "description-too-long"
    severity = Severity.WARNING
    keywords = frozenset({"description"})

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        limit = _limit(ctx)
        text = tool.description
        if isinstance(text, str) and len(text) > limit:
            yield Finding("/description", f"the tool description is {len(text):,} characters, over the budget of "
                                          f"{limit:,} ({BUDGET_KEY}); OpenAI has rejected tool descriptions over "
                                          f"{OPENAI_DESCRIPTION_MAX_CHARS:,} characters — keep when-to-call and "
                                          f"what-it-returns, move the rest to property descriptions or docs")

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        text = node.schema.get("description")
        limit = _limit(ctx)
        if isinstance(text, str) and len(text) > limit:
            yield Finding(node.pointer + "/description",
                          f"the description of {property_label(node)} is {len(text):,} characters, over the budget "
                          f"of {limit:,} ({BUDGET_KEY}); a parameter needs a sentence or two — move examples and "
                          f"background elsewhere")
