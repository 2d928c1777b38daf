"""limit-stated-not-encoded (T007)

## What it does
Reports a limit the property's text states that its schema does not enforce:
"Maximum number of results (1-50)" on an integer with no `maximum`, "up to 255
characters" on a string with no `maxLength`, "Maximum 100 symbols" on an array
with no `maxItems`, "max 100" beside `"maximum": 9007199254740991`, "최대 10건",
"1〜4".

It reads the same statements as T004 (ranges, "up to", "at most", "max",
"최대", "最大") in the property's description and in the item of the tool
description's parameter list that documents the property ("- limit: Maximum
number of results (1-1000)"), for integer and number properties
(`minimum`/`maximum`), strings (`minLength`/`maxLength`, when the number counts
characters) and arrays (`minItems`/`maxItems`), nullable ones (`anyOf` with
`null`) included.  It reports a stated bound the schema lacks or states more
loosely; a bound the schema states more tightly is T004's.  A number followed
by a unit the bound may not share ("up to 30 seconds" on a count), a limit
said softly ("recommended: at most 20", "typically up to 100", "default max:
100, configurable"), a value past which the tool clamps rather than refuses
("capped at 120", "truncated"), a limit of a product or a total of several
properties ("page * limit must not exceed 10000") and a default ("defaults to
20") are left alone.

## Why is this bad?
The text tells the model the limit, but the validator does not know it: a model
that sends 80 for "1-50" gets past validation, and the function fails, clamps
without a word, or runs the expensive query the limit was there to prevent.  A
schema that states the limit refuses the call with an error that names it, and
every client that reads the schema (forms, SDK types, other models) learns it.

## Example
```json
{"name": "search_issues", "description": "Search the queue's issues by text.",
 "inputSchema": {"type": "object",
                 "properties": {"query": {"type": "string", "description": "Text to find"},
                                "limit": {"type": "integer", "description": "Maximum number of results (1-50)"}},
                 "required": ["query"], "additionalProperties": false}}
```

## Use instead
```json
{"name": "search_issues", "description": "Search the queue's issues by text.",
 "inputSchema": {"type": "object",
                 "properties": {"query": {"type": "string", "description": "Text to find"},
                                "limit": {"type": "integer", "minimum": 1, "maximum": 50,
                                          "description": "Maximum number of results (1-50)"}},
                 "required": ["query"], "additionalProperties": false}}
```

## Fix safety
Not applied by `--fix`: the bound comes from prose, and the function may accept
more than its text says; `--fix --unsafe-fixes` adds exactly the stated bounds.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ... import _lazy_re as re
from ...model import Edit, Fix, Severity, ToolContract
from ...schema.walk import NodeKind, SchemaNode
from .._reach import unused_definition
from ..base import Finding, LintContext, Rule
from ._prose import parameter_item, quoted, sentences
from .t004_bound_rejects_documented_value import Statement, _about_this, statements, texts_about

# keyword pairs per kind: (lower, upper)
_KEYWORDS = {"number": ("minimum", "maximum"), "string": ("minLength", "maxLength"), "array": ("minItems", "maxItems")}
_EXCLUSIVE = {"minimum": "exclusiveMinimum", "maximum": "exclusiveMaximum"}
_SOFT = re.compile(r"(?:recommend\w*|suggest\w*|typical\w*|usual\w*|ideal\w*|about|around|approx\w*|roughly|"
                   r"best|prefer\w*|by\s+default|default\s+max\w*|권장|추천|보통|대략|推荐|建议|通常|推奨)[^.\n]{0,24}$",
                   re.IGNORECASE)
# a sentence where going past the number is not refused but clamped, configured elsewhere, or a limit of a
# product or a total of several properties ("page * limit must not exceed 10000"): no bound of this one property
_NOT_A_BOUND = re.compile(r"\bcap(?:ped|s)?\b|\bclamp\w*|\btruncat\w*|\bconfigur\w*|\btimes\b|\s[*×]\s|\d\s*자\s*사용|"
                          r"\bcombined\b|\bsum\b|\btotal(?:ing|ling)?\b|잘림|잘라|截断", re.IGNORECASE)
_DIGIT = re.compile(r"\d")
_SIGN_WORDS = re.compile(r"negative|positive|greater\s+than\s+0|>\s*0|负|負|음수|양수|正整数", re.IGNORECASE)


def plain_kind(schema: dict[str, Any]) -> str | None:
    """"number", "string" or "array" for a property of that one type (`null` aside, in `type` or in an
    `anyOf`/`oneOf` of plain branches), else None."""
    declared = schema.get("type")
    if isinstance(declared, str):
        types = {declared}
    elif isinstance(declared, list):
        types = {t for t in declared if isinstance(t, str)}
    else:
        branches = schema.get("anyOf") or schema.get("oneOf")
        if not isinstance(branches, list):
            return None
        named = [b.get("type") for b in branches if isinstance(b, dict)]
        types = {t for t in named if isinstance(t, str)}
        if len(named) != len(branches) or len(types) != len(named):
            return None
    types.discard("null")
    if types and types <= {"integer", "number"}:
        return "number"
    if types == {"string"}:
        return "string"
    if types == {"array"}:
        return "array"
    return None


def _declared(schema: dict[str, Any], keyword: str) -> float | None:
    """The property's bound for `keyword` (its exclusive twin for numbers), from the node or a nullable
    branch."""
    places = [schema] + [b for b in schema.get("anyOf") or schema.get("oneOf") or () if isinstance(b, dict)]
    for place in places:
        for key in (keyword, _EXCLUSIVE.get(keyword)):
            value = place.get(key) if key else None
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return float(value)
    return None


# "non-negative", "must be positive", "不支持负数", "음수 불가": a lower bound in words
_NON_NEGATIVE = re.compile(r"\bnon[- ]?negative\b|\b(?:must|cannot|can't|may\s+not)\s+(?:not\s+)?be\s+negative\b|"
                           r"\bno\s+negative\s+(?:values|numbers)\b|不支持负数|不能为负|不可为负|음수(?:는|를)?\s*"
                           r"(?:불가|허용되지|사용할\s*수\s*없)|負の値は(?:不可|指定できません)", re.IGNORECASE)
_POSITIVE = re.compile(r"\b(?:must\s+be|a|as\s+a)\s+positive\s+(?:integer|number|whole\s+number)\b|"
                       r"\bmust\s+be\s+(?:greater\s+than|>)\s*0\b|양수(?:만|여야)|正整数", re.IGNORECASE)


def _signs(text: str) -> list[Statement]:
    """The lower bound a text states in words: 0 for "non-negative", 1 for "a positive integer"."""
    found = _NON_NEGATIVE.search(text)
    if found is not None:
        return [Statement("low", 0.0, found.group(0), "", "")]
    found = _POSITIVE.search(text)
    if found is not None:
        return [Statement("low", 1.0, found.group(0), "", "")]
    return []


# a name written right before the number, which the number then describes: "item_size_bytes (1-409600"
_NAME_BEFORE = re.compile(r"([A-Za-z][a-z0-9]*(?:_[A-Za-z0-9]+)+|[a-z]+(?:[A-Z][a-z0-9]*)+)[`'\"]?\s*"
                          r"(?:\(|:|=|\bis\b|\bof\b)?\s*$")


def _about_another(text: str, words: str, name: str) -> bool:
    """Whether the number belongs to another name written just before it: "item_size_bytes (1-409600)" in the
    entry of `table_list` is the size of a field of each table, not a count of tables."""
    at = text.find(words)
    found = _NAME_BEFORE.search(text[max(0, at - 40):at]) if at > 0 else None
    return found is not None and found.group(1) != name


def _shown(value: float) -> int | float:
    return int(value) if value.is_integer() else value


def stated_limit(node: SchemaNode, tool: ToolContract) -> Finding | None:
    """T007's finding on a property: a limit its text states that the schema lacks or states more loosely.
    (C005 asks this too: such a property is this rule's, not an unbounded number's.)"""
    schema = node.schema
    if node.key is None or "enum" in schema or "const" in schema:
        return None
    description = schema.get("description")
    if not (isinstance(description, str) and (_DIGIT.search(description) or _SIGN_WORDS.search(description))) \
            and not (isinstance(tool.description, str) and node.key in tool.description):
        return None
    kind = plain_kind(schema)
    if kind is None:
        return None
    for where, text in texts_about(node, tool):
        part, _, whole = text.partition("\x00")
        if _NOT_A_BOUND.search(part):
            continue
        if whole and parameter_item(whole, node.key) is None:
            # a number in the tool's prose is as often about a result or an example as about the argument:
            # only its parameter list ("- limit: … (1-1000)") speaks of this property for sure
            continue
        found = [s for s in statements(part) if s.side in ("low", "high") and _about_this(s, node.key, kind)
                 and not s.words.startswith(("<", "≤"))  # "<=0 defaults to 200": a meaning, not a bound
                 and not _SOFT.search(part[:max(0, part.find(s.words))])
                 and not _about_another(part, s.words, node.key)]
        if found:
            finding = _missing(node, kind, found, where, whole or part)
            if finding is not None:
                return finding
    if kind == "number" and isinstance(description, str) and _SIGN_WORDS.search(description):
        for sentence in sentences(description):  # "must not be negative": a lower bound in words
            signs = _signs(sentence)
            if signs:
                return _missing(node, kind, signs, f"the description of '{node.key}'", sentence)
    return None


def _missing(node: SchemaNode, kind: str, found: list[Statement], where: str, sentence: str) -> Finding | None:
    low_key, high_key = _KEYWORDS[kind]
    highs = [s for s in found if s.side == "high"]
    lows = [s for s in found if s.side == "low"]
    # several largest values (a page size and a total): only the smallest surely bounds this property
    high = min(highs, key=lambda s: s.value) if highs else None
    low = max(lows, key=lambda s: s.value) if lows else None
    wanted: list[tuple[str, float, Statement]] = []
    declared_high = _declared(node.schema, high_key)
    if high is not None and (declared_high is None or declared_high > high.value):
        wanted.append((high_key, high.value, high))
    declared_low = _declared(node.schema, low_key)
    if low is not None and (declared_low is None or declared_low < low.value):
        wanted.append((low_key, low.value, low))
    if not wanted:
        return None
    if low is not None and high is not None and low.value > high.value:
        return None  # "5-25m / 50-100m": recommended values of several things, no range of this one
    words = "', '".join(dict.fromkeys(s.words for _, _, s in wanted))
    states = ", ".join(f"\"{k}\": {_shown(v)}" for k, v, _ in wanted)
    loose = [f"\"{k}\": {_shown(d)}" for k, _, _ in wanted
             if (d := _declared(node.schema, k)) is not None]
    missing = " and no ".join(f'"{k}"' for k, _, _ in wanted)
    schema_says = f"the schema says only {', '.join(loose)}" if loose else f"the schema has no {missing}"
    return Finding(node.pointer,
                   f"{where} says: '{quoted(sentence)}' ('{words}'), but {schema_says}, so a value past the limit "
                   f"gets through to the function; add {states}",
                   Fix(f"add {states}", safe=False,
                       edits=tuple(Edit("set", f"{node.pointer}/{k}", _shown(v)) for k, v, _ in wanted)))


class LimitStatedNotEncoded(Rule):
    code = "T007"
    name = "limit-stated-not-encoded"
    severity = Severity.WARNING
    node_kinds = frozenset({NodeKind.PROPERTY})

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        finding = stated_limit(node, tool)
        if finding is not None and not unused_definition(tool, node, ctx):
            yield finding
