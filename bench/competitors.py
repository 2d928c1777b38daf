"""Install and drive the other tool-definition linters for bench/lint_corpus.py.

This file has two lives:

* imported by lint_corpus.py (project venv): `ensure_installed()` creates
  bench/.venvs/<name> and pip-installs the pinned package there, `run_driver()`
  runs this same file with that venv's python;
* executed in a competitor's venv as the driver:
  `python competitors.py drive KEY INPUT.json REPEAT [cpu|wall]` prints one JSON line.

So it uses the standard library only and never imports toolclause: the
competitors' venvs do not have it, and the project venv never gets theirs.

Input (written by lint_corpus.py): {"groups": [[source, group, [mcp_tool, ...]], ...]},
every corpus tool as `ToolContract.to_mcp()`, one entry per tool list (the
loader's group), so cross-tool checks see the same lists toolclause's do.
Only the linting is timed; reading the JSON and importing the package are not.
"""

from __future__ import annotations

import gc
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
VENVS = HERE / ".venvs"
PIP_TIMEOUT_S = 600
TIME_BUDGET_S = 30.0  # stop repeating a driver once its runs have taken this long


@dataclass(frozen=True)
class Competitor:
    key: str        # driver name and row label
    package: str    # PyPI distribution
    version: str    # pinned: figures must be comparable from run to run
    entry: str      # what is called, for the table and the README

    @property
    def venv(self) -> Path:
        return VENVS / self.package

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"


COMPETITORS = (
    Competitor("agent-friend validate", "agent-friend", "0.209.0", "agent_friend.validate.validate_tools"),
    Competitor("agent-friend grade", "agent-friend", "0.209.0", "agent_friend.grade.grade_tools"),
    Competitor("mcp-tool-card-linter", "mcp-tool-card-linter", "1.0.0", "mcp_tool_card_linter.lint.lint_sources"),
)


# --------------------------------------------------------------------------- install (project venv side)

def _installed_version(comp: Competitor) -> str | None:
    if not comp.python.exists():
        return None
    probe = f"import importlib.metadata as m; print(m.version({comp.package!r}))"
    done = subprocess.run([str(comp.python), "-c", probe], capture_output=True, text=True, timeout=60)
    return done.stdout.strip() if done.returncode == 0 else None


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip() and not line.startswith("WARNING: Location")]
    return lines[-1][:200] if lines else "(no output)"


def ensure_installed(comp: Competitor, log: Callable[[str], None] = print) -> str | None:
    """Make bench/.venvs/<package> hold the pinned version; return None or why it could not."""
    try:
        if _installed_version(comp) == comp.version:
            return None
        VENVS.mkdir(parents=True, exist_ok=True)
        if not comp.python.exists():
            python3 = shutil.which("python3") or sys.executable
            log(f"  creating {comp.venv} ({python3} -m venv)")
            done = subprocess.run([python3, "-m", "venv", str(comp.venv)], capture_output=True, text=True, timeout=120)
            if done.returncode != 0:
                return f"venv creation failed: {_last_line(done.stderr)}"
        log(f"  pip install {comp.package}=={comp.version} into {comp.venv}")
        done = subprocess.run([str(comp.python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                               f"{comp.package}=={comp.version}"],
                              capture_output=True, text=True, timeout=PIP_TIMEOUT_S)
        (VENVS / f"{comp.package}.pip.log").write_text(done.stdout + done.stderr, encoding="utf-8")
        if done.returncode != 0:
            return f"pip install failed: {_last_line(done.stderr or done.stdout)}"
        if _installed_version(comp) != comp.version:
            return f"installed, but {comp.package} {comp.version} is not importable"
        return None
    except Exception as exc:  # whatever goes wrong, the bench prints the reason and carries on
        return f"install failed: {type(exc).__name__}: {exc}"


def run_driver(comp: Competitor, input_path: Path, repeat: int, clock: str = "cpu",
               timeout_s: int = 600) -> dict[str, Any]:
    """Run this file as the driver in the competitor's venv; a dict with `error` when it failed."""
    return run_json_command([str(comp.python), str(Path(__file__).resolve()), "drive", comp.key, str(input_path),
                             str(repeat), clock], timeout_s)


def run_json_command(argv: list[str], timeout_s: int = 600) -> dict[str, Any]:
    """Run a driver that prints its result as one JSON line; a dict with `error` when it failed."""
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout_s} s"}
    except OSError as exc:
        return {"error": f"could not start: {exc}"}
    for line in reversed(done.stdout.strip().splitlines()):
        if line.startswith("{"):
            try:
                return json.loads(line)
            except json.JSONDecodeError:
                break
    return {"error": f"driver exited {done.returncode}: {_last_line(done.stderr or done.stdout)}"}


# --------------------------------------------------------------------------- drivers (competitor venv side)

def _module_file(module_name: str) -> str:
    module = __import__(module_name, fromlist=["_"])
    return Path(module.__file__).read_text(encoding="utf-8")


def _distinct(pattern: str, text: str) -> set[str]:
    return set(re.findall(pattern, text))


def _agent_friend_validate() -> tuple[Callable[[list], int], int, str]:
    from agent_friend.validate import validate_tools

    checks = _distinct(r'check="([a-z0-9_]+)"', _module_file("agent_friend.validate"))

    def lint(tools: list) -> int:
        issues, _stats = validate_tools(tools)
        return len(issues)

    return lint, len(checks), "distinct check ids in validate.py"


def _agent_friend_grade() -> tuple[Callable[[list], int], int, str]:
    from agent_friend.grade import grade_tools

    checks = _distinct(r'check="([a-z0-9_]+)"', _module_file("agent_friend.validate"))
    suggestions = _distinct(r'rule="([a-z0-9_]+)"', _module_file("agent_friend.optimize"))

    def lint(tools: list) -> int:
        report = grade_tools(tools)
        correctness, quality = report.get("correctness", {}), report.get("quality", {})
        return (int(correctness.get("errors", 0)) + int(correctness.get("warnings", 0))
                + int(quality.get("suggestions", 0)))

    described = f"{len(checks)} validate checks + {len(suggestions)} optimize rules + token audit"
    return lint, len(checks | suggestions), described


def _mcp_tool_card_linter() -> tuple[Callable[[list], int], int, str]:
    from mcp_tool_card_linter.lint import lint_sources
    from mcp_tool_card_linter.models import LintConfig, SourceResult, ToolCard
    from mcp_tool_card_linter.rules import KNOWN_RULE_IDS

    # Its CLI lints at most 1,000 tools per source by default; raise the cap so
    # one big list (seal-tools: 4,076) is linted whole, like the others do.
    config = LintConfig(max_tools=100_000)
    needs_baseline = {r for r in KNOWN_RULE_IDS if r.startswith("BASELINE_") or r.startswith("TOOL_CARD_")
                      and r != "TOOL_CARD_TOO_LARGE"}

    def lint(tools: list) -> int:
        cards = [ToolCard.from_raw(tool, server_name="bench", index=index) for index, tool in enumerate(tools)]
        report = lint_sources([SourceResult(server_name="bench", source_type="tools-file", tools=cards)], config)
        return sum(len(tool.issues) for tool in report.tools)

    return (lint, len(KNOWN_RULE_IDS),
            f"KNOWN_RULE_IDS in rules.py; {len(needs_baseline)} need a baseline and cannot fire here")


DRIVERS: dict[str, Callable[[], tuple[Callable[[list], int], int, str]]] = {
    "agent-friend validate": _agent_friend_validate,
    "agent-friend grade": _agent_friend_grade,
    "mcp-tool-card-linter": _mcp_tool_card_linter,
}


CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def drive(key: str, input_path: str, repeat: int, clock_name: str = "cpu") -> dict[str, Any]:
    import importlib.metadata

    clock = CLOCKS[clock_name]
    comp = next(c for c in COMPETITORS if c.key == key)
    with open(input_path, encoding="utf-8") as handle:
        groups = json.load(handle)["groups"]
    lint, rules, rules_note = DRIVERS[key]()
    tools = sum(len(group_tools) for _source, _group, group_tools in groups)
    runs: list[float] = []
    findings = crashed_groups = crashed_tools = 0
    errors: list[str] = []
    by_source: dict[str, list[float]] = {}
    while len(runs) < max(1, repeat):
        findings = crashed_groups = crashed_tools = 0
        errors = []
        per_source: dict[str, float] = {}
        gc.collect()
        started = clock()
        for source, group, group_tools in groups:
            t0 = clock()
            try:
                findings += lint(group_tools)
            except Exception as exc:  # a crash on one list must not end the run: count it
                crashed_groups += 1
                crashed_tools += len(group_tools)
                if len(errors) < 3:
                    errors.append(f"{source} {group}: {type(exc).__name__}: {str(exc)[:120]}")
            per_source[source] = per_source.get(source, 0.0) + clock() - t0
        runs.append(clock() - started)
        for source, seconds in per_source.items():
            by_source.setdefault(source, []).append(seconds)
        if sum(runs) > TIME_BUDGET_S:
            break
    return {
        "key": key, "package": comp.package, "version": importlib.metadata.version(comp.package),
        "entry": comp.entry, "tools": tools, "groups": len(groups), "seconds": min(runs), "runs": runs,
        "findings": findings, "rules": rules, "rules_note": rules_note,
        "crashed_groups": crashed_groups, "crashed_tools": crashed_tools, "errors": errors,
        "by_source": {source: min(times) for source, times in by_source.items()},
    }


if __name__ == "__main__":
    if len(sys.argv) not in (5, 6) or sys.argv[1] != "drive":
        sys.exit("usage: competitors.py drive KEY INPUT.json REPEAT [cpu|wall]")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    print(json.dumps(drive(sys.argv[2], sys.argv[3], int(sys.argv[4]), *sys.argv[5:])))
