"""invalid-tool-name (N001)

## What it does
Checks the tool name against what the selected targets accept (characters,
length, first character).  With no target selected it checks the portable rule
`^[a-zA-Z0-9_-]{1,64}$` (what OpenAI, Anthropic and Gemini all accept).  An
empty or missing name is reported too.  The message names the characters or the
length that break the rule and suggests a name that keeps to it.

## Why is this bad?
Providers reject the whole request when one tool name breaks their pattern
(OpenAI and Anthropic: "String should match pattern"), so not one tool in the
list can be called.  Dots, spaces and slashes are the usual culprits
(`math.factorial`, `Search Files`).

## Example
```json
{"name": "math.factorial", "description": "Computes n! for a non-negative integer n and returns it.",
 "inputSchema": {"type": "object", "properties": {"n": {"type": "integer", "description": "The number"}}}}
```

## Use instead
```json
{"name": "math_factorial", "description": "Computes n! for a non-negative integer n and returns it.",
 "inputSchema": {"type": "object", "properties": {"n": {"type": "integer", "description": "The number"}}}}
```

## Fix safety
Renaming a tool changes what callers and prompts refer to, so the suggested
name is never applied by `--fix`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from ...model import Edit, Fix, Severity, ToolContract
from ...targets import TOOL_NAME_RULES
from ..base import Finding, LintContext, Rule
from ._names import RuleGroups, group_by_rule, problems, suggest, who


@functools.cache
def _rule_groups(targets: frozenset[str]) -> RuleGroups:
    """The name rules the selected targets apply, one group per distinct rule."""
    return group_by_rule(sorted(t for t in targets if t in TOOL_NAME_RULES) or ["default"], TOOL_NAME_RULES)


class InvalidToolName(Rule):
    code = "N001"
    name = "invalid-tool-name"
    severity = Severity.ERROR

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        name = tool.name if isinstance(tool.name, str) else ""
        if not name.strip():
            yield Finding("/name", "the tool has no name; every provider requires one "
                                   "(letters, digits, '_' and '-', 1 to 64 characters)",
                          Fix("add a descriptive name such as 'search_orders'", safe=False))
            return
        groups = _rule_groups(ctx.targets)
        broken = [(rule, targets, why) for rule, targets in groups if (why := problems(name, rule))]
        if not broken:
            return
        proposal = suggest(name, [rule for rule, _, _ in broken])
        for rule, targets, why in broken:
            message = f"tool name '{name}' is invalid{who(targets)}: {'; '.join(why)} (allowed: {rule.explain})"
            if proposal:
                message += f"; rename it, e.g. '{proposal}'"
                fix = Fix(f"rename the tool to '{proposal}'", safe=False, edits=(Edit("set", "/name", proposal),))
            else:
                fix = Fix("rename the tool using only " + rule.explain, safe=False)
            yield Finding("/name", message, fix)
