"""`toolclause state list|show|purge`: inspect and clean the idempotency records of a store."""

from __future__ import annotations

import json
import os
import re
import time
from datetime import UTC, datetime
from typing import Any

import click

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


class StateError(click.ClickException):
    """One line on stderr, exit 2 (a store that cannot be opened or read)."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"toolclause: error: {self.format_message()}", err=True)


def parse_duration(text: str) -> float:
    """'90s', '15m', '24h', '7d', '1h30m' → seconds."""
    compact = text.strip().lower().replace(" ", "")
    if not compact or not re.fullmatch(r"(?:\d+(?:\.\d+)?[smhd])+", compact):
        raise click.BadParameter(f"{text!r} is not a duration such as 90s, 15m, 24h, 7d or 1h30m")
    return sum(float(n) * _UNITS[u] for n, u in re.findall(r"(\d+(?:\.\d+)?)([smhd])", compact))


def _open(url: str | None) -> Any:
    from ..stores import DEFAULT_STORE, StoreConfigError, open_store

    chosen = url or os.environ.get("TOOLCLAUSE_STORE") or DEFAULT_STORE
    try:
        # reading never creates a SQLite file that is not there
        return open_store(chosen, create=False) if chosen.startswith("sqlite:") else open_store(chosen)
    except StoreConfigError as exc:
        raise StateError(str(exc)) from None


def state_of(record: Any, now: float) -> str:
    if not record.live(now):
        return "EXPIRED"
    if record.lease_expired(now):
        return "LEASE_EXPIRED"
    return record.status


def as_dict(record: Any, now: float, outcome: bool = False) -> dict[str, Any]:
    out = {"tool": record.tool, "key": record.key, "principal": record.principal, "state": state_of(record, now),
           "createdAt": _iso(record.created_at), "updatedAt": _iso(record.updated_at),
           "leaseUntil": _iso(record.lease_until), "expiresAt": _iso(record.expires_at)}
    if outcome:
        out["fingerprint"] = record.fingerprint
        out["outcome"] = json.loads(record.outcome) if record.outcome else None
        if record.request_key:
            out["requestKey"] = record.request_key
    return out


def _iso(moment: float) -> str:
    return datetime.fromtimestamp(moment, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _age(seconds: float) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if abs(seconds) >= size:
            return f"{seconds / size:.0f}{unit}"
    return f"{seconds:.0f}s"


def _fail(exc: Exception) -> StateError:
    return StateError(f"the store failed: {exc}")


def _table(records: list[Any], now: float) -> str:
    from rich.console import Console
    from rich.table import Table

    table = Table(box=None, pad_edge=False)
    for column in ("TOOL", "KEY", "PRINCIPAL", "STATE", "AGE", "EXPIRES IN"):
        table.add_column(column, overflow="fold")
    for r in records:
        table.add_row(r.tool, r.key, r.principal or "-", state_of(r, now), _age(now - r.created_at),
                      _age(r.expires_at - now) if r.live(now) else "-")
    console = Console(width=140, record=True, color_system=None, highlight=False)
    with console.capture() as captured:
        console.print(table)
    return captured.get()


FORMAT = click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
STORE = click.option("--store", "store_url", metavar="URL",
                     help="Store URL (default: $TOOLCLAUSE_STORE, else sqlite:///.toolclause/state.db).")


@click.group("state")
def state() -> None:
    """Inspect and clean idempotency records (list, show, purge)."""


@state.command("list")
@STORE
@click.option("--tool", default=None, help="Only this tool's records.")
@click.option("--limit", type=click.IntRange(min=1), default=100, show_default=True)
@FORMAT
def list_records(store_url: str | None, tool: str | None, limit: int, fmt: str) -> None:
    """The newest records first."""
    from ..stores import StoreError

    store = _open(store_url)
    now = time.time()
    try:
        records = list(store.records(tool=tool, limit=limit))
    except StoreError as exc:
        raise _fail(exc) from None
    finally:
        store.close()
    if fmt == "json":
        click.echo(json.dumps({"records": [as_dict(r, now) for r in records]}, indent=2, ensure_ascii=False))
    elif records:
        click.echo(_table(records, now), nl=False)
    else:
        click.echo("no records")


@state.command("show")
@click.argument("key")
@STORE
@click.option("--tool", default=None, help="The tool, when several used this key.")
@click.option("--principal", default=None, help="The principal, when several used this key.")
@FORMAT
def show_record(key: str, store_url: str | None, tool: str | None, principal: str | None, fmt: str) -> None:
    """One key's records, with the stored outcome."""
    from ..stores import StoreError

    store = _open(store_url)
    now = time.time()
    try:
        found = [r for r in store.records(tool=tool, key=key) if principal is None or r.principal == principal]
    except StoreError as exc:
        raise _fail(exc) from None
    finally:
        store.close()
    if not found:
        raise StateError(f"no record with key {key!r}" + (f" for tool {tool!r}" if tool else ""))
    if fmt == "json":
        click.echo(json.dumps({"records": [as_dict(r, now, outcome=True) for r in found]}, indent=2,
                              ensure_ascii=False))
        return
    for r in found:
        for name, value in as_dict(r, now, outcome=True).items():
            shown = json.dumps(value, ensure_ascii=False) if name == "outcome" else value
            click.echo(f"{name:<12} {shown}")
        click.echo("")


@state.command("purge")
@STORE
@click.option("--older-than", "older_than", default=None, metavar="DURATION",
              help="Also delete every record not changed for this long (90s, 15m, 24h, 7d).")
@FORMAT
def purge_records(store_url: str | None, older_than: str | None, fmt: str) -> None:
    """Delete expired records (and, with --older-than, old ones)."""
    from ..stores import StoreError

    seconds = parse_duration(older_than) if older_than is not None else None
    store = _open(store_url)
    now = time.time()
    try:
        deleted = store.purge(now, updated_before=now - seconds if seconds is not None else None)
    except StoreError as exc:
        raise _fail(exc) from None
    finally:
        store.close()
    if fmt == "json":
        click.echo(json.dumps({"deleted": deleted}))
    else:
        click.echo(f"deleted {deleted} record{'s' if deleted != 1 else ''}")
