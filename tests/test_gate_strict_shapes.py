"""Calls made from a strict export reach the function in the canonical shape, with or without a null in them.

A strict projection sends a free-keyed map as `[{"key": …, "value": …}]` and an optional property whose
null means something as `{"set": value}` (null then means "not given"); the gate turns both back.
"""

from __future__ import annotations

import json
from typing import Annotated

from pydantic import Field

from toolclause import Toolbox


def make_box(seen: list[dict]) -> Toolbox:
    box = Toolbox(lint="off")

    @box.tool
    def set_scores(scores: Annotated[dict[str, int], Field(description="Score per player name.")]) -> dict:
        """Records each player's score and returns the scores as stored."""
        seen.append({"scores": scores})
        return {"scores": scores}

    @box.tool
    def update_task(task_id: Annotated[str, Field(description="The task to change.")],
                    owner: Annotated[str | None, Field(description="The new owner; pass null to clear the owner.")]
                    = None) -> dict:
        """Changes a task's owner and returns the task."""
        seen.append({"task_id": task_id, "owner": owner})
        return {"task_id": task_id, "owner": owner}

    return box


def strict_parameters(box: Toolbox, name: str) -> dict:
    (spec,) = [t for t in box.export("openai-chat", strict=True) if t["function"]["name"] == name]
    return spec["function"]["parameters"]


def test_a_map_sent_as_key_value_pairs_arrives_as_the_map():
    seen: list[dict] = []
    box = make_box(seen)
    assert strict_parameters(box, "set_scores")["properties"]["scores"]["type"] == "array"  # the pairs projection
    result = box.call("set_scores", json.dumps({"scores": [{"key": "ana", "value": 3}, {"key": "bo", "value": 5}]}))
    assert result.ok, result.error
    assert seen == [{"scores": {"ana": 3, "bo": 5}}]


def test_a_map_sent_as_a_map_still_arrives_unchanged():
    seen: list[dict] = []
    result = make_box(seen).call("set_scores", {"scores": {"ana": 3}})
    assert result.ok and seen == [{"scores": {"ana": 3}}]


def test_a_value_wrapped_in_set_arrives_unwrapped_when_the_call_holds_no_null():
    seen: list[dict] = []
    box = make_box(seen)
    owner = strict_parameters(box, "update_task")["properties"]["owner"]
    assert "anyOf" in owner  # {"set": value} or null
    result = box.call("update_task", '{"task_id": "t1", "owner": {"set": "bob"}}')
    assert result.ok, result.error
    assert seen == [{"task_id": "t1", "owner": "bob"}]
