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

_QUOTED = r"""(?:'[^'\n]{1,40}'|"[^"\n]{1,40}"|`[^`\n]{1,40}`|‘[^’\n]{1,40}’|“[^”\n]{1,40}”)"""
_SEP = (r"""(?:\s*,\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+(?=['"`‘“])|\s*\|\s*|\s*/\s*"""
        r"""|\s+또는\s+|(?<=['"`’”])(?:이?나|혹은)\s+)""")
_QUOTED_LIST = re.compile(f"{_QUOTED}(?:{_SEP}{_QUOTED})+")
_BARE = r"[A-Za-z0-9\uac00-\ud7a3][\w\-+.]*(?<![.])"
_BARE_LIST = re.compile(rf"(?<![\w'\"`{{.])({_BARE}(?:{_SEP}{_BARE})+)(?![\w'\"`}}])")
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
                      r"|sample|samples)\b|예\s*[:)]|예를\s*들|예시|예컨대|比如|例如|譬如|诸如|如[:：]", re.I)
_OPEN_AFTER = re.compile(r"^\s*(?:,?\s*(?:etc|and\s+so\s+on|and\s+more|or\s+others?|or\s+any|\.\.\.|…)"
                         r"|\s*등|\s*기타|\s*等"
                         # "…, or a string for the prompt's answer": the list is only some of the values
                         r"|,?\s*or\s+(?:a|an|any|the|some)?\s*(?:string|text|value|number|other|custom|free)\b"
                         # "'true' or 'false' for checkboxes": the set holds for one case only
                         r"|(?:for|when|if)\s+(?!example\b))", re.I)
# The value is a list, or the listed things are formats of a free value ("in the format 'City, State'").
_NOT_ONE_VALUE = re.compile(r"\b(?:list|array|comma[- ]separated|multiple|several|format|formatted)\b"
                            r"|형식|포맷|여러|格式|多个", re.I)
_OPEN = re.compile(r"\b(?:otherwise|or\s+any|any\s+other|or\s+other|also\s+accepts?|custom|and\s+more|etc)\b|\.\.\.|…"
                   r"|기타|그\s*외|등의|등을|등이", re.I)
_FORMAT_PLACEHOLDER = re.compile(r"YYYY|yyyy|MM|DD|dd|HH|hh|%[a-zA-Z]|\{|\}|<|>")
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


_SENTENCE = re.compile(r"(?<=[.!?。])\s+|\n+|;\s*")


def _items(span: str) -> list[str]:
    out = []
    for raw in _ITEM_SPLIT.split(span.strip()):
        item = raw.strip().strip(".,:;()[]{}").strip()
        if len(item) >= 2 and item[0] in "'\"`‘“" and item[-1] in "'\"`’”":
            item = item.strip("'\"`‘’“”").strip()
        if item:
            out.append(item)
    return out


def _value_like(item: str, max_words: int) -> bool:
    parts = item.split()
    return (0 < len(item) <= 30 and len(parts) <= max_words and parts[0].lower() not in _ARTICLES
            and not _FORMAT_PLACEHOLDER.search(item))


def _one_group(items: list[str]) -> bool:
    lowered = {i.lower() for i in items}
    return any(lowered <= group for group in english.CLOSED_SETS + korean.CLOSED_SETS)


def _accept(items: list[str], max_words: int) -> list[str] | None:
    unique = list(dict.fromkeys(items))
    if 2 <= len(unique) <= 30 and all(_value_like(i, max_words) for i in unique):
        return unique
    return None


# "If the field is a checkbox, the value should be 'true' or 'false'": the set holds for one case only
_CONDITION_BEFORE = re.compile(r"\b(?:if|when)\s+(?:the\s+)?\w+(?:\s+\w+)?\s+is\s+(?:a|an)\b"
                               r"|\bfor\s+(?:a|an)\s+\w+\s*,", re.I)


def _closed_here(before: str, after: str) -> bool:
    """A list with this text before and after it is neither examples, nor left open, nor formats, nor one case."""
    return not (_EXAMPLE.search(before) or _OPEN_AFTER.match(after) or _FORMAT_AFTER.match(after)
                or _CONDITION_BEFORE.search(before))


_QUOTES = frozenset("'\"`‘“")
_SEPARATORS = (" or ", ",", "|", "/", "또는")  # a list needs one of these between its values
# Every match of _OPEN / _NOT_ONE_VALUE / _CUE contains one of these words, which
# substring tests find far faster than the searches (see lexicon.gates).
_OPEN_WORDS = ("otherwise", "any", "other", "accept", "custom", "more", "etc", "...", "…", "기타", "그", "등")
_NOT_ONE_VALUE_WORDS = ("list", "array", "comma", "multiple", "several", "format",
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
    for sentence in _SENTENCE.split(text):
        found = ((cue and _from_cue(sentence)) or (quoted and _from_quotes(sentence))
                 or (bare and _from_bare(sentence)))
        if found:
            return found
    return None


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


def _from_quotes(sentence: str) -> tuple[list[str], str] | None:
    for match in _QUOTED_LIST.finditer(sentence):
        # "'touch' and 'mobile' to emulate a phone": both at once, not a choice between them
        if not _ALTERNATIVE.search(_QUOTED_ITEM.sub("", match.group(0))):
            continue
        items = _accept([q.strip("'\"`‘’“”").strip() for q in _QUOTED_ITEM.findall(match.group(0))], 3)
        if items and _closed_here(sentence[: match.start()], sentence[match.end():]):
            return items, match.group(0)
    return None


def _from_bare(sentence: str) -> tuple[list[str], str] | None:
    for match in _BARE_LIST.finditer(sentence):
        listed = _items(match.group(1))
        # "temperature, celsius or fahrenheit": the set may be the tail of a longer list.
        for first in range(len(listed) - 1):
            items = listed[first:]
            if not (all(_CODE.fullmatch(i) for i in items) or _one_group(items)):
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
""".split())
_ANNOUNCING = frozenset("is are be either".split())
_WORD_LIST = re.compile(r"(?<![\w'\"`])([a-z][a-z0-9_-]*(?:\s*,\s*[a-z][a-z0-9_-]*)*\s*,?\s+or\s+[a-z][a-z0-9_-]*)"
                        r"(?![\w'\"`])")


@lru_cache(maxsize=65536)
def named_kinds(description: str) -> tuple[tuple[str, ...], str] | None:
    """'standard, express or overnight' in the description of a category-like property."""
    text = _normalise(description)
    if _OPEN.search(text):
        return None
    for sentence in _SENTENCE.split(text):
        for match in _WORD_LIST.finditer(sentence):
            before = sentence[: match.start()].rstrip()
            # "Speed: standard, express or overnight", "must be low, medium or high" — not "The city, state or country"
            if before and not (before.endswith((":", "-", "—")) or before.split()[-1].lower() in _ANNOUNCING):
                continue
            items = _accept(_items(match.group(1)), 1)
            if items and len(items) <= 8 and _closed_here(before, sentence[match.end():]):
                return tuple(items), match.group(1)
    return None
