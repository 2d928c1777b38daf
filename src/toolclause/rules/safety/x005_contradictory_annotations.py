"""contradictory-annotations (X005)

## What it does
Finds annotations that contradict the tool or each other:
`readOnlyHint: true` on a tool whose name or description changes things
(`delete_file`, "주문을 생성합니다") or asks for a change ("Request deletion of
all data about a user"), or whose action parameter selects a write
(`method: create|update`), or that runs whatever SQL or command it is given
(`run_sql`, `execute_command`: one statement can write, unless the description
says the tool enforces read-only); and `destructiveHint: true` on a tool that
only reads — one annotated `readOnlyHint: true`, or one whose only verb is a
read (`get_weather`), whether `readOnlyHint` is absent or written out as false
(a tool that also replaces, asks for a deletion or moves money is no read, so it
is never told to set `readOnlyHint: true`).  Only an annotation that is present
can contradict: a tool without annotations claims nothing.  The message names
the verb and the hint.

A verb whose object is a value handed back is no change: "Create a buffer
zone (polygon) … Works offline", "Merge two or more polygons into a single
unified geometry … Works offline", "판정 검토 보고서(마크다운) 작성 … 읽기
전용" — a shape, a union, a report or a summary made and returned, where the
description also says that nothing changes (offline, read-only, no side
effects).  And a
tool that runs the SQL or command it is given (`execute_query(sql)` over
DuckDB) is no read whatever its name's verb: `destructiveHint: true` on it is
not contradicted.

## Why is this bad?
Hosts act on annotations: a tool marked read-only runs without asking, so a
`delete_file` that claims to be read-only deletes without the user's
confirmation.  The reverse lie makes hosts ask before every harmless lookup,
and users learn to click "allow" without reading.

## Example
```json
{"name": "delete_file", "description": "Deletes one file from the workspace.",
 "inputSchema": {"type": "object", "properties": {"path": {"type": "string", "description": "File path"}},
                 "required": ["path"]},
 "annotations": {"readOnlyHint": true}}
```

## Use instead
```json
{"name": "delete_file", "description": "Deletes one file from the workspace.",
 "inputSchema": {"type": "object", "properties": {"path": {"type": "string", "description": "File path"}},
                 "required": ["path"]},
 "annotations": {"readOnlyHint": false, "destructiveHint": true}}
```

## Fix safety
No fix: only the author knows which of the two statements is true.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...lexicon import VerbClass, text_words, verb_class
from ...model import Severity, ToolContract
from ..base import Finding, LintContext, Rule
from ._actions import description_action, first_sentence, hint
from ._analysis import ENFORCED_READ_ONLY as _ENFORCED_READ_ONLY
from ._analysis import analyse, only_reads, returns_what_it_makes, runs_anything

_CHANGES = VerbClass.WRITE | VerbClass.DESTRUCTIVE | VerbClass.IRREVERSIBLE


def _text_says_it_reads(tool: ToolContract) -> bool:
    """The title or the description opens with a read verb, and no first sentence of theirs holds a word
    that changes things: with readOnlyHint: true the author has then said twice that the tool reads, and a
    verb in its name (`extension_cli_install`, "Get CLI installation instructions") names its subject."""
    annotations = tool.annotations if isinstance(tool.annotations, dict) else {}
    texts = [t for t in (tool.title, annotations.get("title"), tool.description) if isinstance(t, str) and t.strip()]
    if not any((found := description_action(t)) is not None and found[1] == VerbClass.READ for t in texts):
        return False
    return not any(verb_class(word) & _CHANGES for text in texts
                   for word in text_words(first_sentence(text)))


class ContradictoryAnnotations(Rule):
    code = "X005"
    name = "contradictory-annotations"
    severity = Severity.ERROR
    tags = ("MCP03:2025",)  # OWASP MCP Top 10 (see rules/owasp.py)

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        read_only = hint(tool, "readOnlyHint")
        destructive = hint(tool, "destructiveHint")
        if read_only is None and destructive is None:
            return
        if read_only is True:
            analysis = analyse(tool, ctx)
            action = None if analysis.preview else analysis.changes  # a preview shows what would happen
            if action is not None and action.where == "name" and _text_says_it_reads(tool):
                action = None  # `extension_cli_install`, titled "Get CLI installation instructions"
            if action is not None and returns_what_it_makes(tool, action):
                action = None  # "Create a buffer zone (polygon) … Works offline": the made thing is the answer
            if action is not None:
                yield Finding("/annotations/readOnlyHint", (
                    f"'{tool.name}' is annotated readOnlyHint: true but changes things ({action.says()}); "
                    f"hosts will run it without asking — set readOnlyHint: false, or rename the tool if it "
                    f"really only reads"))
            else:
                runs = runs_anything(tool)
                if runs and not (isinstance(tool.description, str) and _ENFORCED_READ_ONLY.search(tool.description)):
                    yield Finding("/annotations/readOnlyHint", (
                        f"'{tool.name}' is annotated readOnlyHint: true but runs whatever {runs} it is given, and one "
                        f"statement can write or delete; hosts will run it without asking — set readOnlyHint: false, "
                        f"or enforce read-only access (a read-only role or transaction) and say so in the description"))
            if destructive is True:
                yield Finding("/annotations/destructiveHint", (
                    "destructiveHint: true contradicts readOnlyHint: true (a tool that changes nothing destroys "
                    "nothing; MCP reads destructiveHint only when readOnlyHint is false); remove one of them"))
        elif destructive is True:
            action = only_reads(tool, ctx)
            if action is not None and action.where in ("name", "description"):
                written = " (readOnlyHint: false is written out, but the tool only reads)" if read_only is False else ""
                yield Finding("/annotations/destructiveHint", (
                    f"'{tool.name}' only reads ({action.says()}) but is annotated destructiveHint: true{written}; set "
                    f"readOnlyHint: true and drop destructiveHint, or rename the tool if it does destroy something"))
