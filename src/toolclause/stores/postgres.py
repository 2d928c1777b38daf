"""`postgresql://user@host:5432/db` — for several processes or hosts sharing one PostgreSQL.

One table, `toolclause_records`, created and upgraded by numbered migrations
recorded in `toolclause_migrations` (run under an advisory lock, so replicas
starting together migrate once).  A claim is one statement, `INSERT … ON CONFLICT DO
NOTHING RETURNING` beside a read of the record held: a new key and a duplicate
each cost one round trip.  Taking over an expired record
and every other change is one conditional statement (`… WHERE owner = %s`).
Connections are pooled per process and opened in autocommit mode; one that
fails is dropped and the next call opens a fresh one, so the store recovers
on its own once the server is back.

Timeouts are the client's own, so a server that hangs (stopped, or behind a
network partition that sends no reset) bounds every call: opening a connection
gives up after `connect_timeout` (3 s; whole seconds, at least 2), and each
operation after `timeout` (5 s), when the connection's socket is shut down
(_deadline.py); the server also ends a statement that runs that long.  Both
are settable in the URL: `postgresql://…/db?timeout=2.5&connect_timeout=2`.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from ._deadline import Deadlines
from ._sql import COLUMNS, listing
from ._sql import SELECT as _SELECT
from ._sql import row_of as _row
from .base import Record, RecordKey
from .errors import PersistenceError, StoreConfigError
from .url import StoreURL, seconds_option

_WHERE_KEY = "principal = %s AND tool = %s AND key = %s"
_INSERT = (f"INSERT INTO toolclause_records ({', '.join(COLUMNS)}) VALUES ({', '.join(['%s'] * len(COLUMNS))}) "
           f"ON CONFLICT (principal, tool, key) DO NOTHING RETURNING 1")
# One round trip: (1 if the insert was ours, the durability setting, the record held or NULLs).
# The read sees the statement's snapshot: a row the insert conflicted with that committed after it
# began comes back as NULLs with 0, and the claim simply runs again.  `set_config(…, true)` holds
# for this statement's own transaction, so only a claim's commit waits for the disk.
_CLAIM = (f"WITH durability AS (SELECT set_config('synchronous_commit', %s, true) AS setting), "
          f"inserted AS ({_INSERT}) "
          f"SELECT (SELECT count(*) FROM inserted), (SELECT setting FROM durability), "
          f"{', '.join('held.' + c for c in COLUMNS)} "
          f"FROM (SELECT 1) AS one LEFT JOIN toolclause_records AS held "
          f"ON held.principal = %s AND held.tool = %s AND held.key = %s")
_SET = ", ".join(c + " = %s" for c in COLUMNS[3:])
_UPDATE = f"UPDATE toolclause_records SET {_SET} WHERE {_WHERE_KEY} AND owner = %s"
_TAKE_EXPIRED = f"UPDATE toolclause_records SET {_SET} WHERE {_WHERE_KEY} AND owner = %s AND expires_at <= %s"

# Versioned migrations: append, never edit.  Each runs once, in order, in one transaction.
MIGRATIONS = (
    """CREATE TABLE IF NOT EXISTS toolclause_records (
        principal text NOT NULL, tool text NOT NULL, key text NOT NULL,
        fingerprint text NOT NULL, status text NOT NULL, owner text NOT NULL,
        created_at double precision NOT NULL, updated_at double precision NOT NULL,
        lease_until double precision NOT NULL, expires_at double precision NOT NULL,
        outcome text, request_key text NOT NULL DEFAULT '',
        PRIMARY KEY (principal, tool, key));
    CREATE INDEX IF NOT EXISTS toolclause_records_expiry ON toolclause_records (expires_at);
    CREATE INDEX IF NOT EXISTS toolclause_records_updated ON toolclause_records (updated_at)""",
)
_MIGRATION_LOCK = 0x746F6F6C  # pg_advisory_xact_lock key ("tool")
TIMEOUT = 5.0          # seconds an operation may take before the client gives up
CONNECT_TIMEOUT = 3.0  # seconds to open a connection
_OURS = frozenset({"synchronous_commit", "timeout", "connect_timeout"})


class PostgresStore:
    def __init__(self, url: StoreURL, *, pool_size: int = 8, connect_timeout: float = CONNECT_TIMEOUT,
                 timeout: float = TIMEOUT) -> None:
        try:
            import psycopg
        except ImportError:
            raise StoreConfigError("the postgresql:// store needs psycopg: pip install 'toolclause[postgres]'") \
                from None
        self.url = url
        self._psycopg = psycopg
        dsn, ours = _split_options(url.url.replace("postgresql+psycopg://", "postgresql://", 1))
        self._dsn = dsn
        self.durable_claims = ours.get("synchronous_commit", "on").lower() != "off"
        self.timeout = seconds_option(ours.get("timeout"), "timeout", timeout, "PostgreSQL")
        self.connect_timeout = max(2, round(seconds_option(ours.get("connect_timeout"), "connect_timeout",
                                                           connect_timeout, "PostgreSQL")))
        self._deadlines = Deadlines(self.timeout)
        # Every change but a claim commits without waiting for the disk: losing one in a server crash
        # leaves a record in progress (OUTCOME_UNKNOWN later), never a second run.  A claim waits,
        # unless the URL says ?synchronous_commit=off.
        self._options: dict[str, Any] = {
            "autocommit": True, "connect_timeout": self.connect_timeout,
            "options": f"-c statement_timeout={max(1, int(self.timeout * 1000))} -c synchronous_commit=off"}
        self._idle: queue.LifoQueue[Any] = queue.LifoQueue()
        self._pool_size = pool_size
        self._pid = os.getpid()
        self._lock = threading.Lock()
        try:
            with self._connection() as conn:
                self._migrate(conn)
        except PersistenceError as exc:
            raise StoreConfigError(f"cannot reach the PostgreSQL store at {url.redacted}: {exc.__cause__ or exc}") \
                from None

    # ------------------------------------------------------------------ the protocol

    def claim(self, record: Record, now: float) -> Record | None:
        return self._retrying(lambda conn: self._claim(conn, record, now))

    def _claim(self, conn: Any, record: Record, now: float) -> Record | None:
        row = _row(record)
        ident = row[:3]
        durability = "on" if self.durable_claims else "off"
        for _ in range(8):  # each pass either decides or saw the row change under it
            inserted, _setting, *found = conn.execute(_CLAIM, (durability, *row, *ident)).fetchone()
            if inserted:
                return None
            if found[0] is None:
                continue  # gone, or committed after this statement began: claim again
            held = Record(*found)
            if held.owner == record.owner:
                return None  # our own insert, answered again after a lost connection
            if held.live(now):
                return held
            taken = conn.execute(_TAKE_EXPIRED, (*row[3:], *ident, held.owner, now))
            if taken.rowcount == 1:
                return None
        raise PersistenceError("PostgreSQL store: the record kept changing during a claim")

    def replace(self, record: Record, owner: str) -> bool:
        row = _row(record)
        return self._retrying(lambda conn: conn.execute(_UPDATE, (*row[3:], *row[:3], owner)).rowcount == 1)

    def release(self, ident: RecordKey, owner: str) -> bool:
        return self._retrying(lambda conn: conn.execute(
            f"DELETE FROM toolclause_records WHERE {_WHERE_KEY} AND owner = %s",
            (ident.principal, ident.tool, ident.key, owner)).rowcount == 1)

    def get(self, ident: RecordKey) -> Record | None:
        found = self._retrying(lambda conn: conn.execute(f"{_SELECT} WHERE {_WHERE_KEY}",
                                                         (ident.principal, ident.tool, ident.key)).fetchone())
        return Record(*found) if found is not None else None

    def records(self, *, tool: str | None = None, key: str | None = None,
                limit: int | None = None) -> Iterable[Record]:
        sql, params = listing("%s", tool, key, limit)
        return [Record(*row) for row in self._retrying(lambda conn: conn.execute(sql, params).fetchall())]

    def purge(self, now: float, updated_before: float | None = None) -> int:
        return self._retrying(lambda conn: conn.execute(
            "DELETE FROM toolclause_records WHERE expires_at <= %s OR updated_at < %s",
            (now, updated_before if updated_before is not None else float("-inf"))).rowcount)

    def close(self) -> None:
        while True:
            try:
                self._idle.get_nowait().close()
            except queue.Empty:
                return

    # ------------------------------------------------------------------ connections

    def _retrying(self, work: Any) -> Any:
        """Run `work(conn)`; a pooled connection the server dropped (a restart) is replaced once.

        Safe to repeat: every statement here is conditional on the owner, and a claim that
        finds its own record counts as won.
        """
        try:
            with self._connection() as conn:
                return work(conn)
        except PersistenceError as exc:
            if not isinstance(exc.__cause__, self._psycopg.OperationalError) or not getattr(exc, "reused", False) \
                    or getattr(exc, "timed_out", False):  # a hung server: answer now, do not wait twice
                raise
        with self._connection(fresh=True) as conn:
            return work(conn)

    @contextmanager
    def _connection(self, fresh: bool = False) -> Iterator[Any]:
        if self._pid != os.getpid():  # a forked child never shares its parent's sockets
            with self._lock:
                if self._pid != os.getpid():
                    self._idle = queue.LifoQueue()
                    self._pid = os.getpid()
        conn = None
        if not fresh:
            try:
                conn = self._idle.get_nowait()
            except queue.Empty:
                pass
        reused = conn is not None
        watch = None
        try:
            if conn is None:
                conn = self._psycopg.connect(self._dsn, **self._options)
            with self._deadlines.watch(conn.fileno) as watch:
                yield conn
        except self._psycopg.Error as exc:
            if conn is not None:
                conn.close()  # a connection that failed once is not trusted again
            timed_out = watch is not None and watch.cut
            failure = PersistenceError(f"PostgreSQL store: no answer within {self.timeout:g} s" if timed_out else
                                       f"PostgreSQL store: {exc}")
            failure.reused = reused  # type: ignore[attr-defined]  # read by the retry above (getattr), not API
            failure.timed_out = timed_out  # type: ignore[attr-defined]
            raise failure from exc
        else:
            if watch is not None and watch.cut:
                conn.close()  # its deadline passed as it finished: the socket may be shut
            elif self._idle.qsize() < self._pool_size:
                self._idle.put(conn)
            else:
                conn.close()

    def _migrate(self, conn: Any) -> None:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            conn.execute("CREATE TABLE IF NOT EXISTS toolclause_migrations "
                         "(version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())")
            done = conn.execute("SELECT coalesce(max(version), 0) FROM toolclause_migrations").fetchone()[0]
            for number, script in enumerate(MIGRATIONS[done:], start=done + 1):
                for statement in script.split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute("INSERT INTO toolclause_migrations (version) VALUES (%s)", (number,))


def _split_options(dsn: str) -> tuple[str, dict[str, str]]:
    """(the URL for the driver, the options that are ours: synchronous_commit, timeout, connect_timeout)."""
    parts = urlsplit(dsn)
    query = parse_qsl(parts.query, keep_blank_values=True)
    ours = {k: v for k, v in query if k in _OURS}
    rest = urlencode([(k, v) for k, v in query if k not in _OURS])
    return urlunsplit((parts.scheme, parts.netloc, parts.path, rest, parts.fragment)), ours
