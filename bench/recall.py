"""Recall of the text-against-schema rules on real MCP servers, from tools read by hand.

tests/data/servers/recall.jsonl holds the tools a reviewer read in full without seeing
any rule's code or finding (one line a tool: the server file, the tool, and the defects
found, each with its class 1–14 of the consistency family, the JSON Pointer into the
tool, the words read and a confidence).  A tool with no defect is recorded too: it was read.

A defect counts as found when the default lint of its server reports, on the same tool,
a finding of a code that covers its class at the same place (the same pointer, one inside
the other, or the tool's own description and annotations for a defect in them).

    python bench/recall.py [--all] [--misses] [--write]
        recall per class (high-confidence defects; --all counts the low ones too), with
        --misses each defect no finding covers; --write puts both tables (high-confidence and
        all) into docs/precision.md between its recall markers
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from precision import SERVERS, Finding, findings  # noqa: E402

RECALL = SERVERS / "recall.jsonl"
DOC = Path(__file__).resolve().parents[1] / "docs" / "precision.md"
BEGIN, END = "<!-- recall-table:begin -->", "<!-- recall-table:end -->"

# which codes cover each class (a class may be covered by rules outside the T family)
CLASSES: dict[int, tuple[str, tuple[str, ...]]] = {
    1: ("either-or stated, not encoded", ("T001",)),
    2: ("required contradicting the text", ("T001",)),
    3: ("a bound rejecting a documented value", ("T004",)),
    4: ("a default contradicting the text or the schema", ("S008",)),
    5: ("a property misspelt against its description", ("T005", "S003")),
    6: ("names that do not exist", ("T005", "X008")),
    7: ("closed sets left in prose", ("D005",)),
    8: ("number for things that are counted", ("T002",)),
    9: ("identifiers and limits stated, not encoded", ("D007", "C005", "T007", "T008")),
    10: ("framework parameters leaked", ("T003",)),
    11: ("objects that accept only {}", ()),
    12: ("directives aimed at the model", ("T006", "X007", "X008", "X010")),
    13: ("annotations that contradict the text", ("X005", "X006")),
    14: ("secrets returned once", ("X010",)),
}
_TOOL_LEVEL = ("", "/description", "/title", "/annotations", "/name")


def _relative(pointer: str) -> str:
    """A finding's pointer inside its tool (`/tools/3/inputSchema/…` → `/inputSchema/…`)."""
    parts = pointer.split("/")
    if len(parts) >= 3 and parts[1] == "tools" and parts[2].isdigit():
        return "/" + "/".join(parts[3:]) if len(parts) > 3 else ""
    return pointer


def _covers(finding_pointer: str, defect_pointer: str) -> bool:
    f, d = _relative(finding_pointer), defect_pointer.rstrip("/")
    if f == d or f.startswith(d + "/") or d.startswith(f + "/"):
        return True
    return d.startswith(_TOOL_LEVEL[1:]) and f in _TOOL_LEVEL or d in _TOOL_LEVEL


def read() -> list[dict]:
    return [json.loads(line) for line in RECALL.read_text(encoding="utf-8").splitlines() if line.strip()]


def measure(include_low: bool) -> tuple[dict[int, tuple[int, int]], list[tuple[dict, dict]]]:
    by_tool: dict[tuple[str, str], list[Finding]] = defaultdict(list)
    for f in findings():
        by_tool[(f.file, f.tool)].append(f)
    counts: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    misses: list[tuple[dict, dict]] = []
    for record in read():
        found = by_tool[(record["file"], record["tool"])]
        for defect in record["defects"]:
            if defect.get("confidence") == "low" and not include_low:
                continue
            codes = CLASSES[defect["class"]][1]
            hit = any(f.code in codes and _covers(f.pointer, defect["pointer"]) for f in found)
            counts[defect["class"]][0] += hit
            counts[defect["class"]][1] += 1
            if not hit:
                misses.append((record, defect))
    return {c: (v[0], v[1]) for c, v in counts.items()}, misses


def table(include_low: bool) -> tuple[str, list[tuple[dict, dict]]]:
    counts, misses = measure(include_low)
    lines = ["| class | codes | found | of | recall |", "|---|---|---:|---:|---:|"]
    total = [0, 0]
    for number, (name, codes) in CLASSES.items():
        hit, of = counts.get(number, (0, 0))
        total[0] += hit
        total[1] += of
        shown = f"{hit / of:.2f}" if of else "—"
        lines.append(f"| {number}. {name} | {', '.join(codes) or '—'} | {hit} | {of} | {shown} |")
    lines.append(f"| **all** | | {total[0]} | {total[1]} | {total[0] / total[1]:.2f} |")
    return "\n".join(lines), misses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--all", action="store_true", help="count low-confidence defects too")
    parser.add_argument("--misses", action="store_true", help="list the defects no finding covers")
    parser.add_argument("--write", action="store_true", help="write the tables into docs/precision.md")
    args = parser.parse_args()
    records = read()
    head = (f"{len(records)} tools read on {len({r['file'] for r in records})} servers, "
            f"{sum(len(r['defects']) for r in records)} defects recorded")
    shown, misses = table(args.all)
    print(head)
    print(shown)
    if args.misses:
        for record, defect in misses:
            print(f"- class {defect['class']} {record['file']} {record['tool']} {defect['pointer']}: "
                  f"{defect['quote'][:100]!r}")
    if args.write:
        high, _ = table(False)
        every, _ = table(True)
        text = DOC.read_text(encoding="utf-8")
        start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
        body = (f"\n{head}.\n\nDefects the readers were sure of:\n\n{high}\n\n"
                f"Every recorded defect, the uncertain ones too:\n\n{every}\n")
        DOC.write_text(text[:start] + body + text[end:], encoding="utf-8")


if __name__ == "__main__":
    main()
