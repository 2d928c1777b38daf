"""bound-rejects-documented-value (T004)

## What it does
Reports a bound that rejects a value the property's own text documents:
`minimum: 1` beside "set to 0 to disable", `maximum: 100` beside "up to 500".

It reads the values a property's text documents — "set to 0 to disable", "-1
means no limit", "up to 500 results", "max 500", "between 1 and 50", "defaults
to 20", "최대 500", "0이면 비활성" — and reports a bound of the same property
that rejects one of them: `minimum: 1` beside "0 disables", `minimum: 0` beside
"-1 for all", `maximum: 100` beside "up to 500", a `maxLength` or `maxItems`
smaller than the number of characters or items the text allows.  The message
quotes the sentence and the bound.

The number must clearly be about this property: it is in the property's own
description, or in a sentence of the tool's description that names the
property (read up to the next property it names).  A number followed by a unit
the bound may not share (seconds, megabytes, percent) or by a noun the property
does not count ("up to 500 rows" on `days`) is left alone.

## Why is this bad?
The model follows the text: it sends `0` to turn the feature off, or asks for
500 results, and the call is refused by the schema for a value the tool's own
documentation offered.  One of the two is wrong; either way the model cannot
tell which, and a retry repeats the same mistake.

## Example
```json
{"name": "search_logs", "description": "Search the service's logs.",
 "inputSchema": {"type": "object",
                 "properties": {"query": {"type": "string", "description": "Text to find"},
                                "limit": {"type": "integer", "minimum": 1, "maximum": 100,
                                          "description": "Lines to return, up to 500; 0 disables the limit."}},
                 "required": ["query"], "additionalProperties": false}}
```

## Use instead
```json
{"name": "search_logs", "description": "Search the service's logs.",
 "inputSchema": {"type": "object",
                 "properties": {"query": {"type": "string", "description": "Text to find"},
                                "limit": {"type": "integer", "minimum": 0, "maximum": 500,
                                          "description": "Lines to return, up to 500; 0 disables the limit."}},
                 "required": ["query"], "additionalProperties": false}}
```

## Fix safety
Not applied by `--fix`: the fix widens the bound to the documented value, which
is right only if the function accepts it; if the text is what is wrong, change
the text instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

from ... import _lazy_re as re
from ...model import Edit, Fix, Severity, ToolContract
from ...schema.walk import NodeKind, SchemaNode
from .._reach import unused_definition
from ..base import Finding, LintContext, Rule
from ._prose import mentions, quoted, sentences

_NUM = r"(-?\d{1,3}(?:,\d{3})+(?!\d)|-?\d+(?:\.\d+)?)"
_LIMIT_WORDS = r"(?:up\s+to|at\s+most|no\s+more\s+than|not\s+more\s+than|(?:can\s*not|must\s+not|may\s+not)\s+exceed|" \
               r"max(?:imum)?(?:\s+(?:is|of|value|allowed))?|limit(?:ed)?\s+(?:is|of|to)|capped\s+at)"
# each alternative names its numbers; `side` says which bound they meet
_STATEMENTS = re.compile(
    rf"\bbetween\s+{_NUM}\s+and\s+{_NUM}"                                  # 1, 2: a range
    rf"|\bfrom\s+{_NUM}\s+(?:to|through)\s+{_NUM}"                          # 3, 4
    rf"|(?<![\w.,:/+-]){_NUM}\s*(?:-|–|~|〜|～|\bto\b|\bthrough\b)\s*{_NUM}(?![\d.,:/-]|\.\d)"  # 5, 6
    rf"|\b{_LIMIT_WORDS}\s*[:=]?\s*{_NUM}"                                  # 7: a largest value
    rf"|(?:<=|≤)\s*{_NUM}"                                                  # 8
    rf"|(?:최대|最大|最多)\s*(?:값은?\s*)?{_NUM}"                                # 9
    rf"|{_NUM}\s*(?:개|자|건|글자|명)?\s*이하"                                  # 10
    rf"|\bdefaults?\s*(?:is\s+|to\s+|of\s+|value\s+(?:is\s+)?)?[:=]?\s*{_NUM}"  # 11: a value
    rf"|기본값\s*(?:은|는|:|=)?\s*{_NUM}"                                     # 12
    rf"|(?:\bset\s+(?:it\s+|this\s+|the\s+\w+\s+)?to|\buse|\bpass|\bspecify|\bvalue\s+of)\s+{_NUM}(?!\s*\w*%)"  # 13
    rf"|(?<![\w.-]){_NUM}\s*(?:\)\s*)?(?:to\s+disable|disables|turns?\s+(?:it\s+)?off|means\b|=\s*(?:no|none|"
    r"unlimited|off|disabled|all|infinite|infinity|auto|default|any|every)\b|for\s+(?:no|none|unlimited|all|"
    r"infinite|disabled|off|never|every|any|auto|default|the\s+default)\b|\(\s*(?:or\s+null\s+)?(?:no|none|"
    r"unlimited|off|disabled|all)\b)"                                      # 14
    rf"|(?<![\w.-]){_NUM}\s*(?:이면|은|는|을|를|으로|로)\s*(?:설정하면|입력하면|지정하면|주면)?\s*\S{{0,6}}\s*"
    r"(?:비활성|무제한|제한\s*없|전체|모두|사용\s*안|끔|해제)",                      # 15
    re.IGNORECASE)
_GROUPS = ((1, "range"), (3, "range"), (5, "range"), (7, "high"), (8, "high"), (9, "high"), (10, "high"),
           (11, "value"), (12, "value"), (13, "value"), (14, "value"), (15, "value"))
_REFUSED_BEFORE = re.compile(r"(?:\bnon[- ]?|\bnot\s+(?:be\s+)?|\bnever\s+(?:be\s+)?|\bcannot\s+be\s+|n't\s+be\s+|"
                             r"\bother\s+than\s+|\bexcept\s+)$", re.IGNORECASE)
_REFUSED_AFTER = re.compile(r"^[\w ,]{0,20}?\b(?:not\s+(?:allowed|supported|accepted|valid)|invalid|rejected|"
                            r"refused|error|deprecated)|^\s*(?:은|는|이|가)?\s*(?:허용되지|불가|지원하지|사용할\s*수\s*없)",
                            re.IGNORECASE)
_UNIT = re.compile(
    r"\s*(?:(?P<time>ms\b|millis\w*|msecs?\b|sec\w*|s\b|minutes?\b|mins?\b|hours?\b|hrs?\b|h\b|days?\b|d\b|weeks?\b|"
    r"months?\b|years?\b|초|분|시간|일|주|개월|년)"
    r"|(?P<bytes>bytes?\b|b\b|kb\b|mb\b|gb\b|tb\b|kib\b|mib\b|gib\b|바이트)"
    r"|(?P<percent>%|percent\b|퍼센트)"
    r"|(?P<chars>characters?\b|chars?\b|letters?\b|글자|문자|자\b)"
    r"|(?P<items>items?\b|elements?\b|entries\b|values\b|개|건)"
    r"|(?P<word>[A-Za-z][a-z-]+))?", re.IGNORECASE)
_FUNCTION_WORDS = frozenset("and or the a an per in of for to at by with from is are be if when which that than as "
                            "on default defaults inclusive exclusive total max maximum min minimum".split())
_GENERIC_LIMITS = frozenset("limit max maximum count num n k top size page per results number amount".split())
_TOKEN = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_AFTER_NAME = 200  # characters of a tool-description sentence read after the property's name
_DIGIT = re.compile(r"\d")


class Statement(NamedTuple):
    side: str     # "low", "high" or "value"
    value: float
    words: str    # the words that state it ("up to 500")
    unit: str     # "time", "bytes", "percent", "chars", "items", "word", or ""
    noun: str     # the word after the number, when it is one


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def _shown(value: float) -> str:
    return str(int(value)) if value.is_integer() else str(value)


def statements(text: str) -> Iterator[Statement]:
    """The values the text documents, each with the bound it meets."""
    for found in _STATEMENTS.finditer(text):
        for group, side in _GROUPS:
            if found.group(group) is None:
                continue
            before = text[max(0, found.start() - 16):found.start()]
            if _REFUSED_BEFORE.search(before) or _REFUSED_AFTER.search(text[found.end():found.end() + 40]):
                break
            unit = _UNIT.match(text, found.end())
            kind = next((k for k in ("time", "bytes", "percent", "chars", "items", "word") if unit and unit.group(k)),
                        "")
            noun = unit.group("word").lower() if unit and unit.group("word") else ""
            if kind == "word" and noun in _FUNCTION_WORDS:
                kind, noun = "", ""
            words = found.group(0).strip()
            if side == "range":
                low, high = _number(found.group(group)), _number(found.group(group + 1))
                if low >= high:
                    break
                yield Statement("low", low, words, kind, noun)
                yield Statement("high", high, words, kind, noun)
            else:
                yield Statement(side, _number(found.group(group)), words, kind, noun)
            break


def _name_tokens(name: str) -> set[str]:
    return {t.lower() for t in _TOKEN.findall(name)}


def _about_this(statement: Statement, name: str, kind: str) -> bool:
    """Whether the number's unit or noun fits the property (a count of results for `limit`, characters for a
    string's length)."""
    unit, noun = statement.unit, statement.noun
    if kind == "string":
        return unit == "chars"
    tokens = _name_tokens(name)
    stem = noun[:-1] if noun.endswith("s") else noun
    if kind == "array":  # "up to 50 tags" on `tags`; not "1-100 blocks" on `operations`
        return unit in ("", "items") or unit == "word" and any(t.startswith(stem[:5]) for t in tokens)
    if unit in ("time", "bytes", "percent"):
        return False
    if unit == "chars":
        return bool(tokens & {"chars", "characters", "length", "len", "max", "limit", "size"})
    if unit == "word":
        return any(t.startswith(stem[:5]) for t in tokens) or tokens <= _GENERIC_LIMITS
    return True


def _bounds(schema: dict[str, Any], kind: str) -> tuple[float | None, float | None, float | None, float | None]:
    """(minimum, exclusiveMinimum, maximum, exclusiveMaximum) as numbers; for strings and arrays, the largest
    length or item count as the maximum."""
    def number(key: str) -> float | None:
        value = schema.get(key)
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
    if kind == "string":
        return None, None, number("maxLength"), None
    if kind == "array":
        return None, None, number("maxItems"), None
    low, high = number("minimum"), number("maximum")
    low_open, high_open = number("exclusiveMinimum"), number("exclusiveMaximum")
    if schema.get("exclusiveMinimum") is True:  # draft 4: the flag makes `minimum` exclusive
        low, low_open = None, low
    if schema.get("exclusiveMaximum") is True:
        high, high_open = None, high
    return low, low_open, high, high_open


def _kind(schema: dict[str, Any]) -> str | None:
    declared = schema.get("type")
    types = {declared} if isinstance(declared, str) else set(declared) if isinstance(declared, list) else set()
    types.discard("null")
    if types and types <= {"integer", "number"}:
        return "number"
    if types == {"string"} and "maxLength" in schema:
        return "string"
    if types == {"array"} and "maxItems" in schema:
        return "array"
    return None

def texts_about(node: SchemaNode, tool: ToolContract) -> Iterator[tuple[str, str]]:
    """(where, text) pairs about this property: its description's sentences, and the part of each
    tool-description sentence that speaks of it."""
    description = node.schema.get("description")
    if isinstance(description, str) and _DIGIT.search(description):
        for sentence in sentences(description):
            yield f"the description of '{node.key}'", sentence
    text = tool.description
    parent = node.parent
    if not (isinstance(text, str) and parent is not None and parent.is_root and node.key and len(node.key) >= 3
            and node.key in text and _DIGIT.search(text)):
        return
    others = [n for n in parent.schema.get("properties", {}) if isinstance(n, str) and n != node.key and
              len(n) >= 3]
    for sentence in sentences(text):
        for at in mentions(sentence, node.key):
            end = min(len(sentence), at + len(node.key) + _AFTER_NAME)
            for other in others:
                nearest = next(mentions(sentence[at + len(node.key):end], other), None)
                if nearest is not None:
                    end = at + len(node.key) + nearest
            yield "the tool description", sentence[at:end] + "\x00" + sentence
            break


class BoundRejectsDocumentedValue(Rule):
    code = "T004"
    name = "bound-rejects-documented-value"
    severity = Severity.WARNING
    keywords = frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "maxLength", "maxItems"})

    def skips(self, keys: tuple, declared: str | tuple[str, ...] | None, kind: NodeKind, role: str) -> bool:
        return kind is not NodeKind.PROPERTY  # a bound on a property, whose description names the values

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        schema = node.schema
        kind = _kind(schema)
        if kind is None or node.key is None or unused_definition(tool, node, ctx):
            return
        low, low_open, high, high_open = _bounds(schema, kind)
        if low is None and low_open is None and high is None and high_open is None:
            return
        for where, text in texts_about(node, tool):
            part, _, whole = text.partition("\x00")
            sentence = whole or part
            found = [s for s in statements(part) if _about_this(s, node.key, kind)]
            if not found:
                continue
            finding = self._conflict(node, kind, found, (low, low_open, high, high_open), where, sentence)
            if finding is not None:
                yield finding
                return

    def _conflict(self, node: SchemaNode, kind: str, found: list[Statement],
                  bounds: tuple[float | None, float | None, float | None, float | None], where: str,
                  sentence: str) -> Finding | None:
        low, low_open, high, high_open = bounds
        said = f"{where} says: '{quoted(sentence)}'"
        pointer = node.pointer
        name = node.key
        highs = [s for s in found if s.side == "high"]
        lows = [s for s in found if s.side == "low"]
        values = [s for s in found if s.side == "value"]
        # several stated largest values (a page size and a total): only the smallest surely concerns this bound
        checks = values + ([min(highs, key=lambda s: s.value)] if highs else []) + (
            [max(lows, key=lambda s: s.value)] if lows and kind == "number" else [])
        for statement in checks:
            v = statement.value
            if statement.side in ("value", "low") and kind == "number":
                if low is not None and v < low:
                    return self._finding(pointer, name, said, statement, "minimum", low, v, "minimum")
                if low_open is not None and v <= low_open:
                    return self._finding(pointer, name, said, statement, "exclusiveMinimum", low_open, v, "minimum")
            if statement.side in ("value", "high"):
                keyword = {"string": "maxLength", "array": "maxItems"}.get(kind, "maximum")
                if high is not None and v > high:
                    return self._finding(pointer, name, said, statement, keyword, high, v, keyword)
                if high_open is not None and v >= high_open:
                    return self._finding(pointer, name, said, statement, "exclusiveMaximum", high_open, v, "maximum")
        return None

    @staticmethod
    def _finding(pointer: str, name: str | None, said: str, statement: Statement, keyword: str, bound: float,
                 value: float, widened: str) -> Finding:
        edits = [Edit("set", f"{pointer}/{widened}", int(value) if value.is_integer() else value)]
        if keyword != widened:
            edits.insert(0, Edit("remove", f"{pointer}/{keyword}"))
        return Finding(pointer,
                       f"{said} ('{statement.words}'), but \"{keyword}\": {_shown(bound)} rejects {_shown(value)}: a "
                       f"model that follows the text is refused; widen the bound to {_shown(value)} (or correct the "
                       f"text)",
                       Fix(f"set \"{widened}\" to {_shown(value)}" + (f" and remove \"{keyword}\""
                                                                         if keyword != widened else ""),
                           safe=False, edits=tuple(edits)))
