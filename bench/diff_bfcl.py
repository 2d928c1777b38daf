"""Diff every BFCL function that appears with more than one definition in the corpus.

BFCL ships the same function names in several files and versions (v3, v4, live,
multi-turn) with definitions that drifted apart.  For each name with more than
one distinct definition, the definitions are diffed in corpus order (each
against the next) and the changes tallied by impact and kind.

    .venv/bin/python bench/diff_bfcl.py [--corpora PATH] [--sample N] [--seed S]
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import time
from pathlib import Path

from toolclause.diffing import diff_tools
from toolclause.loading import load_paths


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "corpora")
    parser.add_argument("--sample", type=int, default=30, help="print this many sampled pairs for review")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    source = args.corpora / "bfcl" / "tools.jsonl"
    if not source.exists():
        print(f"no corpus at {source}", file=sys.stderr)
        return 2
    tools = load_paths([source]).tools
    versions: dict[str, list] = collections.defaultdict(list)
    seen: dict[str, set[str]] = collections.defaultdict(set)
    for tool in tools:
        key = json.dumps(tool.raw, sort_keys=True)
        if key not in seen[tool.name]:
            seen[tool.name].add(key)
            versions[tool.name].append(tool)
    names = [n for n, v in versions.items() if len(v) > 1]
    started = time.perf_counter()
    pairs = []
    for name in names:
        for before, after in zip(versions[name], versions[name][1:], strict=False):
            pairs.append((name, before, after, diff_tools([before], [after])))
    elapsed = time.perf_counter() - started
    by_impact = collections.Counter()
    by_kind = collections.Counter()
    worst = collections.Counter()
    for _, _, _, report in pairs:
        for change in report.changes:
            by_impact[change.impact.label] += 1
            by_kind[(change.impact.label, change.kind)] += 1
        worst[report.worst().label if report.worst() is not None else "identical in meaning"] += 1
    print(f"{len(names)} names with more than one definition; {len(pairs)} consecutive pairs diffed "
          f"in {elapsed:.2f} s")
    print("\npairs by their worst change")
    for label, count in worst.most_common():
        print(f"  {label:<22} {count:>5}")
    print("\nchanges by impact and kind")
    for (label, kind), count in sorted(by_kind.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {label:<18} {kind:<28} {count:>5}")
    rng = random.Random(args.seed)
    print(f"\n{args.sample} sampled pairs (seed {args.seed}) for review")
    for name, before, after, report in rng.sample(pairs, min(args.sample, len(pairs))):
        print(f"\n== {name}  ({before.origin.line} → {after.origin.line})")
        for change in report.changes:
            print(f"   {change.impact.label:<16} {change.kind:<24} {change.new_pointer or change.old_pointer}")
            print(f"   {'':16} {change.message[:160]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
