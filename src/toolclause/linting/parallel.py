"""Lint in worker processes: the tools of a run in contiguous ranges, a range a task.

A list rule sees whole tool sets, so most are split in two.  Those whose findings are each
about one tool (`Rule.survey_tools`, then `Rule.check_member`): the parent surveys every set,
which reads only names, and the workers judge each tool of their ranges in its own turn,
where its texts and analysis are made anyway.  Those that must read every tool (look-alike
descriptions, the list's token budget: `Rule.summarise_member`, then `Rule.check_summaries`):
the workers summarise each tool in its turn, and the parent judges the sets from the
summaries once the workers are done.  The parent runs the few list rules left (counts,
widgets) before forking; the workers are forked, so they share the loaded tools and each
file's text instead of receiving copies.  Each worker sends its findings and summaries back
as plain values; the parent rebuilds the findings on its own tools, in range order.  The
findings, and their order, are those of `lint_contracts` in one process; where processes
cannot be forked, that is what runs.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Sequence
from typing import Any

from .._gc import gc_paused
from ..model import Diagnostic, Edit, Fix, Severity, ToolContract
from ..rules.base import LintContext
from . import engine
from .config import LintConfig
from .engine import (
    Surveys,
    _lint_contracts,
    _with_declared_targets,
    context_for,
    judge_summaries,
    lint_contracts,
    survey_lists,
)

TASKS_PER_PROCESS = 4  # ranges per process: a process that drew quick tools takes another range

# what the workers lint: set by the parent just before it forks them
_work: tuple[Sequence[ToolContract], LintConfig, LintContext, Surveys] | None = None


def lint_in_processes(tools: Sequence[ToolContract], config: LintConfig, jobs: int) -> list[Diagnostic]:
    """`lint_contracts(tools, config)`, in up to `jobs` processes."""
    global _work
    processes = min(jobs, len(tools) // engine.MIN_TOOLS_PER_PROCESS)
    if processes < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return lint_contracts(tools, config)
    tasks = processes * TASKS_PER_PROCESS
    bounds = [(len(tools) * i // tasks, len(tools) * (i + 1) // tasks) for i in range(tasks)]
    ctx = context_for(config)
    with gc_paused():  # see toolclause._gc
        surveys = survey_lists(tools, config, ctx)
    listed = _part(tools, config, ctx, "lists", surveys)
    _work = (tools, config, ctx, surveys)
    try:
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            found = pool.map(_lint_range, bounds, chunksize=1)
    finally:
        _work = None
    diagnostics: list[Diagnostic] = []
    summaries: dict[int, list[Any]] = {}
    append = diagnostics.append
    with gc_paused():  # tens of thousands of findings, acyclic: see toolclause._gc
        for number, (start, _) in enumerate(bounds):
            (part, summarised), found[number] = found[number], ([], [])  # each range goes once it is rebuilt
            for index, plain in part:
                append(from_plain(plain, tools[start + index] if index >= 0 else None))
            for index, summary in enumerate(summarised):
                summaries[id(tools[start + index])] = summary
            del part, summarised
        diagnostics += listed
        diagnostics += judge_summaries(tools, config, ctx, summaries)
    return _with_declared_targets(diagnostics, tools, config)


def _lint_range(bounds: tuple[int, int]) -> tuple[list[tuple[int, tuple[Any, ...]]], list[list[Any]]]:
    """In a worker: the findings of each tool's own rules on one range, as (index in the range, field values),
    and each tool's summaries for the list rules the parent judges from them (see `judge_summaries`)."""
    assert _work is not None
    tools, config, ctx, surveys = _work
    start, end = bounds
    chunk = tools[start:end]
    index = {id(tool): i for i, tool in enumerate(chunk)}
    summaries: dict[int, list[Any]] = {}
    found = [(index.get(id(d.contract), -1), to_plain(d)) for d in _part(chunk, config, ctx, "tools", surveys,
                                                                            summaries)]
    return found, [summaries.get(id(tool), []) for tool in chunk]


# A finding crosses between processes as plain values: pickling its severity and fix as objects (an
# enum, dataclasses) cost five times as much each way, and rebuilding it positionally in the parent
# costs a tenth of keyword arguments.  A test checks the round trip keeps every field.

_SEVERITIES = {int(level): level for level in Severity}


def to_plain(d: Diagnostic) -> tuple[Any, ...]:
    """A finding without its contract, as tuples, strings and numbers."""
    fix = d.fix
    plain_fix = None if fix is None else (fix.description, fix.safe,
                                          tuple([(e.op, e.pointer, e.value) for e in fix.edits]))
    return (d.code, d.name, int(d.severity), d.message, d.tool, d.file, d.pointer, d.line, d.column, plain_fix)


def from_plain(values: tuple[Any, ...], contract: ToolContract | None) -> Diagnostic:
    code, name, severity, message, tool, file, pointer, line, column, plain_fix = values
    fix = None if plain_fix is None else Fix(plain_fix[0], plain_fix[1],
                                             tuple([Edit(op, at, value) for op, at, value in plain_fix[2]]))
    return Diagnostic(code, name, _SEVERITIES[severity], message, tool, file, pointer, line, column, fix, contract)


def _part(tools: Sequence[ToolContract], config: LintConfig, ctx: LintContext, part: str,
          surveys: Surveys, summaries: dict[int, list[Any]] | None = None) -> list[Diagnostic]:
    with gc_paused():  # see toolclause._gc
        return _lint_contracts(tools, config, ctx, part, surveys, summaries)
