"""Lint configuration: which rules run, at what severity, against which targets.

Read from `[tool.toolclause]` in pyproject.toml or from toolclause.toml (same
keys at the top level).  Keys:

    select = ["S", "N", "D003"]       codes or prefixes; "ALL" = every rule (default)
    ignore = ["D009", {code = "X002", tool = "create_refund", reason = "…", owner = "payments",
              until = 2027-01-31}]    a table entry is a governed suppression (linting.suppressions)
    per-file-ignores = {"legacy/*.json" = ["C001"]}
    severity = {"D003" = "info"}       override a rule's severity
    targets = ["openai-strict", "anthropic"]
    fail-on = "error"                  error | warning | info | never
    budgets = {max-tools = 20, tool-tokens = 1000, list-tokens = 8000, description-chars = 1024}
    toolset = "folder"                 folder | file | all: which tools form one tool set (see TOOLSETS)
    exclude = ["tests/fixtures"]       globs of files and folders a folder search leaves out
    [tool.toolclause.rules.D002]       per-rule options
    min-length = 40

A configuration that cannot be used as written is a `ConfigError` naming the
key (the CLI exits 2): an unknown key, code, budget, option or value, a value
of the wrong type, or a file that is not valid TOML — also one found by
discovery, which never skips a broken file in silence.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .. import _lazy_re as re
from ..model import Severity
from ..rules import CODES
from ..rules.base import Rule
from ..rules.governance._entries import Suppression, SuppressionError, parse_suppression
from ..rules.options import RuleOptionError, check_rule_tables
from ..suggest import closest
from ..targets import LINT_ALIASES, LINT_TARGETS, other_command_target

BUILT_IN_FAMILIES = frozenset(code[0] for code in CODES)  # rules.packs.BUILT_IN_FAMILIES, without importing it
ENGINE_CODES = ("S001",)  # reported by the engine itself (schema too deep), as well as by a registered rule
_USER_SHAPED = re.compile(r"[A-Z]{2,}[A-Z0-9]*")  # a user rule's code or prefix (ACME, ACME101)
# the budgets rules read (P004, P005, P006), each a positive whole number
BUDGETS = {"max-tools": "tools in one list (P005)", "tool-tokens": "tokens of one tool (P006)",
           "list-tokens": "tokens of one tool list (P006)", "description-chars": "characters of a description (P004)"}
# which tools list rules (duplicates, look-alikes, counts) see together
TOOLSETS = {
    "folder": "the tools of every file in one folder (a file holding several lists keeps them apart)",
    "file": "the tools of one list in one file",
    "all": "every tool of the run",
}


class ConfigError(ValueError):
    """A configuration file or option that cannot be used; the CLI exits 2."""


def check_code(code: str, where: str, prefix: bool = True, users: Iterable[str] | None = None) -> str:
    """`code` upper-cased, when it names a rule (or, with `prefix`, starts some rule's code, or is ALL).

    `users`: the codes of the configured user rules; None (a flag read before the configuration) takes any
    code a user rule may have (two letters or more, the first no built-in family's), as the configuration decides."""
    code = code.strip().upper()
    if users is None and _USER_SHAPED.fullmatch(code) and code[0] not in BUILT_IN_FAMILIES and code != "ALL":
        return code
    known = sorted(set(CODES) | set(ENGINE_CODES) | set(users or ()))
    if code in known or prefix and (code == "ALL" or any(k.startswith(code) for k in known if code)):
        return code
    hint = closest(code, known)
    what = "a rule code or prefix" if prefix else "a rule code"
    raise ConfigError(f"{where}: {code!r} is not {what}"
                      + (f"; did you mean {hint!r}?" if hint else "; see `toolclause rules`"))


def parse_codes(value: Any, where: str, users: Iterable[str] | None = None) -> tuple[str, ...]:
    """Rule codes or prefixes (a list, or one comma-separated string), upper-cased: the one check behind
    the configuration's select/ignore, `--select`/`--ignore` and `toolclause.lint(select=…, ignore=…)`.

    Raises ConfigError naming `where` and the first code that names no rule (with a did-you-mean)."""
    if value is None:
        return ()
    if isinstance(value, str):
        value = [v for v in value.split(",") if v.strip()]
    if isinstance(value, (set, frozenset, Iterator)):  # the Python API takes any iterable
        value = list(value)
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where} must be a list of rule codes")
    return tuple(check_code(v, where, users=users) for v in value)


def _table(value: Any, where: str, what: str) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ConfigError(f"{where} must be a table of {what}, not {value!r}")
    return value


def _budgets(value: Any, where: str) -> dict[str, int]:
    out = {}
    for key, amount in _table(value, where, "budget = number").items():
        if key not in BUDGETS:
            hint = closest(str(key), list(BUDGETS))
            raise ConfigError(f"{where}.{key}: unknown budget"
                              + (f"; did you mean {hint!r}?" if hint else f"; known: {', '.join(BUDGETS)}"))
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
            raise ConfigError(f"{where}.{key} must be a positive whole number ({BUDGETS[key]}), not {amount!r}")
        out[str(key)] = amount
    return out


def _choice(value: Any, where: str, choices: Iterable[str], default: str) -> str:
    if value is None:
        return default
    options = list(choices)
    if not isinstance(value, str) or value.lower() not in options:
        raise ConfigError(f"{where} must be {', '.join(options[:-1])} or {options[-1]}, not {value!r}")
    return value.lower()


def parse_targets(value: Any) -> frozenset[str]:
    if value is None:
        return frozenset()
    if isinstance(value, str):
        value = [v for v in value.split(",") if v.strip()]
    if not isinstance(value, (list, tuple, set, frozenset)):
        raise ConfigError(f"targets must be a list of target names, not {value!r}")
    out: set[str] = set()
    for item in value:
        if not isinstance(item, str):
            raise ConfigError(f"targets must be a list of target names, not {item!r}")
        name = item.strip().lower()
        if name in LINT_ALIASES:
            out.update(LINT_ALIASES[name])
        elif name in LINT_TARGETS:
            out.add(name)
        else:
            other = other_command_target(name, "lint")
            meant = None if other else closest(name, [*LINT_TARGETS, *LINT_ALIASES])
            hint = f"{other}; " if other else f"did you mean '{meant}'? " if meant else ""
            raise ConfigError(f"unknown target {name!r}; {hint}choose from "
                              f"{', '.join(LINT_TARGETS)} or {', '.join(LINT_ALIASES)}")
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
    toolset: str = "folder"  # see TOOLSETS
    exclude: tuple[str, ...] = ()  # globs a folder search leaves out (a file named explicitly is still read)
    source: str | None = None  # the file it came from, for messages
    # `ignore`'s table entries: suppressions with a reason, an owner and a date (see linting.suppressions)
    suppressions: tuple[Suppression, ...] = ()
    # a team's own rules (linting.user_rules): the distributions and packs named, and their rules
    plugins: tuple[str, ...] = ()
    rule_packs: tuple[str, ...] = ()
    user_rules: tuple[type[Rule], ...] = ()

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


def _ignores(value: Any, where: str, source: str | None, base: str,
             users: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[Suppression, ...]]:
    """`ignore`: its bare codes, and its table entries as suppressions (ConfigError naming a bad key)."""
    if not isinstance(value, list) or all(isinstance(v, str) for v in value):
        return parse_codes(value, f"{where}: ignore", users), ()
    codes = parse_codes([v for v in value if isinstance(v, str)], f"{where}: ignore", users)
    found = []
    for index, entry in enumerate(value):
        if isinstance(entry, str):
            continue
        if not isinstance(entry, Mapping):
            raise ConfigError(f"{where}: ignore[{index}] must be a rule code or a table {{code, tool, reason, "
                              f"owner, until}}, not {entry!r}")
        try:
            suppression = parse_suppression(entry, f"{where}: ignore[{index}]", source, f"{base}/ignore/{index}")
        except SuppressionError as exc:
            raise ConfigError(str(exc)) from None
        check_code(suppression.code, f"{where}: ignore[{index}].code", users=users)
        found.append(suppression)
    return codes, tuple(found)


def config_from_mapping(data: Mapping[str, Any], source: str | None = None, base: str = "") -> LintConfig:
    """`base`: the pointer of these settings in the file (`/tool/toolclause` in pyproject.toml)."""
    known = {"select", "ignore", "per-file-ignores", "severity", "targets", "fail-on", "budgets", "rules", "toolset",
             "exclude", "plugins", "rule-packs"}
    unknown = sorted(set(data) - known)
    where = source or "configuration"
    nested = data.get("tool")
    if unknown == ["tool"] and isinstance(nested, Mapping) and "toolclause" in nested:
        # pyproject.toml's [tool.toolclause] tables pasted into toolclause.toml, where the keys stand at the top
        raise ConfigError(f"{where}: [tool.toolclause…] tables belong in pyproject.toml; in this file the same "
                          f"keys stand at the top: drop 'tool.toolclause' from every table name ([rules.D002], not "
                          f"[tool.toolclause.rules.D002])")
    if unknown:
        hint = closest(unknown[0], sorted(known))
        raise ConfigError(f"{where}: unknown key(s) {', '.join(unknown)}"
                          + (f"; did you mean {hint!r}?" if hint and len(unknown) == 1 else "")
                          + f"; known: {', '.join(sorted(known))}")
    plugins = _names(data.get("plugins"), f"{where}: plugins")
    packs = _names(data.get("rule-packs"), f"{where}: rule-packs")
    user_rules: tuple[type[Rule], ...] = ()
    if plugins or packs:
        from .user_rules import UserRuleError, load_user_rules  # only a configuration that names some

        try:
            user_rules = load_user_rules(plugins, packs, Path(source).parent if source else Path.cwd())
        except UserRuleError as exc:
            raise ConfigError(f"{where}: {exc}") from None
    users = tuple(rule.code for rule in user_rules)
    severity: dict[str, Severity] = {}
    for code, level in _table(data.get("severity"), f"{where}: severity", "code = level").items():
        key = check_code(str(code), f"{where}: severity.{code}", prefix=False, users=users)
        if not isinstance(level, str):
            raise ConfigError(f"{where}: severity.{code} must be error, warning or info, not {level!r}")
        try:
            severity[key] = Severity.parse(level)
        except ValueError as exc:
            raise ConfigError(f"{where}: severity.{code}: {exc}") from None
    per_file = {str(k): parse_codes(v, f"{where}: per-file-ignores.{k}", users)
                for k, v in _table(data.get("per-file-ignores"), f"{where}: per-file-ignores",
                                   "glob = codes").items()}
    fail_on = _choice(data.get("fail-on"), f"{where}: fail-on", ("error", "warning", "info", "never"), "error")
    rules = data.get("rules") or {}
    if not isinstance(rules, Mapping):
        raise ConfigError(f"{where}: rules must be a table of per-rule options")
    try:
        targets = parse_targets(data.get("targets"))
    except ConfigError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    ignore, suppressions = _ignores(data.get("ignore"), where, source, base, users)
    return LintConfig(
        select=parse_codes(data.get("select"), f"{where}: select", users) or ("ALL",),
        ignore=ignore,
        suppressions=suppressions,
        per_file_ignores=per_file,
        severity=severity,
        targets=targets,
        fail_on=fail_on,
        budgets=_budgets(data.get("budgets"), f"{where}: budgets"),
        rule_options=_rule_options(rules, where),
        toolset=_choice(data.get("toolset"), f"{where}: toolset", TOOLSETS, "folder"),
        exclude=_globs(data.get("exclude"), f"{where}: exclude"),
        source=source,
        plugins=plugins,
        rule_packs=packs,
        user_rules=user_rules,
    )


def _names(value: Any, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ConfigError(f"{where} must be a list of names, not {value!r}")
    if len(value) > 100:
        raise ConfigError(f"{where}: {len(value)} entries; at most 100")
    return tuple(v.strip() for v in value)


def _globs(value: Any, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ConfigError(f"{where} must be a list of globs (e.g. [\"tests/fixtures\", \"*.min.json\"]), "
                          f"not {value!r}")
    return tuple(v.strip() for v in value)


def _rule_options(tables: Mapping[str, Any], where: str) -> dict[str, dict[str, Any]]:
    try:  # each table checked against its rule's declared options (rules.options)
        return check_rule_tables(tables)
    except RuleOptionError as exc:
        raise ConfigError(f"{where}: {exc}") from None


def _read_toml(path: Path) -> dict[str, Any]:
    import tomllib  # only a run with a configuration file parses TOML

    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read configuration: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None


def read_config_file(path: Path) -> LintConfig:
    data: Any = _read_toml(path)
    where = str(path)
    base = ""
    if path.name == "pyproject.toml":
        tool = data.get("tool", {})
        data = tool.get("toolclause", {}) if isinstance(tool, Mapping) else {}
        where += ": [tool.toolclause]"
        base = "/tool/toolclause"
    if not isinstance(data, Mapping):
        raise ConfigError(f"{where} must be a table of settings, not {data!r}")
    return config_from_mapping(data, str(path), base)


def discover_config(start: Path) -> LintConfig:
    """Nearest toolclause.toml, or pyproject.toml with a [tool.toolclause] table."""
    start = start.resolve()
    for folder in [start, *start.parents]:
        candidate = folder / "toolclause.toml"
        if candidate.is_file():
            return read_config_file(candidate)
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file():
            # a broken pyproject.toml may hold the [tool.toolclause] table that was meant: never skip it silently
            data = _read_toml(pyproject)
            tool = data.get("tool")
            if isinstance(tool, Mapping) and "toolclause" in tool:
                return read_config_file(pyproject)
    return LintConfig()
