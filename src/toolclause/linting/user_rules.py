"""A team's own rules, named in the configuration: Python plugins and YAML rule packs.

    plugins = ["acme-toolclause"]        installed distributions whose entry points in the group
                                         `toolclause.rules` name rules: `ACME001 = "acme_toolclause.rules:Cls"`
    rule-packs = ["rules/acme.yaml"]     data-only packs (see `rules.packs`), relative to the configuration

Nothing is loaded that the configuration does not name, as pylint's `load-plugins`: a run is the same
on every machine that has the same distributions.  Every problem is a `ConfigError` naming the
plugin, the pack or the key: a distribution that is not installed, an entry point that does not
load or is no `Rule`, an entry name that is not its rule's code, a code that clashes with a built-in
family or another rule, a pack that cannot be read.  `versions()` says what a run's rules are made of,
for the lint cache's key.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..rules import CODES, register_tags
from ..rules.base import Rule
from ..rules.packs import MAX_PACK_BYTES, PackError, check_user_code, pack_rule_class, parse_pack

GROUP = "toolclause.rules"
MAX_PLUGIN_RULES = 500


class UserRuleError(ValueError):
    """A plugin or pack that cannot be used (linting.config turns it into a ConfigError)."""


def _plugin_rules(name: str, taken: list[str]) -> list[type[Rule]]:
    from importlib import metadata

    try:
        distribution = metadata.distribution(name)
    except metadata.PackageNotFoundError:
        raise UserRuleError(f"plugins: no installed distribution {name!r} (pip install {name})") from None
    found: list[type[Rule]] = []
    for entry in distribution.entry_points:
        if entry.group != GROUP:
            continue
        if len(found) >= MAX_PLUGIN_RULES:
            raise UserRuleError(f"plugins: {name} declares more than {MAX_PLUGIN_RULES} rules")
        where = f"plugins: {name}: entry point {entry.name!r}"
        try:
            rule = entry.load()
        except Exception as exc:  # the plugin's own import failed: say which, and why, in one line
            raise UserRuleError(f"{where} ({entry.value}) does not load: {type(exc).__name__}: "
                                f"{str(exc).splitlines()[0][:200] if str(exc) else ''}") from None
        if not (isinstance(rule, type) and issubclass(rule, Rule)):
            raise UserRuleError(f"{where} ({entry.value}) is not a toolclause.rules.base.Rule subclass")
        if getattr(rule, "code", None) != entry.name:
            raise UserRuleError(f"{where}: the entry's name must be the rule's code ({getattr(rule, 'code', None)!r})")
        try:
            check_user_code(rule.code, where, taken)
        except PackError as exc:
            raise UserRuleError(str(exc)) from None
        if rule.client_config or rule.binding_only:
            raise UserRuleError(f"{where}: a plugin rule checks tools (client_config and binding_only are the "
                                f"built-in families')")
        taken.append(rule.code)
        found.append(rule)
    if not found:
        raise UserRuleError(f"plugins: {name} declares no rule (entry points in the group {GROUP!r})")
    return found


def _pack_rules(path: Path, shown: str, taken: list[str]) -> list[type[Rule]]:
    from ..loading.text import parse_document  # the loader's YAML reader: alias bombs and depth refused

    try:
        if path.stat().st_size > MAX_PACK_BYTES:
            raise UserRuleError(f"rule-packs: {shown} is over {MAX_PACK_BYTES // 1024} KiB; a pack is a list of rules")
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UserRuleError(f"rule-packs: {shown}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise UserRuleError(f"rule-packs: {shown}: not UTF-8 text (byte {exc.start})") from None
    document, _, problem = parse_document(text, shown, "yaml")
    if problem is not None:
        raise UserRuleError(f"rule-packs: {shown}: {problem.message}")
    try:
        pack = parse_pack(document, f"rule-packs: {shown}", taken)
    except PackError as exc:
        raise UserRuleError(str(exc)) from None
    taken.extend(spec.code for spec in pack.rules)
    return [pack_rule_class(pack, spec) for spec in pack.rules]


def load_user_rules(plugins: Sequence[str], packs: Sequence[str], folder: Path) -> tuple[type[Rule], ...]:
    """The rules the configuration names, checked (UserRuleError naming the first problem)."""
    taken = list(CODES)
    rules: list[type[Rule]] = []
    for name in plugins:
        rules += _plugin_rules(name, taken)
    for pack in packs:
        rules += _pack_rules(folder / pack, pack, taken)
    for rule in rules:
        register_tags(rule.code, rule.tags)
    return tuple(rules)


def versions(plugins: Sequence[str], packs: Sequence[str], folder: Path) -> list[Any]:
    """What the named rules are made of, for a cache key: each plugin's version, each pack's bytes' hash."""
    from importlib import metadata

    out: list[Any] = []
    for name in plugins:
        try:
            out.append(("plugin", name, metadata.version(name)))
        except metadata.PackageNotFoundError:
            out.append(("plugin", name, None))
    for pack in packs:
        try:
            out.append(("pack", pack, hashlib.sha256((folder / pack).read_bytes()).hexdigest()))
        except OSError:
            out.append(("pack", pack, None))
    return out


__all__ = ["GROUP", "UserRuleError", "load_user_rules", "versions"]
