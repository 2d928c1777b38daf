"""Precision of the rules on real MCP servers, from judged findings.

The snapshots in tests/data/servers/ are linted as a user would lint them (each file on
its own, default rules and targets).  Each finding is identified by the server file, the
tool, the code, the JSON Pointer and the message: a reworded finding is a new finding, as
the message and its advice are what a judge reads.  Verdicts live in
tests/data/servers/verdicts.jsonl, one per line:

    {"file", "tool", "code", "pointer", "message", "severity", "verdict", "reason", "judge"}

with verdict one of right / debatable / wrong:

* right: a real problem a careful author would want fixed, and the suggested fix rejects
  nothing the tool documents;
* debatable: literally true but marginal, or a real problem with advice that would break
  something;
* wrong: not a problem, or the fix breaks documented use.

Commands:

    python bench/precision.py sample --out DIR [--per-code 12]
        findings of each code not yet judged, as batches a blind judge reads: the whole tool,
        the rule's documentation, the finding; nothing of the rule's code
    python bench/precision.py merge BATCH_VERDICTS.jsonl... [--judge NAME]
        adds a judge's verdicts ({"id", "verdict", "reason"} per line) to verdicts.jsonl
    python bench/precision.py table [--write]
        the per-code table from the verdicts of findings the rules still report; --write puts
        it into docs/precision.md between its markers
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import subprocess
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import toolclause  # noqa: E402

SERVERS = ROOT / "tests" / "data" / "servers"
VERDICTS = SERVERS / "verdicts.jsonl"
DOC = ROOT / "docs" / "precision.md"
BEGIN, END = "<!-- precision-table:begin -->", "<!-- precision-table:end -->"
VERDICT_NAMES = ("right", "debatable", "wrong")
SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}

VERDICT_DEFINITIONS = """\
Judge each finding as one of:
- right: a real problem a careful author would want fixed, and the suggested fix (if any) rejects
  nothing the tool documents.
- debatable: literally true but marginal (not worth the author's time), or a real problem with
  advice that would break something.
- wrong: not a problem, or the fix breaks documented use.
Read the whole tool definition. A finding at severity warning or error is a promise that a careful
author would fix it; judge whether that promise holds for THIS tool."""


@dataclass(frozen=True)
class Finding:
    file: str
    tool: str
    code: str
    pointer: str
    message: str
    severity: str
    fix: str | None

    @property
    def key(self) -> tuple[str, str, str, str, str]:
        return (self.file, self.tool, self.code, self.pointer, self.message)

    @property
    def id(self) -> str:
        return hashlib.sha256("\x1f".join(self.key).encode()).hexdigest()[:16]


def server_files() -> list[Path]:
    index = json.loads((SERVERS / "index.json").read_text(encoding="utf-8"))
    return [SERVERS / entry["file"] for entry in index["servers"]]


def findings() -> list[Finding]:
    found: list[Finding] = []
    for path in server_files():
        for d in toolclause.lint(path):
            fix = d.fix.description if d.fix is not None else None
            found.append(Finding(path.name, d.tool or "", d.code, d.pointer, d.message, d.severity.label, fix))
    return found


def read_verdicts() -> list[dict]:
    if not VERDICTS.exists():
        return []
    return [json.loads(line) for line in VERDICTS.read_text(encoding="utf-8").splitlines() if line.strip()]


def verdict_key(v: dict) -> tuple[str, str, str, str, str]:
    return (v["file"], v["tool"], v["code"], v["pointer"], v["message"])


def tool_definition(file: str, tool: str) -> dict:
    listing = json.loads((SERVERS / file).read_text(encoding="utf-8"))
    return next((t for t in listing.get("tools", []) if t.get("name") == tool), {})


def rule_doc(code: str) -> str:
    run = subprocess.run([sys.executable, "-m", "toolclause.cli.main", "rules", code],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    return run.stdout.strip()


# --------------------------------------------------------------------------- sample

def sample(out: Path, per_code: int, seed: int, batch_size: int) -> None:
    judged = {verdict_key(v) for v in read_verdicts()}
    by_code: dict[str, list[Finding]] = defaultdict(list)
    for f in findings():
        by_code[f.code].append(f)
    rng = random.Random(seed)
    chosen: list[Finding] = []
    for _, found in sorted(by_code.items()):
        done = sum(1 for f in found if f.key in judged)
        want = max(0, min(per_code, len(found)) - done)
        # stratified across servers: one finding from each server in turn, servers in a seeded order
        per_server: dict[str, list[Finding]] = defaultdict(list)
        for f in found:
            if f.key not in judged:
                per_server[f.file].append(f)
        for items in per_server.values():
            rng.shuffle(items)
        files = sorted(per_server)
        rng.shuffle(files)
        while want > 0 and any(per_server.values()):
            for file in files:
                if want and per_server[file]:
                    chosen.append(per_server[file].pop())
                    want -= 1
    out.mkdir(parents=True, exist_ok=True)
    docs = {code: rule_doc(code) for code in sorted({f.code for f in chosen})}
    rng.shuffle(chosen)  # a batch mixes codes, so a judge reads no code's findings as a series
    batches = [chosen[i:i + batch_size] for i in range(0, len(chosen), batch_size)]
    for number, batch in enumerate(batches, 1):
        codes = sorted({f.code for f in batch})
        items = [{"id": f.id, "server": f.file, "code": f.code, "severity": f.severity, "pointer": f.pointer,
                  "message": f.message, "suggested_fix": f.fix, "tool": tool_definition(f.file, f.tool)}
                 for f in batch]
        text = {"verdicts": VERDICT_DEFINITIONS, "rules": {c: docs[c] for c in codes}, "findings": items}
        (out / f"batch-{number:02}.json").write_text(json.dumps(text, ensure_ascii=False, indent=1), encoding="utf-8")
    (out / "sample.jsonl").write_text("".join(json.dumps(f.__dict__, ensure_ascii=False) + "\n" for f in chosen),
                                      encoding="utf-8")
    print(f"{len(chosen)} findings to judge in {len(batches)} batches under {out}")


# --------------------------------------------------------------------------- merge

def merge(paths: list[Path], judge: str, sample_file: Path | None) -> None:
    known = {f.id: f for f in findings()}
    if sample_file is not None:
        for line in sample_file.read_text(encoding="utf-8").splitlines():
            f = Finding(**json.loads(line))
            known.setdefault(f.id, f)
    existing = {verdict_key(v) for v in read_verdicts()}
    added = 0
    with VERDICTS.open("a", encoding="utf-8") as out:
        for path in paths:
            for line in path.read_text(encoding="utf-8").splitlines():
                if not line.strip():
                    continue
                given = json.loads(line)
                f = known.get(given["id"])
                if f is None or given.get("verdict") not in VERDICT_NAMES or f.key in existing:
                    continue
                record = {"file": f.file, "tool": f.tool, "code": f.code, "pointer": f.pointer, "message": f.message,
                          "severity": f.severity, "verdict": given["verdict"], "reason": given.get("reason", ""),
                          "judge": judge}
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
                existing.add(f.key)
                added += 1
    print(f"{added} verdicts added to {VERDICTS.relative_to(ROOT)}")


# --------------------------------------------------------------------------- table

def table() -> str:
    current = findings()
    now = {f.key: f for f in current}
    place = {(f.file, f.tool, f.code, f.pointer) for f in current}
    counts = Counter(f.code for f in current)
    severity = {f.code: f.severity for f in current}
    judged: dict[str, Counter] = defaultdict(Counter)
    removed_right: Counter = Counter()
    reworded = 0
    for v in read_verdicts():
        key = verdict_key(v)
        if key in now:
            judged[v["code"]][v["verdict"]] += 1
        elif v["verdict"] == "right" and key[:4] not in place and (SERVERS / v["file"]).exists():
            removed_right[v["code"]] += 1
        elif key[:4] in place:
            reworded += 1
    servers = server_files()
    tools = sum(len(json.loads(p.read_text(encoding="utf-8")).get("tools", [])) for p in servers)
    rows = [f"Measured on {len(servers)} servers, {tools} tools: each file linted on its own with the default "
            "rules and targets. *precision* is right ÷ judged; *est.* weighs each code's precision by its "
            "number of findings.", "",
            "| code | severity | findings | judged | right | debatable | wrong | precision | right removed |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    totals: dict[str, Counter] = {"warning+": Counter(), "info": Counter(), "all": Counter()}
    estimate: dict[str, list[float]] = {"warning+": [0.0, 0.0]}
    order = sorted(counts, key=lambda c: (SEVERITY_ORDER[severity[c]], c))
    for code in order + sorted(set(removed_right) - set(counts)):
        j = judged[code]
        n = sum(j.values())
        sev = severity.get(code, "—")
        precision = f"{j['right'] / n:.2f}" if n else "—"
        rows.append(f"| {code} | {sev} | {counts.get(code, 0)} | {n} | {j['right']} | {j['debatable']} | "
                    f"{j['wrong']} | {precision} | {removed_right.get(code, 0)} |")
        group = "warning+" if sev in ("error", "warning") else "info"
        for name in (group, "all"):
            totals[name].update(j)
            totals[name]["findings"] += counts.get(code, 0)
            totals[name]["removed"] += removed_right.get(code, 0)
        if group == "warning+" and n:
            estimate["warning+"][0] += counts[code] * j["right"] / n
            estimate["warning+"][1] += counts[code]
    for name, t in totals.items():
        n = t["right"] + t["debatable"] + t["wrong"]
        precision = f"{t['right'] / n:.2f}" if n else "—"
        if name == "warning+" and estimate[name][1]:
            precision += f" (est. {estimate[name][0] / estimate[name][1]:.2f})"
        rows.append(f"| **{name}** | | {t['findings']} | {n} | {t['right']} | {t['debatable']} | {t['wrong']} | "
                    f"{precision} | {t['removed']} |")
    wrong_share = totals["all"]["wrong"] / max(1, sum(totals["all"][k] for k in VERDICT_NAMES))
    rows += ["", f"Wrong at any severity: {wrong_share:.1%} of the judged findings. "
             f"Verdicts of findings since reworded (to judge again): {reworded}."]
    return "\n".join(rows) + "\n"


def write_table(text: str) -> None:
    doc = DOC.read_text(encoding="utf-8")
    if BEGIN not in doc or END not in doc:
        raise SystemExit(f"{DOC.relative_to(ROOT)} has no {BEGIN} … {END} markers")
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    DOC.write_text(f"{head}{BEGIN}\n{text}{END}{tail}", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    s = commands.add_parser("sample")
    s.add_argument("--out", type=Path, required=True)
    s.add_argument("--per-code", type=int, default=12)
    s.add_argument("--seed", type=int, default=7)
    s.add_argument("--batch-size", type=int, default=40)
    m = commands.add_parser("merge")
    m.add_argument("paths", type=Path, nargs="+")
    m.add_argument("--judge", default="blind")
    m.add_argument("--sample", type=Path, help="the sample.jsonl the verdicts answer (findings since reworded)")
    t = commands.add_parser("table")
    t.add_argument("--write", action="store_true")
    args = parser.parse_args()
    if args.command == "sample":
        sample(args.out, args.per_code, args.seed, args.batch_size)
    elif args.command == "merge":
        merge(args.paths, args.judge, args.sample)
    else:
        text = table()
        print(text)
        if args.write:
            write_table(text)


if __name__ == "__main__":
    main()
