"""Read a closed set of values out of a property description (used by D005).

Three kinds of evidence, each strict on its own:

* quoted values joined by or / , / | / 또는 — "'asc' or 'desc'";
* a cue that announces the whole set — "one of: A, B, C", "allowed values are
  …", "A, B, C 중 하나";
* unquoted values that are codes (`A-LINE`, `B2`) or that all belong to one
  known small set (celsius / fahrenheit; 오름차순 / 내림차순).

Lists introduced as examples ("e.g.", "such as", "for example", "예:") or left
open ("etc.", "등", "otherwise", "or any") are never a closed set.
"""

from __future__ import annotations

from functools import lru_cache

from ... import _lazy_re as re
from ...lexicon import english, korean
from ...lexicon.gates import lowered_for_gate, may_contain
from ...model import ToolContract

_QUOTED = r"""(?:'[^'\n]{1,40}'|"[^"\n]{1,40}"|`[^`\n]{1,40}`|‘[^’\n]{1,40}’|“[^”\n]{1,40}”)"""
_SEP = (r"""(?:\s*,\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+(?=['"`‘“])|\s*\|\s*|\s*/\s*"""
        r"""|\s+또는\s+|(?<=['"`’”])(?:이?나|혹은)\s+)""")
# "'START' (left), 'CENTER'", '"gtc" (default) or "ioc"': a short gloss after a value keeps the list going
# (one holding a quote, "'us' (or 'µs')", names another value and does not)
_ONE_GLOSS = r"""\s*\([^()'"`‘’“”\n]{1,30}\)"""
_GLOSS = f"(?:{_ONE_GLOSS})?"
_QUOTED_LIST = re.compile(f"{_QUOTED}{_GLOSS}(?:{_SEP}{_QUOTED}{_GLOSS})+")
_GLOSSES = re.compile(_ONE_GLOSS)
_BARE = r"[A-Za-z0-9\uac00-\ud7a3][\w\-+.]*(?<![.])"
_BARE_LIST = re.compile(rf"(?<![\w'\"`{{.])({_BARE}{_GLOSS}(?:{_SEP}{_BARE}{_GLOSS})+)(?![\w'\"`}}])")
_ITEM_SPLIT = re.compile(r"\s*,\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+(?=['\"`‘“])|\s*\|\s*|\s*/\s*"
                         r"|\s+또는\s+|(?<=['\"`’”])(?:이?나|혹은)\s+")

_CUE = re.compile(
    r"(?:\b(?:(?:must|should|can|may)\s+be\s+)?one\s+of(?:\s+the\s+following)?(?:\s+values)?"
    r"|\b(?:possible|allowed|valid|accepted|acceptable|supported|available|permitted)\s+(?:values|options|choices)"
    r"(?:\s+(?:are|include))?"
    r"|\b(?:options|choices|values)\s*(?:are\b|:)|\bchoose\s+from|\bselect\s+from"
    r"|가능한\s*값(?:은|:)?|허용(?:되는|된)?\s*값(?:은|:)?|선택\s*가능(?:한\s*값)?)\s*:?\s*", re.I)
_KO_ONE_OF = re.compile(r"([^.:()。]+?)\s*중\s*(?:하나|에서|택)")
_KO_ONE_OF_TAIL = re.compile(r"중\s*(?:하나|에서|택)")
_EXAMPLE = re.compile(r"\b(?:eg|ex|such\s+as|for\s+example|for\s+instance|like|including|includes?|example|examples"
                      r"|sample|samples|(?:common|typical|usual|popular)(?:ly\s+used)?\s+(?:values|options|choices|ones))\b"
                      r"|예\s*[:)]|예를\s*들|예시|예컨대|比如|例如|譬如|诸如|如[:：]", re.I)
_OPEN_AFTER = re.compile(r"^\s*(?:,?\s*(?:etc|and\s+so\s+on|and\s+more|or\s+others?|or\s+any|\.\.\.|…)"
                         r"|\s*등|\s*기타|\s*等"
                         # "…, or a string for the prompt's answer": the list is only some of the values
                         r"|,?\s*or\s+(?:a|an|any|the|some)?\s*(?:string|text|value|number|other|custom|free)\b"
                         # "'true' or 'false' for checkboxes": the set holds for one case only
                         r"|(?:for|when|if)\s+(?!example\b))", re.I)
# The value is a list, or the listed things are formats of a free value ("in the format 'City, State'").
_NOT_ONE_VALUE = re.compile(r"\b(?:list|array|comma[- ]separated|multiple|several|format|formats|formatted)\b"
                            r"|\bJSON[- ](?:string|object|array|encoded|map|dict)|\{\s*\\?[\"'][^\"'{}]*\\?[\"']\s*:"
                            r"|형식|포맷|여러|格式|多个", re.I)
_OPEN = re.compile(r"\b(?:otherwise|or\s+any|any\s+other|or\s+other|also\s+accepts?|custom|and\s+more|etc)\b|\.\.\.|…"
                   r"|기타|그\s*외|등의|등을|등이", re.I)
_FORMAT_PLACEHOLDER = re.compile(r"YYYY|yyyy|MM|DD|dd|HH|hh|%[a-zA-Z]|\{|\}|<|>|\[|\]")
_FORMAT_AFTER = re.compile(r"^\s*(?:format|formats|형식)\b", re.I)
_CODE = re.compile(r"(?=.*[A-Z])(?=.*[\d_-])[A-Z0-9][A-Z0-9_-]*[A-Z0-9]")
_ARTICLES = frozenset("the a an any all some your its their this that each every".split())

# Properties that hold free text: values quoted in their descriptions are
# syntax help ("use 'AND' or 'OR'"), not the set of values — only a cue counts.
FREE_TEXT_WORDS = frozenset("""
query q text search keyword keywords term terms prompt message msg content body comment note notes description
title name expression expr filter command cmd code sql script path url uri id ids question input instruction
instructions template pattern regex selector
""".split())


_ABBREVIATION = re.compile(r"\b(?:e\.\s?g|i\.\s?e|etc|vs)\.", re.I)


def _normalise(text: str) -> str:
    # Keep abbreviations from ending sentences: "e.g. 'a'" must stay one sentence.
    if "." not in text:  # every abbreviation ends in one; most descriptions hold none
        return text
    return _ABBREVIATION.sub(lambda m: m.group(0).replace(".", "").replace(" ", ""), text)


# A line break ends a sentence only after punctuation or a colon, before a bullet, or as a blank line: a
# list wrapped onto the next line ('"stop_limit",\n  "trailing_stop"') stays one sentence.
_SENTENCE = re.compile(r"(?<=[.!?。])\s+|\s*\n\s*\n\s*|\s*\n(?=\s*(?:[-*•]|\d+[.)])\s)|(?<=:)\s*\n\s*|;\s*")
_TRAILING_GLOSS = re.compile(r"\s*\([^()]*\)$")


def _items(span: str) -> list[str]:
    out = []
    for raw in _ITEM_SPLIT.split(span.strip()):
        item = _TRAILING_GLOSS.sub("", raw.strip()).strip(".,:;()[]{}").strip()
        if len(item) >= 2 and item[0] in "'\"`‘“" and item[-1] in "'\"`’”":
            item = item.strip("'\"`‘’“”\\").strip()  # `\"1.2\"`: quotes escaped inside a code span
        if item:
            out.append(item)
    return out


def _value_like(item: str, max_words: int) -> bool:
    parts = item.split()
    return (0 < len(item) <= 30 and len(parts) <= max_words
            and (parts[0].lower() not in _ARTICLES or item.lower() == "all")
            and not _FORMAT_PLACEHOLDER.search(item))


def _one_group(items: list[str]) -> bool:
    lowered = {i.lower() for i in items}
    return any(lowered <= group for group in english.CLOSED_SETS + korean.CLOSED_SETS)


# "'2023' (a year), '2023-1' (a half), '2023-12-31' (a day)": dates are examples of a form, never an enum
_DATE_LIKE = re.compile(r"\d{4}-\d{1,2}(?:-\d{1,2})?(?:T.*)?|\d{1,2}/\d{1,2}/\d{2,4}")


def _accept(items: list[str], max_words: int) -> list[str] | None:
    unique = list(dict.fromkeys(items))
    if 2 <= len(unique) <= 30 and all(_value_like(i, max_words) for i in unique) \
            and not any(_DATE_LIKE.fullmatch(i) for i in unique):
        return unique
    return None


# "If the field is a checkbox, the value should be 'true' or 'false'": the set holds for one case only
_CONDITION_BEFORE = re.compile(
    r"\b(?:if|when)\s+(?:the\s+)?\w+(?:\s+\w+)?\s+is\s+(?:a|an)\b"
    r"|\bfor\s+(?:a|an)\s+\w+\s*,"
    # "for Polaris App Home use canonical 'v1.0' or 'v1.1'": the values of one case
    r"|\bfor\s+(?:[\w-]+\s+){1,5}use\b"
    # "Required if the order's `type` was `limit` or `stop_limit`": the values of another field
    r"|\b(?:if|when|unless|where)\b[^,;:]*\b(?:is|was|are|were|equals?|=)\s*(?:set\s+to\s+)?$"
    # "(required for 'create', 'update')", 'Used by "grant"': the values of another parameter
    r"|\b(?:required|optional|used|only|ignored|needed|valid|applies|applicable|supported)\s+"
    r"(?:for|by|with|when|in)\s*:?\s*$"
    # "Crypto does not support 'day' or 'fok'": the values it refuses
    r"|\b(?:not|never|cannot|can't|doesn't|don't|isn't|aren't)\s+(?:[\w-]+\s+){0,3}$"
    # "If not set, the platform scans for these names: …": what happens without a value
    r"|^\s*(?:(?:if|when)\s+(?:not\s+(?:set|given|provided|specified)|omitted|unset|empty|absent|missing|none|null)"
    r"|by\s+default)\b", re.I)


# "Common values: 'read', 'update'": a cue that says the list is only the usual values
_COMMON_BEFORE = re.compile(r"\b(?:common|commonly\s+used|typical|usual|popular|frequent)\s*$", re.I)


def _closed_here(before: str, after: str) -> bool:
    """A list with this text before and after it is neither examples, nor left open, nor formats, nor one case."""
    return not (_EXAMPLE.search(before) or _OPEN_AFTER.match(after) or _FORMAT_AFTER.match(after)
                or _CONDITION_BEFORE.search(before) or _COMMON_BEFORE.search(before))


_QUOTES = frozenset("'\"`‘“")
_SEPARATORS = (" or ", ",", "|", "/", "또는")  # a list needs one of these between its values
# Every match of _OPEN / _NOT_ONE_VALUE / _CUE contains one of these words, which
# substring tests find far faster than the searches (see lexicon.gates).
_OPEN_WORDS = ("otherwise", "any", "other", "accept", "custom", "more", "etc", "...", "…", "기타", "그", "등")
_NOT_ONE_VALUE_WORDS = ("list", "array", "comma", "multiple", "several", "format", "json", "{",
                        "형식", "포맷", "여러", "格式", "多个")
_CUE_WORDS = ("one", "values", "options", "choices", "choose", "select", "가능한", "허용", "선택")
_CLOSED_WORDS = frozenset().union(*english.CLOSED_SETS, *korean.CLOSED_SETS)
_PLAIN_WORD = re.compile(r"[a-z0-9]+|[\uac00-\ud7a3]+")
_CODE_HINT = re.compile(r"[A-Z0-9][-_][A-Z0-9]|[A-Z]\d")


def _bare_possible(text: str) -> bool:
    """Cheap gate: two words of one closed set, or a code, before the costly list regex runs."""
    if _CODE_HINT.search(text):
        return True
    seen = _CLOSED_WORDS.intersection(_PLAIN_WORD.findall(text.lower()))
    return len(seen) >= 2


MAX_DESCRIPTION_CHARS = 2000
"""A description is read up to here: a closed set is announced early, and some of the list
searches below grow with the square of one sentence's length (40 KB took seconds)."""


@lru_cache(maxsize=65536)
def closed_set(description: str, free_text: bool) -> tuple[tuple[str, ...], str] | None:
    """(values, the text that listed them) when the description names a closed set.

    Cached: corpora and real servers repeat property descriptions many times.
    """
    found = _closed_set(description[:MAX_DESCRIPTION_CHARS], free_text)
    return (tuple(found[0]), found[1]) if found else None


def _closed_set(description: str, free_text: bool) -> tuple[list[str], str] | None:
    if "중" not in description and not any(separator in description for separator in _SEPARATORS):
        return None
    text = _normalise(description)
    lowered = lowered_for_gate(text)
    if ((may_contain(lowered, _OPEN_WORDS) and _OPEN.search(text))
            or (may_contain(lowered, _NOT_ONE_VALUE_WORDS) and _NOT_ONE_VALUE.search(text))):
        return None
    cue = bool(may_contain(lowered, _CUE_WORDS) and _CUE.search(text)) or "중" in text
    quoted = not free_text and not _QUOTES.isdisjoint(text)
    bare = not free_text and _bare_possible(text)
    if not (cue or quoted or bare):
        return None
    if cue and _names_one_value(text):
        return None  # "the only supported value is `object`": any other list describes something else
    if quoted and _per_case(text):
        return None  # "AWS: 'MSK', 'S3'. Azure: 'EVENTHUB'.": one list per case, and no one of them is the set
    if quoted and any(_FORMAT_PLACEHOLDER.search(q) for q in _QUOTED_ITEM.findall(text)):
        return None  # "`[1-59]Min` or `[1-59]T` … `1Day` or `1D`": the values follow patterns, no list holds them
    for sentence in _SENTENCE.split(text):
        found = ((cue and _from_cue(sentence)) or (quoted and _from_quotes(sentence))
                 or (bare and _from_bare(sentence)))
        if found:
            return found
    return None


_CASE_LABEL = re.compile(r"""(?:^|[.;—–-]\s*|\n\s*)([A-Z][\w/-]{0,15})\s*:\s*['"`‘“]""")
_NOT_A_CASE = frozenset("default defaults example examples note notes value values option options choices format "
                        "type usage".split())


def _per_case(text: str) -> bool:
    """Lists under two or more labels ("AWS: 'MSK'. Azure: 'EVENTHUB'."): each holds for one case."""
    labels = {m.group(1).lower() for m in _CASE_LABEL.finditer(text)} - _NOT_A_CASE
    return len(labels) >= 2


def _names_one_value(text: str) -> bool:
    """A cue followed by a single value ("Possible values include `object`."): the set is that one value."""
    for cue in _CUE.finditer(text):
        rest = text[cue.end():]
        stop = re.search(r"[.;()\n]\s|[.;()]$|\(", rest)
        span = rest[: stop.start()] if stop else rest
        items = _items(span)
        if len(items) == 1 and _value_like(items[0], 1) and span.strip()[:1] in _QUOTES:
            return True
    return False


def _from_cue(sentence: str) -> tuple[list[str], str] | None:
    for cue in _CUE.finditer(sentence):
        rest = sentence[cue.end():]
        stop = re.search(r"[.;()\n]\s|[.;()]$|\(", rest)
        span = rest[: stop.start()] if stop else rest
        if re.match(r"\s*(?:the|a|an|these|those|your)\b", span, re.I):
            continue
        items = _accept(_items(span), 2)
        if items and _closed_here(sentence[: cue.start()], rest[len(span):]):
            return items, (cue.group(0) + span).strip()
    # the lazy prefix of _KO_ONE_OF is tried from every position: only where its tail occurs at all
    match = _KO_ONE_OF.search(sentence) if _KO_ONE_OF_TAIL.search(sentence) else None
    if match:
        span = match.group(1).rsplit(":", 1)[-1]
        items = _items(span)
        if len(items) >= 2 and len(items[0].split()) > 1 and all(len(i.split()) == 1 for i in items[1:]):
            items[0] = items[0].split()[-1]  # "정렬 방식 asc, desc 중 하나": the list starts at 'asc'
        accepted = _accept(items, 1)
        if accepted and _closed_here(sentence[: match.start(1)], sentence[match.end(1):]):
            return accepted, match.group(0).strip()
    return None


_QUOTED_ITEM = re.compile(_QUOTED)


_ALTERNATIVE = re.compile(r",|\bor\b|\||/|또는|이?나|혹은")


# The list goes on past what was matched: "'ns', 'us' (or 'µs'), 's'" — only a part of it was read
_CONTINUED_AFTER = re.compile(rf"^\s*(?:\([^()]*\)\s*{_SEP}|(?:through|thru|to|until|[-–]|\.\.\.?|…)\s*){_QUOTED}")
_CONTINUED_BEFORE = re.compile(rf"{_QUOTED}\s*\([^()]*\)\s*(?:,|\bor\b|\||/)\s*(?:or\s+)?$")


def _from_quotes(sentence: str) -> tuple[list[str], str] | None:
    for match in _QUOTED_LIST.finditer(sentence):
        # "'touch' and 'mobile' to emulate a phone": both at once, not a choice between them
        if not _ALTERNATIVE.search(_QUOTED_ITEM.sub("", _GLOSSES.sub("", match.group(0)))):
            continue
        if _CONTINUED_AFTER.match(sentence[match.end():]) or _CONTINUED_BEFORE.search(sentence[: match.start()]):
            return None
        # `\"1.2\"` (a value quoted inside a code span, its quotes escaped) is 1.2
        items = _accept([q.strip("'\"`‘’“”\\").strip() for q in _QUOTED_ITEM.findall(match.group(0))], 3)
        if items and _closed_here(sentence[: match.start()], sentence[match.end():]):
            return items, match.group(0)
    return None


_UPPER_WORD = re.compile(r"[A-Z][A-Z0-9_]*")


def _codes(items: list[str]) -> bool:
    """Every item a code (`A-LINE`, `B2`), or upper-case words of which some are codes (SOLID, SOLID_MEDIUM)."""
    return all(_CODE.fullmatch(i) for i in items) or (
        len(items) >= 3 and all(_UPPER_WORD.fullmatch(i) for i in items) and any(_CODE.fullmatch(i) for i in items))


def _from_bare(sentence: str) -> tuple[list[str], str] | None:
    for match in _BARE_LIST.finditer(sentence):
        listed = _items(match.group(1))
        # "temperature, celsius or fahrenheit": the set may be the tail of a longer list.
        for first in range(len(listed) - 1):
            items = listed[first:]
            if not (_codes(items) or _one_group(items)):
                continue
            accepted = _accept(items, 1)
            # The example cue may sit inside the matched run: "(eg, high, medium, low)".
            before = sentence[: match.start()] + " " + " ".join(listed[:first])
            if accepted and _closed_here(before, sentence[match.end():]):
                return accepted, (", ".join(items[:-1]) + " or " + items[-1]) if first else match.group(1)
            break
    return None


# Property names that hold one of a few named kinds: a bare "standard, express or overnight"
# in their description is the set of values (for `location`, "city, state or country" is not).
CATEGORY_WORDS = frozenset("""
speed mode level type kind tier method priority unit units format size plan status category sort order direction
style frequency interval period granularity scope visibility severity strategy algorithm engine provider channel
state role
""".split())
_ANNOUNCING = frozenset("is are be either".split())
_WORD_LIST = re.compile(r"(?<![\w'\"`])([a-z][a-z0-9_-]*(?:\s*,\s*[a-z][a-z0-9_-]*)*\s*,?\s+or\s+[a-z][a-z0-9_-]*)"
                        r"(?![\w'\"`])", re.I)
# "(future|active|closed)": values joined by pipes, in parentheses or standing alone
_PIPE_LIST = re.compile(r"(?:^|(?<=[\s(:]))([a-z][a-z0-9_-]*(?:\|[a-z][a-z0-9_-]*)+)(?=$|[\s).,;])", re.I)
# "State on execution error: NoData, Alerting, OK (required for …)": three or more words after a colon
_COLON_LIST = re.compile(r":\s*([a-z][a-z0-9_-]*(?:\s*,\s*[a-z][a-z0-9_-]*){2,})\s*(?=$|\(|\.(?:\s|$))", re.I)


def _labels_name(before: str, name_words: tuple[str, ...]) -> bool:
    """The text before a list names the property: "State on execution error: …" for `exec_err_state`."""
    return not set(name_words).isdisjoint(re.findall(r"[a-z]+", before.lower()))


@lru_cache(maxsize=65536)
def named_kinds(description: str, name_words: tuple[str, ...] = ()) -> tuple[tuple[str, ...], str] | None:
    """'standard, express or overnight' in the description of a category-like property.

    Words after a colon with no "or" ("State: NoData, Alerting, OK"), and words holding capitals
    ("sev1, sev2, sev3 or ALL"), count only after a label that names the property (its `name_words`):
    "Currency: USD, EUR, GBP" in the description of `mode` lists something else.
    """
    text = _normalise(description)
    if _OPEN.search(text):
        return None
    for sentence in _SENTENCE.split(text):
        several = _NOT_ONE_VALUE.search(sentence)  # "Types to include, a comma-separated list: a, b, c"
        for match in () if several else _PIPE_LIST.finditer(sentence):
            items = _accept(match.group(1).split("|"), 1)
            if items and len(items) <= 8 and _closed_here(sentence[: match.start()], sentence[match.end():]):
                return tuple(items), match.group(1)
        for match in () if several else _COLON_LIST.finditer(sentence):
            items = _accept(_items(match.group(1)), 1)
            before = sentence[: match.start()]
            if items and len(items) <= 8 and _labels_name(before, name_words) \
                    and _closed_here(before, sentence[match.end():]):
                return tuple(items), match.group(1)
        for match in _WORD_LIST.finditer(sentence):
            before = sentence[: match.start()].rstrip()
            # "Speed: standard, express or overnight", "must be low, medium or high" — not "The city, state or country"
            if before and not (before.endswith((":", "-", "—")) or before.split()[-1].lower() in _ANNOUNCING):
                continue
            items = _accept(_items(match.group(1)), 1)
            if items and not match.group(1).islower() and not _labels_name(before, name_words):
                continue  # "Currency: USD, EUR or GBP" for `mode`
            if items and len(items) <= 8 and _closed_here(before, sentence[match.end():]):
                return tuple(items), match.group(1)
    return None



# Names whose values are a closed set by nature: a ticket's priority, an incident's severity, a sort order.
NATURALLY_CLOSED = frozenset("priority severity status state level tier plan category visibility role".split())
_SORT_DIRECTION = (("sort", "order"), ("sort", "direction"), ("sort", "dir"), ("order", "direction"))
# "line" is a closed set only as a transit line (`get_subway_line`), not a line of text
_TRANSIT = re.compile(r"subway|metro|train|rail|tram|bus\b|transit|지하철|전철|노선|호선|버스|地铁|线路|線路|路線",
                      re.I)
# "state" is as often a place ("the U.S. state where the city is located") as a lifecycle state
_PLACE = re.compile(r"\b(?:u\.?s\.?a?|united\s+states|city|cities|country|countries|address|located|location|where"
                    r"|province|region|county|zip|postal|governor|population|territory|geographic\w*)\b|州|省|주소",
                    re.I)
# "plan" is a closed set as a billing plan, not as "the evaluation plan" or "an execution plan"
_BILLING = re.compile(r"subscri|billing|pricing|price|tier|upgrade|downgrade|licen[cs]e|seat|quota|套餐|요금제|プラン",
                      re.I)
# The description says the value is free text, an id, a name, a query or an expression, or shows any value
# at all (a quote, a digit, a list, an example, a cue): then the name promises nothing more
_NOT_A_NAMED_SET = re.compile(
    r"\b(?:free[- ]?(?:form|text)|text|message|markdown|html|json|id|ids|identifier|uuid|arn|key|name|names|title"
    r"|label|query|expression|filter|formula|code|slug|custom|any|url|path|template|number|integer"
    r"|descriptions?|describ\w*)\b"
    r"|[\"`“”]|(?<![a-z])['‘’]|['‘’](?![a-z])|\d|[,/|]|\b(?:or|e\.?g|eg|such\s+as|like|for\s+example|example|examples|values|options|one\s+of"
    r"|see\s+(?:the\s+)?(?:docs?|documentation|list|https?|\[)|refer\s+to|either|between|allowed|valid|supported"
    r"|possible|available)\b"
    r"|[*•]|^\s*-|\n\s*-|[、，,]\s*(?:如|比如|例如)|[（(]\s*如|例如|比如|诸如|等[。.）)]?\s*$|、"
    r"|자유|텍스트|아이디|이름|예\s*[:)]|가능한|허용|선택|중\s*하나|등\s*$|など"
    r"|自由|文本|名称|描述|可选|取值|枚举|选项|代码|のいずれか|選択", re.I)


def closed_by_name(words: tuple[str, ...] | list[str], description: str, tool: ToolContract | None = None) -> bool:
    """A free string named like a closed set (`priority`, `sort_order`, a transit `line`) whose description
    names no value and does not say it is free text, an id or a query."""
    if not words:
        return False
    last = words[-1]
    context = f"{tool.name} {tool.description or ''} {description}" if tool is not None else description
    if last == "line":
        if not _TRANSIT.search(context):
            return False
    elif last not in NATURALLY_CLOSED and tuple(words[-2:]) not in _SORT_DIRECTION:
        return False
    if last == "state" and _PLACE.search(description) or last == "plan" and not _BILLING.search(context):
        return False
    return not _NOT_A_NAMED_SET.search(description)
