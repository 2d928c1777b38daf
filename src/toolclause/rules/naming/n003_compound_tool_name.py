"""compound-tool-name (N003)

## What it does
Finds a tool name that joins a read and a write with `and`, `or` or `then`:
`search_and_order_food`, `find_then_cancel_booking`, `fetchThenDelete`.  The
message names the two verbs.  A load, import or parse that feeds the write
(`load_and_register_plugin`) is one setup job, not a lookup, and is not
reported.  Nor is a get-or-create (`get_or_create_label`): one job, making sure
the thing exists, in one call so that a retry cannot race.

## Why is this bad?
A tool that both looks up and changes things cannot be marked read-only, so a
host must confirm even the harmless lookups, and a model that only meant to
search will order.  Split it: a read tool the model may call freely and a write
tool that asks for confirmation.

## Example
```json
{"name": "search_and_order_food",
 "description": "Finds a dish near the user and places the order; returns the order id.",
 "inputSchema": {"type": "object", "properties": {"query": {"type": "string", "description": "Dish to find"}}}}
```

## Use instead
```json
[{"name": "search_food", "description": "Finds dishes near the user; returns matching menu items with prices.",
  "inputSchema": {"type": "object", "properties": {"query": {"type": "string", "description": "Dish to find"}}}},
 {"name": "order_food", "description": "Places an order for one menu item; returns the order id.",
  "inputSchema": {"type": "object", "properties": {"item_id": {"type": "string", "description": "Menu item id"}}}}]
```

## Fix safety
No fix: splitting a tool changes its contract.
"""

from __future__ import annotations

from collections.abc import Iterable

from ... import _lazy_re as re
from ...lexicon import VerbClass, english, split_identifier, verb_class
from ...model import Fix, Severity, ToolContract
from ..base import Finding, LintContext, Rule

# Read verbs that, joined to a write, are one setup step: `load_and_register_plugin` loads code to register it.
_SETUP_READS = frozenset("load loads import imports parse parses".split())


def _kind(word: str) -> str | None:
    cls = verb_class(word)
    if cls & VerbClass.MUTATING:
        return "write"
    if cls & VerbClass.READ:
        return "read"
    return None


# "get or create", "find or create": the ensure idiom (one job: the thing exists afterwards)
_ENSURE = re.compile(r"(?:get|find|fetch|lookup|load)[_\-]?or[_\-]?(?:create|add|insert|make)", re.I)


def read_write_pair(parts: list[str]) -> tuple[str, str] | None:
    """(first verb, second verb) when a conjunction joins a read and a write verb."""
    for index, word in enumerate(parts):
        if word not in english.CONJUNCTIONS or index == 0 or index + 1 >= len(parts):
            continue
        right = parts[index + 1]
        right_kind = _kind(right)
        if right_kind is None:
            continue
        left = parts[:index]
        # The left verb is the first verb of the phrase ("get_user_and_delete": get).
        left_verb = next((w for w in left if _kind(w)), None)
        if left_verb is None or _kind(left_verb) == right_kind:
            continue
        if left_verb in _SETUP_READS and right_kind == "write":
            continue  # "load and register": one job that loads in order to write
        # "get_user_and_order_details": after a noun phrase, 'order' may be a noun too.
        adjacent = left[-1] == left_verb
        if right in english.NOUN_VERBS and not (adjacent and index + 2 < len(parts)):
            continue
        return left_verb, right
    return None


class CompoundToolName(Rule):
    code = "N003"
    name = "compound-tool-name"
    severity = Severity.WARNING

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        pair = read_write_pair(split_identifier(tool.name))
        if pair is None:
            return
        first, second = pair
        read, write = (first, second) if _kind(first) == "read" else (second, first)
        if _ENSURE.search(tool.name):
            return  # get-or-create is one job (make sure it exists), deliberately one call so a retry cannot race
        yield Finding("/name", f"tool name '{tool.name}' joins a read ('{read}') and a write ('{write}'); "
                               f"split it into a read-only tool and a tool that changes state, "
                               f"so lookups need no confirmation",
                      Fix(f"split into one tool for '{read}' and one for '{write}'", safe=False))
