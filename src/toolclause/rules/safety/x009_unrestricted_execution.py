"""unrestricted-execution (X009)

## What it does
Finds a tool that runs whatever it is given: arbitrary SQL, shell commands,
code or URLs.  It needs two things, both named in the message: a name that
executes (`execute_sql`, `run_shell`, `eval`, `python_repl`, `http_request`)
and a free string parameter that carries the program (`sql`, `query`,
`command`, `code`, `script`, `url`) with no `enum`, `const` or `pattern` to
narrow it.  A `query` or `expression` parameter counts only when the tool also
names SQL or a database, or is an evaluator: a search phrase is not a program.

## Why is this bad?
Whatever reaches the model's context — a web page, an e-mail, a file it read —
can now run `DROP TABLE`, `rm -rf` or a request to an internal address through
this tool.  Narrow tools (`get_order(order_id)`) give the model only the power
the task needs; when a general executor is unavoidable, restrict it (read-only
database user, allow-listed commands or hosts) and require confirmation.

## Example
```json
{"name": "execute_sql", "description": "Runs a SQL statement against the orders database.",
 "inputSchema": {"type": "object", "properties": {"query": {"type": "string", "description": "SQL to run"}},
                 "required": ["query"]}}
```

## Use instead
```json
{"name": "get_orders_by_customer", "description": "Returns a customer's orders, newest first.",
 "inputSchema": {"type": "object",
                 "properties": {"customer_id": {"type": "string", "description": "Customer id"},
                                "limit": {"type": "integer", "minimum": 1, "maximum": 100,
                                          "description": "At most this many"}},
                 "required": ["customer_id"]}}
```

## Fix safety
No fix: narrowing a tool is a design change.
"""

from __future__ import annotations

from collections.abc import Iterable

from ... import _lazy_re as re
from ...lexicon import identifier_words, text_words
from ...model import Fix, Severity, ToolContract
from ..base import Finding, LintContext, Rule
from ._actions import normalised
from ._words import (
    CONTENT_PARAMS,
    EXEC_KINDS,
    EXEC_NAMES,
    EXEC_VERBS,
    SQL_HINTS,
    URL_PARAMS,
    URL_VERBS,
    WEAK_CONTENT_PARAMS,
)

_RESTRICTING = ("enum", "const", "pattern")
INTERPRETERS = frozenset("shell bash sh zsh powershell terminal repl python javascript sql subprocess cmd".split())


def _free_strings(tool: ToolContract) -> list[tuple[str, dict]]:
    """Top-level string parameters nothing narrows: the ones a model can put anything into."""
    schema = tool.input_schema
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return []
    out = []
    for name, sub in properties.items():
        if not isinstance(name, str) or not isinstance(sub, dict):
            continue
        kind = sub.get("type")
        if kind not in ("string", None, "str", "String") and not (isinstance(kind, list) and "string" in kind):
            continue
        if any(k in sub for k in _RESTRICTING):
            continue
        out.append((name, sub))
    return out


# A router (Azure MCP's `sql`, `storage` …) names one of its own sub-commands in `command`: not a program
_PICKS_A_SUBCOMMAND = re.compile(r"\b(?:specified tool|sub[- ]?commands?|child tools?)\b", re.I)
_A_ROUTER = re.compile(r"\bcommand router\b|\bsub[- ]?commands? are routed\b", re.I)


def _selects_a_subcommand(tool: ToolContract, parameter: dict) -> bool:
    said = parameter.get("description")
    return (isinstance(said, str) and bool(_PICKS_A_SUBCOMMAND.search(said))) or (
        isinstance(tool.description, str) and bool(_A_ROUTER.search(tool.description)))


class UnrestrictedExecution(Rule):
    code = "X009"
    name = "unrestricted-execution"
    severity = Severity.WARNING

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        if not isinstance(tool.name, str):
            return
        words = identifier_words(tool.name)
        executes = bool(EXEC_VERBS.intersection(words)) or tool.name.lower() in EXEC_NAMES
        kinds = [EXEC_KINDS[w] for w in words if w in EXEC_KINDS]
        # `code`, `script`, `query` also name things (`get_country_code`); only an interpreter's name runs alone
        executes = executes or bool(INTERPRETERS.intersection(words))
        fetches = bool(URL_VERBS.intersection(words))
        if not (executes or fetches):
            return
        mentions_sql = bool(SQL_HINTS.intersection(words)) or (
            isinstance(tool.description, str) and bool(SQL_HINTS.intersection(text_words(tool.description[:400]))))
        evaluates = bool({"eval", "evaluate", "exec", "execute", "interpret", "repl"}.intersection(words))
        for name, sub in _free_strings(tool):
            flat = normalised(name)
            kind = CONTENT_PARAMS.get(flat)
            if kind is not None and executes and _selects_a_subcommand(tool, sub):
                continue
            if kind is not None and executes:
                if flat == "query" and not mentions_sql:
                    continue
                if flat in WEAK_CONTENT_PARAMS and flat != "query" and not evaluates:
                    continue
                what = kinds[0] if kinds else kind
                yield Finding(f"/inputSchema/properties/{_escape(name)}", (
                    f"'{tool.name}' runs arbitrary {what} passed in '{name}' (the name says "
                    f"'{_trigger(words)}'); anything that reaches the model's context can run through it — offer "
                    f"narrow tools instead, or restrict it (read-only access, an allow-list) and require confirmation"),
                    Fix("replace with narrow tools or restrict the parameter", safe=False))
                return
            if flat in URL_PARAMS and fetches:
                yield Finding(f"/inputSchema/properties/{_escape(name)}", (
                    f"'{tool.name}' requests any URL passed in '{name}' (the name says '{_trigger(words)}'); text the "
                    f"model reads can point it at internal addresses or send data out — restrict the hosts (an "
                    f"allow-list, a 'pattern') or require confirmation"),
                    Fix("restrict the URL with a pattern or an allow-list", safe=False))
                return


def _trigger(words: tuple[str, ...]) -> str:
    for word in words:
        if word in EXEC_VERBS or word in EXEC_KINDS or word in URL_VERBS:
            return word
    return "_".join(words)


def _escape(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")
