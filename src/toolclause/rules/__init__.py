"""The rule registry: every rule, listed explicitly, family by family.

No import side effects register anything; a rule exists when it is in a family's
`RULES` tuple.  Codes are public and never reused (see `toolclause rules`).

`ALL_RULES` and `BY_CODE` import every rule module on first use; a lint run
instead chooses its rules from `INDEX` and imports only those (`load_rules`), so
the rules of targets it does not check cost it nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ._index import INDEX, RuleEntry
from .base import Rule

CODES: tuple[str, ...] = tuple(entry.code for entry in INDEX)
_ENTRIES: dict[str, RuleEntry] = {entry.code: entry for entry in INDEX}

# set on first use, by __getattr__
ALL_RULES: tuple[type[Rule], ...]
BY_CODE: dict[str, type[Rule]]


def load_rules(entries: Iterable[RuleEntry]) -> list[type[Rule]]:
    """The rule classes of these entries, importing their modules (and only theirs)."""
    return [entry.load() for entry in entries]


_USER_TAGS: dict[str, tuple[str, ...]] = {}  # the tags of the configured user rules (plugins, rule packs)


def register_tags(code: str, tags: tuple[str, ...]) -> None:
    """Make a user rule's tags known to the reports (its code clashes with no built-in rule's)."""
    if tags:
        _USER_TAGS[code] = tuple(tags)


def tags_of(code: str) -> tuple[str, ...]:
    """The OWASP MCP Top 10 IDs of a rule's findings (read from the index: no rule is imported)."""
    entry = _ENTRIES.get(code)
    return entry.tags if entry is not None else _USER_TAGS.get(code, ())


def rule_class(code: str) -> type[Rule]:
    """The rule with this code (KeyError for a code no rule has)."""
    return _ENTRIES[code].load()


def _registry() -> tuple[type[Rule], ...]:
    from .clients import RULES as CLIENT_RULES
    from .consistency import RULES as CONSISTENCY_RULES
    from .description import RULES as DESCRIPTION_RULES
    from .governance import RULES as GOVERNANCE_RULES
    from .naming import RULES as NAMING_RULES
    from .provider import RULES as PROVIDER_RULES
    from .result import RULES as RESULT_RULES
    from .safety import RULES as SAFETY_RULES
    from .schema import RULES as SCHEMA_RULES
    from .tightness import RULES as TIGHTNESS_RULES
    from .widgets import RULES as WIDGET_RULES

    return (
        *SCHEMA_RULES,
        *NAMING_RULES,
        *DESCRIPTION_RULES,
        *TIGHTNESS_RULES,
        *CONSISTENCY_RULES,
        *PROVIDER_RULES,
        *SAFETY_RULES,
        *WIDGET_RULES,
        *RESULT_RULES,
        *GOVERNANCE_RULES,
        *CLIENT_RULES,
    )


def __getattr__(name: str) -> Any:
    if name not in ("ALL_RULES", "BY_CODE"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    rules = _registry()
    by_code = {rule.code: rule for rule in rules}
    if len(by_code) != len(rules):  # pragma: no cover - caught by the registry test
        raise RuntimeError("two rules share a code")
    globals().update(ALL_RULES=rules, BY_CODE=by_code)  # built once; later reads are plain attributes
    return globals()[name]


__all__ = ["ALL_RULES", "BY_CODE", "CODES", "INDEX", "Rule", "RuleEntry", "load_rules", "register_tags", "rule_class",
           "tags_of"]
