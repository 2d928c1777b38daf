"""undocumented-result (D009)

## What it does
Finds a tool with no `outputSchema` whose description says nothing about what
comes back: no "returns", "responds with", "outputs", "반환", "결과",
"돌려줍니다", and no verb whose meaning is a result (get, list, search,
calculate, convert, 조회, 검색, 계산 …) in the description or the name.
Typical: tools that create, send or change something and never say whether
an id, the new object or nothing at all comes back.  Descriptions in Chinese
or Japanese are not judged: the lexicon reads English and Korean only.

## Why is this bad?
The model has to call the tool to learn what it gives back, and cannot plan
the next step ("then send the order id to the user") in advance.  It also
cannot tell a silent success from a failure.

## Example
```json
{"name": "send_invoice", "description": "고객에게 청구서를 이메일로 발송합니다.",
 "inputSchema": {"type": "object", "properties": {"invoice_id": {"type": "string", "description": "청구서 번호"}}}}
```

## Use instead
```json
{"name": "send_invoice", "description": "고객에게 청구서를 이메일로 발송하고, 발송 ID와 발송 시각을 반환합니다.",
 "inputSchema": {"type": "object", "properties": {"invoice_id": {"type": "string", "description": "청구서 번호"}}}}
```

## Fix safety
No fix: only the author knows what the tool returns.
"""

from __future__ import annotations

from collections.abc import Iterable

from ... import _lazy_re as re
from ...lexicon import VerbClass, computes, has_hangul, says_result, split_identifier, text_words, verb_class
from ...model import Fix, Severity, ToolContract
from ..base import Finding, LintContext, Rule

_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")


def says_what_comes_back(description: str, name: str) -> bool:
    if any(says_result(w) for w in text_words(description)):
        return True
    return any(verb_class(w) & VerbClass.READ or computes(w) for w in split_identifier(name))


def readable(description: str) -> bool:
    """The lexicon reads English and Korean; Chinese and Japanese text is not judged."""
    return not _HAN.search(description) or has_hangul(description)


class UndocumentedResult(Rule):
    code = "D009"
    name = "undocumented-result"
    severity = Severity.INFO

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        if tool.output_schema is not None:
            return
        text = tool.description.strip() if isinstance(tool.description, str) else ""
        if not text or not readable(text):
            return  # D001 reports a missing description
        if says_what_comes_back(text, tool.name if isinstance(tool.name, str) else ""):
            return
        yield Finding("/description", "the description does not say what the tool returns and there is no "
                                      "outputSchema; add \"returns …\" (an id, the new object, a status) "
                                      "or an outputSchema",
                      Fix("say what comes back, or add an outputSchema", safe=False))
