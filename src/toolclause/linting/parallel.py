"""Lint in worker processes: the tools of a run in contiguous ranges, a range a task.

The list rules (duplicate names, look-alike tools, cross-tool instructions) see whole
tool sets, so the parent runs them first.  Doing so it fills the run's memos (each tool's
analysis, texts, token estimate and positions), which most of the tools' own rules need
too; then the workers are forked, so they share those memos, the loaded tools and each
file's text instead of computing or receiving copies (run side by side, each process
built every memo again: two processes cost half as much CPU again as one).  Each worker
sends its findings back as plain values; the parent rebuilds them on its own tools, in
range order.  The findings, and their order, are those of `lint_contracts` in one
process (the memos hold what a tool is, whichever rule asks first); where processes
cannot be forked, that is what runs.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from dataclasses import fields
from typing import Any, cast

from .._gc import gc_paused
from ..model import Diagnostic, ToolContract
from ..rules.base import LintContext
from . import engine
from .config import LintConfig
from .engine import _lint_contracts, _with_declared_targets, context_for, lint_contracts

TASKS_PER_PROCESS = 4  # ranges per process: a process that drew quick tools takes another range

# every field of a finding but its contract, which is the last (the parent puts its own tool there)
_FIELDS = tuple(f.name for f in fields(Diagnostic) if f.name != "contract")

# what the workers lint: set by the parent just before it forks them
_work: tuple[Sequence[ToolContract], LintConfig, LintContext] | None = None


def lint_in_processes(tools: Sequence[ToolContract], config: LintConfig, jobs: int) -> list[Diagnostic]:
    """`lint_contracts(tools, config)`, in up to `jobs` processes."""
    global _work
    processes = min(jobs, len(tools) // engine.MIN_TOOLS_PER_PROCESS)
    if processes < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return lint_contracts(tools, config)
    tasks = processes * TASKS_PER_PROCESS
    bounds = [(len(tools) * i // tasks, len(tools) * (i + 1) // tasks) for i in range(tasks)]
    ctx = context_for(config)
    listed = _part(tools, config, ctx, "lists")
    _work = (tools, config, ctx)
    try:
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            found = pool.map(_lint_range, bounds, chunksize=1)
    finally:
        _work = None
    diagnostics: list[Diagnostic] = []
    append = diagnostics.append
    rebuild = cast("Callable[..., Diagnostic]", Diagnostic)  # the values are every field but the last
    with gc_paused():  # tens of thousands of findings, acyclic: see toolclause._gc
        for (start, _), part in zip(bounds, found, strict=True):
            for index, values in part:
                # positional, the fields in their declared order (the contract is the last): a dict and
                # keyword arguments a finding made rebuilding them cost more than unpickling them
                append(rebuild(*values, tools[start + index] if index >= 0 else None))
    diagnostics += listed
    return _with_declared_targets(diagnostics, tools, config)


def _lint_range(bounds: tuple[int, int]) -> list[tuple[int, tuple[Any, ...]]]:
    """In a worker: the findings of each tool's own rules on one range, as (index in the range, field values)."""
    assert _work is not None
    tools, config, ctx = _work
    start, end = bounds
    chunk = tools[start:end]
    index = {id(tool): i for i, tool in enumerate(chunk)}
    return [(index.get(id(d.contract), -1), tuple(getattr(d, name) for name in _FIELDS))
            for d in _part(chunk, config, ctx, "tools")]


def _part(tools: Sequence[ToolContract], config: LintConfig, ctx: LintContext, part: str) -> list[Diagnostic]:
    with gc_paused():  # see toolclause._gc
        return _lint_contracts(tools, config, ctx, part)
