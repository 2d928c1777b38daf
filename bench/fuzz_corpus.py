"""Fuzz a Toolbox of real corpus tools (echo functions): what each mistake kind does at the gate.

The first N distinct tools of the BFCL pool (the corpus's bfcl/tools.jsonl), after
S002's safe type repairs (`"dict"` → `"object"`), each registered with a function that
echoes its arguments, are fuzzed with `toolclause.workflow.fuzz.fuzz_toolbox`.  Prints,
per mistake kind, the calls sent, how many the gate handled as it must, how many failed a
check (and which), and how many were not sent because the tool's schema itself accepts them.

    .venv/bin/python bench/fuzz_corpus.py [--tools 200] [--examples 5] [--seed 1] [--corpora PATH]
"""

from __future__ import annotations

import argparse
import collections
import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

from toolclause import Toolbox, load
from toolclause.exporting.repair import with_fixed_types
from toolclause.runtime import ToolRegistrationError
from toolclause.workflow.fuzz import fuzz_toolbox


def echo(**arguments: Any) -> dict:
    return arguments


def build(corpora: Path, count: int) -> tuple[Toolbox, int]:
    box = Toolbox("memory://", lint="off")
    refused = 0
    with (corpora / "bfcl" / "tools.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            if len(box) >= count:
                break
            record = json.loads(line)
            try:
                contract = with_fixed_types(load(record["tool"], "bfcl")[0])
            except (ValueError, IndexError):
                refused += 1
                continue
            if contract.name in box:
                continue
            try:
                box.add(contract, echo)
            except ToolRegistrationError:
                refused += 1
    return box, refused


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=200)
    parser.add_argument("--examples", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--corpora", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "corpora")
    options = parser.parse_args()
    logging.disable(logging.CRITICAL)
    box, refused = build(options.corpora, options.tools)
    started = time.perf_counter()
    report = fuzz_toolbox(box, examples=options.examples, seed=options.seed)
    seconds = time.perf_counter() - started
    checks: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for finding in report.findings:
        checks[finding.kind][finding.check] += 1
    print(f"{len(box)} BFCL tools fuzzed ({refused} not registrable), {options.examples} valid examples a tool, "
          f"seed {options.seed}, {seconds:.1f} s; {sum(1 for t in report.tools if t.note)} tools without "
          f"generated arguments")
    print(f"{'kind':<20} {'sent':>6} {'held':>6} {'failed':>6} {'not sent':>9}  failed checks")
    for kind, stats in report.totals().items():
        held = stats.sent - stats.failed
        detail = ", ".join(f"{check} {n}" for check, n in checks[kind].most_common())
        print(f"{kind:<20} {stats.sent:>6} {held:>6} {stats.failed:>6} {stats.skipped:>9}  {detail}")
    examples = collections.OrderedDict()
    for finding in report.findings:
        examples.setdefault((finding.kind, finding.check), finding)
    for (kind, check), finding in list(examples.items())[:12]:
        print(f"  e.g. {finding.tool} [{kind} / {check}]: {finding.message[:140]} — {finding.arguments[:100]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
