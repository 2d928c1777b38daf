"""Replay BFCL's ground-truth calls through the gate: how many valid answers does Toolbox.call accept?

Each BFCL test (an id) lists its tool definitions (instances.jsonl: id → the
sha256 of each tool, sorted compact JSON) and its accepted answers
(possible_answer/*.json: [{func_name: {arg: [acceptable values…]}}], "" =
"may be omitted").  Every definition is registered in a Toolbox with a function
that echoes its arguments, after S002's safe type repairs (`"dict"` → `"object"`,
`"float"` → `"number"`, export.repair.with_fixed_types); names with dots are
fine (a Toolbox is not a provider).  Each answer is built from the first
acceptable value of each argument (omitted when only "" is accepted; nested
objects likewise) and called as a JSON string.  Multi-turn answers are Python
call strings (`cd(folder='document')`), parsed with `ast`, positional arguments
taken in the order the definition lists its properties; the tools of a
multi-turn test are its involved classes' function docs.

Registration uses lint="error" first; a tool refused for a lint error is
counted and registered again with lint="warn", so its calls are still replayed
(the figures say how many).  Every failure is grouped by its reason and
classified: a defect of toolclause's, or of the dataset.

    .venv/bin/python bench/replay_bfcl.py [--corpora PATH] [--examples 3]
"""

from __future__ import annotations

import argparse
import ast
import collections
import hashlib
import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

from toolclause import Toolbox, load
from toolclause.exporting.repair import with_fixed_types
from toolclause.runtime import ToolRegistrationError

MULTI_TURN_DOCS = {
    "GorillaFileSystem": "gorilla_file_system.json", "MathAPI": "math_api.json", "MessageAPI": "message_api.json",
    "TwitterAPI": "posting_api.json", "TicketAPI": "ticket_api.json", "TradingBot": "trading_bot.json",
    "TravelAPI": "travel_booking.json", "VehicleControlAPI": "vehicle_control.json",
}
SKIPPED_FILES = {"BFCL_v4_memory.json": "answers are facts to recall, not function calls",
                 "BFCL_v4_web_search.json": "answers are facts found on the web, not function calls"}


def sha(tool: Any) -> str:
    return hashlib.sha256(json.dumps(tool, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
                          .encode()).hexdigest()


def echo(**arguments: Any) -> dict:
    return arguments


class Registry:
    """One Toolbox per distinct definition (the same name has several definitions across BFCL)."""

    def __init__(self, records: list[dict]) -> None:
        self.by_sha = {sha(r["tool"]): r for r in records}
        self.by_doc: dict[str, list[str]] = collections.defaultdict(list)
        for key, record in self.by_sha.items():
            origin = record["origin"]
            if "multi_turn_func_doc/" in origin:
                self.by_doc[origin.rsplit("/", 1)[1]].append(key)
        self.boxes: dict[str, Toolbox | None] = {}
        self.refused: collections.Counter = collections.Counter()   # lint code → tools refused under lint="error"
        self.uncompilable: list[str] = []

    def box(self, key: str) -> Toolbox | None:
        if key not in self.boxes:
            self.boxes[key] = self._register(key)
        return self.boxes[key]

    def _register(self, key: str) -> Toolbox | None:
        contract = with_fixed_types(load(self.by_sha[key]["tool"], "bfcl")[0])
        for mode in ("error", "warn"):
            box = Toolbox("memory://", lint=mode)
            try:
                box.add(contract, echo)
                return box
            except ToolRegistrationError as exc:
                if mode == "error" and exc.diagnostics:
                    for code in sorted({d.code for d in exc.diagnostics}):
                        self.refused[code] += 1
                    continue
                self.uncompilable.append(f"{contract.name}: {str(exc).splitlines()[0]}")
                return None
        return None


def first_value(acceptable: Any) -> tuple[bool, Any]:
    """(present, value): the first acceptable value that is not "", built recursively."""
    if not isinstance(acceptable, list):
        return True, build(acceptable)
    for value in acceptable:
        if value != "":
            return True, build(value)
    return False, None


def build(value: Any) -> Any:
    if isinstance(value, dict):
        out = {}
        for key, acceptable in value.items():
            present, chosen = first_value(acceptable)
            if present:
                out[key] = chosen
        return out
    if isinstance(value, list):
        return [build(v) for v in value]
    return value


def python_call(text: str, order: dict[str, list[str]]) -> tuple[str, dict] | None:
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        return None
    if not isinstance(node, ast.Call):
        return None
    name = ast.unparse(node.func)
    try:
        args = {k.arg: ast.literal_eval(k.value) for k in node.keywords if k.arg}
        positional = [ast.literal_eval(a) for a in node.args]
    except ValueError:
        return None
    for param, value in zip(order.get(name, []), positional, strict=False):
        args[param] = value
    return name, args


def classify(result: Any, arguments: dict, contract: Any) -> tuple[str, str]:
    """(whose defect, reason) for a refused answer."""
    error = result.error
    details = error.details
    first = details[0] if details else {}
    problem = first.get("problem", "?")
    props = (contract.input_schema or {}).get("properties") or {}
    prop_name = first.get("path", "").split("/")[1] if first.get("path", "").count("/") >= 1 else ""
    prop = props.get(prop_name, {}) if isinstance(props, dict) else {}
    if error.code == "INVALID_ARGUMENTS_JSON":
        return "ours?", f"INVALID_ARGUMENTS_JSON: {first.get('problem')}"
    if problem == "required":
        return "dataset", "required parameter the answer omits (answer accepts only \"\")"
    if problem == "enum":
        if prop.get("type") == "array" and "enum" in prop:
            return "dataset", "enum written on an array instead of its items (no array can match)"
        return "dataset", "answer value outside the definition's enum"
    if problem == "type":
        value = arguments.get(prop_name)
        expected = first.get("expected", "?")
        if isinstance(value, str) and expected in ("array", "object", "integer", "number", "boolean"):
            return "dataset", f"answer gives a string where the definition declares {expected}"
        if isinstance(value, float) and expected == "integer":
            return "dataset", "answer gives a fraction where the definition declares integer"
        if isinstance(value, bool) and expected != "boolean":
            return "dataset", f"answer gives a boolean where the definition declares {expected}"
        if isinstance(value, (int, float)) and expected == "string":
            return "dataset", "answer gives a number where the definition declares string"
        if isinstance(value, list) and expected in ("string", "object"):
            return "dataset", f"answer gives an array where the definition declares {expected}"
        if isinstance(value, dict) and expected in ("string", "array"):
            return "dataset", f"answer gives an object where the definition declares {expected}"
        return "dataset", f"type mismatch (expected {expected}) in a nested value"
    if problem == "format":
        return "ours?", f"format assertion: {first.get('expected')}"
    if problem in ("anyOf", "oneOf"):
        return "dataset", f"value fits no branch of {problem}"
    return "dataset?", f"{problem}: {first.get('expected', '')}".strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "corpora")
    parser.add_argument("--examples", type=int, default=2, help="examples printed per reason")
    args = parser.parse_args()
    logging.getLogger("toolclause").setLevel(logging.CRITICAL)  # contract-gap and lint logs would drown the figures
    root = args.corpora / "bfcl"
    records = [json.loads(line) for line in (root / "tools.jsonl").open()]
    instances = {i["id"]: i for i in map(json.loads, (root / "instances.jsonl").open())}
    registry = Registry(records)
    started = time.perf_counter()
    calls = passed = 0
    per_file: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    reasons: collections.Counter = collections.Counter()
    examples: dict[tuple[str, str], list[str]] = collections.defaultdict(list)
    unmatched: collections.Counter = collections.Counter()
    for answer_file in sorted((root / "possible_answer").glob("*.json")):
        if answer_file.name in SKIPPED_FILES:
            continue
        for line in answer_file.open():
            entry = json.loads(line)
            instance = instances.get(entry["id"])
            if instance is None:
                unmatched["answer id not in instances.jsonl"] += 1
                continue
            keys = instance.get("tool_sha256") or [k for c in instance.get("involved_classes", [])
                                                    for k in registry.by_doc.get(MULTI_TURN_DOCS.get(c, ""), [])]
            tools: dict[str, tuple[Toolbox | None, Any]] = {}
            for key in keys:
                if key in registry.by_sha:
                    box = registry.box(key)
                    contract = with_fixed_types(load(registry.by_sha[key]["tool"], "bfcl")[0])
                    tools[contract.name] = (box, contract)
                else:
                    unmatched["tool hash not in tools.jsonl"] += 1
            for name, arguments in _answers(entry, tools):
                calls += 1
                per_file[answer_file.name][0] += 1
                if name not in tools:
                    reasons[("dataset", "answer calls a function not among the test's tools")] += 1
                    examples[("dataset", "answer calls a function not among the test's tools")].append(
                        f"{entry['id']}: {name}")
                    continue
                box, contract = tools[name]
                if box is None:
                    reasons[("dataset", "definition cannot be compiled")] += 1
                    continue
                result = box.call(name, json.dumps(arguments), run=entry["id"])
                if result.ok:
                    passed += 1
                    per_file[answer_file.name][1] += 1
                    continue
                reason = classify(result, arguments, contract)
                reasons[reason] += 1
                examples[reason].append(f"{entry['id']} {name}: {result.error.message[:200]}")
    elapsed = time.perf_counter() - started
    print(f"BFCL replay: {calls} ground-truth calls, {passed} accepted ({passed / max(calls, 1):.1%}), "
          f"{calls - passed} refused; {len(registry.boxes)} definitions registered in {elapsed:.1f} s")
    print(f"skipped: {', '.join(f'{k} ({v})' for k, v in SKIPPED_FILES.items())}")
    if unmatched:
        print("not replayable:", dict(unmatched))
    print(f"\nregistration with lint='error': {sum(registry.refused.values())} refusals by code "
          f"(each tool then registered with lint='warn'): {dict(registry.refused.most_common())}")
    if registry.uncompilable:
        print(f"definitions that cannot be compiled at all: {len(registry.uncompilable)}")
        for line in registry.uncompilable[:5]:
            print("   ", line)
    print("\nper answer file (calls, accepted):")
    for name, (total, ok) in sorted(per_file.items()):
        print(f"  {name:<45} {total:5d} {ok:5d}  {ok / max(total, 1):6.1%}")
    print("\nrefusals by reason (whose defect, reason, count):")
    for (whose, reason), count in reasons.most_common():
        print(f"  {count:5d}  [{whose}] {reason}")
        for example in examples[(whose, reason)][: args.examples]:
            print(f"           e.g. {example}")
    return 0


def _answers(entry: dict, tools: dict[str, tuple[Any, Any]]):
    truth = entry.get("ground_truth")
    if not isinstance(truth, list):
        return
    order = {name: list(((c.input_schema or {}).get("properties") or {}).keys()) for name, (_, c) in tools.items()}
    for item in truth:
        if isinstance(item, dict):
            for name, acceptable in item.items():
                yield name, build(acceptable) if isinstance(acceptable, dict) else {}
        elif isinstance(item, list):  # multi-turn: one list of Python call strings per turn
            for text in item:
                parsed = python_call(text, order) if isinstance(text, str) else None
                if parsed is not None:
                    yield parsed


if __name__ == "__main__":
    sys.exit(main())
