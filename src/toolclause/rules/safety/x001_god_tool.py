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
* or it selects a removal beside other changes (`user_write` with
  `method: create|update|delete`), however few, and whatever the tool's name
  says (`_write`, `manage_`): a host that wants to confirm the delete must then
  confirm every create.  A change and its undo (`add|remove`,
  `activate|deactivate`) are one switch and are not reported; a create beside
  an update (`create|update`) is reported as info;
* or the tool takes another tool's name and an arguments object, so it runs
  anything;
* or a free string names the operation (`operation`, `action`, `command`,
  `method` with no enum or pattern) and a free object carries its arguments
  (`payload`, `params`, `parameters`, `data`, `body`, `args` with no
  properties): `do_anything_with_user_account(operation, payload)`, or a
  command router such as Azure MCP's (`command` + `parameters`, "learn=true to
  discover sub commands").  A warning where the description says some
  operation changes things or says nothing of what they do; info where it
  describes only reads.  An HTTP client's `method` and a shell's `command` are
  X009's;
* or an update takes any field: "Updates any field of the user's profile" with
  a `fields`, `updates`, `changes` or `patch` object whose keys no schema or
  description lists — one tool doing every narrow update.  A warning where the
  description says "any field", "arbitrary fields" or "all fields", else info;
  an object described with its keys (properties, quoted key names, a schema
  the tool returns) is not reported.

The message names the parameter, the jobs, and how to split the tool.  For
`type`, `kind`, `mode` and `method` most of the enum must be verbs, so an
ordinary category list never counts, and an enum of HTTP methods is left alone.

Option: `max-jobs` (integer, default 5), the number of distinct write jobs one
parameter may select before the tool counts as several tools.

## Why is this bad?
One tool that does everything cannot be marked read-only, cannot be allowed
while its dangerous half is denied, and makes the model pick an operation and
its arguments in one guess.  A host that wants to confirm deletes must confirm
every lookup too.  One tool one job: split reads from writes, and removals
from the other changes.  An update that takes any field lets a model asked to
fix a delivery address change the e-mail or the payout account too: offer
narrow tools (`update_delivery_address`) for what models should change.

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

from ...lexicon import VerbClass, identifier_words
from ...model import Severity, ToolContract
from ..base import Finding, LintContext, Rule
from ._actions import hint
from ._analysis import (
    Job,
    Selector,
    analyse,
    catch_all,
    describes_changes,
    describes_reads,
    says_any_field,
    says_anything,
    word_class,
)
from ._words import CREATING_EN, GENERIC_NAME_WORDS, INVERSE_VERBS, MAKING_VERBS, REMOVING_VERBS


class GodTool(Rule):
    code = "X001"
    name = "god-tool"
    severity = Severity.WARNING
    tags = ("MCP02:2025",)  # OWASP MCP Top 10 (see rules/owasp.py)
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
        if analysis.routes is not None:
            yield _router(tool, *analysis.routes)
            return
        found = analysis.selector
        if found is not None:
            finding = self._selector(tool, found, ctx)
            if finding is not None:
                yield finding
                return
        open_object = catch_all(tool, analysis.action)
        if open_object is not None:
            yield _catch_all(tool, *open_object)

    def _selector(self, tool: ToolContract, found: Selector, ctx: LintContext) -> Finding | None:
        reads, writes = found.reads(), found.writes()
        if reads and writes:
            return Finding(found.pointer, (
                f"parameter '{found.name}' switches the tool between reads ({_show(reads)}) and writes "
                f"({_show(writes)}); split it into a read-only tool and one tool per change, so hosts can allow "
                f"lookups and confirm changes"))
        limit = max(2, int(ctx.options_for(self)["max-jobs"]))
        if len(writes) >= limit:
            return Finding(found.pointer, (
                f"parameter '{found.name}' selects {len(writes)} different changes ({_show(writes)}): that is "
                f"{len(writes)} tools in one, each with its own arguments; split it into one tool per change "
                f"(e.g. '{_split_name(tool, writes[0])}'), so the model picks a tool instead of a mode and hosts "
                f"can confirm the dangerous ones"))
        jobs = [j for j in found.jobs if j.cls & (VerbClass.MUTATING | VerbClass.IRREVERSIBLE)]
        removing = [j for j in jobs if j.verb in REMOVING_VERBS]
        others = [j for j in jobs if j.verb not in REMOVING_VERBS]
        # a removal that undoes another job of the tool ('remove' beside 'add': detach what was attached) is that
        # job's own undo, not a second tool (judged marginal on real servers)
        removing = [r for r in removing if not any(frozenset((r.verb, o.verb)) in INVERSE_VERBS for o in others)]
        mixed = [(r, o) for r in removing for o in others]
        if mixed:
            kept = [o.value for o in others]
            gone = [r.value for r in removing]
            return Finding(found.pointer, (
                f"parameter '{found.name}' selects different changes: {_show(kept)} and the removal {_show(gone)}; "
                f"that is several tools in one, and a host that wants to confirm the "
                f"removal must confirm every {_show(kept[:2], ' and ')} too, while destructiveHint can only be true "
                f"for all of them; split it into one tool per change (e.g. '{_split_name(tool, gone[0])}' on its "
                f"own), so the removal can be confirmed alone"))
        making = [j for j in others if _makes(j)]
        changing = [j for j in others if not _makes(j)]
        if making and changing and any(frozenset((m.verb, c.verb)) not in INVERSE_VERBS
                                       for m in making for c in changing):
            return Finding(found.pointer, (
                f"parameter '{found.name}' selects a create ({_show([j.value for j in making])}) and a change of "
                f"an existing one ({_show([j.value for j in changing])}): two tools in one, with different "
                f"required arguments the schema cannot tell apart; consider one tool per change "
                f"(e.g. '{_split_name(tool, making[0].value)}' and '{_split_name(tool, changing[0].value)}')"),
                severity=Severity.INFO)
        return None


def _makes(job: Job) -> bool:
    return job.verb in CREATING_EN or job.verb in MAKING_VERBS


def _router(tool: ToolContract, operation: str, payload: str) -> Finding:
    """A free operation name and a free argument object: every operation the backend has, behind one tool.

    A warning where the description says some operation changes things, or says nothing of what they do (an
    operation list no one wrote down can hold a delete); info where it only describes reads."""
    text = tool.description if isinstance(tool.description, str) else ""
    if hint(tool, "readOnlyHint") is True:
        said = None
    elif says_anything(text):
        said = ", and its description says it does anything"
    elif describes_changes(text):
        said = ", while its description says some of them change things"
    elif not describes_reads(text):
        said = ", and nothing says which operations exist or what they change"
    else:
        said = None
    if said is not None:
        stakes = ("a host cannot allow one operation and confirm another, and cannot mark any of them read-only or "
                  "destructive" + said)
        severity = Severity.WARNING
    else:
        stakes = ("its description says of no operation that it changes anything, but the model must guess each "
                  "operation's name and arguments, and a host cannot allow one operation without the others")
        severity = Severity.INFO
    return Finding("/inputSchema/properties/" + _escape(operation), (
        f"'{tool.name}' runs whichever operation the free string '{operation}' names, with whatever arguments the "
        f"free object '{payload}' carries: it is several tools in one ({stakes}); expose each operation as its own "
        f"tool with its own arguments, or at least list the operations in an enum on '{operation}'"),
        severity=severity)


def _catch_all(tool: ToolContract, name: str, sub: dict) -> Finding:
    """An update that takes any field: one tool for every narrow update."""
    wording = says_any_field(tool, sub)
    said = f" and the description says '{wording}'" if wording else ""
    return Finding("/inputSchema/properties/" + _escape(name), (
        f"'{tool.name}' changes whatever fields the open object '{name}' names (no properties list them{said}): it "
        f"is every narrow update in one tool, so a model asked to fix one field can change any other (an e-mail, a "
        f"role, a payout account) with nothing for a host to tell apart; offer narrow tools for what models should "
        f"change (e.g. 'update_delivery_address'), or list the keys '{name}' accepts (properties, with "
        f"additionalProperties: false)"),
        severity=Severity.WARNING if wording else Severity.INFO)


def _split_name(tool: ToolContract, job: str) -> str:
    """`delete` of `user_write` → `delete_user`; a job that names its object (`deleteTag`) as it is, snake-cased."""
    words = identifier_words(job)
    if len(words) > 1 or not isinstance(tool.name, str):
        return "_".join(words) or job
    named = [w for w in identifier_words(tool.name.rsplit(".", 1)[-1]) if w not in GENERIC_NAME_WORDS]
    if named and word_class(named[0]):
        named = named[1:]  # `update_form`, `manage_contact`: the name's own verb
    if not named:
        return job
    return "_".join([*words, *named[-3:]])


def _escape(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")


def _show(values: list[str], joiner: str = ", ") -> str:
    shown = joiner.join(f"'{v}'" for v in values[:4])
    return shown + (f" and {len(values) - 4} more" if len(values) > 4 else "")
