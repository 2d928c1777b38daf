"""invalid-property-name (N005)

## What it does
Checks property names against what the selected targets accept: Anthropic
checks the top-level keys of `input_schema` (`^[a-zA-Z0-9_.-]{1,64}$`), Gemini
every parameter name at every level (a letter or `_` first, then letters,
digits and `_`, at most 64).  With no target selected the portable rule
(the same as Anthropic's) is checked on top-level keys.

## Why is this bad?
The provider rejects the request ("String should match pattern" for
`input_schema.properties`), so no tool in the list can be called.  Spaces,
non-ASCII names (`城市`, `도시`) and `$`-prefixed keys are the usual causes.

## Example
```json
{"name": "get_weather", "description": "Current weather for one city, in metric units.",
 "inputSchema": {"type": "object",
                 "properties": {"city name": {"type": "string", "description": "City name"}}}}
```

## Use instead
```json
{"name": "get_weather", "description": "Current weather for one city, in metric units.",
 "inputSchema": {"type": "object",
                 "properties": {"city_name": {"type": "string", "description": "City name"}}}}
```

## Fix safety
Renaming a property changes the arguments the function receives, so the
suggested name is never applied by `--fix`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from ...model import Fix, Severity, ToolContract
from ...schema.walk import NodeKind, SchemaNode
from ...targets import PROPERTY_NAME_RULES
from ..base import Finding, LintContext, Rule
from ._names import RuleGroups, group_by_rule, problems, suggest, who

# Targets whose property-name rule applies at every depth, not just the top level.
_EVERY_LEVEL = frozenset({"gemini"})


@functools.cache
def _rule_groups(targets: frozenset[str]) -> tuple[RuleGroups, RuleGroups]:
    """(the rules for top-level property names, the rules for names at every level) of the selected targets."""
    selected = sorted(t for t in targets if t in PROPERTY_NAME_RULES) if targets else ["default"]
    return (group_by_rule(selected, PROPERTY_NAME_RULES),
            group_by_rule([t for t in selected if t in _EVERY_LEVEL], PROPERTY_NAME_RULES))


class InvalidPropertyName(Rule):
    code = "N005"
    name = "invalid-property-name"
    severity = Severity.ERROR
    node_kinds = frozenset({NodeKind.PROPERTY})

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        name = node.key
        if not isinstance(name, str):
            return
        plan = _rule_groups(ctx.targets)
        top_level = node.parent is not None and node.parent.is_root
        groups = plan[0] if top_level else plan[1]
        broken = [(rule, targets, why) for rule, targets in groups if (why := problems(name, rule))]
        if not broken:
            return
        proposal = suggest(name, [rule for rule, _, _ in broken])
        for rule, targets, why in broken:
            message = f"property name '{name}' is invalid{who(targets)}: {'; '.join(why)} (allowed: {rule.explain})"
            if proposal:
                message += f"; rename it, e.g. '{proposal}'"
                fix = Fix(f"rename the property to '{proposal}'", safe=False)
            else:
                message += "; use an ASCII name that says what the value is"
                fix = Fix("rename the property using only " + rule.explain, safe=False)
            yield Finding(node.pointer, message, fix)
