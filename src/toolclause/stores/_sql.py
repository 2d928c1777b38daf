"""What the two SQL backends (SQLite, PostgreSQL) share: the columns, a record's row, the listing query."""

from __future__ import annotations

from typing import Any

from .base import Record

COLUMNS = ("principal", "tool", "key", "fingerprint", "status", "owner", "created_at", "updated_at",
           "lease_until", "expires_at", "outcome", "request_key")
SELECT = f"SELECT {', '.join(COLUMNS)} FROM toolclause_records"


def row_of(record: Record) -> tuple[Any, ...]:
    """The record's values in COLUMNS order (the key's three columns first)."""
    return (record.principal, record.tool, record.key, record.fingerprint, record.status, record.owner,
            record.created_at, record.updated_at, record.lease_until, record.expires_at, record.outcome,
            record.request_key)


def listing(placeholder: str, tool: str | None, key: str | None, limit: int | None) -> tuple[str, list[Any]]:
    """The query behind `Store.records` and its parameters (newest first)."""
    clauses, params = [], []
    for column, value in (("tool", tool), ("key", key)):
        if value is not None:
            clauses.append(f"{column} = {placeholder}")
            params.append(value)
    sql = SELECT + (" WHERE " + " AND ".join(clauses) if clauses else "") + " ORDER BY updated_at DESC"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    return sql, params
