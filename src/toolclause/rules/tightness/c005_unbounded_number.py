"""unbounded-number (C005)

## What it does
Finds integer and number properties that hold counts, pages, limits, offsets,
durations in days or hours, ages, sizes or retries (`limit`, `page`,
`max_results`, `top_k`, `num_days`, `offset`, …; or a description that says
"number of", "how many", "개수", "페이지", "일수", "나이", "최대", …) but have no
`minimum` and no `maximum`.  The message names the word that triggered it.  A
property whose description states a bound ("up to 50", "최대 100", "1-20") is
T007's: that rule quotes the bound and proposes exactly it.

## Why is this bad?
The model sees a bare integer.  `limit: 0`, `page: -1`, `days: 100000` all pass
validation and reach the function, which then fails in a way the model cannot
learn from.  Bounds written only in the description are not enforced.

## Example
```json
{"name": "search_orders", "description": "Search past orders by customer, newest first.",
 "inputSchema": {"type": "object",
                 "properties": {"customer_id": {"type": "string", "description": "Customer id"},
                                "limit": {"type": "integer", "description": "How many orders to return"}},
                 "required": ["customer_id"], "additionalProperties": false}}
```

## Use instead
```json
{"name": "search_orders", "description": "Search past orders by customer, newest first.",
 "inputSchema": {"type": "object",
                 "properties": {"customer_id": {"type": "string", "description": "Customer id"},
                                "limit": {"type": "integer", "minimum": 1, "maximum": 50,
                                          "description": "How many orders to return"}},
                 "required": ["customer_id"], "additionalProperties": false}}
```

## Fix safety
Not applied by `--fix`: the suggested bounds are a starting point; only the
author knows what the function accepts.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from itertools import pairwise

from ... import _lazy_re as re
from ...model import Edit, Fix, Severity, ToolContract
from ...schema.walk import NodeKind, SchemaNode
from .._reach import unused_definition
from ..base import Finding, LintContext, Rule
from ..consistency.t007_limit_stated_not_encoded import stated_limit
from ._shapes import is_number_schema

_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "enum", "const")

# name token → (what it is, suggested minimum, suggested maximum)
_NAME_WORDS: dict[str, tuple[str, int, int]] = {
    "count": ("a count", 0, 100), "quantity": ("a quantity", 1, 100),
    "qty": ("a quantity", 1, 100), "limit": ("a limit", 1, 100), "results": ("a count of results", 1, 100),
    "items": ("a count", 1, 100), "records": ("a count", 1, 100), "rows": ("a count", 1, 100),
    "entries": ("a count", 1, 100), "hits": ("a count", 1, 100), "tokens": ("a count", 1, 4096),
    "topk": ("a count", 1, 100), "topn": ("a count", 1, 100),
    "page": ("a page number", 1, 1000), "pages": ("a page count", 1, 1000), "pagesize": ("a page size", 1, 100),
    "perpage": ("a page size", 1, 100), "batchsize": ("a batch size", 1, 100),
    "samplesize": ("a sample size", 1, 1000), "populationsize": ("a population size", 1, 1000),
    "chunksize": ("a chunk size", 1, 10000), "groupsize": ("a group size", 1, 100),
    "partysize": ("a party size", 1, 20),
    "offset": ("an offset", 0, 10000), "skip": ("an offset", 0, 10000),
    "days": ("a number of days", 1, 365), "hours": ("a number of hours", 1, 168),
    "minutes": ("a number of minutes", 1, 1440), "weeks": ("a number of weeks", 1, 52),
    "months": ("a number of months", 1, 120), "age": ("an age", 0, 150),
    "retries": ("a retry count", 0, 10), "attempts": ("an attempt count", 1, 10),
}
# a property named like an identifier or a point in time is not a quantity
_NOT_A_QUANTITY = frozenset({"id", "ids", "identifier", "code", "year", "timestamp", "epoch", "port", "version",
                             "zip", "phone", "index", "idx"})
_TOKEN = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")

_DESCRIPTION_WORDS = re.compile(
    r"\bnumber of (?!the\b)|\bhow many\b|\bcount of\b|\bmax(?:imum)? (?:number|count|amount) of\b"
    r"|\blimit(?:s)? (?:the )?(?:number|results|count)\b|\bpage number\b|\bin days\b|\bnumber of days\b"
    r"|\btop[ -]?[kn]\b"
    r"|개수|갯수|건수|수량|페이지|일수|나이|최대|몇 ?개"
    r"|数量|个数|条数|页码|页数|天数|年龄|最大|最多",
    re.IGNORECASE)

_NOT_A_PERSON = frozenset("max min cache cached file data page content entry item".split())
_A_PERSON = re.compile(r"\b(?:years?|old|person|people|patients?|users?|customers?|providers?|child|children|adults?|"
                       r"members?|participants?|applicants?|drivers?|students?|employees?|audiences?|groups?)\b", re.I)


def _cache_age(name: str, description: str) -> bool:
    """`maxAge` (how old a cached copy may be) rather than a person's age: no word about people or years."""
    tokens = name_tokens(name)
    prefixed = any(t == "age" and i > 0 and tokens[i - 1] in _NOT_A_PERSON for i, t in enumerate(tokens))
    return prefixed and not _A_PERSON.search(description)


_NEGATIVE = re.compile(r"\bnegative\b|(?<![\w.-])-\d", re.I)
# "non-negative", "must not be negative", "negative values are rejected": negatives refused, not given a meaning
_REFUSED_BEFORE = re.compile(r"(?:\bnon[- ]?|\bnot (?:be )?|\bnever (?:be )?|\bcannot be |n't be |\bno )$", re.I)
_REFUSED_AFTER = re.compile(r"^[\w ]{0,20}?\b(?:not allowed|invalid|rejected|refused|error)", re.I)
_AFTER_NAME = 300  # characters of a tool's description read after a property's name, for what it says of it


def _gives_negatives_a_meaning(text: str, start: int = 0, end: int | None = None) -> bool:
    for found in _NEGATIVE.finditer(text, start, len(text) if end is None else end):
        if found.group(0)[0] == "-":
            return True  # an example call with a negative value
        if not (_REFUSED_BEFORE.search(text[max(0, found.start() - 16):found.start()])
                or _REFUSED_AFTER.search(text[found.end():found.end() + 40])):
            return True
    return False


def _negatives_documented(name: str, description: str, tool_description: object) -> bool:
    """The property's description, or the tool's where it speaks of the property, gives negative values a
    meaning (`'offset' … Negative: read the last N lines`, `offset: -20 → the last 20 lines`)."""
    if _gives_negatives_a_meaning(description):
        return True
    if not isinstance(tool_description, str) or name not in tool_description:
        return False
    for mention in re.finditer(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", tool_description):
        if _gives_negatives_a_meaning(tool_description, mention.end(), mention.end() + _AFTER_NAME):
            return True
    return False


def name_tokens(name: str) -> list[str]:
    """'maxResults' → ['max', 'results']; 'top_k' → ['top', 'k']."""
    return [t.lower() for t in _TOKEN.findall(name)]


def name_trigger(name: str) -> tuple[str, str, int, int] | None:
    tokens = name_tokens(name)
    if any(t in _NOT_A_QUANTITY for t in tokens):
        return None
    # joined pairs catch top_k, page_size, per_page written in any case style
    for first, second in pairwise(tokens):
        joined = first + second
        if joined in _NAME_WORDS:
            return (f"{first}_{second}", *_NAME_WORDS[joined])
    for index, token in enumerate(tokens):
        if token in _NAME_WORDS:
            return (token, *_NAME_WORDS[token])
        # num_results, numPages — but not num1, num2 (operands)
        if token == "num" and index + 1 < len(tokens) and tokens[index + 1].isalpha():
            return ("num", "a count", 1, 100)
    return None


class UnboundedNumber(Rule):
    code = "C005"
    name = "unbounded-number"
    severity = Severity.INFO
    node_kinds = frozenset({NodeKind.PROPERTY})
    node_types = frozenset({"integer", "number"})  # the engine sends only these nodes

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        if unused_definition(tool, node, ctx):
            return  # no argument is ever checked against an unreferenced definition
        schema = node.schema
        if not is_number_schema(schema) or any(k in schema for k in _BOUNDS) or node.key is None:
            return
        name = node.key
        description = schema.get("description")
        description = description if isinstance(description, str) else ""
        trigger = name_trigger(name)
        if trigger is not None and trigger[0] == "age" and _cache_age(name, description):
            return  # `maxAge` of cached data, in a unit the name does not give: not a person's age
        low: int | None
        high: int | None
        if trigger is not None:
            word, what, low, high = trigger
            why = f"its name says it is {what} ('{word}')"
        else:
            if any(t in _NOT_A_QUANTITY for t in name_tokens(name)):
                return
            found = _DESCRIPTION_WORDS.search(description)
            if found is None:
                return
            why = f"its description says it is a count or limit ('{found.group(0).strip()}')"
            low = high = None
        if _negatives_documented(name, description, tool.description):
            return  # "Negative: read the last N lines": a lower bound would refuse a documented call
        stated = stated_limit(node, tool)
        if stated is not None and stated.fix is not None and any(e.pointer.endswith("/maximum")
                                                                 for e in stated.fix.edits):
            return  # the text states the largest value: T007 reports it as stated, with exactly those values
        # 0 is only a mistake where the smallest sensible value is 1 (an offset or a retry count may be 0)
        advice = ("a model may send a negative number or a huge one" if low == 0 else
                  "a model may send 0, a negative number or a huge one")
        kind = json.dumps(schema.get("type"))
        if low is None or high is None:
            yield Finding(node.pointer, f"'{name}' ({kind}) has no minimum or maximum; {why}, and {advice}: add a "
                                        f"\"minimum\" (0 or 1) and the largest \"maximum\" the function accepts",
                          Fix("add \"minimum\" and \"maximum\"", safe=False))
            return
        yield Finding(node.pointer,
                      f"'{name}' ({kind}) has no minimum or maximum; {why}, and {advice}: add "
                      f"\"minimum\": {low}, \"maximum\": {high} (or the bounds the function accepts)",
                      Fix(f"add \"minimum\": {low} and \"maximum\": {high}", safe=False,
                          edits=(Edit("set", node.pointer + "/minimum", low),
                                 Edit("set", node.pointer + "/maximum", high))))
