"""Rule options: declared on the rule, validated in one place (yamllint's `CONF` and `DEFAULT`).

A rule that takes options says which, of what type, and their defaults:

    class VagueToolDescription(Rule):
        CONF = {"min-length": int}
        DEFAULT = {"min-length": 40}

and reads them with `ctx.options(self)["min-length"]`.  A `CONF` value is

    a type                 int, float, str or bool (an int is not a bool, a float takes an int)
    a tuple                the allowed values and/or types: ("strict", "lax", int)
    a list                 the allowed flags; the option is a list drawn from them

Configuration reaches a rule only through `rule_options`, so a misspelt key or
a wrong type is an error that names the rule and the key, never a silent
fall back to the default.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..suggest import closest

if TYPE_CHECKING:  # base.py asks this module; the rule class is only a type here
    from .base import Rule


class RuleOptionError(ValueError):
    """An option a rule does not declare, or a value of the wrong type."""


_TYPE_NAMES = {int: "an integer", float: "a number", str: "a string", bool: "true or false", list: "a list",
               dict: "a table"}


def rule_options(rule: type[Rule], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """The rule's options: `given` checked against its CONF, its DEFAULT filling in the rest."""
    declared: Mapping[str, Any] = rule.CONF
    label = f"rule {rule.code} ({rule.name})"
    if given is not None and not isinstance(given, Mapping):
        raise RuleOptionError(f"{label}: options must be a table of option = value, not {given!r}")
    options = dict(rule.DEFAULT)
    for key, value in (given or {}).items():
        if key not in declared:
            if not declared:
                raise RuleOptionError(f"{label} takes no options; '{key}' is not one")
            guess = closest(str(key), list(declared))
            hint = f"; did you mean '{guess}'?" if guess else f"; it takes {', '.join(sorted(declared))}"
            raise RuleOptionError(f"{label}: unknown option '{key}'{hint}")
        problem = _mismatch(declared[key], value)
        if problem:
            raise RuleOptionError(f"{label}: option '{key}' must be {problem}, not {value!r}")
        options[key] = value
    return options


def _mismatch(spec: Any, value: Any) -> str | None:
    """What `value` should have been, or None when it fits `spec`."""
    if isinstance(spec, tuple):
        if any(_is(value, s) if isinstance(s, type) else value == s and type(value) is type(s) for s in spec):
            return None
        return "one of " + ", ".join(_TYPE_NAMES.get(s, s.__name__) if isinstance(s, type) else repr(s) for s in spec)
    if isinstance(spec, list):
        if isinstance(value, list) and all(flag in spec for flag in value):
            return None
        return "a list drawn from " + ", ".join(repr(flag) for flag in spec)
    return None if _is(value, spec) else _TYPE_NAMES.get(spec, spec.__name__)


def _is(value: Any, kind: type) -> bool:
    if isinstance(value, bool) and kind is not bool:
        return False
    if kind is float:
        return isinstance(value, (int, float))
    return isinstance(value, kind)


def describe_options(rule: type[Rule]) -> list[str]:
    """One line per declared option: its name, what it takes and its default (for the rule's documentation)."""
    lines = []
    for key, spec in rule.CONF.items():
        if isinstance(spec, tuple):
            kind = "one of " + ", ".join(_TYPE_NAMES.get(s, s.__name__) if isinstance(s, type) else repr(s)
                                         for s in spec)
        elif isinstance(spec, list):
            kind = "a list drawn from " + ", ".join(repr(flag) for flag in spec)
        else:
            kind = _TYPE_NAMES.get(spec, spec.__name__)
        lines.append(f"- `{key}`: {kind}; default {rule.DEFAULT.get(key)!r}")
    return lines


def check_declarations(rule: type[Rule]) -> list[str]:
    """Problems in a rule's own CONF/DEFAULT (a test runs this over the registry)."""
    problems = []
    if set(rule.CONF) != set(rule.DEFAULT):
        problems.append(f"{rule.code}: CONF declares {sorted(rule.CONF)} but DEFAULT gives {sorted(rule.DEFAULT)}")
    for key, spec in rule.CONF.items():
        if key in rule.DEFAULT and _mismatch(spec, rule.DEFAULT[key]):
            problems.append(f"{rule.code}: the default of '{key}' does not fit its own CONF")
    return problems


def check_rule_tables(tables: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Configuration's per-rule tables (`[rules.D002]`), keyed by code, each checked against its rule.

    Raises RuleOptionError for an unknown code, a table that is not one, or an
    option its rule does not declare or takes in another type.
    """
    from . import CODES, rule_class  # the registry imports base, which imports this module

    checked: dict[str, dict[str, Any]] = {}
    for code, table in tables.items():
        if str(code).upper() not in CODES:
            guess = closest(str(code).upper(), list(CODES))
            hint = f"; did you mean {guess}?" if guess else ""
            raise RuleOptionError(f"rules.{code}: no rule has this code{hint}")
        rule = rule_class(str(code).upper())
        rule_options(rule, table)
        checked[rule.code] = dict(table)
    return checked
