"""Lint configuration: which rules run, at what severity, against which targets.

Read from `[tool.toolclause]` in pyproject.toml or from toolclause.toml (same
keys at the top level).  Keys:

    select = ["S", "N", "D003"]       codes or prefixes; "ALL" = every rule (default)
    ignore = ["D009"]
    per-file-ignores = {"legacy/*.json" = ["C001"]}
    severity = {"D003" = "info"}       override a rule's severity
    targets = ["openai-strict", "anthropic"]
    fail-on = "error"                  error | warning | info | never
    budgets = {max-tools = 20, tool-tokens = 1000, list-tokens = 8000, description-chars = 1024}
    [tool.toolclause.rules.D002]       per-rule options
    min-length = 40
"""

from __future__ import annotations

import fnmatch
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..model import Severity
from ..rules.options import RuleOptionError, check_rule_tables
from ..targets import LINT_ALIASES, LINT_TARGETS


class ConfigError(ValueError):
    """A configuration file or option that cannot be used; the CLI exits 2."""


def _codes(value: Any, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = [v for v in value.split(",") if v.strip()]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where} must be a list of rule codes")
    return tuple(v.strip().upper() for v in value)


def parse_targets(value: Any) -> frozenset[str]:
    if value is None:
        return frozenset()
    if isinstance(value, str):
        value = [v for v in value.split(",") if v.strip()]
    out: set[str] = set()
    for item in value:
        name = str(item).strip().lower()
        if name in LINT_ALIASES:
            out.update(LINT_ALIASES[name])
        elif name in LINT_TARGETS:
            out.add(name)
        else:
            raise ConfigError(f"unknown target {name!r}; choose from {', '.join(LINT_TARGETS)} "
                              f"or {', '.join(LINT_ALIASES)}")
    return frozenset(out)


def matches(code: str, selectors: Iterable[str]) -> bool:
    return any(sel == "ALL" or code.startswith(sel) for sel in selectors)


@dataclass(frozen=True)
class LintConfig:
    select: tuple[str, ...] = ("ALL",)
    ignore: tuple[str, ...] = ()
    per_file_ignores: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    severity: Mapping[str, Severity] = field(default_factory=dict)
    targets: frozenset[str] = frozenset()
    fail_on: str = "error"
    budgets: Mapping[str, Any] = field(default_factory=dict)
    rule_options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    source: str | None = None  # the file it came from, for messages

    def enabled(self, code: str) -> bool:
        return matches(code, self.select) and not matches(code, self.ignore)

    def ignored_in_file(self, code: str, file: str | None) -> bool:
        if not file or not self.per_file_ignores:
            return False
        for pattern, codes in self.per_file_ignores.items():
            in_file = fnmatch.fnmatch(file, pattern) or fnmatch.fnmatch(Path(file).as_posix(), "*/" + pattern)
            if in_file and matches(code, codes):
                return True
        return False

    def with_overrides(self, **changes: Any) -> LintConfig:
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


def config_from_mapping(data: Mapping[str, Any], source: str | None = None) -> LintConfig:
    known = {"select", "ignore", "per-file-ignores", "severity", "targets", "fail-on", "budgets", "rules"}
    unknown = sorted(set(data) - known)
    where = source or "configuration"
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    severity: dict[str, Severity] = {}
    for code, level in dict(data.get("severity") or {}).items():
        try:
            severity[code.upper()] = Severity.parse(str(level))
        except ValueError as exc:
            raise ConfigError(f"{where}: severity.{code}: {exc}") from None
    per_file = {str(k): _codes(v, f"{where}: per-file-ignores.{k}")
                for k, v in dict(data.get("per-file-ignores") or {}).items()}
    fail_on = str(data.get("fail-on", "error")).lower()
    if fail_on not in ("error", "warning", "info", "never"):
        raise ConfigError(f"{where}: fail-on must be error, warning, info or never")
    rules = data.get("rules") or {}
    if not isinstance(rules, Mapping):
        raise ConfigError(f"{where}: rules must be a table of per-rule options")
    return LintConfig(
        select=_codes(data.get("select"), f"{where}: select") or ("ALL",),
        ignore=_codes(data.get("ignore"), f"{where}: ignore"),
        per_file_ignores=per_file,
        severity=severity,
        targets=parse_targets(data.get("targets")),
        fail_on=fail_on,
        budgets=dict(data.get("budgets") or {}),
        rule_options=_rule_options(rules, where),
        source=source,
    )


def _rule_options(tables: Mapping[str, Any], where: str) -> dict[str, dict[str, Any]]:
    try:  # each table checked against its rule's declared options (rules.options)
        return check_rule_tables(tables)
    except RuleOptionError as exc:
        raise ConfigError(f"{where}: {exc}") from None


def read_config_file(path: Path) -> LintConfig:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read configuration: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    if path.name == "pyproject.toml":
        data = data.get("tool", {}).get("toolclause", {})
    return config_from_mapping(data, str(path))


def discover_config(start: Path) -> LintConfig:
    """Nearest toolclause.toml, or pyproject.toml with a [tool.toolclause] table."""
    start = start.resolve()
    for folder in [start, *start.parents]:
        candidate = folder / "toolclause.toml"
        if candidate.is_file():
            return read_config_file(candidate)
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file():
            try:
                data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                continue
            if "toolclause" in data.get("tool", {}):
                return read_config_file(pyproject)
    return LintConfig()
