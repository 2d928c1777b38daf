"""Checkpoints: a workflow's state saved and loaded against `contracts/state/*`, in the configured store.

    checkpoints = Checkpoints("contracts/state", store="sqlite:///.toolclause/state.db")
    checkpoints.save("run-42", {"step": "triaged", ...}, schema="urn:example:state:refund_flow")
    state = checkpoints.load("run-42").state

    @checkpoints.migration("urn:example:state:refund_flow", from_version=1)
    def add_refund_id(old):                     # version 1 → 2
        return {**old, "refund_id": None}

A checkpoint is validated when saved and again when loaded: one that does not
satisfy its schema (after the migrations from the version it was written with)
is a `CheckpointError`, never handed back.  A checkpoint written with a newer
version than the schema's, or an older one with no migration path, is an error
too.  Checkpoints live in the stores of the idempotency records (memory, SQLite,
Redis, PostgreSQL, by URL) as records of the tool `toolclause.checkpoint` keyed
by run id, so `toolclause state list --tool toolclause.checkpoint` shows them.
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..loading.contract_files import STATE
from ..model import SchemaDocument
from .schemas import Problem, SchemaSet, load_schemas

TOOL = "toolclause.checkpoint"
OWNER = "toolclause.checkpoint"
RETENTION = 30 * 86400.0


class CheckpointError(Exception):
    """A checkpoint refused: code (CHECKPOINT_INVALID, CHECKPOINT_NOT_FOUND, CHECKPOINT_VERSION, UNKNOWN_STATE,
    CHECKPOINT_CONFLICT), message, details (path and message per problem)."""

    def __init__(self, code: str, message: str, details: Iterable[dict[str, Any]] = ()) -> None:
        super().__init__(message)
        self.code, self.message, self.details = code, message, list(details)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "details": self.details}


@dataclass(frozen=True, slots=True)
class Checkpoint:
    run_id: str
    schema_id: str
    version: int            # the schema version the state now satisfies (after migrations)
    saved_version: int      # the version it was written with
    state: Any
    saved_at: float


def _details(problems: list[Problem]) -> list[dict[str, Any]]:
    return [{"path": p.path, "message": p.message} for p in problems]


class Checkpoints:
    """Save and load workflow state, validated against the state schemas of a folder."""

    def __init__(self, source: str | Path | Iterable[SchemaDocument] = "contracts/state", *,
                 store: Any = "sqlite:///.toolclause/state.db", retention: float = RETENTION,
                 principal: str = "") -> None:
        references: list[SchemaDocument] = []
        if isinstance(source, (str, Path)):
            try:
                documents, references = load_schemas(source, STATE)
            except ValueError as exc:
                raise CheckpointError("UNKNOWN_STATE", str(exc)) from None
        else:
            documents = list(source)
        self.schemas = SchemaSet(documents, references)
        if isinstance(store, str):
            from ..stores import open_store

            store = open_store(store)
        self.store = store
        self.retention, self.principal = retention, principal
        self._migrations: dict[tuple[str, int], Callable[[Any], Any]] = {}

    def close(self) -> None:
        self.store.close()

    def _document(self, schema: str | None) -> SchemaDocument:
        if schema is None and len(self.schemas.documents) == 1:
            return self.schemas.documents[0]
        found = self.schemas.get(schema) if schema is not None else None
        if found is None:
            names = [d.id or d.name for d in self.schemas.documents]
            raise CheckpointError("UNKNOWN_STATE", (f"no state schema named {schema!r}" if schema is not None
                                                    else "several state schemas: name one with schema=")
                                  + f"; the schemas are: {', '.join(names[:20]) or 'none'}")
        return found

    def migration(self, schema: str, from_version: int) -> Callable[[Callable[[Any], Any]], Callable[[Any], Any]]:
        """Register `fn(state) -> state` that turns a checkpoint of `from_version` into one of the next version."""
        document = self._document(schema)

        def register(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
            self._migrations[(document.id or document.name, from_version)] = fn
            return fn
        return register

    def save(self, run_id: str, state: Any, schema: str | None = None) -> Checkpoint:
        """Validate `state` against its schema and store it under `run_id` (replacing the run's last checkpoint)."""
        from ..stores import COMPLETED, Record

        document = self._document(schema)
        label = document.id or document.name
        problems = self.schemas.check(document, state)
        if problems:
            raise CheckpointError("CHECKPOINT_INVALID", f"the state does not satisfy {label}: "
                                  + "; ".join(p.message for p in problems[:5]), _details(problems))
        now = time.time()
        version = document.version or 1
        payload = json.dumps({"schema": label, "version": version, "state": state}, ensure_ascii=False,
                             sort_keys=True, allow_nan=False)
        # each save holds a token of its own; the next save replaces the record the token it read names,
        # so two saves of one run never interleave into one record (the last one wins, whole)
        record = Record(principal=self.principal, tool=TOOL, key=run_id,
                        fingerprint=hashlib.sha256(payload.encode("utf-8")).hexdigest(), status=COMPLETED,
                        owner=f"{OWNER}:{uuid.uuid4().hex}", created_at=now, updated_at=now, lease_until=now,
                        expires_at=now + self.retention, outcome=payload)
        for _ in range(8):
            held = self.store.claim(record, now)
            if held is None or self.store.replace(record, held.owner):
                return Checkpoint(run_id, label, version, version, state, now)
        raise CheckpointError("CHECKPOINT_CONFLICT", f"run {run_id!r}: its checkpoint kept changing while it was saved")

    def load(self, run_id: str) -> Checkpoint:
        """The run's last checkpoint, migrated to the schema's version and validated; else CheckpointError."""
        from ..stores import RecordKey

        record = self.store.get(RecordKey(self.principal, TOOL, run_id))
        if record is None or not record.live(time.time()) or record.outcome is None:
            raise CheckpointError("CHECKPOINT_NOT_FOUND", f"no checkpoint for run {run_id!r}")
        try:
            saved = json.loads(record.outcome)
            label, saved_version, state = saved["schema"], int(saved["version"]), saved["state"]
        except (ValueError, KeyError, TypeError):
            raise CheckpointError("CHECKPOINT_INVALID", f"the checkpoint of run {run_id!r} is not one toolclause "
                                                        f"wrote") from None
        document = self._document(label)
        current = document.version or 1
        if saved_version > current:
            raise CheckpointError("CHECKPOINT_VERSION", f"the checkpoint of run {run_id!r} was written with version "
                                                        f"{saved_version} of {label}, newer than this schema's "
                                                        f"{current}")
        version = saved_version
        while version < current:
            step = self._migrations.get((label, version))
            if step is None:
                raise CheckpointError("CHECKPOINT_VERSION", f"the checkpoint of run {run_id!r} was written with "
                                                            f"version {saved_version} of {label}, which is now "
                                                            f"version {current}, and no migration from version "
                                                            f"{version} is registered")
            state = step(state)
            version += 1
        problems = self.schemas.check(document, state)
        if problems:
            raise CheckpointError("CHECKPOINT_INVALID", f"the checkpoint of run {run_id!r} does not satisfy {label} "
                                                        f"version {current}: "
                                  + "; ".join(p.message for p in problems[:5]), _details(problems))
        return Checkpoint(run_id, label, current, saved_version, state, record.updated_at)


__all__ = ["Checkpoint", "CheckpointError", "Checkpoints", "TOOL"]
