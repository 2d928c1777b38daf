"""opaque-enum-values (D006)

## What it does
Finds enum values a model cannot read — letter-and-number codes whose letters
vary (`A1`, `B2`, `C3`) and joined codes with a vowel-less abbreviation
(`SVC_PREM`, `CBN_ECO`) — unless a description of the tool (its own, the
property's, a sibling's) mentions each such value (a key like "A1 = economy").  Single words, however short (`DHL`,
`PGP`, `fr`), common acronyms and abbreviations (`PDF`, `HTML`, `MSG_ID`) and
ordinal series with one letter (`P1`, `P2`, `P3`; `Q1`–`Q4`) are readable and
not reported.

## Why is this bad?
A model maps the user's words onto enum values.  "premium service" does not
lead to `SVC_PREM` unless something says so, so the model picks at random or
asks needlessly.

## Example
```json
{"name": "book_seat", "description": "Books one seat on a flight; returns the booking reference.",
 "inputSchema": {"type": "object",
                 "properties": {"cabin": {"type": "string", "enum": ["CBN_ECO", "CBN_BIZ", "CBN_FST"],
                                          "description": "Cabin class"}}}}
```

## Use instead
```json
{"name": "book_seat", "description": "Books one seat on a flight; returns the booking reference.",
 "inputSchema": {"type": "object",
                 "properties": {"cabin": {"type": "string", "enum": ["economy", "business", "first"],
                                          "description": "Cabin class"}}}}
```

## Fix safety
No fix: renaming values changes what the function receives.
"""

from __future__ import annotations

from collections.abc import Iterable

from ... import _lazy_re as re
from ...lexicon import english
from ...model import Fix, Severity, ToolContract
from ...schema.walk import SchemaNode
from ..base import Finding, LintContext, Rule
from ._common import text_of

_LETTER_CODE = re.compile(r"([A-Za-z])[-_]?\d{1,2}")
_SEGMENTED = re.compile(r"[A-Za-z0-9]+(?:[_-][A-Za-z0-9]+)+")
_VOWELS = frozenset("aeiouy")


def _abbreviation(segment: str) -> bool:
    """A 3-5 letter segment with no vowel that is not a known acronym: 'svc', 'cbn', 'prd'.

    Two-letter segments are left alone: they are language and country codes (fr, zh, US).
    """
    return 3 <= len(segment) <= 5 and segment.isalpha() and segment.isascii() \
        and _VOWELS.isdisjoint(segment) and segment not in english.ACRONYMS


def opaque_values(values: list) -> list[str]:
    """Values a model cannot map words onto.

    Either every value is a letter-and-number code and the letters differ
    (`A1`, `B2`, `C3` — whereas `P1`, `P2`, `P3` is a readable series), or a value
    joins segments with `_`/`-` and one of them is a vowel-less abbreviation
    (`SVC_PREM`).  Single words, however short (`DHL`, `PGP`, `fr`), are names.
    """
    strings = [v for v in values if isinstance(v, str)]
    if len(strings) < 2:
        return []
    codes = [_LETTER_CODE.fullmatch(v) for v in strings]
    if all(codes) and len({c.group(1).lower() for c in codes if c}) > 1:
        return strings
    return [v for v in strings if _SEGMENTED.fullmatch(v)
            and any(_abbreviation(part.lower()) for part in re.split(r"[_-]", v))]


def _texts_of(tool: ToolContract) -> str:
    """The tool description and every description in its input schema, joined: where a code may be explained."""
    parts: list[str] = [tool.description] if isinstance(tool.description, str) else []
    stack: list[object] = [tool.input_schema]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            text = item.get("description")
            if isinstance(text, str):
                parts.append(text)
            stack.extend(v for k, v in item.items() if k != "enum")
        elif isinstance(item, list):
            stack.extend(item)
    return "\n".join(parts)


class OpaqueEnumValues(Rule):
    code = "D006"
    name = "opaque-enum-values"
    severity = Severity.INFO
    keywords = frozenset({"enum"})

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        values = node.schema.get("enum")
        if not isinstance(values, list):
            return
        opaque = opaque_values(values)
        if not opaque:
            return
        description = text_of(node.schema)
        # a value the tool's other texts name (the description, a sibling's description) is explained there
        elsewhere = _texts_of(tool)
        unexplained = [v for v in opaque if v not in description and v not in elsewhere]
        if not unexplained:
            return
        shown = ", ".join(f"'{v}'" for v in unexplained[:8]) + (" …" if len(unexplained) > 8 else "")
        yield Finding(node.pointer + "/enum", f"enum values {shown} are codes a model cannot read; use readable "
                                              f"values or explain each in the description ('{unexplained[0]}' = …)",
                      Fix("replace the codes with readable values, or explain each in the description", safe=False))
