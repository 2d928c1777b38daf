"""Small text helpers over the word lists: identifiers, words, stems, verb classes.

Everything is precompiled at import; each helper is cheap enough to call for
every tool of a 10,000-tool corpus.
"""

from __future__ import annotations

import enum
from functools import lru_cache

from .. import _lazy_re as re
from . import english, korean

# --------------------------------------------------------------------------- identifiers

_SEPARATORS = re.compile(r"[\s_\-.:/]+")
# ACRONYMWord → ACRONYM Word, camelCase → camel Case, letters/digits apart
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+|[^\x00-\x7f]+")


def split_identifier(name: object) -> list[str]:
    """`getUserById` → ['get', 'user', 'by', 'id']; snake, camel, kebab, dots and digits.

    >>> split_identifier("getUserById"), split_identifier("math.factorial_v2")
    (['get', 'user', 'by', 'id'], ['math', 'factorial', 'v', '2'])
    """
    if not isinstance(name, str):
        return []
    return list(identifier_words(name))


@lru_cache(maxsize=65536)
def identifier_words(name: str) -> tuple[str, ...]:
    """split_identifier, cached and immutable, for rules that ask about the same name many times."""
    out: list[str] = []
    for part in _SEPARATORS.split(name):
        out.extend(piece.lower() for piece in _CAMEL.findall(part))
    return tuple(out)


class NameStyle(enum.Enum):
    SNAKE = "snake_case"
    CAMEL = "camelCase"
    PASCAL = "PascalCase"
    KEBAB = "kebab-case"


_STYLE_PATTERNS = (
    (NameStyle.SNAKE, re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")),
    (NameStyle.KEBAB, re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+")),
    (NameStyle.CAMEL, re.compile(r"[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+")),
    (NameStyle.PASCAL, re.compile(r"(?:[A-Z][a-z0-9]+)(?:[A-Z][a-z0-9]*)+")),
)


def name_style(name: object) -> NameStyle | None:
    return _name_style(name) if isinstance(name, str) else None


@lru_cache(maxsize=65536)
def _name_style(name: str) -> NameStyle | None:
    """The naming style of an identifier, or None when it shows none.

    A single lower-case word (`search`) fits every style and a mixture
    (`copilot_searchCodebase`, `API_call`) fits none, so both give None.
    A dotted namespace prefix (`weather.get_forecast`) is ignored.
    """
    if not isinstance(name, str) or not name:
        return None
    last = name.rsplit(".", 1)[-1]
    for style, pattern in _STYLE_PATTERNS:
        if pattern.fullmatch(last):
            return style
    return None


# --------------------------------------------------------------------------- words

_HANGUL = re.compile(r"[\uac00-\ud7a3]")
_CJK_DENSE = re.compile(r"[\uac00-\ud7a3\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_KANA = re.compile(r"[\u3040-\u30ff]")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9']*|[0-9]+|[\uac00-\ud7a3]+|[\u3400-\u4dbf\u4e00-\u9fff]+")

DENSE_WEIGHT = 2.5
"""One Hangul syllable or Han character counts as 2.5 Latin characters.

A Hangul syllable spells a consonant-vowel(-consonant) block, about 2-3 Latin
letters, and one Han character is usually a whole morpheme; 2.5 makes "현재
날씨를 도시 이름으로 조회합니다" (19 characters) weigh like its English
translation (~45).  Kana are syllables without the density of Han: 1.5.
"""
KANA_WEIGHT = 1.5


def weighted_length(text: str) -> float:
    """Length of `text` with Hangul/Han weighed by DENSE_WEIGHT, kana by KANA_WEIGHT."""
    if text.isascii():
        return float(len(text))
    dense = len(_CJK_DENSE.findall(text))
    kana = len(_KANA.findall(text))
    return len(text) - dense - kana + dense * DENSE_WEIGHT + kana * KANA_WEIGHT


def has_hangul(text: str) -> bool:
    return bool(_HANGUL.search(text))


def is_hangul(word: str) -> bool:
    """Does the word start with a Hangul syllable (the words() tokens are all-Hangul or none)."""
    return bool(word) and "\uac00" <= word[0] <= "\ud7a3"


def words(text: object) -> list[str]:
    """Lower-case words of English and Korean text; identifiers in it are split.

    >>> words("Calls getUserById, then 상태를 조회합니다.")
    ['calls', 'get', 'user', 'by', 'id', 'then', '상태를', '조회합니다']
    """
    if not isinstance(text, str):
        return []
    return list(text_words(text))


@lru_cache(maxsize=32768)
def text_words(text: str) -> tuple[str, ...]:
    """words(), cached and immutable: several rules read the same description."""
    out: list[str] = []
    for token in _WORD.findall(text):
        if token.islower() or token.isupper() or not token[0].isalpha() or not token.isascii():
            out.append(token.lower())
        else:
            out.extend(identifier_words(token))
    return tuple(out)


# --------------------------------------------------------------------------- stems

@lru_cache(maxsize=65536)
def stem_en(word: str) -> str:
    """A crude English stem, only for comparing words: `retrieves`/`retrieving` → `retriev`, `items` → `item`."""
    base = _strip_suffix(word)
    # A final silent e goes too, so that "calculate" meets "calculating" and "calculated".
    return base[:-1] if len(base) > 4 and base.endswith("e") and not base.endswith("ee") else base


def _strip_suffix(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 5 and word.endswith("ing"):
        return word[:-3]
    if len(word) > 4 and word.endswith("ed"):
        return word[:-2]
    if len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


@lru_cache(maxsize=65536)
def stem_ko(word: str) -> str:
    """Strip one ending or particle from a Korean word: `조회합니다` → `조회`, `목록을` → `목록`."""
    for ending in korean.ENDINGS:
        if word.endswith(ending) and len(word) > len(ending):
            return word[: -len(ending)]
    return word


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    return stem_ko(word) if is_hangul(word) else stem_en(word)


def korean_stem(word: str, stems: frozenset[str] | dict) -> str | None:
    """The longest stem in `stems` that `word` starts with (조회합니다 → 조회)."""
    for size in range(min(len(word), 4), 0, -1):
        if word[:size] in stems:
            return word[:size]
    return None


# --------------------------------------------------------------------------- verb classes

class VerbClass(enum.Flag):
    NONE = 0
    READ = enum.auto()
    WRITE = enum.auto()
    IRREVERSIBLE = enum.auto()
    DESTRUCTIVE = enum.auto()
    MUTATING = WRITE | DESTRUCTIVE


_EN_CLASSES = ((english.READ, VerbClass.READ), (english.WRITE, VerbClass.WRITE),
               (english.IRREVERSIBLE, VerbClass.IRREVERSIBLE), (english.DESTRUCTIVE, VerbClass.DESTRUCTIVE))
_KO_CLASSES = ((korean.READ, VerbClass.READ), (korean.WRITE, VerbClass.WRITE),
               (korean.IRREVERSIBLE, VerbClass.IRREVERSIBLE), (korean.DESTRUCTIVE, VerbClass.DESTRUCTIVE))


@lru_cache(maxsize=65536)
def verb_class(word: str) -> VerbClass:
    """The classes of a verb, English or Korean (with any ending); NONE when unknown.

    >>> verb_class("pay") == VerbClass.WRITE | VerbClass.IRREVERSIBLE
    True
    >>> bool(verb_class("삭제한") & VerbClass.DESTRUCTIVE), verb_class("조회합니다")
    (True, <VerbClass.READ: 1>)
    """
    if not isinstance(word, str) or not word:
        return VerbClass.NONE
    found = VerbClass.NONE
    if is_hangul(word):
        for stems, cls in _KO_CLASSES:
            if korean_stem(word, stems):
                found |= cls
        return found
    lowered = word.lower()
    for vocabulary, cls in _EN_CLASSES:
        if lowered in vocabulary:
            found |= cls
    return found


@lru_cache(maxsize=65536)
def changes_state(word: str) -> bool:
    """A verb that writes or destroys (MUTATING), as a cached bool: Flag arithmetic is slow in a hot loop.

    >>> changes_state("delete"), changes_state("삭제"), changes_state("list")
    (True, True, False)
    """
    return bool(verb_class(word) & VerbClass.MUTATING)


def is_generic(word: str) -> bool:
    return word in english.GENERIC_VERBS or word in english.GENERIC_NOUNS or word.isdigit()


@lru_cache(maxsize=65536)
def is_filler(word: str) -> bool:
    if word in english.FILLER:
        return True
    if is_hangul(word):
        return stem_ko(word) in korean.FILLER or korean_stem(word, korean.FILLER) == word
    return False


# Stems of English words that say something comes back: announced, computed or read
# ("identifying", "retrieved" and "calculates" all count).
RESULTISH_EN = frozenset(stem_en(w) for w in english.RESULT_WORDS | english.COMPUTE | english.READ)


def says_result(word: str) -> bool:
    """Any word that tells what comes back: returns, provides, calculating, 조회, 반환 …"""
    if is_hangul(word):
        return announces_result(word) or computes(word) or bool(verb_class(word) & VerbClass.READ)
    return stem_en(word) in RESULTISH_EN


def announces_result(word: str) -> bool:
    """`returns`, `responds`, `outputs`, 반환, 결과, 돌려줍니다 …"""
    if is_hangul(word):
        return korean_stem(word, korean.RESULT_WORDS) is not None
    return word in english.RESULT_WORDS


def computes(word: str) -> bool:
    """A verb whose meaning is a result: calculate, convert, 계산, 번역 …"""
    if is_hangul(word):
        return korean_stem(word, korean.COMPUTE) is not None
    return word in english.COMPUTE


def _synonym_index() -> dict[str, frozenset[str]]:
    """stem → the union of every synonym group holding it, so a lookup is one dict probe."""
    index: dict[str, set[str]] = {}
    for group in english.SYNONYMS:
        stems = {stem_en(w) for w in group}
        for member in stems:
            index.setdefault(member, set()).update(stems)
    return {member: frozenset(stems) for member, stems in index.items()}


_SYNONYMS_OF = _synonym_index()


@lru_cache(maxsize=65536)
def synonyms(word: str) -> frozenset[str]:
    """Stems of the English words that stand in for `word` (itself included): get → fetch, retrieve …

    >>> sorted(synonyms("fetching")) == sorted(synonyms("get")) and "retriev" in synonyms("get")
    True
    >>> synonyms("weather")
    frozenset({'weather'})
    """
    base = stem_en(word)
    return _SYNONYMS_OF.get(base) or frozenset({base})


@lru_cache(maxsize=65536)
def english_equivalents(word: str) -> frozenset[str]:
    """Stems an English name word could be written as: the word itself, or what a Korean word translates to."""
    if is_hangul(word):
        stem = korean_stem(word, korean.TO_ENGLISH)
        if stem is None:
            return frozenset()
        return frozenset(stem_en(w) for w in korean.TO_ENGLISH[stem])
    return frozenset({stem_en(word)})
