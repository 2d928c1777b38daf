"""invalid-pattern (S010)

## What it does
Compiles every `pattern` and every `patternProperties` key as an ECMA-262
regular expression (the flavour JSON Schema specifies) and reports the ones
that do not compile, with the reason, and a hint for constructs from other
flavours: Python's named groups `(?P<name>…)` and inline flags `(?i)`.  A
pattern counts as valid if it compiles with or without the `u` flag, as
validators differ on it.  Patterns are only compiled, never run.

## Why is this bad?
Validators fail on the whole schema (ajv throws, providers answer 400), or
skip the constraint and let anything through.  Other languages' regex syntax
often does not exist in ECMA-262 at all.

## Example
```json
{"name": "get_order", "description": "Fetch one order by its order number, with its line items.",
 "inputSchema": {"type": "object",
                 "properties": {"order_id": {"type": "string", "pattern": "^(?P<prefix>ORD)-\\\\d{6}$"}},
                 "required": ["order_id"]}}
```

## Use instead
```json
{"name": "get_order", "description": "Fetch one order by its order number, with its line items.",
 "inputSchema": {"type": "object",
                 "properties": {"order_id": {"type": "string", "pattern": "^(?<prefix>ORD)-\\\\d{6}$"}},
                 "required": ["order_id"]}}
```

## Fix safety
Rewriting a regular expression needs a person, so `--fix` applies nothing.
"""

from __future__ import annotations

from collections.abc import Iterable

import regress

from ...model import Fix, Severity, ToolContract, escape_token
from ...schema.walk import SchemaNode
from ..base import Finding, LintContext, Rule

_CACHE_LIMIT = 20_000
_verdicts: dict[str, str | None] = {}


def pattern_problem(pattern: str) -> str | None:
    """Why a pattern is not a valid ECMA-262 regex, or None (memoised; compile only)."""
    if pattern in _verdicts:
        return _verdicts[pattern]
    problem: str | None = None
    try:
        regress.Regex(pattern)
    except regress.RegressError as plain_error:
        try:
            regress.Regex(pattern, "u")
        except regress.RegressError:
            problem = str(plain_error) or "it does not compile"
    if len(_verdicts) >= _CACHE_LIMIT:
        _verdicts.clear()
    _verdicts[pattern] = problem
    return problem


def _hint(pattern: str) -> str:
    if "(?P<" in pattern or "(?P=" in pattern:
        return "; named groups are written (?<name>…) and back-references \\k<name> in ECMA-262"
    if pattern.startswith("(?") and len(pattern) > 2 and pattern[2] in "aiLmsux" and ")" in pattern[:8]:
        return "; ECMA-262 has no inline flags such as (?i): spell out both cases ([Aa]) instead"
    if "(?#" in pattern:
        return "; ECMA-262 has no (?#…) comments"
    return ""


class InvalidPattern(Rule):
    code = "S010"
    name = "invalid-pattern"
    severity = Severity.ERROR
    keywords = frozenset({"pattern", "patternProperties"})
    roles = frozenset({"input", "output"})

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        pattern = node.schema.get("pattern")
        if isinstance(pattern, str):  # a non-string pattern is S001's
            problem = pattern_problem(pattern)
            if problem is not None:
                yield Finding(f"{node.pointer}/pattern",
                              f"pattern {pattern!r} is not a valid ECMA-262 regular expression "
                              f"({problem}){_hint(pattern)}",
                              Fix("rewrite the pattern in ECMA-262 syntax"))
        keyed = node.schema.get("patternProperties")
        if isinstance(keyed, dict):
            for key in keyed:
                problem = pattern_problem(key)
                if problem is not None:
                    yield Finding(f"{node.pointer}/patternProperties/{escape_token(key)}",
                                  f"patternProperties key {key!r} is not a valid ECMA-262 regular expression "
                                  f"({problem}){_hint(key)}", Fix("rewrite the pattern in ECMA-262 syntax"))
