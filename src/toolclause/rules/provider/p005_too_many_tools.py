"""too-many-tools (P005)

## What it does
Counts the tools of one list (one file, one `tools/list`, one benchmark entry).
A list of more than 10 tools sent whole is reported as info (route: send the
few tools a request needs); one of more than 40, twice the ceiling OpenAI
recommends, as a warning.  A project that sets its own `max-tools` budget gets
a warning for any list over it instead.  With the
`openai` or `openai-strict` target it also reports more than 128 tools, the
hard limit of that API.  (Gemini's limit of 512 declarations is reported by
P003, the Gemini rule, so it is not reported twice.)

## Why is this bad?
Models choose worse the more tools they see: OpenAI recommends fewer than 20
functions at the start of a turn, and every definition costs prompt tokens on
every turn.  Past the hard limits the request fails outright ("Invalid 'tools':
array too long. Expected an array with maximum length 128").

## Example
```json
[{"name": "tool_01", "description": "Look up one thing by id and return it."},
 {"name": "tool_02", "description": "Look up one thing by id and return it."},
 {"name": "tool_03", "description": "Look up one thing by id and return it."},
 {"name": "tool_04", "description": "Look up one thing by id and return it."},
 {"name": "tool_05", "description": "Look up one thing by id and return it."},
 {"name": "tool_06", "description": "Look up one thing by id and return it."},
 {"name": "tool_07", "description": "Look up one thing by id and return it."},
 {"name": "tool_08", "description": "Look up one thing by id and return it."},
 {"name": "tool_09", "description": "Look up one thing by id and return it."},
 {"name": "tool_10", "description": "Look up one thing by id and return it."},
 {"name": "tool_11", "description": "Look up one thing by id and return it."},
 {"name": "tool_12", "description": "Look up one thing by id and return it."},
 {"name": "tool_13", "description": "Look up one thing by id and return it."},
 {"name": "tool_14", "description": "Look up one thing by id and return it."},
 {"name": "tool_15", "description": "Look up one thing by id and return it."},
 {"name": "tool_16", "description": "Look up one thing by id and return it."},
 {"name": "tool_17", "description": "Look up one thing by id and return it."},
 {"name": "tool_18", "description": "Look up one thing by id and return it."},
 {"name": "tool_19", "description": "Look up one thing by id and return it."},
 {"name": "tool_20", "description": "Look up one thing by id and return it."},
 {"name": "tool_21", "description": "Look up one thing by id and return it."}]
```

## Use instead
```json
[{"name": "search_catalog", "description": "Search the catalog by keyword; returns matching item ids."},
 {"name": "get_item", "description": "Fetch one catalog item by its id, with price and stock."}]
```

## Fix safety
No automatic fix: split the list by task, or put a search/router tool in
front of the rest.

## References
- OpenAI, Function calling ("fewer than 20 functions at the start of a turn"):
  https://developers.openai.com/api/docs/guides/function-calling
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ...model import Severity, ToolContract
from ...targets import OPENAI_MAX_TOOLS, RECOMMENDED_MAX_TOOLS
from ..base import Finding, LintContext, Rule

BUDGET_KEY = "max-tools"
SENT_WHOLE_TOOLS = 10  # more tools than this sent to the model at once want routing (info)
CROWDED_TOOLS = 40     # twice OpenAI's recommended ceiling: a list this long is a defect (warning)


class TooManyTools(Rule):
    code = "P005"
    name = "too-many-tools"
    severity = Severity.WARNING

    def check_tools(self, tools: Sequence[ToolContract], ctx: LintContext) -> Iterable[tuple[ToolContract, Finding]]:
        chosen = ctx.budgets.get(BUDGET_KEY)
        if not isinstance(chosen, int) or isinstance(chosen, bool) or chosen < 1:
            chosen = None
        count = len(tools)
        if chosen is not None:  # the project's own budget: over it is what the project chose to hear about
            if count > chosen:
                yield tools[chosen], Finding("", f"this list has {count} tools, over the budget of {chosen} "
                                                 f"({BUDGET_KEY}); models pick the right tool less often as the "
                                                 f"list grows — split it by task or route through a search tool")
        elif count > CROWDED_TOOLS:
            yield tools[CROWDED_TOOLS], Finding("", (
                f"this list has {count} tools, more than twice the {RECOMMENDED_MAX_TOOLS} OpenAI recommends at "
                f"the start of a turn; models pick the right tool less often as the list grows — split it by task "
                f"or send only the few tools a request needs (a search or routing tool in front of the rest)"))
        elif count > SENT_WHOLE_TOOLS:
            yield tools[SENT_WHOLE_TOOLS], Finding("", (
                f"this list has {count} tools; beyond {SENT_WHOLE_TOOLS} sent whole, route: send the few a request "
                f"needs (a search tool, or the Toolbox's select) and keep the others out of the prompt"),
                severity=Severity.INFO)
        hard_limits = []
        if ctx.targets & {"openai", "openai-strict"}:
            hard_limits.append(("OpenAI", OPENAI_MAX_TOOLS))
        for provider, limit in hard_limits:
            if count > limit:
                yield tools[limit], Finding("", f"this list has {count} tools; {provider} rejects more than {limit} "
                                                f"in one request (this is number {limit + 1})")
