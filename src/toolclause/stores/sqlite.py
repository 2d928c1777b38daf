"""`sqlite:///path` — the embedded default: one file, safe for many threads and processes on one machine.

`sqlite:///relative/state.db` is relative to the working directory,
`sqlite:////absolute/state.db` absolute (three slashes, then the path).

The file runs in WAL mode, so readers never wait for the writer.  A claim
first reads without a lock (a duplicate of a finished call is answered from
that read alone); only when the key is free does it take the write lock with
`BEGIN IMMEDIATE`, read again under it and insert.  Every other change is one
conditional statement (`… WHERE owner = ?`).  Each thread has its own
connection; a busy file is waited for up to `busy_timeout` seconds.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import TypeVar

from ._sql import COLUMNS, listing
from ._sql import SELECT as _SELECT
from ._sql import row_of as _row
from .base import Record, RecordKey
from .errors import PersistenceError, StoreConfigError
from .url import StoreURL

_T = TypeVar("_T")

_WHERE_KEY = "principal = ? AND tool = ? AND key = ?"
_INSERT = f"INSERT OR REPLACE INTO toolclause_records ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"
_UPDATE = (f"UPDATE toolclause_records SET {', '.join(c + ' = ?' for c in COLUMNS[3:])} "
           f"WHERE {_WHERE_KEY} AND owner = ?")

# Versioned migrations: PRAGMA user_version says how many have run.  Append, never edit.
MIGRATIONS = (
    """CREATE TABLE IF NOT EXISTS toolclause_records (
        principal TEXT NOT NULL, tool TEXT NOT NULL, key TEXT NOT NULL,
        fingerprint TEXT NOT NULL, status TEXT NOT NULL, owner TEXT NOT NULL,
        created_at REAL NOT NULL, updated_at REAL NOT NULL, lease_until REAL NOT NULL, expires_at REAL NOT NULL,
        outcome TEXT, request_key TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (principal, tool, key)) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS toolclause_records_expiry ON toolclause_records (expires_at);
    CREATE INDEX IF NOT EXISTS toolclause_records_updated ON toolclause_records (updated_at);""",
)


def path_of(url: StoreURL) -> str:
    path = url.url.split("://", 1)[1]
    if not path.startswith("/") or len(path) < 2:
        raise StoreConfigError(f"a SQLite store URL names a file: sqlite:///relative/path.db or "
                               f"sqlite:////absolute/path.db, not {url.url!r}")
    return path[1:].split("?", 1)[0]


class SQLiteStore:
    def __init__(self, url: StoreURL, *, busy_timeout: float = 30.0, create: bool = True) -> None:
        self.url = url
        self.path = path_of(url)
        self.busy_timeout = busy_timeout
        self.timeout = busy_timeout  # the longest a call waits for a file another process holds
        self._local = threading.local()
        if not create and not Path(self.path).exists():
            raise StoreConfigError(f"no SQLite store at {self.path}")
        try:
            if create and os.path.dirname(self.path):
                os.makedirs(os.path.dirname(self.path), exist_ok=True)
            self._while_busy(lambda: self._migrate(self._connection()))
        except (OSError, sqlite3.Error) as exc:
            raise StoreConfigError(f"cannot open the SQLite store {self.path}: {exc}") from None

    # ------------------------------------------------------------------ the protocol

    def claim(self, record: Record, now: float) -> Record | None:
        ident = (record.principal, record.tool, record.key)
        with self._errors():
            conn = self._connection()
            held = self._read(conn, ident)
            if held is not None and held.live(now):
                return held  # a duplicate: answered without taking the write lock
            conn.execute("BEGIN IMMEDIATE")
            try:
                held = self._read(conn, ident)
                if held is not None and held.live(now):
                    conn.execute("COMMIT")
                    return held
                conn.execute(_INSERT, _row(record))
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            return None

    def replace(self, record: Record, owner: str) -> bool:
        with self._errors():
            row = _row(record)
            cursor = self._connection().execute(_UPDATE, (*row[3:], *row[:3], owner))
            return cursor.rowcount == 1

    def release(self, ident: RecordKey, owner: str) -> bool:
        with self._errors():
            cursor = self._connection().execute(f"DELETE FROM toolclause_records WHERE {_WHERE_KEY} AND owner = ?",
                                                (ident.principal, ident.tool, ident.key, owner))
            return cursor.rowcount == 1

    def get(self, ident: RecordKey) -> Record | None:
        with self._errors():
            return self._read(self._connection(), (ident.principal, ident.tool, ident.key))

    def records(self, *, tool: str | None = None, key: str | None = None,
                limit: int | None = None) -> Iterable[Record]:
        sql, params = listing("?", tool, key, limit)
        with self._errors():
            return [Record(*row) for row in self._connection().execute(sql, params)]

    def purge(self, now: float, updated_before: float | None = None) -> int:
        with self._errors():
            cursor = self._connection().execute(
                "DELETE FROM toolclause_records WHERE expires_at <= ? OR updated_at < ?",
                (now, updated_before if updated_before is not None else float("-inf")))
            return cursor.rowcount

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    # ------------------------------------------------------------------ connections

    def _connection(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None or self._local.pid != os.getpid():  # a forked child opens its own
            conn = self._while_busy(self._connect)
            self._local.conn, self._local.pid = conn, os.getpid()
        return conn

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=self.busy_timeout, isolation_level=None, check_same_thread=False)
        try:
            # WAL is a property of the file: set once, by whichever process gets there first.
            if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")  # durable at each checkpoint; WAL keeps the file consistent
        except BaseException:
            conn.close()
            raise
        return conn

    def _while_busy(self, attempt: Callable[[], _T]) -> _T:
        """Run `attempt` again while the file is locked, up to `busy_timeout` seconds.

        SQLite's own busy timeout does not cover everything: switching a new file to WAL and the
        first read of a file another process is creating answer "database is locked" at once, so
        several processes opening one new store together (workers starting side by side) would
        fail without this.
        """
        deadline = time.monotonic() + self.busy_timeout
        pause = 0.005
        while True:
            try:
                return attempt()
            except sqlite3.OperationalError as exc:
                message = str(exc).lower()
                if ("locked" not in message and "busy" not in message) or time.monotonic() >= deadline:
                    raise
            time.sleep(pause)
            pause = min(pause * 2, 0.1)

    def _migrate(self, conn: sqlite3.Connection) -> None:
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
                for statement in script.split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {number}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    @staticmethod
    def _read(conn: sqlite3.Connection, ident: tuple[str, str, str]) -> Record | None:
        row = conn.execute(f"{_SELECT} WHERE {_WHERE_KEY}", ident).fetchone()
        return Record(*row) if row is not None else None

    def _errors(self) -> AbstractContextManager[None]:
        return _translate()


@contextmanager
def _translate() -> Iterator[None]:
    """sqlite3 errors → PersistenceError (the message stays in the log, never in an envelope)."""
    try:
        yield
    except sqlite3.Error as exc:
        raise PersistenceError(f"SQLite store: {exc}") from exc
