"""`toolclause fuzz`: each weakness of a deliberately weak Toolbox is found; a sound one passes every check."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from toolclause.cli.main import cli
from toolclause.workflow.fuzz import error_like, fuzz_toolbox, leaks_in
from toolclause.workflow.mistakes import KINDS, mistakes_of

SOUND = '''
from typing import Literal
from toolclause import Toolbox, ToolError

box = Toolbox(store="memory://")

@box.tool(read_only=True, errors=["CITY_NOT_FOUND"])
def get_weather(city: str, unit: Literal["celsius", "fahrenheit"] = "celsius", days: int = 1) -> dict:
    """Current weather for a city: temperature and conditions for the next days. Read-only."""
    if city == "Atlantis":
        raise ToolError("CITY_NOT_FOUND", "No such city.")
    return {"city": city, "unit": unit, "days": days}

@box.tool(read_only=True)
def search_orders(query: str, status: Literal["open", "shipped"] | None = None, limit: int = 10) -> list[str]:
    """Find orders by customer name or order id, optionally only open or shipped ones. Read-only."""
    return [query][:limit]
'''

WEAK = '''
from toolclause import Toolbox

box = Toolbox(store="memory://", lint="warn")

@box.tool(read_only=True)
def divide(a: int, b: int) -> str:
    """Divide a by b and return the quotient as text. Read-only."""
    try:
        return str(a / b)
    except Exception as exc:          # swallows the exception and hands its text to the model
        return f"Error: {type(exc).__name__}: {exc}"

def save_note(**fields):
    return {"saved": True}

box.add({"name": "save_note",         # an open schema: no additionalProperties: false, the function takes **fields
         "description": "Save a note with a title and a body; returns whether it was saved.",
         "inputSchema": {"type": "object", "properties": {"title": {"type": "string", "description": "The title."},
                                                            "body": {"type": "string", "description": "The text."}},
                         "required": ["title"]}}, save_note)

@box.tool(read_only=True)
def count_items(name: str) -> int:
    """How many items carry this name. Read-only."""
    return "many"                     # breaks its own outputSchema
'''


def target(tmp_path: Path, name: str, source: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return f"{path}:box"


def fuzz(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["fuzz", *args])
    return result.exit_code, result.stdout + result.stderr


def test_a_sound_toolbox_passes_every_check_and_each_mistake_kind_is_tried(tmp_path: Path):
    code, out = fuzz(target(tmp_path, "sound_app", SOUND), "--seed", "7", "--examples", "15", "--format", "json")
    report = json.loads(out)
    assert code == 0, [t["findings"][:3] for t in report["tools"]]
    assert report["findings"] == 0 and report["seed"] == 7
    sent = {kind: stats["sent"] for kind, stats in report["totals"].items()}
    assert sent["valid"] == 30
    assert all(sent[kind] > 0 for kind in KINDS if kind != "empty-string"), sent
    assert report["totals"]["empty-string"]["skipped"] > 0  # the schemas let a string be empty: no mistake there


def test_each_weakness_of_a_weak_toolbox_is_found(tmp_path: Path):
    code, out = fuzz(target(tmp_path, "weak_app", WEAK), "--seed", "3", "--examples", "20", "--format", "json")
    assert code == 1
    report = json.loads(out)
    found = {(f["tool"], f["kind"], f["check"]) for t in report["tools"] for f in t["findings"]}
    assert ("divide", "valid", "error-as-success") in found       # it swallowed ZeroDivisionError
    assert ("divide", "valid", "leak") in found                   # … and showed its text to the model
    assert ("save_note", "extra-key", "reached-function") in found
    assert ("save_note", "near-miss-key", "reached-function") in found
    assert ("count_items", "valid", "output-violation") in found
    assert {tool for tool, _, _ in found} == {"divide", "save_note", "count_items"}
    leak = next(f for t in report["tools"] for f in t["findings"] if f["check"] == "leak")
    assert '"b": 0' in leak["arguments"]


def test_text_report_per_tool_and_kind_with_the_seed(tmp_path: Path):
    code, out = fuzz(target(tmp_path, "weak_text", WEAK), "--seed", "3", "--examples", "10")
    assert code == 1
    assert "save_note  [FAILED]" in out and "extra-key / reached-function" in out
    assert "per mistake kind, all tools:" in out
    assert out.rstrip().endswith("reproduce with --seed 3 --examples 10")


def test_the_same_seed_gives_the_same_run(tmp_path: Path):
    spec = target(tmp_path, "sound_again", SOUND)
    first = fuzz(spec, "--seed", "11", "--examples", "8", "--format", "json")[1]
    second = fuzz(spec, "--seed", "11", "--examples", "8", "--format", "json")[1]
    assert json.loads(first) == json.loads(second)


def test_a_fuzz_run_leaves_nothing_in_the_working_folder(tmp_path: Path):
    import os
    import subprocess
    import sys

    spec = target(tmp_path, "clean_app", SOUND)
    work = tmp_path / "work"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "HYPOTHESIS_STORAGE_DIRECTORY"}
    done = subprocess.run([sys.executable, "-m", "toolclause.cli.main", "fuzz", spec, "--seed", "1", "--examples", "5"],
                          cwd=work, capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert list(work.iterdir()) == []


def test_targets_that_name_no_toolbox_exit_2(tmp_path: Path):
    assert fuzz(str(tmp_path / "nope.py") + ":box")[0] == 2
    assert fuzz("no_such_module_anywhere:box")[0] == 2
    assert fuzz("not-a-target")[0] == 2
    broken = tmp_path / "broken_app.py"
    broken.write_text("raise RuntimeError('boom')\n")
    code, out = fuzz(f"{broken}:box")
    assert code == 2 and "RuntimeError: boom" in out and "Traceback" not in out
    assert fuzz(target(tmp_path, "other_app", "box = 3\n"))[0] == 2
    assert fuzz(target(tmp_path, "tools_app", SOUND), "--tool", "nope")[0] == 2


def test_the_mistakes_of_one_valid_call():
    schema = {"type": "object", "additionalProperties": False, "required": ["city", "days"],
              "properties": {"city": {"type": "string", "minLength": 1}, "days": {"type": "integer"},
                             "unit": {"enum": ["celsius", "fahrenheit"]},
                             "filters": {"type": "object", "properties": {"max_temp": {"type": "number"}}}}}
    args = {"city": "Seoul", "days": 3, "unit": "celsius", "filters": {"max_temp": 30}}
    made = {(m.kind, m.path): m for m in mistakes_of(args, schema)}
    assert made["numbers-as-strings", "/days"].arguments["days"] == "3"
    assert made["localised-enum", "/unit"].arguments["unit"] == "섭씨"
    assert made["enum-case", "/unit"].arguments["unit"] == "Celsius"
    assert "city" not in made["missing-required", "/city"].arguments
    assert made["extra-key", "/note"].needs_open
    assert made["near-miss-key", "/cit"].also == ("/city",) and made["near-miss-key", "/cit"].needs_open
    assert made["wrong-nesting", "/parameters"].arguments == {"parameters": args}
    assert made["wrong-nesting", "/max_temp"].arguments["max_temp"] == 30     # a nested object flattened
    assert made["null-for-absent", "/city"].refuse and not made["null-for-absent", "/unit"].refuse
    whole = made["double-encoded", ""]
    assert not whole.refuse and json.loads(json.loads(whole.arguments)) == args
    assert made["double-encoded", "/filters"].arguments["filters"] == '{"max_temp": 30}'
    assert made["empty-string", "/city"].arguments["city"] == ""
    assert made["array-for-scalar", "/days"].arguments["days"] == [3]


def test_the_leak_and_error_detectors():
    assert leaks_in('Traceback (most recent call last):\n  File "/srv/app.py", line 3') is not None
    assert leaks_in("KeyError: 'x'") == "KeyError:"
    assert leaks_in("no order with that id; check the id") is None
    assert error_like("Error: division by zero") and error_like({"error": "boom"})
    assert not error_like({"errors_found": 0}) and not error_like("the error rate is 2%")


def test_fuzzing_from_python_restores_the_executor():
    from toolclause import Toolbox

    box = Toolbox(store="memory://")

    @box.tool(read_only=True)
    def echo(text: str) -> str:
        """Return the text it is given, unchanged. Read-only."""
        return text

    before = box.executor
    report = fuzz_toolbox(box, examples=5, seed=1)
    assert box.executor is before and not report.failed
    assert box.call("echo", {"text": "hi"}).ok


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_is_documented(kind: str):
    docs = (Path(__file__).resolve().parents[1] / "docs" / "workflows.md").read_text(encoding="utf-8")
    assert f"`{kind}`" in docs


REPLAYING = '''
from toolclause import Toolbox, ToolError

box = Toolbox("memory://", lint="off")


@box.tool(idempotency="content", errors=["NOT_FOUND"])
def quote_delivery(zone: str) -> dict:
    """Quotes the delivery fee for a zone and returns it; the same zone always gets the same answer."""
    raise ToolError("NOT_FOUND", "no such zone; use a zone list_zones returned")
'''


def test_a_replayed_outcome_is_not_taken_for_a_call_refused_before_the_function(tmp_path: Path):
    # the same generated call sent twice gets the stored outcome (a declared business error) the second time,
    # without running the function again: that is idempotency, not a gate refusing a valid call
    code, out = fuzz(target(tmp_path, "replaying_app", REPLAYING), "--seed", "5", "--examples", "15",
                     "--format", "json")
    report = json.loads(out)
    assert code == 0, [t["findings"][:3] for t in report["tools"]]
    assert report["totals"]["valid"]["sent"] == 15
