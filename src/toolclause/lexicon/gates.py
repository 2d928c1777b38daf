"""Cheap pre-checks that let a rule skip a costly case-insensitive regex search.

Most descriptions a rule reads cannot match its regex at all: "date|time|…"
finds nothing in "The city to look up".  A few substring tests on the lowered
text (plain C loops) prove that much for a fraction of a search's cost, so the
regex runs only where one of its literal words is present.

A gate must never say "no" where the regex would say "yes".  `str.lower()`
agrees with `re.IGNORECASE` on every character except three that the regex
engine also folds onto an ASCII letter (İ, ı → i; ſ → s); texts holding one of
them are not gated.
"""

from __future__ import annotations

from collections.abc import Iterable

_IGNORECASE_EXTRAS = frozenset("\u0130\u0131\u017f")


def lowered_for_gate(text: str) -> str | None:
    """`text.lower()`, or None when substring tests on it would not be a sound gate."""
    if not text.isascii() and not _IGNORECASE_EXTRAS.isdisjoint(text):
        return None
    return text.lower()


def may_contain(lowered: str | None, words: Iterable[str]) -> bool:
    """False only when none of `words` (lower-case) occurs in the lowered text; True when unsure."""
    if lowered is None:
        return True
    for word in words:  # a plain loop: any() over a generator costs more than the tests
        if word in lowered:
            return True
    return False
