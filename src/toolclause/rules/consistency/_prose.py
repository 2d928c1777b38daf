"""Reading descriptions as sentences, and finding the properties a sentence names.

The consistency rules compare what a text says with what the schema enforces, so
each needs the sentence it read (quoted in its message) and the properties that
sentence names: `booking_ref`, 'booking_ref', "booking_ref" or a bare
booking_ref, spelt exactly as the schema spells it.  Every function accepts
whatever a user wrote and answers without raising.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ... import _lazy_re as re

QUOTE_CHARS = 160  # the longest sentence a message quotes whole

# a line that continues the previous one (wrapped prose), unless that one ended a sentence or this one
# starts a list item or a heading
_LIST_ITEM = re.compile(r"\s*(?:[-*•#>|]|\d+[.)]\s|[A-Za-z][\w ]{0,30}:\s)")
_SENTENCE_END = re.compile(r"(?<=[.!?。])\s+(?=[\"'`(\[]?[A-Z0-9\uac00-\ud7a3-])")
# a word that may be a property's name: letters, digits, `_`, `$`, `-` and inner dots; no Hangul, so that
# "booking_ref와" (a Korean particle written on) still yields booking_ref
_WORD = re.compile(r"(``|[`'\"\u2018\u201c])?([A-Za-z_$][A-Za-z0-9_$-]*(?:\.[A-Za-z0-9_$-]+)*)(``|[`'\"\u2019\u201d])?")

SLOT = "\u27e6{}\u27e7"  # ⟦3⟧: a property named in the sentence, by its position in the object's `properties`
SLOT_RE = r"\u27e6(\d+)\u27e7"


def sentences(text: str) -> list[str]:
    """The text's sentences and list items, in order, whitespace squeezed."""
    paragraphs: list[str] = []
    for line in text.split("\n"):
        stripped = line.strip()
        if not stripped:
            paragraphs.append("")
            continue
        if paragraphs and paragraphs[-1] and not paragraphs[-1].endswith((".", ":", "!", "?", ";", "。")) \
                and not _LIST_ITEM.match(line):
            paragraphs[-1] += " " + stripped
        else:
            paragraphs.append(stripped)
    found: list[str] = []
    for paragraph in paragraphs:
        if paragraph:
            found.extend(" ".join(part.split()) for part in _SENTENCE_END.split(paragraph) if part and part.strip())
    return found


def quoted(sentence: str) -> str:
    """The sentence as a message quotes it: whole when short, else cut at a word with an ellipsis."""
    if len(sentence) <= QUOTE_CHARS:
        return sentence
    cut = sentence[:QUOTE_CHARS].rsplit(" ", 1)[0]
    return cut + " …"


def mark_properties(sentence: str, names: Mapping[str, int], *, bare_min: int = 2) -> tuple[str, list[str]]:
    """The sentence with every property it names replaced by a slot (⟦i⟧, i its index in `names`), and the
    quoted words that name no property (values such as 'kPa').

    A quoted name (`a`, 'a', "a", ``a``) always counts; a bare one when it is at least `bare_min` long.
    """
    pieces: list[str] = []
    others: list[str] = []
    last = 0
    for found in _WORD.finditer(sentence):
        opening, word, closing = found.group(1), found.group(2), found.group(3)
        index = names.get(word)
        is_quoted = bool(opening and closing)
        if index is None and word.endswith((".", "-")):
            index = names.get(word.rstrip(".-"))
        if index is None:
            if is_quoted:
                others.append(word)
            continue
        if not is_quoted and len(word) < bare_min:
            continue
        start, end = found.span()
        if not is_quoted:  # a lone quote before or after belongs to the text around it
            start, end = found.start(2), found.end(2)
        pieces.append(sentence[last:start])
        pieces.append(SLOT.format(index))
        last = end
    if not pieces:
        return sentence, others
    pieces.append(sentence[last:])
    return "".join(pieces), others


def property_names(schema: Mapping[str, Any]) -> dict[str, int]:
    """The object's property names, each with its position."""
    props = schema.get("properties")
    if not isinstance(props, dict):
        return {}
    return {name: index for index, name in enumerate(props) if isinstance(name, str) and name}


def parameter_item(text: object, name: str) -> str | None:
    """What the item of a description's parameter list says of `name` ("basDd: 기준일자 (YYYYMMDD)",
    "- `limit` (int): how many"), the rest of its line; None when no line documents it.

    Python servers often document their arguments only there: a docstring's `Args:` section becomes the
    tool's description and the properties carry a title and nothing else.
    """
    if not isinstance(text, str) or name not in text:
        return None
    found = re.search(r"^[ \t]*(?:[-*•][ \t]*)?(?:\*\*)?[`'\"<]?" + re.escape(name) +
                      r"[`'\">]?(?:\*\*)?[ \t]*(?:\([^)\n]{0,40}\))?[ \t]*(?::|—|–|[ \t]-[ \t])[ \t]*(\S[^\n]*)$",
                      text, re.MULTILINE)
    return found.group(1).strip() if found else None


def mentions(text: str, name: str) -> Iterator[int]:
    """Where `name` appears in the text as a word of its own (quoted or not)."""
    start = 0
    while True:
        at = text.find(name, start)
        if at < 0:
            return
        end = at + len(name)
        before = text[at - 1] if at else " "
        after = text[end] if end < len(text) else " "
        if not (before.isalnum() or before in "_$-.") and not (after.isalnum() and after.isascii() or after in "_$-"):
            yield at
        start = at + 1
