"""Text rules read a bounded amount of text: a 100 KB description lints in linear time, not minutes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from toolclause.rules.description._closed_sets import MAX_DESCRIPTION_CHARS, closed_set


def test_a_closed_set_is_read_from_the_start_of_a_description_only():
    listed = "Sort order: one of 'asc' or 'desc'."
    assert closed_set(listed, False) is not None
    filler = "The order in which the results come back, as the user asked for it. " * 40
    assert len(filler) > MAX_DESCRIPTION_CHARS
    assert closed_set(filler + listed, False) is None


def test_huge_list_like_descriptions_lint_without_blowing_up(tmp_path: Path):
    shapes = {
        "quoted list": "Use one of: " + ", ".join(f"'v{i}'" for i in range(20_000)),
        "bare codes": "Values " + ", ".join(f"A-{i}" for i in range(20_000)),
        "words": "the order id of a customer record that is returned when the status changes " * 1_500,
    }
    for label, text in shapes.items():
        text = text[:100_000]
        tool = {"name": "get_order", "description": "Returns one order by its id. " + text,
                "inputSchema": {"type": "object", "required": ["order_id"],
                                "properties": {"order_id": {"type": "string", "description": text}}}}
        path = tmp_path / "tool.json"
        path.write_text(json.dumps(tool), encoding="utf-8")
        # a run that took minutes before is killed here and fails the test (no time is asserted)
        done = subprocess.run([sys.executable, "-m", "toolclause.cli.main", "lint", str(path), "--target", "all",
                               "--fail-on", "never"], capture_output=True, text=True, timeout=90)
        assert done.returncode == 0, (label, done.stderr[-500:])


def test_one_long_sentence_is_read_in_linear_time_even_past_the_cap():
    # below the cap the cue search itself must stay linear: the Korean "one of" pattern was tried from every
    # position of a sentence without its tail (20 KB took seconds, 200 KB would take minutes)
    probe = ("from toolclause.rules.description._closed_sets import _from_cue; "
             "_from_cue('Choose one of a, b or c ' + 'word ' * 40_000); "
             "assert _from_cue('값은 ' + '가나다 ' * 3_000 + 'asc, desc 중 하나') is not None")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-500:]
