"""missing-tool-description (D001)

## What it does
Finds a tool with no description, an empty one, one made only of whitespace,
or one that is not text at all (`"description": 5`).

## Why is this bad?
The description is the only place that tells a model *when* to call the tool,
what it needs and what comes back.  Without one the model guesses from the
name, and it guesses wrong between similar tools.

## Example
```json
{"name": "get_weather",
 "inputSchema": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}}}}
```

## Use instead
```json
{"name": "get_weather", "description": "Current weather for one city, in metric units; returns temperature and sky.",
 "inputSchema": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}}}}
```

## Fix safety
No fix: only the author knows what the tool is for.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...model import Fix, Severity, ToolContract
from ..base import Finding, LintContext, Rule
from ._common import raw_value

_JSON_TYPES = {bool: "a boolean", int: "a number", float: "a number", list: "a list", dict: "an object"}
_FIX = Fix("write what the tool does, when to call it and what it returns", safe=False)


class MissingToolDescription(Rule):
    code = "D001"
    name = "missing-tool-description"
    severity = Severity.ERROR

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        text = tool.description
        if isinstance(text, str):
            if not text.strip():
                what = "empty" if not text else "only whitespace"
                yield Finding("/description", f"the description is {what}; say what the tool does, "
                                              f"when to call it and what it returns", _FIX)
            return
        present, value = raw_value(tool, "/description")
        if present and value is not None and not isinstance(value, str):
            kind = _JSON_TYPES.get(type(value), type(value).__name__)
            yield Finding("/description", f"the description is {kind} ({value!r:.40}), not text; "
                                          f"write what the tool does, when to call it and what it returns", _FIX)
            return
        yield Finding("/description", "the tool has no description; say what it does, when to call it "
                                      "and what it returns", _FIX)
