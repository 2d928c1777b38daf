"""Run the active rules over tool contracts.

Each schema is walked once; rules are dispatched by the keywords and node kinds
they subscribe to.  Rule findings (canonical pointers) become `Diagnostic`s that
name the user's file, the pointer into the document as written, line and column.
"""

from __future__ import annotations

import enum
import os
import threading
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .._gc import gc_paused
from ..model import Diagnostic, Severity, ToolContract, Unreadable
from ..rules import INDEX, load_rules
from ..rules.base import Finding, LintContext, Rule
from ..schema.walk import NodeKind, SchemaNode, walk
from ..targets import DECLARED_STRICT_TARGETS, LINT_TARGETS
from .config import LintConfig
from .placement import ToolPlacer, locate_original  # noqa: F401  (locate_original: public API)


@dataclass
class LintReport:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    tools: int = 0
    files: int = 0
    unreadable: list[Unreadable] = field(default_factory=list)

    def count(self, severity: Severity) -> int:
        return sum(1 for d in self.diagnostics if d.severity is severity)

    @property
    def summary(self) -> dict[str, int]:
        return {s.label: self.count(s) for s in (Severity.ERROR, Severity.WARNING, Severity.INFO)}


def active_rules(config: LintConfig) -> list[Rule]:
    """Rules selected by the configuration; target rules only for their targets.

    Binding-only rules (family R) need a bound function and never run on files.
    """
    # chosen from the index, so the modules of rules a run leaves out are never imported
    chosen = [entry for entry in INDEX if not entry.binding_only and not entry.client_config
              and config.enabled(entry.code)
              and (not entry.targets or entry.targets & config.targets)]
    users = [rule() for rule in config.user_rules if config.enabled(rule.code)]  # plugins, rule packs
    return [rule_cls() for rule_cls in load_rules(chosen)] + users


class _Dispatch:
    """Which rules see which schema nodes, computed once per run."""

    def __init__(self, rules: Sequence[Rule], severity: dict[str, Severity]) -> None:
        self.severity = severity
        self.tool_rules = [r for r in rules if r.overrides("check_tool")]
        # list rules split in two (survey_tools, check_member) are judged tool by tool with the tools' own rules
        self.member_rules = [r for r in rules if r.overrides("check_member")]
        # and those split the other way (summarise_member, check_summaries) summarise each tool in its turn
        self.summary_rules = [r for r in rules if r.overrides("check_summaries") and not r.overrides("check_member")]
        self.list_rules = [r for r in rules if r.overrides("check_tools") and r not in self.member_rules
                           and r not in self.summary_rules]
        self.by_keyword: dict[str, list[Rule]] = defaultdict(list)
        self.by_kind: dict[object, list[Rule]] = defaultdict(list)
        self.every_node: list[Rule] = []
        self.node_rules = [r for r in rules if r.overrides("check_node")]
        for rule in self.node_rules:
            if rule.all_nodes:
                self.every_node.append(rule)
                continue
            for keyword in rule.keywords:
                self.by_keyword[keyword].append(rule)
            for kind in rule.node_kinds:
                self.by_kind[kind].append(rule)
        self._cache: dict[tuple, list[tuple[Rule, Any, Severity]]] = {}

    def rules_for(self, node: SchemaNode, role: str) -> list[tuple[Rule, Any, Severity]]:
        """(rule, its bound check_node, severity) for the rules that subscribe to this node, in a stable order.

        Schemas repeat the same few shapes ({"type": "string", "description": …}),
        so the answer is cached by (keys, type, kind, role): one dict lookup a node.
        """
        declared = node.schema.get("type")
        if isinstance(declared, list):
            declared = tuple(t for t in declared if isinstance(t, str))
        elif not isinstance(declared, str):
            declared = None
        key = (tuple(node.schema), declared, node.kind, role)
        found = self._cache.get(key)
        if found is None:
            found = [(rule, rule.check_node, self.severity[rule.code])
                     for rule in self._select(key[0], declared, node.kind, role)]
            if len(self._cache) < 50_000:
                self._cache[key] = found
        return found

    def _select(self, keys: tuple, declared: str | tuple | None, kind: NodeKind, role: str) -> list[Rule]:
        found: list[Rule] = []
        for keyword in keys:
            for rule in self.by_keyword.get(keyword, ()):
                if rule not in found:
                    found.append(rule)
        for rule in self.by_kind.get(kind, ()):
            if rule not in found:
                found.append(rule)
        found.extend(r for r in self.every_node if r not in found)
        types = {declared} if isinstance(declared, str) else set(declared or ())
        return [r for r in found if role in r.roles and (not r.node_types or not r.node_types.isdisjoint(types))
                and not (r.overrides("skips") and r.skips(keys, declared, kind, role))]


_Unplaced = tuple[Rule, Severity, ToolPlacer, Finding]
"""A list rule's finding waiting for its tool's turn to be placed: `_to_diagnostic`'s arguments."""


def _severity(rule: Rule, config: LintConfig) -> Severity:
    return config.severity.get(rule.code, rule.severity)


def _to_diagnostic(rule: Rule, severity: Severity, placer: ToolPlacer | None, finding: Finding) -> Diagnostic:
    if finding.severity is not None and finding.severity < severity:
        severity = finding.severity
    if placer is None:
        return Diagnostic(rule.code, rule.name, severity, finding.message, pointer=finding.pointer, fix=finding.fix)
    pointer, line, column = placer.locate(finding.pointer)
    fix = finding.fix
    if fix is not None and fix.edits:
        fix = placer.place_edits(fix)
    tool = placer.tool
    # positional: Diagnostic(code, name, severity, message, tool, file, pointer, line, column, fix, contract)
    return Diagnostic(rule.code, rule.name, severity, placer.message(finding.message), tool.name, tool.origin.file,
                      pointer, line, column, fix, tool)


def _rule_failed(rule: Rule, placer: ToolPlacer, exc: Exception, pointer: str = "") -> Diagnostic:
    """A rule that raised on one tool: reported on that tool, so the run goes on to the rest.

    Input nothing anticipated (a 309-digit bound a rule turns into a float) must
    not end the run as one "internal error" naming no file.
    """
    detail = str(exc).splitlines()[0][:200] if str(exc) else ""
    message = (f"rule {rule.code} could not check this tool ({type(exc).__name__}{': ' + detail if detail else ''}); "
               f"the other rules and tools were checked")
    return _to_diagnostic(rule, Severity.ERROR, placer, Finding(pointer, message))


class _Plan:
    """What a configuration runs: its rule instances and their dispatch, built once and reused.

    Callers lint in small batches (the CLI for its progress bar, the runtime one
    contract at a time, a list at a time through the API), and choosing 47 rules
    and learning which node shapes each one wants costs more than linting a short
    list.  A rule instance therefore serves many runs, so rules keep their per-run
    state in the run's `LintContext.state(...)`, never on `self`; plans are kept per
    thread all the same, so a rule that forgot it would still not mix two threads' tools.
    """

    def __init__(self, config: LintConfig) -> None:
        self.rules = active_rules(config)
        self.severity = {rule.code: _severity(rule, config) for rule in self.rules}
        self.dispatch = _Dispatch(self.rules, self.severity)
        self.tool_rules = [(rule, rule.check_tool, self.severity[rule.code]) for rule in self.dispatch.tool_rules]
        # rules told where a schema's walk stopped for depth (S001)
        self.depth_rules = [(rule, rule.check_depth_limit, self.severity[rule.code]) for rule in self.rules
                            if rule.overrides("check_depth_limit")]


_plans = threading.local()
_PLANS_KEPT = 16


def _plan_for(config: LintConfig) -> _Plan:
    # everything a plan depends on (the registry too: tests swap it); per-file ignores
    # and rule options are read per run
    key = (INDEX, config.select, config.ignore, config.targets, tuple(sorted(config.severity.items())),
           config.user_rules)
    cache: dict[tuple, _Plan] | None = getattr(_plans, "cache", None)
    if cache is None:
        cache = _plans.cache = {}
    plan = cache.get(key)
    if plan is None:
        if len(cache) >= _PLANS_KEPT:
            cache.clear()
        plan = cache[key] = _Plan(config)
    return plan


def forget_plans() -> None:
    """Drop this thread's cached plans (benchmarks use it to time cold runs)."""
    _plans.cache = {}


def lint_contracts(tools: Sequence[ToolContract], config: LintConfig | None = None,
                   ctx: LintContext | None = None) -> list[Diagnostic]:
    # rules and findings allocate only acyclic objects: see toolclause._gc
    with gc_paused():
        return _lint_contracts(tools, config, ctx)


def context_for(config: LintConfig) -> LintContext:
    """A new run's context: its settings, and the memos its rules fill as they go."""
    return LintContext(targets=config.targets, options=config.rule_options, budgets=config.budgets)


_Member = tuple[Rule, Any, Severity, Any]
"""A split list rule in a tool's turn: the rule, its bound check_member, severity, the survey of the tool's list."""


@dataclass
class Surveys:
    """What the split list rules learnt of each tool list (see `Rule.survey_tools`), found before any tool's turn."""

    by_tool: dict[int, list[_Member]] = field(default_factory=dict)  # id(tool) → its list's surveys (one list a set)
    failed: list[Diagnostic] = field(default_factory=list)  # a survey that raised, reported on its list's first tool


def survey_lists(tools: Sequence[ToolContract], config: LintConfig, ctx: LintContext) -> Surveys:
    """Every tool set's surveys, for `_lint_contracts(..., surveys=…)` over these tools or any range of them."""
    plan = _plan_for(config)
    found = Surveys()
    if not plan.dispatch.member_rules:
        return found
    for members in tool_sets(tools, config.toolset):
        surveyed: list[_Member] = []
        for rule in plan.dispatch.member_rules:
            try:
                surveyed.append((rule, rule.check_member, plan.severity[rule.code], rule.survey_tools(members, ctx)))
            except Exception as exc:  # the rule is left out of this list
                found.failed.append(_rule_failed(rule, ToolPlacer(members[0]), exc))
        for tool in members:
            found.by_tool[id(tool)] = surveyed
    return found


class _Summary(enum.Enum):
    # an enum member, so that it is still itself once a worker process has sent it to the parent
    FAILED = "failed"


_FAILED = _Summary.FAILED
"""What a tool's summary is where `summarise_member` raised: its list is not judged by that rule."""


def _suppressions(rules: Sequence[Rule], config: LintConfig) -> Callable[[ToolContract], frozenset[str]]:
    """The codes not reported on a tool: its file's per-file ignores (resolved once a file) and its own."""
    file_ignores: dict[str | None, frozenset[str]] = {}

    def suppressed_for(tool: ToolContract) -> frozenset[str]:
        file = tool.origin.file
        if file not in file_ignores:
            file_ignores[file] = frozenset(r.code for r in rules if config.ignored_in_file(r.code, file))
        ignored = tool.ignored_codes
        return file_ignores[file] | ignored if ignored else file_ignores[file]

    return suppressed_for


def judge_summaries(tools: Sequence[ToolContract], config: LintConfig, ctx: LintContext,
                    summaries: dict[int, list[Any]]) -> list[Diagnostic]:
    """The findings of the rules split into summarise_member and check_summaries, given every tool's
    summaries (id(tool) → one value a rule, in the plan's order), list by list."""
    plan = _plan_for(config)
    found: list[Diagnostic] = []
    if not plan.dispatch.summary_rules:
        return found
    suppressed_for = _suppressions(plan.rules, config)
    placers: dict[int, ToolPlacer] = {}
    for members in tool_sets(tools, config.toolset):
        for at, rule in enumerate(plan.dispatch.summary_rules):
            values = [summaries[id(tool)][at] for tool in members]
            if any(value is _FAILED for value in values):
                continue  # reported on the tool whose summary failed
            try:
                for tool, finding in rule.check_summaries(members, values, ctx):
                    if rule.code not in suppressed_for(tool):
                        placer = placers.get(id(tool))
                        if placer is None:
                            placer = placers[id(tool)] = ToolPlacer(tool)
                        found.append(_to_diagnostic(rule, plan.severity[rule.code], placer, finding))
            except Exception as exc:  # reported on the list's first tool
                found.append(_rule_failed(rule, ToolPlacer(members[0]), exc))
    return found


def _lint_contracts(tools: Sequence[ToolContract], config: LintConfig | None,
                    ctx: LintContext | None, part: str = "all", surveys: Surveys | None = None,
                    summaries: dict[int, list[Any]] | None = None) -> list[Diagnostic]:
    """part: "all"; or "tools" (each tool's own rules and the split list rules, given `surveys` of the whole run;
    each tool's summaries go into `summaries`) and "lists" (the other list rules), whose findings one after the
    other, then `judge_summaries`', through `_with_declared_targets`, are "all"'s (see toolclause.linting.parallel)."""
    config = config or LintConfig()
    plan = _plan_for(config)
    rules, severity, dispatch = plan.rules, plan.severity, plan.dispatch
    ctx = ctx or context_for(config)
    for rule in rules:
        if rule.code in ctx.options:
            ctx.options_for(rule)  # a configured option that does not fit the rule fails before any linting
    if surveys is None:
        surveys = survey_lists(tools, config, ctx) if part == "all" else Surveys()
    diagnostics: list[Diagnostic] = []
    depth_rules = plan.depth_rules
    suppressed_for = _suppressions(rules, config)
    summary_rules = dispatch.summary_rules
    if summaries is None:
        summaries = {}
    append = diagnostics.append
    rules_for = dispatch.rules_for
    walk_nodes = bool(dispatch.node_rules)
    tool_rules = plan.tool_rules
    members_of = surveys.by_tool
    # The list rules run first, as in worker processes (see linting.parallel), and their findings are
    # put after the tools' own: so once a tool's own rules are done nothing asks about it again, and
    # what the run's memos keep of it (its texts, its analysis) is let go then, not at the end.
    # A list finding is placed when its tool's turn comes, not as the list rules make it: placing reads
    # the tool's text, and a large file keeps only the last few tools' indexes (see loading.positions).
    placers: dict[int, ToolPlacer] = {}  # made for the list rules' findings, used again for the tool's own
    listed: list[Diagnostic | _Unplaced] = list(surveys.failed) if part != "tools" else []
    unplaced: dict[int, list[int]] = {}  # id(tool) → indexes in `listed` of its findings not placed yet
    if dispatch.list_rules and part != "tools":
        for members in tool_sets(tools, config.toolset):
            for rule in dispatch.list_rules:
                try:
                    for tool, finding in rule.check_tools(members, ctx):
                        if rule.code not in suppressed_for(tool):
                            placer = placers.get(id(tool))
                            if placer is None:
                                placer = placers[id(tool)] = ToolPlacer(tool)
                            unplaced.setdefault(id(tool), []).append(len(listed))
                            listed.append((rule, severity[rule.code], placer, finding))
                except Exception as exc:  # reported on the list's first tool
                    first = members[0]
                    listed.append(_rule_failed(rule, placers.get(id(first)) or ToolPlacer(first), exc))
    forget, done = ctx.forget, None
    for tool in tools if part != "lists" else ():
        if done is not None:
            forget(done)  # the last tool's own rules are done
        done = tool
        suppressed = suppressed_for(tool)
        placer = placers.pop(id(tool)) if placers and id(tool) in placers else ToolPlacer(tool)
        for at in unplaced.pop(id(tool), ()) if unplaced else ():
            listed[at] = _to_diagnostic(*listed[at])  # type: ignore[misc]  # an _Unplaced, see above
        for rule, check, level in tool_rules:
            if rule.code not in suppressed:
                try:
                    for finding in check(tool, ctx):
                        append(_to_diagnostic(rule, level, placer, finding))
                except Exception as exc:  # one rule on one tool; see _rule_failed
                    append(_rule_failed(rule, placer, exc))
        # without node rules the walk only serves the depth check (S001)
        walked = walk_nodes or any(rule.code not in suppressed for rule, _, _ in depth_rules)
        for role, schema, base in (("input", tool.input_schema, "/inputSchema"),
                                   ("output", tool.output_schema, "/outputSchema")) if walked else ():
            if not isinstance(schema, dict):
                continue
            nodes, too_deep = walk(schema, base, role)
            for node in nodes:
                for rule, check, level in rules_for(node, role):
                    if suppressed and rule.code in suppressed:
                        continue
                    try:
                        for finding in check(node, tool, ctx):
                            append(_to_diagnostic(rule, level, placer, finding))
                    except Exception as exc:
                        append(_rule_failed(rule, placer, exc, node.pointer))
            if too_deep:
                for depth_rule, depth_check, depth_level in depth_rules:
                    if depth_rule.code not in suppressed:
                        for finding in depth_check(too_deep[0], tool, ctx):
                            append(_to_diagnostic(depth_rule, depth_level, placer, finding))
        # last in the turn, as when they ran over the whole list after every tool's own rules
        for rule, check, level, survey in members_of.get(id(tool), ()) if members_of else ():
            if rule.code not in suppressed:
                try:
                    for finding in check(tool, survey, ctx):
                        append(_to_diagnostic(rule, level, placer, finding))
                except Exception as exc:
                    append(_rule_failed(rule, placer, exc))
        if summary_rules:
            # a suppressed tool is summarised all the same: it is still in the list (and its token budget)
            summarised = summaries[id(tool)] = []
            for rule in summary_rules:
                try:
                    summarised.append(rule.summarise_member(tool, ctx))
                except Exception as exc:
                    summarised.append(_FAILED)
                    append(_rule_failed(rule, placer, exc))

    if done is not None:
        forget(done)
    diagnostics += [_to_diagnostic(*d) if isinstance(d, tuple) else d for d in listed]
    if part != "all":
        return diagnostics
    diagnostics += judge_summaries(tools, config, ctx, summaries)
    return _with_declared_targets(diagnostics, tools, config)


def _with_declared_targets(diagnostics: list[Diagnostic], tools: Sequence[ToolContract],
                           config: LintConfig) -> list[Diagnostic]:
    """Check a tool whose own file says `"strict": true` against its provider's strict mode, whatever
    the run's targets: that target's rules run again on those tools alone, and their findings replace
    the run's own findings of the same rules there (a non-strict target reports a part of them)."""
    declared: dict[str, list[ToolContract]] = {}
    for tool in tools:
        target = DECLARED_STRICT_TARGETS.get(tool.origin.format) if tool.extra.get("strict") is True else None
        if target is not None and target not in config.targets:
            declared.setdefault(target, []).append(tool)
    for target, members in declared.items():
        codes = tuple(code for code in LINT_TARGETS[target].rules if config.enabled(code))
        if codes:
            ids = {id(tool) for tool in members}
            diagnostics = [d for d in diagnostics if d.code not in codes or id(d.contract) not in ids]
            diagnostics += _lint_contracts(members, replace(config, select=codes, targets=config.targets | {target}),
                                           None)
    return diagnostics


def _is_path(file: str) -> bool:
    """A file on disk (not standard input, a live server's "server:…"/"url:…", or an in-memory "<…>")."""
    return bool(file) and file != "-" and not file.startswith("<") and not (
        ":" in file and not os.path.splitdrive(file)[0] and not file.startswith(("/", ".")))


def tool_sets(tools: Sequence[ToolContract], mode: str = "folder") -> list[list[ToolContract]]:
    """The tool sets list rules (duplicate names, look-alikes, counts, cross-tool checks) see, in load order.

    A model is given a whole tool set at once, whatever files it was written in:

        folder  the tools of every file in one folder are one set (one contract per
                file is the usual layout); a file holding several lists (JSONL of
                tool lists, benchmark entries) keeps each of them a set of its own
        file    each list in each file is a set
        all     every tool of the run is one set

    Standard input, a live server and in-memory tools are a set of their own in
    `folder` mode.
    """
    if mode == "all":
        return [list(tools)] if tools else []
    groups_in_file: dict[str, set[str]] = defaultdict(set)
    if mode == "folder":
        for tool in tools:
            groups_in_file[tool.origin.file].add(tool.origin.group)
    sets: dict[tuple[str, str], list[ToolContract]] = {}
    for tool in tools:
        file, group = tool.origin.file, tool.origin.group
        if mode == "folder" and _is_path(file) and len(groups_in_file[file]) == 1:
            key = ("folder", os.path.dirname(os.path.normpath(file)))
        else:
            key = (file, group)
        sets.setdefault(key, []).append(tool)
    return list(sets.values())


def pointer_key(pointer: str) -> str:
    """A JSON Pointer as a key that compares token by token, an array index as a number: `/9` before `/10`.

    (Tokens joined by NUL, which sorts before every character, with digit tokens zero-padded:
    one string per finding keeps the sort of tens of thousands of findings as cheap as before.)"""
    return "\x00".join([t.zfill(20) if t.isdigit() else t for t in pointer.split("/")])


def sort_key(d: Diagnostic) -> tuple:
    return (d.file or "", d.line or 0, d.column or 0, pointer_key(d.pointer), d.tool or "", d.code)


def sort_diagnostics(diagnostics: list[Diagnostic]) -> None:
    """Report order (file, position, pointer, tool, code), in place.

    Where a source gives no column (a JSONL record is one line, a live server has
    no lines), the pointer stands for the position: a property's findings stay
    together instead of being spread by code, and tools follow their order in
    the list (`/9` before `/10`: array indexes compare as numbers).

    The sort keys are tens of thousands of fresh tuples on a heap holding every
    loaded tool: with the collector on, they trigger full collections that cost
    as much as the sort (see toolclause._gc).
    """
    with gc_paused():
        diagnostics.sort(key=sort_key)


MIN_TOOLS_PER_PROCESS = 200
"""`lint_loaded(jobs=…)`: fewer tools than this per process, and starting one costs more than it saves."""


def lint_loaded(tools: Sequence[ToolContract], unreadable: Iterable[Unreadable], files: int,
                config: LintConfig | None = None, jobs: int = 1) -> LintReport:
    """The run's report; with `jobs` > 1, a large run is linted in that many processes, to the same report."""
    if jobs > 1 and len(tools) >= 2 * MIN_TOOLS_PER_PROCESS:
        from .parallel import lint_in_processes

        diagnostics = lint_in_processes(tools, config or LintConfig(), jobs)
    else:
        diagnostics = lint_contracts(tools, config)
    sort_diagnostics(diagnostics)
    return LintReport(diagnostics=diagnostics, tools=len(tools), files=files, unreadable=list(unreadable))
