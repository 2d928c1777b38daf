"""Export every schema-bearing corpus tool to every target; print what could not be projected without loss.

    .venv/bin/python bench/export_corpus.py [--sample N] [--lint]

Each tool is exported on its own (per-request limits are a list's business),
after S002's safe type fixes.  With --lint, each export is linted with the
matching target and the error count printed (it should be 0 apart from the
losses the table names as rejected).
"""

from __future__ import annotations

import argparse
import collections
import glob
import random
import sys
import time
from pathlib import Path

from toolclause import lint
from toolclause.exporting import LINT_TARGETS, export, with_fixed_types
from toolclause.loading import load_paths

CORPORA = Path(__file__).resolve().parent.parent.parent / "shared" / "corpora"
VARIANTS = [("openai-chat", False), ("openai-chat", True), ("openai-responses", True), ("anthropic", False),
            ("anthropic", True), ("gemini", False), ("gemini-openapi", False), ("mcp", False), ("a2a", False)]
TARGET_RULES = ["P001", "P002", "P003", "P007", "N001", "N005"]


def corpus_tools(sample: int | None, seed: int = 7):
    tools = [t for t in load_paths(sorted(glob.glob(str(CORPORA / "*" / "tools.jsonl")))).tools
             if t.input_schema is not None]
    if sample:
        tools = random.Random(seed).sample(tools, min(sample, len(tools)))
    return [with_fixed_types(t) for t in tools]


def run_variant(tools, target, strict, do_lint):
    settings = {}
    name = target
    if target == "gemini-openapi":
        target, settings = "gemini", {"schema": "openapi"}
    lossy: collections.Counter[str] = collections.Counter()
    tools_with_loss = errors = 0
    for tool in tools:
        result = export([tool], target, strict, settings=settings)
        kinds = {loss.keyword or "schema" for loss in result.losses if loss.keyword not in ("name", "properties")}
        if kinds:
            tools_with_loss += 1
            lossy.update(kinds)
        if do_lint and (target, strict) in LINT_TARGETS:
            found = lint(result.document(), targets=[LINT_TARGETS[(target, strict)]], select=TARGET_RULES)
            errors += sum(1 for d in found if d.severity.label == "error")
    return name + (" --strict" if strict else ""), tools_with_loss, lossy, errors


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sample", type=int)
    parser.add_argument("--lint", action="store_true")
    args = parser.parse_args(argv)
    if not CORPORA.exists():
        print(f"no corpora at {CORPORA}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    tools = corpus_tools(args.sample)
    print(f"{len(tools)} schema-bearing tools (S002 safe fixes applied)\n")
    print(f"{'target':<26}{'lossy tools':>12}{'share':>8}{'lint errors':>13}  reasons (tools)")
    for target, strict in VARIANTS:
        name, lossy_count, reasons, errors = run_variant(tools, target, strict, args.lint)
        top = ", ".join(f"{k} {v}" for k, v in reasons.most_common(8))
        print(f"{name:<26}{lossy_count:>12}{lossy_count / len(tools):>8.1%}{errors if args.lint else '-':>13}  {top}")
    print(f"\n{time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
