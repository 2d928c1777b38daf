"""unrestricted-execution (X009)

## What it does
Finds a tool that runs whatever it is given: arbitrary SQL, shell commands,
code or requests to any URL.  It needs two things, both named in the message:
a name that executes (`execute_sql`, `run_shell`, `eval`, `python_repl`,
`http_request`, `fetch`) and a free string parameter that carries the program
(`sql`, `query`, `command`, `code`, `script`, `url`) with no `enum`, `const` or
`pattern` to narrow it.  A `query` or `expression` parameter counts only when
the tool also names SQL or a database, or is an evaluator: a search phrase is
not a program.

Not reported: a browser or page navigation tool for its URL (`browser_navigate`,
`navigate_page`: visiting any page is its purpose), and a tool the host already
asks about, because it is annotated `destructiveHint: true` or its name,
title or description declares it unsafe (`browser_run_code_unsafe`).

## Why is this bad?
Whatever reaches the model's context — a web page, an e-mail, a file it read —
can now run `DROP TABLE`, `rm -rf` or a request to an internal address through
this tool.  Running what it is given is often the tool's whole purpose, so the
finding asks nothing of the tool's shape: it tells the host to gate it (ask
before each call, run it in a sandbox, block private addresses) and the author
of a SQL tool meant only to read to enforce that (a read-only transaction or
database user) rather than trust the model.  Annotating a code or shell runner
`destructiveHint: true` makes hosts ask before each call.

Severity: info — what it says is true, but it is not a defect to fix in the tool.

Measured: see docs/precision.md.

## Example
```json
{"name": "execute_sql", "description": "Runs a SQL statement against the orders database.",
 "inputSchema": {"type": "object", "properties": {"query": {"type": "string", "description": "SQL to run"}},
                 "required": ["query"]}}
```

## Use instead
```json
{"name": "execute_sql", "description": "Runs a SQL statement against the orders database.",
 "inputSchema": {"type": "object", "properties": {"query": {"type": "string", "description": "SQL to run"}},
                 "required": ["query"]},
 "annotations": {"destructiveHint": true}}
```

A narrow tool (`get_orders_by_customer(customer_id)`) is clean too, where the
task does not need a general executor.

## Fix safety
No fix: whether a host should confirm, sandbox or restrict the tool is a
decision about how it is deployed.
"""

from __future__ import annotations

from collections.abc import Iterable

from ... import _lazy_re as re
from ...lexicon import identifier_words, text_words
from ...model import Fix, Severity, ToolContract
from ..base import Finding, LintContext, Rule
from ._actions import annotations_of, can_annotate, hint, normalised
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


# Navigation: a browser tool's purpose is to visit the page it is given
_NAVIGATES = frozenset("navigate navigates navigation browse goto".split())
# A tool that declares itself unsafe: the host and the user were told
_DECLARED = frozenset("unsafe dangerous insecure".split())
_DECLARES_UNSAFE = re.compile(r"\b(?:unsafe|dangerous)\s*[:!\u2014]|\b(?:is|are|be|considered)\s+(?:\w+\s+)?"
                              r"(?:unsafe|dangerous)\b|\bRCE\b|\(unsafe\)", re.I)


def _host_already_asks(tool: ToolContract, words: tuple[str, ...]) -> bool:
    """Annotated destructiveHint: true, or named, titled or described as unsafe: hosts confirm it already."""
    if hint(tool, "destructiveHint") is True or _DECLARED.intersection(words):
        return True
    titles = [t for t in (tool.title, annotations_of(tool).get("title")) if isinstance(t, str)]
    if any(_DECLARED.intersection(text_words(t)) for t in titles):
        return True
    return isinstance(tool.description, str) and bool(_DECLARES_UNSAFE.search(tool.description[:600]))


class UnrestrictedExecution(Rule):
    code = "X009"
    name = "unrestricted-execution"
    severity = Severity.INFO
    tags = ("MCP05:2025",)  # OWASP MCP Top 10 (see rules/owasp.py)

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        if not isinstance(tool.name, str):
            return
        words = identifier_words(tool.name)
        executes = bool(EXEC_VERBS.intersection(words)) or tool.name.lower() in EXEC_NAMES
        kinds = [EXEC_KINDS[w] for w in words if w in EXEC_KINDS]
        # `code`, `script`, `query` also name things (`get_country_code`); only an interpreter's name runs alone
        executes = executes or bool(INTERPRETERS.intersection(words))
        fetches = bool(URL_VERBS.intersection(words)) and not _NAVIGATES.intersection(words)
        if not (executes or fetches) or _host_already_asks(tool, words):
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
                yield Finding(f"/inputSchema/properties/{_escape(name)}", _runs_message(tool, name, what, words),
                              Fix("have the host confirm or sandbox each call", safe=False))
                return
            if flat in URL_PARAMS and fetches:
                yield Finding(f"/inputSchema/properties/{_escape(name)}", (
                    f"'{tool.name}' requests any URL passed in '{name}' (the name says '{_trigger(words)}'); text the "
                    f"model reads can point it at internal addresses or send data out, so a host should confirm "
                    f"each call or fetch from a sandbox that cannot reach private addresses"),
                    Fix("have the host confirm or sandbox each call", safe=False))
                return


_SAYS_READ_ONLY = re.compile(r"\bread[- ]?only\b", re.I)


def _runs_message(tool: ToolContract, name: str, what: str, words: tuple[str, ...]) -> str:
    said = (f"'{tool.name}' runs arbitrary {what} passed in '{name}' (the name says '{_trigger(words)}'); anything "
            f"that reaches the model's context can run through it")
    if what == "SQL":
        if isinstance(tool.description, str) and _SAYS_READ_ONLY.search(tool.description):
            return f"{said}, so a host should confirm each call, whatever the read-only mode it describes"
        return (f"{said}, so a host should confirm each call, and if the tool is meant only to read, it should "
                f"enforce that (a read-only transaction or database user) rather than trust the model")
    annotate = "; annotations.destructiveHint: true makes hosts ask" if can_annotate(tool) else ""
    return f"{said}, so a host should confirm each call or run it in a sandbox{annotate}"


def _trigger(words: tuple[str, ...]) -> str:
    for word in words:
        if word in EXEC_VERBS or word in EXEC_KINDS or word in URL_VERBS:
            return word
    return "_".join(words)


def _escape(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")
