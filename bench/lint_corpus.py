"""Lint benchmark: toolclause over a corpus of real tools, side by side with the two strongest other linters.

    .venv/bin/python bench/lint_corpus.py [--corpora PATH] [--targets all] [--per-rule] [--profile]
                                          [--no-competitors] [--repeat N] [--clock cpu|wall]

Prints figures as tables and asserts nothing (no benchmark is a test).
Everything runs pinned to one core.  What is measured, and the caveats: bench/README.md.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import os
import pstats
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import competitors  # noqa: E402  (bench/competitors.py, stdlib only)
from toolclause import __version__  # noqa: E402
from toolclause.linting import engine as engine_module  # noqa: E402
from toolclause.linting.config import LintConfig, parse_targets  # noqa: E402
from toolclause.linting.engine import active_rules, forget_plans, lint_contracts, lint_loaded  # noqa: E402
from toolclause.loading import contracts_from_document, load_file, load_paths  # noqa: E402
from toolclause.model import ToolContract  # noqa: E402
from toolclause.rules import ALL_RULES  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
TARGET_SECONDS = 4.0  # the target: the whole corpus, every non-target rule, one core
TARGET_RATIO = 3.0    # the target: at least 3x the tools/s of the fastest other linter
CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}
clock = CLOCKS["cpu"]  # set from --clock in main()
REPEAT_BUDGET_S = 25.0  # a measurement stops repeating once its runs have taken this long (keeps `make bench` short)


@dataclass
class SourceRun:
    name: str
    path: Path
    records: int = 0
    unreadable: int = 0
    tools: list[ToolContract] = field(default_factory=list)
    codes: Counter = field(default_factory=Counter)
    load_s: float = float("inf")
    lint_s: float = float("inf")

    @property
    def diagnostics(self) -> int:
        return sum(self.codes.values())


# --------------------------------------------------------------------------- helpers

def pin_one_core() -> str:
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity here)"
    core = 0 if 0 in os.sched_getaffinity(0) else min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})
    return f"pinned to core {core} (competitor drivers inherit it)"


def rate(tools: int, seconds: float) -> str:
    return f"{tools / seconds:,.0f}" if seconds > 0 else "-"


def table(headers: list[str], rows: list[list[Any]], right: set[int] | None = None) -> None:
    right = right if right is not None else set(range(1, len(headers)))
    cells = [[str(c) for c in row] for row in [headers, *rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]

    def line(row: list[str]) -> str:
        columns = enumerate(zip(row, widths, strict=True))
        return "  ".join(c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in columns).rstrip()

    print(line(cells[0]))
    print("  ".join("-" * w for w in widths))
    for row in cells[1:]:
        print(line(row))


def forget_caches() -> int:
    """Empty every cache toolclause keeps between calls, so each timed run costs what one CLI run costs.

    Lint memoises string analysis (words of a description, a name's verb) and its
    rule plans across calls.  A second run in the same process would find them
    warm and look faster than any single `toolclause lint` can be; the other
    linters keep no such caches.  So every toolclause timing starts cold.
    """
    emptied = 0
    for name, module in list(sys.modules.items()):
        if name == "toolclause" or name.startswith("toolclause."):
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()
                    emptied += 1
    for module_name, cache_name in DICT_CACHES:
        cache = getattr(sys.modules.get(module_name), cache_name, None)
        if isinstance(cache, dict):
            cache.clear()
            emptied += 1
    forget_plans()
    return emptied


# the package's memo dicts that are not lru_caches: compiled validators, regex verdicts, guesses
DICT_CACHES = (("toolclause.schema.meta", "_compiled"), ("toolclause.rules.schema._value_check", "_compiled"),
               ("toolclause.rules.schema.s006_unknown_keyword", "_guesses"),
               ("toolclause.rules.schema.s010_invalid_pattern", "_verdicts"))


def best_of(repeat: int, run: Callable[[], Any]) -> tuple[float, Any]:
    """Best time of up to `repeat` cold runs; stops repeating once the runs have taken REPEAT_BUDGET_S."""
    best, result, spent = float("inf"), None, 0.0
    for _ in range(max(1, repeat)):
        forget_caches()
        gc.collect()
        started = clock()
        result = run()
        elapsed = clock() - started
        best, spent = min(best, elapsed), spent + elapsed
        if spent > REPEAT_BUDGET_S:
            break
    return best, result


def find_sources(corpora: Path) -> list[SourceRun]:
    runs = []
    for path in sorted(corpora.glob("*/tools.jsonl")):
        with path.open("rb") as handle:
            records = sum(1 for line in handle if line.strip())
        runs.append(SourceRun(path.parent.name, path, records=records))
    return runs


def short_names(names: list[str]) -> dict[str, str]:
    labels = {name: name.split("-")[0][:8] for name in names}
    if len(set(labels.values())) < len(labels):
        labels = {name: f"{name[:6]}{i}" for i, name in enumerate(names)}
    return labels


# --------------------------------------------------------------------------- 1. toolclause on the corpus

def measure_sources(sources: list[SourceRun], config: LintConfig, repeat: int) -> None:
    spent = 0.0
    for _ in range(max(1, repeat)):
        forget_caches()
        for source in sources:
            gc.collect()
            t0 = clock()
            loaded = load_file(source.path)
            t1 = clock()
            diagnostics = lint_contracts(loaded.tools, config)
            t2 = clock()
            source.load_s, source.lint_s = min(source.load_s, t1 - t0), min(source.lint_s, t2 - t1)
            source.tools, source.unreadable = loaded.tools, len(loaded.unreadable)
            source.codes = Counter(d.code for d in diagnostics)
            spent += t2 - t0
        if spent > REPEAT_BUDGET_S:
            break


def end_to_end(paths: list[Path], config: LintConfig) -> tuple[int, int]:
    """What `toolclause lint` does before reporting: load every file, lint, sort."""
    loaded = load_paths(paths)
    report = lint_loaded(loaded.tools, loaded.unreadable, loaded.files, config)
    return report.tools, len(report.diagnostics)


def print_corpus(sources: list[SourceRun], config: LintConfig, repeat: int) -> None:
    rules = active_rules(config)
    print(f"\n## 1. toolclause {__version__} on the corpus — rules active: {len(rules)} "
          f"(every non-target rule; {len(ALL_RULES)} registered), best of {repeat}\n")
    rows = []
    for s in sources:
        top = " ".join(f"{code}:{n}" for code, n in s.codes.most_common(3)) or "-"
        rows.append([s.name, f"{s.records:,}", s.unreadable, f"{len(s.tools):,}", f"{s.diagnostics:,}",
                     f"{s.load_s:.3f}", f"{s.lint_s:.3f}", f"{s.load_s + s.lint_s:.3f}",
                     rate(len(s.tools), s.load_s + s.lint_s), top])
    tools = sum(len(s.tools) for s in sources)
    load_s, lint_s = sum(s.load_s for s in sources), sum(s.lint_s for s in sources)
    rows.append(["TOTAL", f"{sum(s.records for s in sources):,}", sum(s.unreadable for s in sources), f"{tools:,}",
                 f"{sum(s.diagnostics for s in sources):,}", f"{load_s:.3f}", f"{lint_s:.3f}",
                 f"{load_s + lint_s:.3f}", rate(tools, load_s + lint_s), ""])
    table(["source", "records", "unread", "tools", "diags", "load s", "lint s", "total s", "tools/s", "top codes"],
          rows, right=set(range(1, 9)))
    print(f"\n  load only: {rate(tools, load_s)} tools/s   lint only: {rate(tools, lint_s)} tools/s")

    seconds, (e2e_tools, e2e_diags) = best_of(repeat, lambda: end_to_end([s.path for s in sources], config))
    verdict = "within" if seconds < TARGET_SECONDS else "OVER"
    print(f"  end to end (load_paths + lint_loaded incl. sort, one pass over all files): {e2e_tools:,} tools, "
          f"{e2e_diags:,} diagnostics in {seconds:.3f} s = {rate(e2e_tools, seconds)} tools/s "
          f"— {verdict} the {TARGET_SECONDS:.0f} s target")
    print_code_matrix(sources, rules)


def print_code_matrix(sources: list[SourceRun], rules: list) -> None:
    totals = Counter()
    for s in sources:
        totals.update(s.codes)
    silent = sorted(r.code for r in rules if r.code not in totals)
    if not totals:
        print("\n  no diagnostics on the corpus")
    else:
        labels = short_names([s.name for s in sources])
        print("\n  diagnostics per code × source:\n")
        rows = [[code, *(s.codes.get(code, "") for s in sources), total] for code, total in sorted(totals.items())]
        table(["code", *(labels[s.name] for s in sources), "total"], rows)
    if silent:
        print(f"\n  active rules with no finding on the corpus: {', '.join(silent)}")


def fresh_tools(sources: list[SourceRun]) -> list[ToolContract]:
    """A new load, so source positions are computed again inside the timed lint (they are lazy and cached)."""
    return [tool for s in sources for tool in load_file(s.path).tools]


def timed_lint(sources: list[SourceRun], config: LintConfig, repeat: int) -> tuple[float, int]:
    best, found, spent = float("inf"), 0, 0.0
    for _ in range(max(1, repeat)):
        tools = fresh_tools(sources)
        forget_caches()
        gc.collect()
        started = clock()
        found = len(lint_contracts(tools, config))
        elapsed = clock() - started
        best, spent = min(best, elapsed), spent + elapsed
        if spent > REPEAT_BUDGET_S:
            break
    return best, found


def print_target_cost(sources: list[SourceRun], repeat: int) -> None:
    every_target = parse_targets("all")
    target_codes = tuple(r.code for r in ALL_RULES if r.targets)
    tools = sum(len(s.tools) for s in sources)
    print(f"\n## 1b. target rules' cost (--targets all): {len(target_codes)} target rules registered "
          f"({', '.join(target_codes) or 'none yet'})\n")
    configs = [("non-target rules (default)", LintConfig()),
               ("default + targets all", LintConfig(targets=every_target))]
    if target_codes:
        configs.append(("target rules only", LintConfig(select=target_codes, targets=every_target)))
    rows = []
    for label, config in configs:
        seconds, found = timed_lint(sources, config, repeat)
        rows.append([label, len(active_rules(config)), f"{found:,}", f"{seconds:.3f}", rate(tools, seconds)])
    table(["lint only (positions included), all sources", "rules", "diags", "lint s", "tools/s"], rows)
    print("\n  rules may also look at the selected targets, so the default rules can cost more with targets on")


def mcp_lists(sources: list[SourceRun]) -> list[list[Any]]:
    """[source, group, [mcp_tool, ...]] for every tool list of the corpus: the side-by-side input."""
    lists: list[list[Any]] = []
    for source in sources:
        by_group: dict[str, list[dict]] = defaultdict(list)
        for tool in source.tools:
            by_group[tool.origin.group].append(tool.to_mcp())
        lists.extend([source.name, group, tools] for group, tools in by_group.items())
    return lists


@contextmanager
def rules_do_nothing() -> Iterator[None]:
    """Every rule's checks answer nothing: what is left is the walk, the dispatch and the placers.

    The list rules' parts answer nothing too (a survey, a summary and the judgement of the summaries),
    so their logic, which runs in each tool's turn, is counted with the rules' and not in the floor."""
    quiet = {"check_node": (), "check_tool": (), "check_tools": (), "check_member": (), "check_summaries": (),
             "survey_tools": None, "summarise_member": None}
    saved = [(cls, name, cls.__dict__[name]) for cls in ALL_RULES for name in quiet if name in cls.__dict__]
    forget_plans()  # a plan made before holds the rules' own bound checks
    try:
        for cls, name, _ in saved:
            setattr(cls, name, lambda self, *args, answer=quiet[name]: answer)
        yield
    finally:
        for cls, name, method in saved:
            setattr(cls, name, method)
        forget_plans()


def print_floor(sources: list[SourceRun], config: LintConfig, repeat: int, competitor_rate: float | None) -> None:
    """Where the time goes on the side-by-side input, and what a ratio target leaves for the rules."""
    lists = mcp_lists(sources)
    tools = sum(len(t) for _, _, t in lists)

    def convert() -> list[list[ToolContract]]:
        return [contracts_from_document(t, source, group_prefix=f"{g}|")[0] for source, g, t in lists]

    converted = convert()

    def lint_all() -> int:
        return sum(len(lint_contracts(contracts, config)) for contracts in converted)

    convert_s, _ = best_of(repeat, convert)
    with rules_do_nothing():
        walk_s, _ = best_of(repeat, lint_all)
    lint_s, findings = best_of(repeat, lint_all)
    with_diagnostics = engine_module._to_diagnostic
    engine_module._to_diagnostic = lambda rule, level, placer, finding: finding
    try:
        bare_s, _ = best_of(repeat, lint_all)
    finally:
        engine_module._to_diagnostic = with_diagnostics
    per_tool = lambda seconds: f"{seconds / tools * 1e6:,.1f}"  # noqa: E731
    print(f"\n## 1d. the floor: where one cold pass over the {tools:,} side-by-side tools goes, best of {repeat}\n")
    rows = [["convert MCP objects to contracts", f"{convert_s:.3f}", per_tool(convert_s)],
            ["walk + dispatch + placers (every rule a no-op)", f"{walk_s:.3f}", per_tool(walk_s)],
            [f"building the {findings:,} diagnostics (placing pointers, fixes)", f"{lint_s - bare_s:.3f}",
             per_tool(lint_s - bare_s)],
            ["the rules' own logic", f"{bare_s - walk_s:.3f}", per_tool(bare_s - walk_s)],
            ["total (convert + lint)", f"{convert_s + lint_s:.3f}", per_tool(convert_s + lint_s)]]
    table(["part", "s", "µs/tool"], rows)
    if competitor_rate:
        budget = 1e6 / (TARGET_RATIO * competitor_rate)
        fixed = (convert_s + walk_s + lint_s - bare_s) / tools * 1e6
        rules = len(active_rules(config))
        print(f"\n  {TARGET_RATIO:.0f}× the fastest other linter ({competitor_rate:,.0f} tools/s) allows "
              f"{budget:,.1f} µs a "
              f"tool; after the parts above, {budget - fixed:,.1f} µs are left for the logic of {rules} rules "
              f"({(budget - fixed) / rules:,.2f} µs a rule a tool; now {(bare_s - walk_s) / tools * 1e6 / rules:,.2f})")


def print_per_rule(sources: list[SourceRun], repeat: int) -> None:
    """Each rule alone (targets all, so target rules run too) over contracts whose positions are already cached,
    less the same run with that rule's checks answering nothing (the walk it makes run, its dispatch)."""
    tools = fresh_tools(sources)
    every_target = parse_targets("all")
    lint_contracts(tools, LintConfig(targets=every_target))  # warm the lazy position indexes once
    configs = {rule.code: LintConfig(select=(rule.code,), targets=every_target) for rule in ALL_RULES}
    with rules_do_nothing():
        idle = {code: best_of(repeat, lambda config=config: lint_contracts(tools, config))[0]
                for code, config in configs.items()}
    print(f"\n## 1c. each rule alone, best of {repeat}; positions already cached; own = alone − the same run with "
          f"the rule's checks answering nothing (the schema walk a node rule makes run, the dispatch)\n")
    rows = []
    for rule in ALL_RULES:
        seconds, found = best_of(repeat, lambda config=configs[rule.code]: lint_contracts(tools, config))
        own = max(0.0, seconds - idle[rule.code])
        rows.append((own, [rule.code, rule.name, "target" if rule.targets else "", f"{len(found):,}",
                           f"{seconds:.3f}", f"{own:.3f}", f"{own / len(tools) * 1e6:.1f}"]))
    rows.sort(key=lambda row: -row[0])
    total = sum(own for own, _ in rows)
    table(["code", "name", "kind", "diags", "alone s", "own s", "µs/tool"], [row for _, row in rows],
          right={3, 4, 5, 6})
    print(f"\n  sum of the rules' own time: {total:.3f} s over {len(tools):,} tools (a cost below the run-to-run "
          f"noise shows as 0)")


# --------------------------------------------------------------------------- 2. side by side

def write_mcp_input(sources: list[SourceRun], folder: Path) -> Path:
    """Every loaded tool as `to_mcp()`, one entry per tool list (the loader's group), in corpus order."""
    path = folder / "mcp_tools.json"
    path.write_text(json.dumps({"groups": mcp_lists(sources)}, ensure_ascii=False, default=str), encoding="utf-8")
    return path


def toolclause_on_mcp(input_path: Path, config: LintConfig, repeat: int) -> dict[str, Any]:
    """toolclause on the competitors' input, timed like their drivers: parse the MCP objects into contracts + lint."""
    groups = json.loads(input_path.read_text(encoding="utf-8"))["groups"]
    by_source: dict[str, list] = defaultdict(list)
    for source, group, tools in groups:
        by_source[source].append((group, tools))
    runs: list[float] = []
    seconds_by_source: dict[str, float] = {}
    findings = 0
    while len(runs) < max(1, repeat) and sum(runs) <= REPEAT_BUDGET_S:
        findings = 0
        forget_caches()
        gc.collect()
        started = clock()
        for source, source_groups in by_source.items():
            t0 = clock()
            contracts: list[ToolContract] = []
            for group, tools in source_groups:
                contracts.extend(contracts_from_document(tools, source, group_prefix=f"{group}|")[0])
            findings += len(lint_contracts(contracts, config))
            seconds_by_source[source] = min(seconds_by_source.get(source, float("inf")), clock() - t0)
        runs.append(clock() - started)
    return {"key": "toolclause", "version": __version__, "tools": sum(len(t) for _s, _g, t in groups),
            "seconds": min(runs), "runs": runs, "findings": findings, "rules": len(active_rules(config)),
            "rules_note": f"active non-target rules ({len(ALL_RULES)} registered)", "by_source": seconds_by_source}


def run_own_driver(input_path: Path, args: argparse.Namespace) -> dict[str, Any]:
    """toolclause's side of the comparison, in a child process like each competitor's driver.

    The child holds only the MCP input, as theirs do; this process also holds the
    whole loaded corpus, and a bigger heap makes every garbage collection slower.
    """
    result = competitors.run_json_command([sys.executable, str(Path(__file__).resolve()), "--drive-mcp",
                                           str(input_path), "--repeat", str(args.repeat), "--clock", args.clock,
                                           "--select", args.select])
    if "error" in result:
        raise SystemExit(f"toolclause driver failed: {result['error']}")
    return result


def run_competitors(input_path: Path, repeat: int, clock_name: str) -> list[dict[str, Any]]:
    results, install_problem = [], {}
    for comp in competitors.COMPETITORS:
        print(f"  {comp.key}: {comp.package}=={comp.version} in {comp.venv} …", flush=True)
        if comp.package not in install_problem:
            install_problem[comp.package] = competitors.ensure_installed(comp, log=print)
        problem = install_problem[comp.package]
        result = {"error": problem} if problem else competitors.run_driver(comp, input_path, repeat, clock_name)
        results.append({"key": comp.key, "version": comp.version, **result})
    return results


def print_side_by_side(ours: dict[str, Any], others: list[dict[str, Any]]) -> None:
    ours_rate = ours["tools"] / ours["seconds"]
    print(f"\n  side by side — the same {ours['tools']:,} MCP tools (to_mcp() of every corpus tool, none skipped), "
          f"one core, linting only\n")
    rows, notes = [], []
    for r in [ours, *others]:
        if "error" not in r and (r["seconds"] <= 0 or r.get("crashed_tools", 0) >= r["tools"]):
            r = {**r, "error": "crashed on every list: " + " | ".join(r.get("errors", []))}
        if "error" in r:
            rows.append([r["key"], r.get("version", "?"), "-", "-", "-", "-", "-", "-"])
            notes.append(f"{r['key']}: not measured — {r['error']}")
            continue
        speed = r["tools"] / r["seconds"]
        rows.append([r["key"], r["version"], f"{r['tools']:,}", f"{r['seconds']:.3f}", f"{speed:,.0f}",
                     f"{ours_rate / speed:.2f}×", r["rules"], f"{r['findings']:,}"])
        notes.append(f"{r['key']}: rules = {r['rules_note']}"
                     + (f"; runs {', '.join(f'{s:.2f}' for s in r['runs'])} s" if r.get("runs") else ""))
        if r.get("crashed_tools"):
            notes.append(f"{r['key']}: crashed on {r['crashed_groups']} lists ({r['crashed_tools']} tools): "
                         + " | ".join(r["errors"]))
    table(["linter", "version", "tools", "seconds", "tools/s", "toolclause ×", "rules", "findings"], rows,
          right={2, 3, 4, 5, 6, 7})
    print()
    for note in notes:
        print(f"  {note}")
    measured = [r for r in others if "error" not in r and r["seconds"] > 0 and r.get("crashed_tools", 0) < r["tools"]]
    if measured:
        fastest = max(measured, key=lambda r: r["tools"] / r["seconds"])
        ratio = ours_rate / (fastest["tools"] / fastest["seconds"])
        print(f"\n  toolclause vs the fastest other linter ({fastest['key']}): {ratio:.2f}× the tools/s "
              f"(target ≥ {TARGET_RATIO:.0f}×), running {ours['rules']} rules against its {fastest['rules']}")
        print_per_source(ours, measured)


def print_per_source(ours: dict[str, Any], others: list[dict[str, Any]]) -> None:
    print("\n  tools/s per source on the MCP input:\n")
    tools_by_source: Counter = Counter()
    for source, _group, tools in json.loads(Path(ours["input"]).read_text(encoding="utf-8"))["groups"]:
        tools_by_source[source] += len(tools)
    rows = []
    for source, tools in tools_by_source.items():
        rows.append([source, f"{tools:,}", *(rate(tools, r["by_source"].get(source, 0.0)) for r in [ours, *others])])
    table(["source", "tools", *(r["key"] for r in [ours, *others])], rows)


# --------------------------------------------------------------------------- main

def profile(sources: list[SourceRun], config: LintConfig, limit: int) -> None:
    print("\n## 3. cProfile of one end-to-end pass "
          "(cProfile inflates call-heavy code; read the shares, not the seconds)\n")
    profiler = cProfile.Profile()
    profiler.runcall(end_to_end, [s.path for s in sources], config)
    stats = pstats.Stats(profiler)
    by_module: Counter = Counter()
    total = 0.0
    for (filename, _line, function), (_cc, _nc, own, _cum, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        path = Path(filename)
        if "toolclause" in path.parts:
            label = "/".join(path.parts[path.parts.index("toolclause") + 1:])
        elif filename.startswith("~") or filename == "<string>":
            label = "builtin " + function.strip("<>{}").replace("method ", "").replace("built-in ", "")[:45]
        else:
            label = f"{path.parent.name}/{path.name}"
        by_module[label] += own
        total += own
    rows = [[label, f"{own:.3f}", f"{100 * own / total:.1f}%"] for label, own in by_module.most_common(limit)]
    table(["own time by module or builtin (not charged to callers)", "s", "share"], rows)
    print()
    stats.strip_dirs().sort_stats("tottime").print_stats(limit)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", type=Path, default=REPO.parent / "shared" / "corpora",
                        help="folder holding <source>/tools.jsonl (default: <repo>/../shared/corpora)")
    parser.add_argument("--targets", choices=["all"], help="also measure the target rules' cost separately")
    parser.add_argument("--repeat", type=int, default=2, help="toolclause timings are the best of N runs (default 2)")
    parser.add_argument("--competitor-repeat", type=int, default=2,
                        help=f"competitor runs, best of N, stopping once they have taken "
                             f"{competitors.TIME_BUDGET_S:.0f} s")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu",
                        help="cpu: this process's CPU time (default; steady on a shared machine); wall: elapsed time")
    parser.add_argument("--per-rule", action="store_true", help="also time each rule alone (slow: one lint per rule)")
    parser.add_argument("--floor", action="store_true",
                        help="also split a pass into conversion, walk and dispatch, diagnostics and the rules' logic")
    parser.add_argument("--no-competitors", action="store_true", help="skip the side-by-side part")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of one end-to-end pass")
    parser.add_argument("--profile-limit", type=int, default=25)
    parser.add_argument("--select", default="ALL",
                        help="rule codes or prefixes to run, comma-separated (default ALL: every non-target rule)")
    parser.add_argument("--drive-mcp", type=Path, metavar="INPUT",
                        help="internal: time toolclause on the side-by-side input and print one JSON line")
    args = parser.parse_args(argv)
    global clock
    clock = CLOCKS[args.clock]
    if args.drive_mcp:
        pin_one_core()
        config = LintConfig(select=tuple(c.strip().upper() for c in args.select.split(",") if c.strip()))
        print(json.dumps(toolclause_on_mcp(args.drive_mcp, config, args.repeat)))
        return 0

    started = time.perf_counter()
    sources = find_sources(args.corpora)
    if not sources:
        print(f"no */tools.jsonl under {args.corpora}; pass --corpora PATH")
        return 0
    print(f"toolclause lint benchmark — {len(sources)} sources under {args.corpora}; "
          f"Python {sys.version.split()[0]}; {pin_one_core()}; seconds are {args.clock} time")
    config = LintConfig(select=tuple(c.strip().upper() for c in args.select.split(",") if c.strip()))
    print(f"rules selected: {', '.join(config.select)}")
    measure_sources(sources, config, args.repeat)
    print_corpus(sources, config, args.repeat)
    if args.targets:
        print_target_cost(sources, args.repeat)
    if args.per_rule:
        print_per_rule(sources, args.repeat)

    fastest_rate = None
    if not args.no_competitors:
        print("\n## 2. side by side with the other linters (each in its own venv under bench/.venvs, "
              "driven in-process through its Python API)\n")
        with tempfile.TemporaryDirectory(prefix="toolclause-bench-") as folder:
            input_path = write_mcp_input(sources, Path(folder))
            ours = run_own_driver(input_path, args)
            ours["input"] = str(input_path)
            others = run_competitors(input_path, args.competitor_repeat, args.clock)
            print_side_by_side(ours, others)
        fastest_rate = max((r["tools"] / r["seconds"] for r in others if "error" not in r and r.get("seconds", 0) > 0),
                           default=None)
    if args.floor:
        print_floor(sources, config, args.repeat, fastest_rate)
    if args.profile:
        profile(sources, config, args.profile_limit)
    print(f"\nbench wall time {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
