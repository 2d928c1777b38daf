"""`toolclause state list|show|purge` on a real store file."""

from __future__ import annotations

import json
import time

import pytest

from toolclause import Toolbox
from toolclause.cli.main import main
from toolclause.cli.state_command import parse_duration
from toolclause.stores import IN_PROGRESS, Record


def run(capsys, *args):
    with pytest.raises(SystemExit) as caught:
        main(list(args))
    out = capsys.readouterr()
    return caught.value.code, out.out, out.err


@pytest.fixture
def store(tmp_path):
    url = f"sqlite:///{tmp_path}/state.db"
    box = Toolbox(url, lint="off")

    @box.tool(idempotency="key")
    def charge(order_id: str, amount: int) -> dict:
        """Charges the card for an order and returns the payment."""
        return {"paid": amount}

    box.call("charge", {"order_id": "o1", "amount": 5, "idempotency_key": "k-paid"})
    now = time.time()
    box.state_store.claim(Record("", "charge", "k-stuck", "f" * 64, IN_PROGRESS, "gone", now - 900, now - 900,
                                 now - 600, now + 3600), now)
    box.close()
    return url


def test_list_shows_each_record_with_its_state(store, capsys):
    code, out, _ = run(capsys, "state", "list", "--store", store)
    assert code == 0
    assert "k-paid" in out and "COMPLETED" in out and "k-stuck" in out and "LEASE_EXPIRED" in out
    code, out, _ = run(capsys, "state", "list", "--store", store, "--format", "json")
    states = {r["key"]: r["state"] for r in json.loads(out)["records"]}
    assert states == {"k-paid": "COMPLETED", "k-stuck": "LEASE_EXPIRED"}


def test_show_prints_the_stored_outcome(store, capsys):
    code, out, _ = run(capsys, "state", "show", "k-paid", "--store", store, "--format", "json")
    record = json.loads(out)["records"][0]
    assert code == 0 and record["outcome"] == {"ok": True, "data": {"paid": 5}} and len(record["fingerprint"]) == 64
    code, _, err = run(capsys, "state", "show", "nope", "--store", store)
    assert code == 2 and "no record with key 'nope'" in err


def test_purge_older_than(store, capsys):
    code, out, _ = run(capsys, "state", "purge", "--store", store)
    assert code == 0 and out.strip() == "deleted 0 records"
    code, out, _ = run(capsys, "state", "purge", "--older-than", "5m", "--store", store, "--format", "json")
    assert json.loads(out) == {"deleted": 1}  # the stuck claim, untouched for 15 minutes
    code, out, _ = run(capsys, "state", "list", "--store", store, "--format", "json")
    assert [r["key"] for r in json.loads(out)["records"]] == ["k-paid"]
    code, _, err = run(capsys, "state", "purge", "--older-than", "soon", "--store", store)
    assert code == 2 and "not a duration" in err


def test_a_missing_store_file_is_reported_not_created(tmp_path, capsys):
    code, _, err = run(capsys, "state", "list", "--store", f"sqlite:///{tmp_path}/none.db")
    assert code == 2 and "no SQLite store" in err and not (tmp_path / "none.db").exists()


def test_durations():
    assert parse_duration("90s") == 90 and parse_duration("1h30m") == 5400 and parse_duration("7d") == 604800
