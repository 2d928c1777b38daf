"""Words that say what a tool does: verb classes, generic and filler words, as data.

The lists live in `english.py` and `korean.py` (data only); `text.py` holds the
helpers every rule uses.  Naming, description and safety rules share this one
lexicon, so that a word taught here is understood everywhere.
"""

from __future__ import annotations

from . import english, korean
from .text import (
    DENSE_WEIGHT,
    NameStyle,
    VerbClass,
    announces_result,
    changes_state,
    computes,
    english_equivalents,
    has_hangul,
    identifier_words,
    is_filler,
    is_generic,
    is_hangul,
    korean_stem,
    name_style,
    says_result,
    split_identifier,
    stem,
    stem_en,
    stem_ko,
    synonyms,
    text_words,
    verb_class,
    weighted_length,
    words,
)

__all__ = [
    "DENSE_WEIGHT", "NameStyle", "VerbClass", "announces_result", "changes_state", "computes", "english",
    "english_equivalents", "has_hangul", "identifier_words", "is_filler", "is_generic", "is_hangul", "korean",
    "korean_stem", "name_style", "says_result", "split_identifier", "stem", "stem_en", "stem_ko", "synonyms",
    "text_words", "verb_class", "weighted_length", "words",
]
