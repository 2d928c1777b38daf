"""no-results-as-error (R004)

## What it does
Finds a business error that means "nothing was found" — `NO_RESULTS`,
`NO_MATCHES`, `NOTHING_FOUND`, `EMPTY_RESULT`, `ZERO_RESULTS` and the like —
declared in a tool's `errors`.  An error for one thing the caller named that
does not exist (`ORDER_NOT_FOUND` for an order id) is a real error and is left
alone.

## Why is this bad?
An empty search is a normal answer, not a failure.  As an error it looks like
"the service is down": the model apologises or retries instead of asking the
user to widen the search, and the widget shows an error where it should show
its empty state.  Answer `ok: true` with an empty list and a field saying why
(`no_results_reason`), so the model can say "nothing at this price; raise the
budget?".

## Example
```json
{"name": "suggest_gifts", "description": "Suggests gifts for one person within a budget.",
 "inputSchema": {"type": "object", "properties": {"budget": {"type": "integer", "description": "In won"}},
                 "required": ["budget"]},
 "outputSchema": {"type": "object", "properties": {"gifts": {"type": "array", "items": {"type": "string"}}},
                  "required": ["gifts"]},
 "errors": [{"code": "NO_RESULTS", "retryable": false, "userAction": "change_budget",
             "description": "No gift fits the budget."}]}
```

## Use instead
```json
{"name": "suggest_gifts", "description": "Suggests gifts for one person within a budget.",
 "inputSchema": {"type": "object", "properties": {"budget": {"type": "integer", "description": "In won"}},
                 "required": ["budget"]},
 "outputSchema": {"type": "object",
                  "properties": {"gifts": {"type": "array", "items": {"type": "string"}},
                                 "no_results_reason": {"type": "string",
                                                       "description": "Why nothing fits, when gifts is empty."}},
                  "required": ["gifts"]}}
```

## Fix safety
No fix: the tool's code must return the empty list instead of raising.
"""

from __future__ import annotations

from collections.abc import Iterable

from ... import _lazy_re as re
from ...model import Severity, ToolContract
from ..base import Finding, LintContext, Rule

# the words of a code that says "the search found nothing" (not "this one thing does not exist")
_NOTHING_FOUND = re.compile(
    r"(?:NO|ZERO|EMPTY)_(?:RESULTS?|MATCH(?:ES)?|HITS?|ITEMS|RECORDS|ROWS|DATA|CANDIDATES|RESULTS?_FOUND)"
    r"|NOTHING_FOUND|NONE_FOUND|NO_\w+S_FOUND|EMPTY_(?:RESULTS?|RESPONSE|LIST|SEARCH)|(?:RESULTS?|SEARCH)_EMPTY"
    r"|NOT_FOUND_ANY|NO_MATCHING_\w+")


class NoResultsAsError(Rule):
    code = "R004"
    name = "no-results-as-error"
    severity = Severity.WARNING

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        errors = tool.extra.get("errors")
        if not isinstance(errors, list):
            return
        for n, entry in enumerate(errors):
            code = entry.get("code") if isinstance(entry, dict) else entry
            if isinstance(code, str) and _NOTHING_FOUND.fullmatch(code.strip().upper()):
                pointer = f"/errors/{n}/code" if isinstance(entry, dict) else f"/errors/{n}"
                yield Finding(pointer, (
                    f"'{code}' declares \"nothing found\" as an error; an empty search is a normal answer: return "
                    f"ok with an empty list and a field saying why (e.g. no_results_reason), so the model can "
                    f"suggest widening the search and a widget can show its empty state"))
