"""god-tool (X001)

## What it does
Finds a tool whose `action`, `operation`, `mode`, `command` or `method`
parameter chooses between reading and changing things: an enum that holds both
read verbs (`get`, `list`, `search`, `조회`) and write or delete verbs
(`create`, `update`, `delete`, `삭제`).  The message names the parameter and the
verbs on each side.  For `type`, `kind`, `mode` and `method` most of the enum
must be verbs, so an ordinary category list never counts, and an enum of HTTP
methods is left alone.

## Why is this bad?
One tool that does everything cannot be marked read-only, cannot be allowed
while its dangerous half is denied, and makes the model pick an operation and
its arguments in one guess.  A host that wants to confirm deletes must confirm
every lookup too.  One tool one job: split reads from writes.

## Example
```json
{"name": "manage_users", "description": "Creates, reads, updates or deletes a user account.",
 "inputSchema": {"type": "object",
                 "properties": {"action": {"type": "string", "enum": ["create", "get", "update", "delete"],
                                           "description": "What to do"},
                                "user_id": {"type": "string", "description": "User id"}},
                 "required": ["action"]}}
```

## Use instead
```json
[{"name": "get_user", "description": "Returns one user account by id.",
  "inputSchema": {"type": "object", "properties": {"user_id": {"type": "string", "description": "User id"}},
                  "required": ["user_id"]}},
 {"name": "delete_user", "description": "Deletes one user account by id; cannot be undone.",
  "inputSchema": {"type": "object", "properties": {"user_id": {"type": "string", "description": "User id"}},
                  "required": ["user_id"]}}]
```

## Fix safety
No fix: splitting a tool changes its contract.
"""

from __future__ import annotations

from typing import Iterable

from ...lexicon import VerbClass, english, identifier_words, verb_class
from ...model import Severity, ToolContract
from ...schema.walk import NodeKind, SchemaNode
from ..base import Finding, LintContext, Rule
from ._words import CAREFUL_SELECTORS, HTTP_METHODS, SELECTOR_PARAMS


def _verb(value: object) -> tuple[str, VerbClass] | None:
    """The verb an enum value starts with: `add_comment` → add, `조회` → 조회."""
    if not isinstance(value, str):
        return None
    parts = identifier_words(value)
    if not parts:
        return None
    cls = verb_class(parts[0])
    return (parts[0], cls) if cls else None


class GodTool(Rule):
    code = "X001"
    name = "god-tool"
    severity = Severity.WARNING
    keywords = frozenset({"enum"})

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        if node.kind is not NodeKind.PROPERTY or not isinstance(node.key, str):
            return
        key_words = identifier_words(node.key)
        if not key_words or key_words[-1] not in SELECTOR_PARAMS:
            return
        # `metric_type`, `access_mode`: a category of something else; only `type`, `action_type`, `operation_mode`
        if key_words[-1] in CAREFUL_SELECTORS and len(key_words) > 1 and key_words[-2] not in SELECTOR_PARAMS | {
                "request", "crud"}:
            return
        values = node.schema.get("enum")
        if not isinstance(values, list) or len(values) < 2:
            return
        strings = [v for v in values if isinstance(v, str)]
        if {v.lower() for v in strings} <= HTTP_METHODS:
            return  # GET/POST/DELETE: an HTTP client, which X009 judges by its url
        careful = key_words[-1] in CAREFUL_SELECTORS
        reads: list[str] = []
        writes: list[str] = []
        verbs = 0
        for value in strings:
            found = _verb(value)
            # in a `type` enum, `book`, `post` and `view` are kinds of thing
            if found is None or (careful and found[0] in english.NOUN_VERBS):
                continue
            verbs += 1
            if found[1] & VerbClass.MUTATING or found[1] & VerbClass.IRREVERSIBLE:
                writes.append(value)
            elif found[1] & VerbClass.READ:
                reads.append(value)
        if not reads or not writes:
            return
        # `type`/`mode`: a list of categories that happens to hold "view" and "post" is no operation switch
        if careful and verbs * 2 < len(values):
            return
        yield Finding(node.pointer, (
            f"parameter '{node.key}' switches the tool between reads ({_show(reads)}) and writes ({_show(writes)}); "
            f"split it into a read-only tool and one tool per change, so hosts can allow lookups and confirm changes"))


def _show(values: list[str]) -> str:
    shown = ", ".join(f"'{v}'" for v in values[:4])
    return shown + (f" and {len(values) - 4} more" if len(values) > 4 else "")
