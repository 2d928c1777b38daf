"""Tool routing on the BFCL pool: recall@k and latency of `toolclause.routing` beside plain BM25.

Indexes every tool of the corpus's bfcl/tools.jsonl (2,057 names; definitions that
share a name are one entry), routes every request of queries.jsonl against the whole
pool, and prints recall@1/3/5/10 (the share of a request's answer functions in its
top k, averaged over requests that have answers), the median and p95 time per request,
and the share of irrelevant requests (no answer function) routed to something.

The baseline is a plain BM25 (k1 1.2, b 0.75) over each tool's name and description,
words split on anything not a letter or digit, lower-cased, nothing else.

    .venv/bin/python bench/route.py [--corpora PATH]
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

from toolclause import load
from toolclause.routing import Router

KS = (1, 3, 5, 10)
NONE_BELOW = 6.0  # a best score under this routes to nothing (min_score)


class PlainBM25:
    def __init__(self, tools: list) -> None:
        docs: dict[str, Counter[str]] = {}
        for tool in tools:
            words = re.findall(r"[a-z0-9]+", f"{tool.name} {tool.description or ''}".lower())
            docs.setdefault(tool.name, Counter()).update(words)
        self.names = list(docs)
        lengths = [sum(c.values()) for c in docs.values()]
        average = sum(lengths) / len(lengths)
        df: Counter[str] = Counter()
        for counts in docs.values():
            df.update(counts.keys())
        n = len(self.names)
        self.postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
        for i, counts in enumerate(docs.values()):
            norm = 1.2 * (1 - 0.75 + 0.75 * lengths[i] / average)
            for word, tf in counts.items():
                idf = math.log(1 + (n - df[word] + 0.5) / (df[word] + 0.5))
                self.postings[word].append((i, idf * tf * 2.2 / (tf + norm)))

    def select(self, request: str, k: int) -> list[str]:
        totals: dict[int, float] = defaultdict(float)
        for word in set(re.findall(r"[a-z0-9]+", request.lower())):
            for i, part in self.postings.get(word, ()):
                totals[i] += part
        return [self.names[i] for i, _ in sorted(totals.items(), key=lambda x: -x[1])[:k]]


def measure(select: Callable[[str, int], list[str]], queries: list[dict]) -> dict[str, float]:
    recall = {k: 0.0 for k in KS}
    answered = irrelevant = routed = 0
    times = []
    for query in queries:
        started = time.perf_counter()
        ranked = select(query["question"], max(KS))
        times.append(time.perf_counter() - started)
        answers = set(query["answer_functions"])
        if not answers:
            irrelevant += 1
            routed += bool(ranked)
            continue
        answered += 1
        for k in KS:
            recall[k] += len(answers & set(ranked[:k])) / len(answers)
    out = {f"recall@{k}": recall[k] / answered for k in KS}
    out["median ms"] = statistics.median(times) * 1000
    out["p95 ms"] = sorted(times)[int(len(times) * 0.95)] * 1000
    out["irrelevant routed"] = routed / irrelevant if irrelevant else 0.0
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "corpora")
    options = parser.parse_args()
    bfcl = options.corpora / "bfcl"
    tools = []
    with (bfcl / "tools.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            try:
                tools += load(json.loads(line)["tool"], "bfcl")
            except ValueError:
                pass
    queries = [json.loads(line) for line in (bfcl / "queries.jsonl").open(encoding="utf-8")]
    started = time.perf_counter()
    router = Router(tools)
    built = time.perf_counter() - started
    baseline = PlainBM25(tools)
    print(f"{len(router.names)} tools indexed in {built * 1000:.0f} ms; {len(queries)} requests "
          f"({sum(1 for q in queries if not q['answer_functions'])} without an answer function)")
    strict = Router(tools, min_score=NONE_BELOW)
    rows = {"plain BM25 (name + description)": measure(baseline.select, queries),
            "toolclause Router": measure(router.select, queries),
            f"toolclause Router, none < {NONE_BELOW:g}": measure(strict.select, queries)}
    columns = list(next(iter(rows.values())))
    print(f"{'':<34}" + "".join(f"{c:>19}" for c in columns))
    for label, figures in rows.items():
        print(f"{label:<34}" + "".join(f"{figures[c]:>19.3f}" for c in columns))
    return 0


if __name__ == "__main__":
    sys.exit(main())
