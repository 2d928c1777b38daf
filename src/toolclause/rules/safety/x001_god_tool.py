"""god-tool (X001)

## What it does
Finds a tool that is several tools in one:

* its `action`, `operation`, `mode`, `command` or `method` parameter chooses
  between reading and changing things: an enum that holds both read verbs
  (`get`, `list`, `search`, `조회`) and write or delete verbs (`create`,
  `update`, `delete`, `삭제`);
* or that parameter selects many distinct changes (`add_card`, `move_card`,
  `archive_card`, `create_column` …): at least `max-jobs` (default 5) write jobs,
  all writes or not;
* or the tool takes another tool's name and an arguments object, so it runs
  anything.

The message names the parameter, the jobs, and how to split the tool.  For
`type`, `kind`, `mode` and `method` most of the enum must be verbs, so an
ordinary category list never counts, and an enum of HTTP methods is left alone.

Option: `max-jobs` (integer, default 5), the number of distinct write jobs one
parameter may select before the tool counts as several tools.

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

from collections.abc import Iterable

from ...model import Severity, ToolContract
from ..base import Finding, LintContext, Rule
from ._analysis import analyse


class GodTool(Rule):
    code = "X001"
    name = "god-tool"
    severity = Severity.WARNING
    CONF = {"max-jobs": int}
    DEFAULT = {"max-jobs": 5}

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        analysis = analyse(tool, ctx)
        if analysis.dispatches is not None:
            named, carried = analysis.dispatches
            yield Finding("/inputSchema/properties/" + _escape(named), (
                f"'{tool.name}' runs whichever tool or operation '{named}' names with the arguments in '{carried}': "
                f"it is every tool at once, so no host can allow one and confirm another; expose each tool (or each "
                f"operation the model needs) on its own"))
            return
        found = analysis.selector
        if found is None:
            return
        reads, writes = found.reads(), found.writes()
        if reads and writes:
            yield Finding(found.pointer, (
                f"parameter '{found.name}' switches the tool between reads ({_show(reads)}) and writes "
                f"({_show(writes)}); split it into a read-only tool and one tool per change, so hosts can allow "
                f"lookups and confirm changes"))
            return
        limit = max(2, int(ctx.options_for(self)["max-jobs"]))
        if len(writes) >= limit:
            yield Finding(found.pointer, (
                f"parameter '{found.name}' selects {len(writes)} different changes ({_show(writes)}): that is "
                f"{len(writes)} tools in one, each with its own arguments; split it into one tool per change "
                f"(e.g. '{_split_name(tool, writes[0])}'), so the model picks a tool instead of a mode and hosts "
                f"can confirm the dangerous ones"))


def _split_name(tool: ToolContract, job: str) -> str:
    return job if "_" in job or not isinstance(tool.name, str) else f"{job}_{tool.name.split('_')[-1]}"


def _escape(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")


def _show(values: list[str]) -> str:
    shown = ", ".join(f"'{v}'" for v in values[:4])
    return shown + (f" and {len(values) - 4} more" if len(values) > 4 else "")
