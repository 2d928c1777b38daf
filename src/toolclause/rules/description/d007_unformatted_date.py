"""unformatted-date (D007)

## What it does
Finds a string property that holds a date or a time but declares no `format`
and no `pattern`.  Evidence: the name (`start_date`, `created_at`,
`departure_time`, `timestamp`, `birthday`) or the description ("YYYY-MM-DD",
"ISO 8601", "Date of the appointment", "예약 날짜", "출발 일시").  It suggests
`format: date` or `format: date-time` per that evidence, or a `pattern` when
the description gives a non-ISO format ("MM/DD/YYYY").  Integer and number
properties (Unix timestamps) and natural-language dates ("tomorrow") are not
reported; `update`, `data` and `format_type` are not dates.

A `format` is suggested only where every documented form fits it.  A value that
may be a date *or* something else ("a date or a date range
(2024-01-01..2024-03-31)", "a timestamp or a plain date", "either …",
"'YYYY-MM-DD' or 'YYYY-MM-DDTHH:MM:SS'", "'2025-01-01T10:00:00' (timed) or
'2025-01-01' (all-day)", "ISO 8601 or date-only", "Use \"remove\" to clear it")
is told to document its forms and add a `pattern` for them instead.  A date and
time whose documented form RFC 3339 rejects ('2024-01-01T10:00:00' with no
offset, '…+0000', '…T12:00' without seconds) gets a `pattern` request, not
`format: date-time`; a range in one value ('YYYY-MM-DD to YYYY-MM-DD') and a
template read only in part get no guessed pattern.  "ISO 8601 date string" is a
`date`.  A property named `timestamp` whose form nothing documents is not
reported: it is as often Unix seconds or an id (Slack's message `ts`) as ISO
8601.  Identifiers shaped like codes (`ADV-2024-01-15-XY7Q`), search text whose
example holds a date qualifier (`query`: "created:>2024-01-01"), a description
that names a field ("The name of the timestamp to sort by") and Unix-seconds
examples ("1234567890.123456") are not dates, nor is Slack's `ts` / `thread_ts`.
Version labels (`api_version`: "2024-06-01", `version`: "2025-01"), a format
template as the value (`date_formatter`, default "yyyy/MM/dd"), a date inside a
JSON value or an expression (`createTime > "2026-03-18…"`), a description that
names a format of no date ("Markdown format", "ISO 4217"), Unix timestamps
described in Chinese (秒级时间戳, 毫秒) and 일시적 ("temporary") are not dates to format
either.  "Since this date", "until this date" count as saying it is one.

A field whose description documents several forms, or a local time without an
offset, is reported as info: the text already tells the model, and the pattern
asked for serves the validator.  No pattern is offered that the field's own
default or examples would fail.

## Why is this bad?
"Next Friday", "03/04/2025", "2025-04-03" and "Apr 3" all fit a bare string.
The model picks one, the function parses another — and 03/04 is March in one
country and April in the next.  A format makes the model write one shape and
lets validation reject the rest.

## Example
```json
{"name": "book_table", "description": "Books a table at one restaurant; returns the booking id.",
 "inputSchema": {"type": "object",
                 "properties": {"reservation_date": {"type": "string", "description": "예약 날짜"}}}}
```

## Use instead
```json
{"name": "book_table", "description": "Books a table at one restaurant; returns the booking id.",
 "inputSchema": {"type": "object",
                 "properties": {"reservation_date": {"type": "string", "format": "date", "description": "예약 날짜"}}}}
```

## Fix safety
A format or pattern rejects values the function may have accepted before, so
it is not applied by `--fix`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from ...model import Edit, Fix, Severity, ToolContract
from ...schema.walk import NodeKind, SchemaNode
from .._reach import unused_definition
from ..base import Finding, LintContext, Rule
from ..consistency._prose import parameter_item
from ._common import is_string, nullable_view, property_path, text_of
from ._dates import date_suggestion

_SETTLED = frozenset({"format", "pattern", "enum", "const", "$ref", "anyOf", "oneOf", "allOf"})


def _rejects_own_values(schema: dict, pattern: object) -> bool:
    """Whether the schema's own default or examples would fail the suggested pattern."""
    if not isinstance(pattern, str):
        return False
    try:
        compiled = re.compile(pattern)
    except re.error:
        return True
    values = [schema["default"]] if "default" in schema else []
    values += [v for v in schema.get("examples") or [] if isinstance(v, str)]
    return any(isinstance(v, str) and compiled.search(v) is None for v in values)


class UnformattedDate(Rule):
    code = "D007"
    name = "unformatted-date"
    severity = Severity.WARNING
    node_kinds = frozenset({NodeKind.PROPERTY})
    # string properties, and nullable ones written as an `anyOf` (which declares no `type` of its own)

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        if unused_definition(tool, node, ctx):
            return  # no argument is ever checked against an unreferenced definition
        schema = node.schema
        if not isinstance(node.key, str):
            return
        nullable = nullable_view(schema)
        if nullable is not None:  # `format` beside the `anyOf` checks strings only, so null still validates
            schema = nullable[0]
        if not _SETTLED.isdisjoint(schema) or not is_string(schema):
            return
        text = text_of(schema)
        from_tool = False
        if not text and node.parent is not None and node.parent.is_root:
            text = parameter_item(tool.description, node.key) or ""  # a docstring's `Args:` in the description
            from_tool = bool(text)
        found = date_suggestion(node.key, text)
        if found is None:
            return
        why, keyword, value = found
        if from_tool:
            why = why.replace("its description", "the tool description's entry for it")
        if keyword == "format" and schema.get("default") == "":
            # the field's own default would fail the format: say so, at info (the fix needs a second change)
            path = property_path(node)
            yield Finding(node.pointer, f"property '{path}' holds a date/time ({why}) but has no format or pattern; "
                                        f"\"format\": \"{value}\" states it, but its default \"\" would fail it: "
                                        f"make the default null (or drop it) and add the format",
                          Fix(f"replace the default \"\" of '{path}' with null and add \"format\": \"{value}\"",
                              safe=False), Severity.INFO)
            return
        path = property_path(node)
        if keyword == "forms":
            yield Finding(node.pointer, f"property '{path}' holds a date/time but has no format or pattern, and "
                                        f"{why}; say in the description which forms it takes (ISO 8601 date, "
                                        f"date-time, Unix seconds …) and add a \"pattern\" that accepts each of them",
                          Fix(f"document the forms '{path}' takes and add a \"pattern\" for them", safe=False),
                          Severity.INFO)  # the text documents the forms already: a pattern is the validator's gain
            return
        if keyword == "local":
            yield Finding(node.pointer, f"property '{path}' holds a date/time but has no format or pattern, and "
                                        f"{why}, so \"format\": \"date-time\" would reject it; add a \"pattern\" "
                                        f"for that form (or ask for an offset and use \"format\": \"date-time\")",
                          Fix(f"add a \"pattern\" for the form '{path}' documents", safe=False), Severity.INFO)
            return
        if value is None:
            yield Finding(node.pointer, f"property '{path}' holds a date/time ({why}) but has no format or pattern; "
                                        f"add a \"pattern\" for that format",
                          Fix(f"add a \"pattern\" to '{path}'", safe=False))
            return
        if keyword == "pattern" and _rejects_own_values(schema, value):
            return  # the default or an example ("" for none) would fail the pattern: no advice is safe here
        addition = f"\"{keyword}\": {json.dumps(value)}"
        yield Finding(node.pointer, f"property '{path}' holds a date/time ({why}) but has no format or pattern; "
                                    f"add {addition}",
                      Fix(f"add {addition} to '{path}'", safe=False,
                          edits=(Edit("set", f"{node.pointer}/{keyword}", value),)))
