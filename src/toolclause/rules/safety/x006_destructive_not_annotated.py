"""destructive-not-annotated (X006)

## What it does
Finds a tool that deletes, cancels, removes, overwrites, drops or revokes
(삭제, 취소, 해지 …) — by its own verb, a job its action parameter selects,
a bulk update (`update_many`, `bulk_update`), a write with an `overwrite` /
`force` flag, or a request for a deletion (`request_user_data_deletion`:
"Request deletion of all data about a user") — whose annotations say
`destructiveHint: false`.

Destructive means it deletes, overwrites or cannot be undone; what the tool
itself says it undoes is not reported:

- adding many things at once (`insert_many`, `batch_create_issues`,
  `batch-create-associations`) destroys none of them;
- an archive, a deactivation or a disable that the same tool reverses
  (`archive|unarchive`, `deactivate|reactivate`) or that its description
  calls reversible ("soft-disables the column … can be restored");
- a `remove` job the tool describes as a detach, next to the `add` that
  re-attaches it (a skill detached from an agent; a trigger *instance*
  detached is gone with its settings, and is reported);
- taking a watch, a star, an owner or an assignee off an item
  (`stories-unassign-current-user`: "Remove current user as story owner").

A tool with several jobs is reported for the first one that destroys for good
(`update_form` with `activate|deactivate|deleteTag`: the `deleteTag`).

MCP's defaults decide what else counts (the 2025-06-18 and later schemas): when
`readOnlyHint` is false or absent, `destructiveHint` defaults to **true**, so a
destructive tool with no annotations, or annotations without `destructiveHint`,
is already treated as destructive and is not reported.  Only an explicit
`destructiveHint: false` turns the host's caution off, and that is what this
rule reports.  (`readOnlyHint: true` on such a tool is X005.)

## Why is this bad?
Hosts ask the user before destructive calls and skip the question for tools
that say they are not destructive.  A `delete_repository` marked
`destructiveHint: false` is deleted on the model's word alone.

## Example
```json
{"name": "delete_repository", "description": "Deletes a repository and all its issues.",
 "inputSchema": {"type": "object", "properties": {"repo": {"type": "string", "description": "owner/name"}},
                 "required": ["repo"]},
 "annotations": {"readOnlyHint": false, "destructiveHint": false}}
```

## Use instead
```json
{"name": "delete_repository", "description": "Deletes a repository and all its issues.",
 "inputSchema": {"type": "object", "properties": {"repo": {"type": "string", "description": "owner/name"}},
                 "required": ["repo"]},
 "annotations": {"readOnlyHint": false, "destructiveHint": true}}
```

## Fix safety
The fix sets `destructiveHint: true`; it is safe to apply (it only makes hosts
more careful) but is left to the author, since the name may overstate.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...model import Edit, Fix, Severity, ToolContract
from ..base import Finding, LintContext, Rule
from ._actions import hint
from ._analysis import analyse, lasting_destruction


class DestructiveNotAnnotated(Rule):
    code = "X006"
    name = "destructive-not-annotated"
    severity = Severity.WARNING

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        if hint(tool, "destructiveHint") is not False or hint(tool, "readOnlyHint") is True:
            return
        action = lasting_destruction(tool, analyse(tool, ctx))
        if action is None:
            return
        yield Finding("/annotations/destructiveHint", (
            f"'{tool.name}' destroys or undoes something ({action.says()}) but is annotated destructiveHint: false, "
            f"so hosts will not ask the user first; set destructiveHint: true (or drop it: MCP's default is true)"),
            Fix("set annotations.destructiveHint: true", safe=False,
                edits=(Edit("set", "/annotations/destructiveHint", True),)))
