"""Did-you-mean suggestions, shared by rules and the runtime's error details."""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def closest(word: str, candidates: Sequence[str] | Iterable[str], cutoff: float = 70.0) -> str | None:
    """The candidate most like `word`, or None when none is close enough.

    Case and separators are ignored first (`userName` ~ `user_name`), then
    edit-distance similarity decides.
    """
    choices = list(candidates)
    if not choices:
        return None
    folded = _fold(word)
    for choice in choices:
        if _fold(choice) == folded:
            return choice
    from rapidfuzz import fuzz, process, utils  # imported by the first suggestion that needs it

    found = process.extractOne(word, choices, scorer=fuzz.ratio, processor=utils.default_process, score_cutoff=cutoff)
    return found[0] if found else None


def _fold(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())
