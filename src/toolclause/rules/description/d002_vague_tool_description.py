"""vague-tool-description (D002)

## What it does
Finds a tool description too short to tell a model when to call the tool —
under 40 characters (option `min-length`) — or one that only restates the tool
name ("Fetch items from database" for `get_items`, "상태 조회" for
`get_status`).  Hangul and Han characters weigh 2.5 Latin characters each (a
Hangul syllable spells two or three letters; a Han character is usually a whole
word), so "현재 날씨를 도시 이름으로 조회합니다" passes like its English
translation.  To tell a restatement, the description's content words (minus
filler such as "the", "from", "database", 해당, 정보) are compared with the name
words and their stand-ins (fetch/retrieve for get; 조회 for get, 상태 for
status, 목록 for list).

## Why is this bad?
A model chooses between tools by their descriptions.  One that repeats the
name adds nothing: the model still does not know what is fetched, from where,
when this tool is the right one, or what comes back.

## Example
```json
{"name": "get_status", "description": "상태 조회",
 "inputSchema": {"type": "object", "properties": {"order_id": {"type": "string", "description": "주문 번호"}}}}
```

## Use instead
```json
{"name": "get_status", "description": "주문 번호로 배송 상태(준비, 배송 중, 완료)와 예상 도착일을 조회합니다.",
 "inputSchema": {"type": "object", "properties": {"order_id": {"type": "string", "description": "주문 번호"}}}}
```

## Fix safety
No fix: only the author knows what the tool is for.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...lexicon import (
    DENSE_WEIGHT,
    english_equivalents,
    is_filler,
    is_hangul,
    split_identifier,
    synonyms,
    text_words,
    weighted_length,
)
from ...model import Fix, Severity, ToolContract
from ..base import Finding, LintContext, Rule

DEFAULT_MIN_LENGTH = 40


def restated_words(description: str, name: str) -> list[str] | None:
    """The description's content words when every one of them only repeats a name word; else None."""
    name_stems: set[str] = set()
    for word in split_identifier(name):
        name_stems |= synonyms(word)
    if not name_stems:
        return None
    content: list[str] = []
    for word in text_words(description):
        if word.isdigit() or is_filler(word):
            continue
        stand_ins = english_equivalents(word) if is_hangul(word) else synonyms(word)
        if stand_ins.isdisjoint(name_stems):
            return None
        content.append(word)
    return content or None


class VagueToolDescription(Rule):
    code = "D002"
    name = "vague-tool-description"
    severity = Severity.WARNING
    CONF = {"min-length": float}
    DEFAULT = {"min-length": DEFAULT_MIN_LENGTH}

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        text = tool.description.strip() if isinstance(tool.description, str) else ""
        if not text:
            return  # D001
        minimum = ctx.options_for(self)["min-length"]
        length = weighted_length(text)
        restated = restated_words(text, tool.name) if isinstance(tool.name, str) else None
        if not restated and length >= minimum:
            return  # the common case: nothing to report, so no message or fix is built
        measured = f"{length:g} character{'' if length == 1 else 's'}" + (
            f" (Hangul/Han weigh {DENSE_WEIGHT:g})" if length != len(text) else "")
        fix = Fix("say what the tool acts on, when to call it (and when not), and what it returns", safe=False)
        if restated:
            shown = ", ".join(f"'{w}'" for w in restated)
            yield Finding("/description", f"the description only restates the name '{tool.name}' (its words {shown} "
                                          f"repeat the name); say what it acts on, when to call it and what it returns",
                          fix)
        elif length < minimum:
            yield Finding("/description", f"the description is too short to tell when to call the tool: {measured} "
                                          f"< {minimum:g}; say what it acts on, when to call it and what it returns",
                          fix)
