"""Explain why a name breaks a `NameRule` and propose one that keeps to it.

Shared by N001 (tool names) and N005 (property names).  The character classes
are read out of the rules in `toolclause.targets`, so the allowed characters
are written down in one place only.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from ... import _lazy_re as re
from ...targets import NameRule

RuleGroups = tuple[tuple[NameRule, tuple[str, ...]], ...]


def group_by_rule(targets: list[str], rules: dict[str, NameRule]) -> RuleGroups:
    """Targets that share one rule share one finding: ((rule, ("openai", "anthropic")), …)."""
    grouped: dict[int, tuple[NameRule, list[str]]] = {}
    for target in targets:
        grouped.setdefault(id(rules[target]), (rules[target], []))[1].append(target)
    return tuple((rule, tuple(names)) for rule, names in grouped.values())


def who(targets: tuple[str, ...]) -> str:
    return "" if targets == ("default",) else f" for {', '.join(targets)}"

_CLASS = re.compile(r"\[[^\]]+\]")


@cache
def _classes(rule: NameRule) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(first-character class, other-character class) of a rule's pattern."""
    found = _CLASS.findall(rule.pattern.pattern)
    first, rest = (found[0], found[-1]) if found else (r"[\s\S]", r"[\s\S]")
    return re.compile(first), re.compile(rest)


def problems(name: str, rule: NameRule) -> list[str]:
    """Why `name` breaks `rule`, in words; empty when it keeps to it."""
    if rule.pattern.fullmatch(name):
        return []
    if not name:
        return ["it is empty"]
    first, rest = _classes(rule)
    out: list[str] = []
    bad = [ch for ch in dict.fromkeys(name) if not rest.fullmatch(ch)]
    if bad:
        shown = ", ".join(_show(ch) for ch in bad[:8]) + (" …" if len(bad) > 8 else "")
        out.append(f"it contains {shown}")
    elif not first.fullmatch(name[0]):
        out.append(f"it starts with {_show(name[0])}")
    if len(name) > rule.max_length:
        out.append(f"it is {len(name)} characters long (at most {rule.max_length})")
    return out or [f"it does not match {rule.pattern.pattern}"]


def _show(ch: str) -> str:
    if ch == " ":
        return "a space"
    if not ch.isprintable():
        return f"U+{ord(ch):04X}"
    return f"'{ch}'"


def suggest(name: str, rules: list[NameRule]) -> str | None:
    """A name that keeps to every rule given, close to `name`; None when nothing usable is left."""
    # 'año' → 'ano': drop accents before replacing what is left.
    candidate = "".join(ch for ch in unicodedata.normalize("NFKD", name) if not unicodedata.combining(ch))
    for rule in rules:
        first, rest = _classes(rule)
        candidate = "".join(ch if rest.fullmatch(ch) else "_" for ch in candidate)
        candidate = re.sub(r"_{2,}", "_", candidate).strip("_") or ""
        if candidate and not first.fullmatch(candidate[0]):
            candidate = "_" + candidate if first.fullmatch("_") else ""
        candidate = candidate[: rule.max_length].rstrip("_")
    if not candidate or not any(ch.isalnum() for ch in candidate):
        return None
    if all(rule.pattern.fullmatch(candidate) for rule in rules):
        return candidate
    return None
