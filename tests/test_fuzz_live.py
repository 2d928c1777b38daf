"""`toolclause fuzz --server CMD | --url URL`: a live MCP server fuzzed through tools/call.

Real processes only: the food example served by `toolclause serve` (stdio and Streamable HTTP),
and tests/fixtures/fuzz_live/weak_server.py, a server on the SDK's low-level Server that is weak on
purpose (each weakness must be found) and has a tool that writes a file when it runs (it must not
run unless --dangerously-include-writes).
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from toolclause.cli.main import cli
from toolclause.mcp.fuzzing import fuzz_server
from toolclause.mcp.serving import http_process

ROOT = Path(__file__).resolve().parents[1]
FOOD = ROOT / "examples" / "food" / "app.py"
WEAK = Path(__file__).parent / "fixtures" / "fuzz_live" / "weak_server.py"
SERVE_FOOD = shlex.join([sys.executable, "-m", "toolclause.cli.main", "serve", f"{FOOD}:box"])
WEAK_SERVER = shlex.join([sys.executable, str(WEAK)])
READ_ONLY_FOOD = ["search_restaurants", "get_menu_items", "get_order_status"]
WRITING_FOOD = ["create_order_preview", "place_order", "cancel_order"]


@pytest.fixture
def food_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FOOD_DB", str(tmp_path / "food.db"))
    monkeypatch.setenv("TOOLCLAUSE_STORE", "memory://")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def notes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "notes.jsonl"
    monkeypatch.setenv("NOTES_FILE", str(path))
    return path


def fuzz(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["fuzz", *args])
    return result.exit_code, result.stdout, result.stderr


def orders(db: Path) -> int:
    import sqlite3

    with sqlite3.connect(db) as conn:
        return int(conn.execute("select count(*) from orders").fetchone()[0])


def test_the_food_server_over_stdio_fuzzes_clean_and_only_its_read_only_tools_are_called(food_env: Path):
    code, out, err = fuzz("--server", SERVE_FOOD, "--seed", "5", "--examples", "8", "--format", "json")
    report = json.loads(out)
    assert code == 0, (report["tools"], err)
    assert [t["tool"] for t in report["tools"]] == READ_ONLY_FOOD
    assert sorted(report["skipped"]) == sorted(WRITING_FOOD)
    assert "readOnlyHint" in report["skipped"]["place_order"]
    assert report["findings"] == 0 and report["calls"] > 3 * 8
    sent = {kind: stats["sent"] for kind, stats in report["totals"].items()}
    assert sent["valid"] == 3 * 8 and sent["missing-required"] > 0 and sent["localised-enum"] > 0
    assert sent["double-encoded"] == 0  # a tools/call carries an object: the whole call cannot be a string
    assert orders(food_env / "food.db") == 0


def test_http_and_stdio_make_the_same_calls_with_the_same_answers(food_env: Path):
    by_stdio = fuzz_server(SERVE_FOOD, examples=6, seed=11, tools=["search_restaurants"]).to_dict()
    with http_process(f"{FOOD}:box") as url:
        by_http = fuzz_server(url=url, examples=6, seed=11, tools=["search_restaurants"]).to_dict()
    assert by_http["findings"] == 0 and by_http["calls"] > 6
    assert {**by_http, "server": ""} == {**by_stdio, "server": ""}


def test_the_write_tools_of_the_food_server_run_only_when_asked(food_env: Path):
    code, out, _ = fuzz("--server", SERVE_FOOD, "--seed", "2", "--examples", "4", "--format", "json",
                        "--tool", "place_order", "--tool", "get_menu_items")
    assert code == 0 and [t["tool"] for t in json.loads(out)["tools"]] == ["get_menu_items"]
    code, out, _ = fuzz("--server", SERVE_FOOD, "--seed", "2", "--examples", "4", "--format", "json",
                        "--tool", "place_order", "--dangerously-include-writes")
    report = json.loads(out)
    # every made-up call is refused (no confirmation token of a real preview), and each refusal is a good one
    assert code == 0, report["tools"]
    assert [t["tool"] for t in report["tools"]] == ["place_order"] and report["skipped"] == {}
    assert report["tools"][0]["kinds"]["valid"]["sent"] == 4 and orders(food_env / "food.db") == 0


def test_each_weakness_of_a_weak_server_is_found(notes: Path):
    code, out, _ = fuzz("--server", WEAK_SERVER, "--seed", "3", "--examples", "10", "--format", "json")
    report = json.loads(out)
    assert code == 1
    checks = {t["tool"]: {f["check"] for f in t["findings"]} for t in report["tools"]}
    kinds = {t["tool"]: {f["kind"] for f in t["findings"] if f["check"] == "accepted"} for t in report["tools"]}
    # returns a caught exception as a success, with its exception text; checks nothing it is sent
    assert {"error-as-success", "leak", "accepted"} <= checks["divide"]
    assert {"numbers-as-strings", "missing-required", "wrong-nesting", "array-for-scalar"} <= kinds["divide"]
    # refuses with JSON-RPC errors the model never sees; its result breaks its outputSchema
    assert checks["count_items"] == {"protocol-error", "output-violation"}
    # refuses without naming the argument, or with a traceback
    assert checks["find_user"] == {"path-not-named", "leak"}
    assert report["skipped"] == {"save_note": "not annotated readOnlyHint: true (calling it would run its side "
                                              "effects)"}
    assert not notes.exists()  # the tool that writes never ran


def test_the_text_report_says_what_was_found_and_what_was_not_called(notes: Path):
    code, out, _ = fuzz("--server", WEAK_SERVER, "--seed", "3", "--examples", "5", "--tool", "count_items",
                        "--tool", "save_note")
    assert code == 1
    assert "not called (1; --dangerously-include-writes calls them too):" in out
    assert "save_note: not annotated readOnlyHint: true" in out
    assert "✗ missing-required / protocol-error: a mistaken call (missing-required) was answered with JSON-RPC " \
           "error -32602" in out
    assert "✗ valid / output-violation: the result breaks the outputSchema (at /count: \"many\" is not of type " \
           "\"integer\")" in out
    assert not notes.exists()


def test_dangerously_include_writes_calls_the_tools_that_write(notes: Path):
    code, out, _ = fuzz("--server", WEAK_SERVER, "--seed", "3", "--examples", "4", "--format", "json",
                        "--tool", "save_note", "--dangerously-include-writes")
    report = json.loads(out)
    assert [t["tool"] for t in report["tools"]] == ["save_note"]
    written = [json.loads(line) for line in notes.read_text(encoding="utf-8").splitlines()]
    assert len(written) >= 4 and {"title"} in [set(w) for w in written]
    # an open schema and no checking: the extra key and the near miss are taken as successes
    assert code == 1
    assert {f["kind"] for f in report["tools"][0]["findings"] if f["check"] == "accepted"} >= {"extra-key",
                                                                                               "missing-required"}
    assert any("its schema is open" in f["message"] for f in report["tools"][0]["findings"])


@pytest.mark.parametrize(("args", "message"), [
    (["app.py:box", "--server", "x"], "fuzz either a TARGET or a live server (--server/--url), not both"),
    (["--server", "x", "--url", "http://h/mcp"], "give --server or --url, not both"),
    ([], "give a TARGET (path/to/app.py:box) or a live server with --server CMD or --url URL"),
    (["app.py:box", "--dangerously-include-writes"], "--dangerously-include-writes goes with --server/--url"),
    (["--server", "x", "--header", "A: b"], "--header goes with --url"),
])
def test_usage_errors_exit_2(args: list[str], message: str):
    code, _, err = fuzz(*args)
    assert code == 2 and message in err


def test_a_server_that_cannot_start_or_lacks_a_tool_is_one_line(notes: Path):
    code, out, err = fuzz("--server", "toolclause-no-such-command --x")
    assert code == 2 and out == ""
    assert err.strip() == ("toolclause: error: server 'toolclause-no-such-command --x': cannot start "
                           "'toolclause-no-such-command': no such command (is it installed and on PATH?)")
    code, out, err = fuzz("--server", WEAK_SERVER, "--tool", "nope")
    assert code == 2 and out == ""
    assert "lists no tool named nope (it lists: divide, count_items, find_user, save_note)" in err
    assert len(err.strip().splitlines()) == 1
