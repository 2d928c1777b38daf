"""Whole processes, as a pre-commit hook or a CI step runs them: toolclause beside the other linters.

    .venv/bin/python bench/processes.py [--corpora PATH] [--repeat N] [--no-corpus]

Each row is one command started from scratch (interpreter start-up, imports,
reading the file, linting, printing), timed by the CPU seconds the child
used (user + system, from os.wait4, its worker processes included) and its
peak memory; the median of N runs, the commands of a row taking turns (see
`measure`). The corpus rows also give elapsed seconds, what `--jobs` (all
cores) shortens: toolclause runs there with `--jobs 1` and with its default,
a process per core, every run linting (`--no-cache`), then once more
unchanged, reading the cache of an earlier run. The other linters are
installed pinned, each in its own virtualenv under bench/.venvs, by the
bench itself (bench/competitors.py). toolclause is measured as an
installation runs: its modules byte-compiled and its patterns compiled once
beforehand (see toolclause._lazy_re), as pip leaves the others. Prints
figures and ratios; asserts nothing.

Inputs, written once to a temporary folder as MCP `tools/list` arrays (the one
shape every linter here reads):
    13 tools      the first 13 tools of the docker-mcp-registry corpus
    50 tools      the first 50
    885 tools     every tool of the four corpora of real MCP servers (docker-mcp-registry,
                  mcp-proxy-snapshots, vscode-copilot-chat, amazon-q-developer-cli): a
                  gateway's or a monorepo's servers in one file
    corpus        every corpus tool (about 13,500) in one file, about 10 MB
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import competitors  # noqa: E402  (bench/competitors.py: pinned installs in bench/.venvs)

REPO = Path(__file__).resolve().parent.parent
TOOLCLAUSE = REPO / ".venv" / "bin" / "toolclause"

PEERS = {
    "agent-friend": competitors.Competitor("agent-friend validate", "agent-friend", "0.209.0", "agent-friend"),
    "mcp-strict-check": competitors.Competitor("mcp-strict-check", "mcp-strict-check", "0.1.0", "mcp-strict-check"),
    "mcp-tool-card-linter": competitors.Competitor("mcp-tool-card-linter", "mcp-tool-card-linter", "1.0.0",
                                                   "mcp-tool-card-linter"),
}


def commands(file: Path | None, scratch: Path) -> dict[str, list[str]]:
    """Each linter's command for FILE (None: its --version), output to /dev/null or a scratch file."""
    bins = {name: peer.venv / "bin" for name, peer in PEERS.items()}
    if file is None:
        return {"toolclause": [str(TOOLCLAUSE), "--version"],
                "agent-friend": [str(bins["agent-friend"] / "agent-friend"), "--version"],
                "mcp-strict-check": [str(bins["mcp-strict-check"] / "mcp-strict-check"), "--version"],
                "mcp-tool-card-linter": [str(bins["mcp-tool-card-linter"] / "mcp-tool-card-linter"), "--version"]}
    return {
        # every run lints (--no-cache), but the "warm cache" one, which finds the run _warm_up kept
        "toolclause": [str(TOOLCLAUSE), "lint", str(file), "--format", "json", "--fail-on", "never", "--no-cache"],
        "toolclause --jobs 1": [str(TOOLCLAUSE), "lint", str(file), "--format", "json", "--fail-on", "never",
                                "--no-cache", "--jobs", "1"],
        "toolclause, warm cache": [str(TOOLCLAUSE), "lint", str(file), "--format", "json", "--fail-on", "never"],
        "agent-friend": [str(bins["agent-friend"] / "agent-friend"), "validate", str(file), "--json"],
        "mcp-strict-check": [str(bins["mcp-strict-check"] / "mcp-strict-check"), "--tools", str(file), "--json",
                             "--exit-zero"],
        "mcp-tool-card-linter": [str(bins["mcp-tool-card-linter"] / "mcp-tool-card-linter"), "lint", "--tools-file",
                                 str(file), "--json-report", str(scratch / "card-report.json"), "--fail-on", "never"],
    }


@dataclass
class Timing:
    cpu_s: float
    peak_mib: float
    exit_code: int
    wall_s: float = 0.0


def run_once(argv: list[str], timeout_s: float) -> Timing:
    """One child process: its own CPU seconds and peak resident memory (the kernel's figures, via wait4)."""
    started = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tempfile.gettempdir())
    timer = threading.Timer(timeout_s, proc.kill)  # bounded: a hung linter is killed and shows its exit code
    timer.start()
    try:
        _, status, usage = os.wait4(proc.pid, 0)  # reaped here, not by Popen, so its rusage is this run's alone
    finally:
        timer.cancel()
    wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    return Timing(usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, proc.returncode, wall)


def measure(argvs: dict[str, list[str]], repeat: int, timeout_s: float) -> dict[str, Timing | str]:
    """Each command `repeat` times, interleaved: a round runs every command once, each round in another order.

    On a shared machine the speed drifts over seconds; run one command's repeats after another's and the
    drift lands in the ratio.  Interleaved, every command sees the same slow and fast moments.
    """
    runs: dict[str, list[Timing]] = {name: [] for name in argvs}
    failed: dict[str, str] = {}
    names = list(argvs)
    for round_ in range(repeat):
        for name in names[round_ % len(names):] + names[:round_ % len(names)]:
            if name in failed:
                continue
            try:
                runs[name].append(run_once(argvs[name], timeout_s))
            except OSError as exc:
                failed[name] = f"could not run: {exc}"
    return {name: failed.get(name) or Timing(statistics.median(r.cpu_s for r in runs[name]),
                                             max(r.peak_mib for r in runs[name]), runs[name][-1].exit_code,
                                             statistics.median(r.wall_s for r in runs[name]))
            for name in names}


def write_inputs(corpora: Path, folder: Path, with_corpus: bool) -> dict[str, Path]:
    """The input files, written by a child process: a child's peak memory counts the parent's pages at fork,
    so the measuring process never holds the corpus itself."""
    done = subprocess.run([sys.executable, __file__, "--write-inputs", str(corpora), str(folder),
                           "corpus" if with_corpus else "small"], capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        sys.exit(f"could not write the inputs: {done.stderr.strip()[-500:]}")
    return {label: Path(path) for label, path in json.loads(done.stdout).items()}


MCP_CORPORA = ("docker-mcp-registry", "mcp-proxy-snapshots", "vscode-copilot-chat", "amazon-q-developer-cli")
"""The corpora that are real MCP servers' tools/list answers (the others are function-calling benchmarks)."""


def _write_inputs(corpora: Path, folder: Path, with_corpus: bool) -> dict[str, str]:
    from toolclause.loading import load_file

    registry = load_file(corpora / "docker-mcp-registry" / "tools.jsonl").tools
    inputs = {}
    for size in (13, 50):
        path = folder / f"{size}-tools.json"
        path.write_text(json.dumps([t.to_mcp() for t in registry[:size]], ensure_ascii=False), encoding="utf-8")
        inputs[f"{size} tools, one file"] = str(path)
    servers = [t.to_mcp() for name in MCP_CORPORA for t in load_file(corpora / name / "tools.jsonl").tools]
    path = folder / "mcp-servers.json"
    path.write_text(json.dumps(servers, ensure_ascii=False), encoding="utf-8")
    inputs[f"{len(servers)} real MCP tools, one file"] = str(path)
    if with_corpus:
        every = [t.to_mcp() for f in sorted(corpora.glob("*/tools.jsonl")) for t in load_file(f).tools]
        path = folder / "corpus.json"
        path.write_text(json.dumps(every, ensure_ascii=False), encoding="utf-8")
        inputs[f"the corpus as one file ({len(every):,} tools, {path.stat().st_size / 1e6:.0f} MB)"] = str(path)
    return inputs


def main() -> None:
    if sys.argv[1:2] == ["--write-inputs"]:
        corpora, folder, which = sys.argv[2:5]
        print(json.dumps(_write_inputs(Path(corpora), Path(folder), which == "corpus")))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", type=Path, default=REPO.parent / "shared" / "corpora")
    parser.add_argument("--repeat", type=int, default=5, help="runs per command; the median is shown (default 5)")
    parser.add_argument("--no-corpus", action="store_true", help="skip the whole-corpus file (the slow row)")
    args = parser.parse_args()

    for name, peer in PEERS.items():
        why = competitors.ensure_installed(peer)
        if why:
            print(f"{name}: {why}; its column stays empty")
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        rows: list[tuple[str, Path | None]] = [("--version alone", None)]
        rows += list(write_inputs(args.corpora, scratch, not args.no_corpus).items())
        names = list(PEERS)
        _warm_up(list(rows))
        print(f"CPU seconds of the whole process (user + system), median of {args.repeat}; elapsed seconds on the "
              f"real-MCP and corpus rows; peak memory in MiB; ratio = toolclause / peer CPU (below 1: toolclause is "
              f"cheaper); speed = peer elapsed / toolclause elapsed (tools per second, above 1: toolclause is "
              f"faster)\n")
        header = ["input", "toolclause"] + [f"{n} (ratio)" for n in names]
        print(" | ".join(header))
        print(" | ".join("---" for _ in header))
        for label, file in rows:
            argvs = commands(file, scratch)
            big = file is not None and "corpus" in label
            # elapsed seconds wherever --jobs starts worker processes (from a few hundred tools on)
            elapsed = big or (file is not None and "real MCP" in label)
            repeat = max(1, args.repeat // 2) if big else args.repeat
            variants = [("toolclause --jobs 1", " (--jobs 1)"), ("toolclause", " (all cores)"),
                        ("toolclause, warm cache", " (unchanged: warm cache)")] if big else [("toolclause", "")]
            timed = measure({name: argvs[name] for name in [v for v, _ in variants] + names}, repeat, 600)
            theirs = {name: timed[name] for name in names}
            for variant, suffix in variants:
                ours = timed[variant]
                cells = [label + suffix, _cell(ours, elapsed)]
                for name in names:
                    cells.append(_cell(theirs[name], elapsed) + _ratios(ours, theirs[name], elapsed))
                print(" | ".join(cells))


def _warm_up(rows: list[tuple[str, Path | None]]) -> None:
    """Byte-compile toolclause and compile its patterns once, as an installed copy has them (pip compiles the
    peers' modules when it installs them); the runs also leave the cache the warm-cache row reads."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    compile_package = ("import compileall, os, toolclause; "
                       "compileall.compile_dir(os.path.dirname(toolclause.__file__), quiet=1)")
    subprocess.run([str(TOOLCLAUSE.parent / "python"), "-c", compile_package], env=env, stdout=subprocess.DEVNULL,
                   check=False)
    for _, file in rows:
        if file is not None:
            subprocess.run([str(TOOLCLAUSE), "lint", str(file), "--format", "json", "--fail-on", "never"], env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, timeout=600,
                           cwd=tempfile.gettempdir())  # where the measured runs start, so the cache is theirs


def _ratios(ours: Timing | str, theirs: Timing | str, big: bool) -> str:
    if not (isinstance(ours, Timing) and isinstance(theirs, Timing) and theirs.cpu_s):
        return ""
    speed = f", speed {theirs.wall_s / ours.wall_s:.2f}×" if big and ours.wall_s else ""
    return f" ({ours.cpu_s / theirs.cpu_s:.2f}×{speed})"


def _cell(timing: Timing | str, big: bool = False) -> str:
    if isinstance(timing, str):
        return timing
    flag = "" if timing.exit_code in (0, 1) else f", exit {timing.exit_code}: refused or failed"
    wall = f" ({timing.wall_s:.2f} s elapsed)" if big else ""
    return f"{timing.cpu_s:.3f} s{wall}, {timing.peak_mib:.0f} MiB{flag}"


if __name__ == "__main__":
    main()
