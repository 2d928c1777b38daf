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
        it into docs/precision.md between its markers, a line a rule into README.md, and the
        figures `toolclause rules` quotes into src/toolclause/data/precision.json
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
README = ROOT / "README.md"
README_BEGIN, README_END = "<!-- rule-precision:begin -->", "<!-- rule-precision:end -->"
DATA = ROOT / "src" / "toolclause" / "data" / "precision.json"
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

def sample(out: Path, per_code: int, seed: int, batch_size: int, skip: tuple[str, ...] = (),
           severities: tuple[str, ...] = ("error", "warning", "info")) -> None:
    judged = {verdict_key(v) for v in read_verdicts()}
    by_code: dict[tuple[str, str], list[Finding]] = defaultdict(list)  # a code reported at two severities
    for f in findings():                                                # is sampled at each
        if not (skip and f.code.startswith(skip)) and f.severity in severities:
            by_code[(f.code, f.severity)].append(f)
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

LIST_CODES = frozenset({"P005", "N004"})  # one finding a list, placed on whichever tool passes the budget


def _place(file: str, tool: str, code: str, pointer: str) -> tuple[str, ...]:
    return (file, code) if code in LIST_CODES else (file, tool, code, pointer)


def table() -> str:
    return measure()[0]


def measure() -> tuple[str, dict]:
    """The doc's table, and the figures `toolclause rules` quotes (src/toolclause/data/precision.json)."""
    current = findings()
    now = {f.key: f for f in current}
    place: dict[tuple[str, ...], Finding] = {_place(f.file, f.tool, f.code, f.pointer): f for f in current}
    counts = Counter((f.code, f.severity) for f in current)
    judged: dict[tuple[str, str], Counter] = defaultdict(Counter)
    removed_right: Counter = Counter()
    demoted_right: Counter = Counter()
    reworded = 0
    for v in read_verdicts():
        key = verdict_key(v)
        here = place.get(_place(*key[:4]))
        if key in now:
            judged[(v["code"], now[key].severity)][v["verdict"]] += 1
        elif here is None:
            if v["verdict"] == "right" and (SERVERS / v["file"]).exists():
                removed_right[v["code"]] += 1
            continue
        else:
            reworded += 1
        if v["verdict"] == "right" and here is not None and \
                SEVERITY_ORDER[here.severity] > SEVERITY_ORDER[v["severity"]]:
            demoted_right[v["code"]] += 1
    servers = server_files()
    tools = sum(len(json.loads(p.read_text(encoding="utf-8")).get("tools", [])) for p in servers)
    rows = [f"Measured on {len(servers)} servers, {tools} tools: each file linted on its own with the default "
            "rules and targets.  A code reported at two severities has a row for each.  *precision* is right ÷ "
            "judged; *est.* weighs each row's precision by its number of findings.  *right removed* and *right "
            "demoted* count findings judged right that the rules no longer report, or report lower.", "",
            "| code | severity | findings | judged | right | debatable | wrong | precision | right removed "
            "| right demoted |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    totals: dict[str, Counter] = {"warning+": Counter(), "info": Counter(), "all": Counter()}
    estimate = [0.0, 0.0]
    order = sorted(counts, key=lambda cs: (SEVERITY_ORDER[cs[1]], cs[0]))
    shown_codes: set[str] = set()
    for code, sev in order:
        j = judged[(code, sev)]
        n = sum(j.values())
        first = code not in shown_codes  # removals are per code: counted on its first row
        shown_codes.add(code)
        removed = removed_right.get(code, 0) if first else 0
        demoted = demoted_right.get(code, 0) if first else 0
        precision = f"{j['right'] / n:.2f}" if n else "—"
        rows.append(f"| {code} | {sev} | {counts[(code, sev)]} | {n} | {j['right']} | {j['debatable']} | "
                    f"{j['wrong']} | {precision} | {removed} | {demoted} |")
        group = "warning+" if sev in ("error", "warning") else "info"
        for name in (group, "all"):
            totals[name].update(j)
            totals[name]["findings"] += counts[(code, sev)]
            totals[name]["removed"] += removed
            totals[name]["demoted"] += demoted
        if group == "warning+" and n:
            estimate[0] += counts[(code, sev)] * j["right"] / n
            estimate[1] += counts[(code, sev)]
    for code in sorted(set(removed_right) - shown_codes):
        rows.append(f"| {code} | — | 0 | 0 | 0 | 0 | 0 | — | {removed_right[code]} | 0 |")
        totals["all"]["removed"] += removed_right[code]
    for name, t in totals.items():
        n = t["right"] + t["debatable"] + t["wrong"]
        precision = f"{t['right'] / n:.2f}" if n else "—"
        if name == "warning+" and estimate[1]:
            precision += f" (est. {estimate[0] / estimate[1]:.2f})"
        rows.append(f"| **{name}** | | {t['findings']} | {n} | {t['right']} | {t['debatable']} | {t['wrong']} | "
                    f"{precision} | {t['removed']} | {t['demoted']} |")
    wrong_share = totals["all"]["wrong"] / max(1, sum(totals["all"][k] for k in VERDICT_NAMES))
    rows += ["", f"Wrong at any severity: {wrong_share:.1%} of the judged findings.  "
             f"Verdicts of findings since reworded (judged again under their new wording): {reworded}."]
    data: dict = {"measured_on": {"servers": len(servers), "tools": tools}, "codes": {}}
    for code, sev in order:
        j = judged[(code, sev)]
        data["codes"].setdefault(code, {})[sev] = {"findings": counts[(code, sev)], "judged": sum(j.values()),
                                                   **{name: j[name] for name in VERDICT_NAMES}}
    return "\n".join(rows) + "\n", data


def _replace_between(path: Path, begin: str, end: str, text: str) -> None:
    doc = path.read_text(encoding="utf-8")
    if begin not in doc or end not in doc:
        raise SystemExit(f"{path.relative_to(ROOT)} has no {begin} … {end} markers")
    head, rest = doc.split(begin, 1)
    _, tail = rest.split(end, 1)
    path.write_text(f"{head}{begin}\n{text}{end}{tail}", encoding="utf-8")


def readme_rows(data: dict) -> str:
    """One line a rule for the README: its severity, why, and what it measured."""
    from toolclause.rules import ALL_RULES
    from toolclause.rules.measured import rationale

    rows = ["| code | severity (why) | measured on real servers: right ÷ judged at warning or error (judged) |",
            "|---|---|---|"]
    for rule in ALL_RULES:
        right = judged = 0
        for sev, c in data["codes"].get(rule.code, {}).items():
            if sev in ("error", "warning"):
                right, judged = right + c["right"], judged + c["judged"]
        measured = f"{right / judged:.2f} ({judged})" if judged >= 5 else \
            ("too few judged" if judged or rule.code in data["codes"] else "no finding there")
        if rule.client_config:
            measured = "judges client configurations, not servers: see docs/precision.md"
        rows.append(f"| {rule.code} {rule.name} | {rationale(rule)} | {measured} |")
    return "\n".join(rows) + "\n"


def write_all(text: str, data: dict) -> None:
    _replace_between(DOC, BEGIN, END, text)
    _replace_between(README, README_BEGIN, README_END, readme_rows(data))
    DATA.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    s = commands.add_parser("sample")
    s.add_argument("--out", type=Path, required=True)
    s.add_argument("--per-code", type=int, default=12)
    s.add_argument("--seed", type=int, default=7)
    s.add_argument("--batch-size", type=int, default=40)
    s.add_argument("--skip", default="", help="codes or prefixes to leave out, comma separated")
    s.add_argument("--severities", default="error,warning,info", help="the severities to sample, comma separated")
    m = commands.add_parser("merge")
    m.add_argument("paths", type=Path, nargs="+")
    m.add_argument("--judge", default="blind")
    m.add_argument("--sample", type=Path, help="the sample.jsonl the verdicts answer (findings since reworded)")
    t = commands.add_parser("table")
    t.add_argument("--write", action="store_true")
    args = parser.parse_args()
    if args.command == "sample":
        sample(args.out, args.per_code, args.seed, args.batch_size, tuple(c for c in args.skip.split(",") if c),
               tuple(args.severities.split(",")))
    elif args.command == "merge":
        merge(args.paths, args.judge, args.sample)
    else:
        text, data = measure()
        print(text)
        if args.write:
            write_all(text, data)


if __name__ == "__main__":
    main()
