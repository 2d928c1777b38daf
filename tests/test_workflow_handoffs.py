"""Handoffs validated by `$id` and routed by rules in a safe expression language; checkpoints in every store."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from toolclause.workflow.checkpoints import CheckpointError, Checkpoints
from toolclause.workflow.expressions import Expression, ExpressionError
from toolclause.workflow.handoffs import HandoffConfigError, HandoffError, Handoffs

TRIAGE = {
    "$id": "urn:example:handoff:triage_to_billing",
    "type": "object",
    "properties": {"intent": {"enum": ["refund", "invoice_question"]},
                   "confidence": {"type": "number", "minimum": 0, "maximum": 1},
                   "order_id": {"type": "string", "pattern": "^ord_"}},
    "required": ["intent", "confidence", "order_id"],
    "additionalProperties": False,
    "x-routes": [{"when": "intent == 'refund' and confidence >= 0.8", "to": "billing_agent"},
                 {"when": "intent == \"refund\"", "to": "human_review"}],
}
ESCALATION = {
    "$id": "urn:example:handoff:escalation",
    "type": "object",
    "properties": {"severity": {"enum": ["low", "high"]}, "reason": {"type": "string"}},
    "required": ["severity", "reason"],
    "additionalProperties": False,
    "x-routes": [{"when": "severity == 'high'", "to": "on_call"}, {"to": "support_queue"}],
}
STATE_V2 = {
    "$id": "urn:example:state:refund_flow",
    "version": 2,
    "type": "object",
    "properties": {"step": {"enum": ["triaged", "approved", "refunded"]},
                   "handoff": {"$ref": "urn:example:handoff:triage_to_billing"},
                   "refund_id": {"type": ["string", "null"]}},
    "required": ["step", "refund_id"],
    "additionalProperties": False,
}
HANDOFF = {"intent": "refund", "confidence": 0.93, "order_id": "ord_8F2K"}


def write(folder: Path, name: str, value: dict) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(json.dumps(value, indent=2), encoding="utf-8")


@pytest.fixture
def contracts(tmp_path: Path) -> Path:
    write(tmp_path / "contracts" / "handoffs", "triage_to_billing.json", TRIAGE)
    write(tmp_path / "contracts" / "handoffs", "escalation.json", ESCALATION)
    write(tmp_path / "contracts" / "state", "refund_flow.json", STATE_V2)
    return tmp_path / "contracts"


# --------------------------------------------------------------------------- the expression language

@pytest.mark.parametrize("source, expected", [
    ("intent == 'refund' and confidence >= 0.8", True),
    ("intent == 'refund' and confidence >= 0.95", False),
    ("customer.tier in ['gold', 'platinum']", True),
    ("customer.tier not in ['gold']", False),
    ("not (amount < 100) or items[0].sku == \"A-1\"", True),
    ("missing.deeper == null and missing != 0", True),
    ("confidence > 'high'", False),          # no ordering between kinds: false, not an error
    ("flag == 1", False),                    # true is not 1
    ("amount == 50.0", True),
    ("'fund' in intent", True),
])
def test_expressions_evaluate_over_json(source: str, expected: bool):
    obj = {"intent": "refund", "confidence": 0.9, "customer": {"tier": "gold"}, "amount": 50, "flag": True,
           "items": [{"sku": "A-1"}]}
    assert Expression.parse(source)(obj) is expected


@pytest.mark.parametrize("source, column", [
    ("intent ==", 10), ("__import__('os').system('id')", 11), ("a = 1", 3), ("a.", 3), ("and", 1),
    ("(" * 60 + "a" + ")" * 60, 51), ("x in [1, 2", 11), ("", 1), ("lambda: 1", 7),
    ("[" * 999 + "]" * 999, 51), ("not " * 60 + "a", 201),
])
def test_anything_outside_the_language_is_refused_with_its_column(source: str, column: int):
    with pytest.raises(ExpressionError) as caught:
        Expression.parse(source)
    assert caught.value.column == column


# --------------------------------------------------------------------------- handoffs

def test_a_handoff_is_validated_by_id_and_routed_by_the_first_matching_rule(contracts: Path):
    handoffs = Handoffs(contracts / "handoffs")
    assert sorted(handoffs.ids) == ["urn:example:handoff:escalation", "urn:example:handoff:triage_to_billing"]
    route = handoffs.route(HANDOFF)  # fits only the triage schema
    assert route.to_dict() == {"to": "billing_agent", "schema": "urn:example:handoff:triage_to_billing",
                               "rule": 0, "when": "intent == 'refund' and confidence >= 0.8"}
    assert handoffs.route({**HANDOFF, "confidence": 0.4}).to == "human_review"
    assert handoffs.route({"severity": "low", "reason": "x"}, schema="escalation").to == "support_queue"
    named = {"$schema": "urn:example:handoff:escalation", "severity": "high", "reason": "down"}
    assert handoffs.route(named).to == "on_call"
    assert handoffs.validate(HANDOFF, schema="urn:example:handoff:triage_to_billing") is HANDOFF


def test_a_handoff_that_does_not_conform_or_matches_no_rule_is_a_structured_error(contracts: Path):
    handoffs = Handoffs(contracts / "handoffs")
    with pytest.raises(HandoffError) as caught:
        handoffs.route({"intent": "refund", "confidence": 3, "order_id": "8F2K"},
                       schema="urn:example:handoff:triage_to_billing")
    error = caught.value.to_dict()
    assert error["code"] == "HANDOFF_INVALID"
    assert sorted(d["path"] for d in error["details"]) == ["/confidence", "/order_id"]
    with pytest.raises(HandoffError) as caught:
        handoffs.route({**HANDOFF, "intent": "invoice_question"})
    assert caught.value.code == "NO_ROUTE" and "intent == 'refund'" in caught.value.message
    with pytest.raises(HandoffError) as caught:
        handoffs.route({"anything": 1})
    assert caught.value.code == "UNKNOWN_HANDOFF"
    with pytest.raises(HandoffError) as caught:
        handoffs.route(HANDOFF, schema="urn:nope")
    assert caught.value.code == "UNKNOWN_HANDOFF" and "urn:example:handoff:escalation" in caught.value.message


def test_a_bad_rule_refuses_the_folder_naming_the_file_and_rule(contracts: Path):
    write(contracts / "handoffs", "escalation.json",
          {**ESCALATION, "x-routes": [{"when": "severity = 'high'", "to": "on_call"}]})
    with pytest.raises(HandoffConfigError, match=r"escalation.json:\d+ /x-routes/0/when: unexpected character '='"):
        Handoffs(contracts / "handoffs")
    write(contracts / "handoffs", "escalation.json", {**ESCALATION, "x-routes": [{"when": "true"}]})
    with pytest.raises(HandoffConfigError, match="/x-routes/0: a rule is"):
        Handoffs(contracts / "handoffs")
    with pytest.raises(HandoffConfigError, match="no such folder"):
        Handoffs(contracts / "nowhere")


# --------------------------------------------------------------------------- checkpoints

def test_checkpoints_round_trip_in_every_store_and_refuse_invalid_state(contracts: Path, store_url: str):
    checkpoints = Checkpoints(contracts / "state", store=store_url)
    run = f"run-{uuid.uuid4().hex[:8]}"
    try:
        state = {"step": "triaged", "handoff": HANDOFF, "refund_id": None}
        checkpoints.save(run, state)
        loaded = checkpoints.load(run)
        assert (loaded.state, loaded.version, loaded.schema_id) == (state, 2, "urn:example:state:refund_flow")
        checkpoints.save(run, {**state, "step": "refunded", "refund_id": "rf_1"})  # the run's next checkpoint
        assert checkpoints.load(run).state["refund_id"] == "rf_1"
        with pytest.raises(CheckpointError) as caught:
            checkpoints.save(run, {**state, "handoff": {**HANDOFF, "confidence": 7}})  # checked through the $ref
        assert caught.value.code == "CHECKPOINT_INVALID"
        assert [d["path"] for d in caught.value.details] == ["/handoff/confidence"]
        with pytest.raises(CheckpointError) as caught:
            checkpoints.load(f"{run}-never-saved")
        assert caught.value.code == "CHECKPOINT_NOT_FOUND"
    finally:
        checkpoints.close()


def test_an_old_checkpoint_is_migrated_and_one_that_fails_on_load_is_never_accepted(contracts: Path):
    v1 = {**STATE_V2, "version": 1, "required": ["step"]}
    v1["properties"] = {"step": STATE_V2["properties"]["step"]}
    write(contracts / "old_state" / "state", "refund_flow.json", v1)
    old = Checkpoints(contracts / "old_state" / "state", store="memory://")
    old.save("run-1", {"step": "approved"})
    old.save("run-2", {"step": "approved"})

    new = Checkpoints(contracts / "state", store=old.store)  # the same store, the schema now at version 2
    with pytest.raises(CheckpointError) as caught:
        new.load("run-1")
    assert caught.value.code == "CHECKPOINT_VERSION" and "no migration from version 1" in caught.value.message

    @new.migration("urn:example:state:refund_flow", from_version=1)
    def add_refund_id(state: dict) -> dict:
        return {**state, "refund_id": None}

    loaded = new.load("run-1")
    assert (loaded.state, loaded.version, loaded.saved_version) == ({"step": "approved", "refund_id": None}, 2, 1)

    new._migrations[("urn:example:state:refund_flow", 1)] = lambda state: {**state, "refund_id": 5}  # a bad one
    with pytest.raises(CheckpointError) as caught:
        new.load("run-2")
    assert caught.value.code == "CHECKPOINT_INVALID" and caught.value.details[0]["path"] == "/refund_id"

    newer = Checkpoints(contracts / "old_state" / "state", store=old.store)
    new.save("run-3", {"step": "triaged", "refund_id": None})
    with pytest.raises(CheckpointError) as caught:
        newer.load("run-3")
    assert caught.value.code == "CHECKPOINT_VERSION" and "newer" in caught.value.message
