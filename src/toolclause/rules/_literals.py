"""The literal strings one of which every match of a pattern contains: a text holding none cannot match.

A long alternation (X008's orders to the model, X010's requests for the conversation) costs a
regex search of every tool's prose, and almost no tool's prose matches.  Asking first whether
the text holds a word the pattern cannot match without (`"before" in text`, a C substring
search) skips nearly all of those searches and changes no answer.

The words are read off the compiled form of the pattern, not written beside it, so they stay
true when the pattern changes.  Only case-sensitive patterns are read: a case-insensitive one
matches letters the literal does not spell.
"""

from __future__ import annotations

import re
from typing import Any

try:  # the interpreter's own regex parser; without it no pattern is read, and every search runs
    from re import _parser
except ImportError:  # pragma: no cover - another interpreter
    _parser = None

_REPEATS = {"MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"}


def needed_literals(pattern: str, flags: int = 0) -> frozenset[str] | None:
    """Strings one of which every match of `pattern` holds; None when there is no such set (or the
    pattern is case-insensitive, or verbose, or cannot be read)."""
    if _parser is None or flags & (re.IGNORECASE | re.VERBOSE):
        return None
    try:
        parsed = _parser.parse(pattern, flags)
    except Exception:  # noqa: BLE001 - an unreadable pattern: searched as it is
        return None
    if parsed.state.flags & re.IGNORECASE:  # an inline (?i) at the start
        return None
    return _sequence(list(parsed))


def _best(choices: list[frozenset[str]]) -> frozenset[str] | None:
    """The most selective set: the longest shortest literal, then the fewest literals."""
    return max(choices, key=lambda words: (min(map(len, words)), -len(words)), default=None)


def _sequence(items: list[tuple[Any, Any]]) -> frozenset[str] | None:
    """What a run of pattern items needs: the best of its literal runs and its items' own needs."""
    choices: list[frozenset[str]] = []
    run: list[str] = []
    for op, argument in items:
        name = str(op)  # the parser's opcodes print as their names
        if name == "LITERAL":
            run.append(chr(argument))
            continue
        if run:
            choices.append(frozenset({"".join(run)}))
            run = []
        needs = _item(name, argument)
        if needs:
            choices.append(needs)
    if run:
        choices.append(frozenset({"".join(run)}))
    return _best(choices)


def _item(op: str, argument: Any) -> frozenset[str] | None:
    if op == "SUBPATTERN":
        _group, add_flags, _del_flags, body = argument
        return None if add_flags & re.IGNORECASE else _sequence(list(body))
    if op == "ATOMIC_GROUP":
        return _sequence(list(argument))
    if op in _REPEATS:
        least, _most, body = argument
        return _sequence(list(body)) if least >= 1 else None
    if op == "BRANCH":
        _, branches = argument
        union: set[str] = set()
        for branch in branches:
            needs = _sequence(list(branch))
            if not needs:
                return None  # this branch can match without any literal
            union |= needs
        return frozenset(union)
    return None  # a class, a wildcard, an anchor, a look-around, a back-reference: nothing certain
