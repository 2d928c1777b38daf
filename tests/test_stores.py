"""The store contract: every backend (memory, SQLite, Redis, PostgreSQL) passes these same tests."""

from __future__ import annotations

import sqlite3
import threading
import time
import uuid

import pytest

from toolclause.stores import (
    CLAIMED,
    COMPLETED,
    IN_PROGRESS,
    PersistenceError,
    Record,
    RecordKey,
    Store,
    StoreConfigError,
    open_store,
)


@pytest.fixture
def store(store_url):
    opened = open_store(store_url)
    yield opened
    opened.close()


@pytest.fixture
def principal():
    return f"user-{uuid.uuid4().hex[:8]}"  # each test's records apart from every other test's


def record(principal: str, key: str = "k-1", *, tool: str = "place_order", owner: str = "owner-a",
           now: float | None = None, lease: float = 30, retention: float = 3600, **changes) -> Record:
    now = time.time() if now is None else now
    base = Record(principal, tool, key, "f" * 64, IN_PROGRESS, owner, now, now, now + lease, now + lease + retention)
    return base.evolve(**changes) if changes else base


def test_every_backend_implements_the_protocol(store):
    assert isinstance(store, Store)


def test_a_free_key_is_granted_once_and_the_holder_is_returned_after(store, principal):
    now = time.time()
    first = record(principal, now=now)
    assert store.claim(first, now) is None
    held = store.claim(record(principal, owner="owner-b", now=now), now)
    assert held == first  # every field back as written


def test_records_round_trip_every_field(store, principal):
    now = time.time()
    stored = record(principal, "key:with/odd%chars-ü", tool="tool.with:colon", status=COMPLETED,
                    outcome='{"ok":true,"data":0}', request_key="caller-key")
    assert store.claim(stored, now) is None
    assert store.get(stored.ident) == stored
    assert store.get(RecordKey(principal, "tool.with:colon", "other")) is None


def test_the_same_key_for_another_principal_or_tool_is_another_record(store, principal):
    now = time.time()
    assert store.claim(record(principal), now) is None
    assert store.claim(record(principal + "-other"), now) is None
    assert store.claim(record(principal, tool="refund"), now) is None


def test_an_expired_record_is_replaced_by_a_claim(store, principal):
    now = time.time()
    old = record(principal, now=now - 100, lease=1, retention=1)  # expired 98 s ago
    assert store.claim(old, now - 100) is None
    fresh = record(principal, owner="owner-b", now=now)
    assert store.claim(fresh, now) is None
    assert store.get(fresh.ident).owner == "owner-b"


def test_replace_only_while_the_owner_holds_the_record(store, principal):
    now = time.time()
    claimed = record(principal, now=now)
    store.claim(claimed, now)
    done = claimed.evolve(status=COMPLETED, outcome="[]", updated_at=now + 1)
    assert not store.replace(done, "owner-b")
    assert store.get(claimed.ident).status == IN_PROGRESS
    assert store.replace(done, "owner-a")
    assert store.get(claimed.ident) == done
    # a takeover hands the record to a new owner; the old one can no longer change it
    taken = done.evolve(owner="owner-c", status=IN_PROGRESS, outcome=None)
    assert store.replace(taken, "owner-a")
    assert not store.replace(done, "owner-a")
    assert not store.replace(record(principal, "never-claimed"), "owner-a")


def test_release_only_while_the_owner_holds_the_record(store, principal):
    now = time.time()
    claimed = record(principal, now=now)
    store.claim(claimed, now)
    assert not store.release(claimed.ident, "owner-b")
    assert store.get(claimed.ident) is not None
    assert store.release(claimed.ident, "owner-a")
    assert store.get(claimed.ident) is None
    assert not store.release(claimed.ident, "owner-a")
    assert store.claim(record(principal, owner="owner-b", now=now), now) is None


def test_records_are_listed_newest_first_and_filtered(store, principal):
    now = time.time()
    for i in range(3):
        store.claim(record(principal, f"k-{i}", now=now + i), now)
    store.claim(record(principal, "k-x", tool="refund", now=now), now)
    mine = [r for r in store.records(tool="place_order") if r.principal == principal]
    assert [r.key for r in mine] == ["k-2", "k-1", "k-0"]
    assert [r.tool for r in store.records(key="k-x") if r.principal == principal] == ["refund"]
    assert len(list(store.records(limit=2))) == 2


def test_purge_deletes_expired_records_and_those_older_than_asked(store, principal):
    now = time.time()
    store.claim(record(principal, "expired", now=now - 50, lease=1, retention=1), now - 50)
    store.claim(record(principal, "old", now=now - 40), now - 40)
    store.claim(record(principal, "recent", now=now), now)
    assert store.purge(now) >= 1
    left = {r.key for r in store.records() if r.principal == principal}
    assert left == {"old", "recent"}
    assert store.purge(now, updated_before=now - 10) >= 1
    assert {r.key for r in store.records() if r.principal == principal} == {"recent"}


def claims_granted(store: Store, principal: str, key: str, contenders: int, now: float) -> list[int]:
    """Which of `contenders` threads, claiming one key at the same moment, were granted it."""
    barrier = threading.Barrier(contenders)
    granted = []

    def contend(i: int) -> None:
        barrier.wait()
        if store.claim(record(principal, key, owner=f"owner-{i}", now=now), now) is None:
            granted.append(i)

    threads = [threading.Thread(target=contend, args=(i,)) for i in range(contenders)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return granted


def test_concurrent_claims_of_one_key_grant_exactly_one(store, principal):
    granted = claims_granted(store, principal, "contended", 8, time.time())
    assert len(granted) == 1
    assert store.get(RecordKey(principal, "place_order", "contended")).owner == f"owner-{granted[0]}"


def test_a_claim_never_started_frees_its_key_when_its_window_passes(store, principal):
    # a claim that reached the store after its claimant gave up: CLAIMED, expiring with its short window
    now = time.time()
    late = record(principal, "late", owner="gave-up", status=CLAIMED, now=now - 10, lease=5, retention=0)
    assert store.claim(late, now - 10) is None
    retry = record(principal, "late", owner="retry", now=now)
    assert store.claim(retry, now) is None  # taken over at once: it never ran
    assert store.get(retry.ident).owner == "retry"
    # the late claimant can no longer start it, nor free it
    assert not store.replace(late.evolve(status=IN_PROGRESS, lease_until=now + 30, expires_at=now + 3600), "gave-up")
    assert not store.release(late.ident, "gave-up")
    assert store.get(retry.ident) == retry


def test_a_started_claim_holds_its_key_for_its_retention(store, principal):
    now = time.time()
    claimed = record(principal, "started", status=CLAIMED, now=now, lease=5, retention=0)
    assert store.claim(claimed, now) is None
    held = store.claim(record(principal, "started", owner="owner-b", now=now), now)
    assert held is not None and held.status == CLAIMED  # within its window: a duplicate waits
    started = claimed.evolve(status=IN_PROGRESS, updated_at=now, lease_until=now + 1, expires_at=now + 3600)
    assert store.replace(started, "owner-a")
    later = now + 60  # its lease long over, its retention not: no claim takes a started run over
    held = store.claim(record(principal, "started", owner="owner-c", now=later), later)
    assert held == started


def test_concurrent_takeovers_of_an_abandoned_claim_grant_exactly_one(store, principal):
    now = time.time()
    store.claim(record(principal, "abandoned", owner="gave-up", status=CLAIMED, now=now - 10, lease=5, retention=0),
                now - 10)
    assert len(claims_granted(store, principal, "abandoned", 6, now)) == 1


def test_every_store_says_how_long_it_waits(store):
    assert isinstance(store.timeout, float) and store.timeout >= 0


# --------------------------------------------------------------------------- opening

def test_urls_a_store_cannot_use_fail_when_opened(tmp_path):
    with pytest.raises(StoreConfigError, match="unknown store scheme"):
        open_store("mongodb://h/db")
    with pytest.raises(StoreConfigError, match="names a file"):
        open_store("sqlite://")
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    with pytest.raises(StoreConfigError, match="cannot open the SQLite store"):
        open_store(f"sqlite:///{blocked}/state.db")


def test_unreachable_servers_fail_when_opened():
    from store_servers import free_port

    port = free_port()  # nothing listens there
    with pytest.raises(StoreConfigError, match="cannot reach the Redis store"):
        open_store(f"redis://127.0.0.1:{port}/0")
    with pytest.raises(StoreConfigError, match="cannot reach the PostgreSQL store") as caught:
        open_store(f"postgresql://postgres:hunter2@127.0.0.1:{port}/db")
    assert "hunter2" not in str(caught.value)


def test_sqlite_runs_in_wal_mode_with_one_table_and_a_schema_version(tmp_path):
    store = open_store(f"sqlite:///{tmp_path}/nested/state.db")
    store.close()
    conn = sqlite3.connect(tmp_path / "nested" / "state.db")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")] == [
        "toolclause_records"]


def test_many_connections_opening_one_new_sqlite_store_together_all_succeed(tmp_path):
    # Workers that start side by side open one new file at once; switching it to WAL and creating the
    # table answer "database is locked" without waiting, so the store must wait itself.
    failures = []
    for trial in range(150):
        url = f"sqlite:///{tmp_path}/{trial}.db"
        barrier = threading.Barrier(8)

        def opener(url=url, barrier=barrier):
            barrier.wait()
            try:
                open_store(url).close()
            except Exception as exc:  # noqa: BLE001 - every failure is the finding
                failures.append(str(exc))

        threads = [threading.Thread(target=opener) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert failures == []


def test_sqlite_relative_paths_are_relative_to_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    open_store("sqlite:///.toolclause/state.db").close()
    assert (tmp_path / ".toolclause" / "state.db").exists()


def test_postgres_migrations_are_recorded_and_run_once(postgres_url):
    import psycopg

    open_store(postgres_url).close()
    open_store(postgres_url).close()
    with psycopg.connect(postgres_url) as conn:
        assert conn.execute("SELECT version FROM toolclause_migrations").fetchall() == [(1,)]


def test_a_postgres_claim_is_on_disk_when_it_returns(postgres_url, principal):
    # The store's connections commit without waiting for the disk; a claim alone waits, since a claim
    # a crash could lose would let a second run start.  Flushed = the server's WAL flush position has
    # reached its insert position right after the claim (another client's write in between can delay
    # that, so most, not all: a claim that does not wait is almost never flushed at once).
    import psycopg

    store = open_store(postgres_url)
    flushed = 0
    with psycopg.connect(postgres_url, autocommit=True) as probe:
        for n in range(20):
            assert store.claim(record(principal, key=f"k-{n}"), time.time()) is None
            inserted, written = probe.execute(
                "SELECT pg_current_wal_insert_lsn(), pg_current_wal_flush_lsn()").fetchone()
            flushed += written >= inserted
    store.close()
    assert flushed >= 18


def test_redis_namespaces_keep_their_records_apart(redis_url, principal):
    base = redis_url.split("?", 1)[0]
    one, two = open_store(f"{base}?namespace=one-{principal}"), open_store(f"{base}?namespace=two-{principal}")
    now = time.time()
    assert one.claim(record(principal), now) is None
    assert two.claim(record(principal), now) is None  # the same key, another namespace
    assert [r.principal for r in one.records() if r.principal == principal] == [principal]
    one.purge(now, updated_before=now + 1)
    two.purge(now, updated_before=now + 1)


def test_a_store_error_is_a_persistence_error(tmp_path):
    store = open_store(f"sqlite:///{tmp_path}/state.db")
    conn = sqlite3.connect(tmp_path / "state.db")
    conn.execute("DROP TABLE toolclause_records")
    conn.commit()
    with pytest.raises(PersistenceError):
        store.get(RecordKey("p", "t", "k"))
