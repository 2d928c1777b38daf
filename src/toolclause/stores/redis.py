"""`redis://host:port/db` (`rediss://` for TLS) — for several processes or hosts sharing one Redis.

One string per record, `<owner>\\n<JSON of the other fields>`, under
`toolclause:<principal>:<tool>:<key>` (each part percent-encoded, so `:` in a
key cannot be mistaken for the separator); `?namespace=NAME` in the URL puts
the records under `toolclause:NAME:` instead, for several applications (or
test runs) sharing one Redis.  A claim is `SET … NX PX`; every
other change is a Lua script that compares the owner first, so it is atomic
on the server.  Expiry is decided from the record's own fields by the
caller's clock; the key's TTL (retention plus a grace period) only frees the
memory.  Run Redis with persistence (AOF) if records must survive its restart.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

from .base import Record, RecordKey
from .errors import PersistenceError, StoreConfigError
from .url import StoreURL, seconds_option

PREFIX = "toolclause:"
_GRACE_MS = 60_000  # kept this long past expiry, so a clock a little behind still sees the record

# KEYS[1] record; ARGV: value, ttl ms.  1 = claimed (the key was free), else the record held.
# One round trip for a new key and for a duplicate alike (SET NX, then GET, would be two for a duplicate).
_CLAIM = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return redis.call('GET', KEYS[1])
"""
# KEYS[1] record; ARGV: owner, new value, ttl ms.  1 = replaced, 0 = not held by owner (or gone).
_REPLACE = """
local held = redis.call('GET', KEYS[1])
if not held then return 0 end
local nl = string.find(held, '\\n', 1, true)
if string.sub(held, 1, nl - 1) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
"""
# KEYS[1] record; ARGV: owner.  1 = deleted.
_RELEASE = """
local held = redis.call('GET', KEYS[1])
if not held then return 0 end
local nl = string.find(held, '\\n', 1, true)
if string.sub(held, 1, nl - 1) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1
"""
# KEYS[1] record; ARGV: the exact value read.  1 = deleted (nobody changed it since).
_DELETE_IF_SAME = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) return 1 end
return 0
"""


def split_namespace(url: str) -> tuple[str, str]:
    """(the URL for the driver, the key prefix): `?namespace=` is ours, not the driver's."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    namespace = [v for k, v in query if k == "namespace"]
    rest = urlencode([(k, v) for k, v in query if k != "namespace"])
    prefix = PREFIX + (quote(namespace[-1], safe="") + ":" if namespace and namespace[-1] else "")
    return urlunsplit((parts.scheme, parts.netloc, parts.path, rest, parts.fragment)), prefix


class RedisStore:
    def __init__(self, url: StoreURL, *, socket_timeout: float = 5.0) -> None:
        try:
            import redis
        except ImportError:
            raise StoreConfigError("the redis:// store needs the redis package: pip install 'toolclause[redis]'") \
                from None
        self.url = url
        self._errors = (redis.exceptions.RedisError, OSError)
        driver_url, self.prefix = split_namespace(url.url)
        # a command unanswered this long raises (it may still run later); `?socket_timeout=` in the URL wins
        given = [v for k, v in parse_qsl(urlsplit(driver_url).query) if k == "socket_timeout"]
        self.timeout = seconds_option(given[-1] if given else None, "socket_timeout", socket_timeout, "Redis")
        try:
            self._client = redis.Redis.from_url(driver_url, socket_timeout=socket_timeout,
                                                socket_connect_timeout=min(socket_timeout, 3.0),
                                                retry_on_timeout=False)
            self._client.ping()
            self._no_script = redis.exceptions.NoScriptError
            self._shas = {script: self._client.script_load(script)
                          for script in (_CLAIM, _REPLACE, _RELEASE, _DELETE_IF_SAME)}
        except self._errors as exc:
            raise StoreConfigError(f"cannot reach the Redis store at {url.redacted}: {exc}") from None

    # ------------------------------------------------------------------ the protocol

    def claim(self, record: Record, now: float) -> Record | None:
        name = self._name(record.principal, record.tool, record.key)
        value = _encode(record)
        try:
            for _ in range(8):  # each pass either decides or saw the record change under it
                raw = self._run(_CLAIM, name, value, _ttl_ms(record, now))
                if raw == 1:
                    return None
                if raw is None:
                    continue  # expired between SET and GET inside Redis: try again
                held = _decode(raw)
                if held.owner == record.owner:
                    return None  # our own SET, retried by the driver after a lost connection
                if held.live(now):
                    return held
                # expired by our clock while Redis still keeps it: take it over if nobody did since
                if self._run(_REPLACE, name, held.owner, value, _ttl_ms(record, now)):
                    return None
        except self._errors as exc:
            raise PersistenceError(f"Redis store: {exc}") from exc
        raise PersistenceError("Redis store: the record kept changing during a claim")

    def replace(self, record: Record, owner: str) -> bool:
        name = self._name(record.principal, record.tool, record.key)
        try:
            return bool(self._run(_REPLACE, name, owner, _encode(record), _ttl_ms(record, record.updated_at)))
        except self._errors as exc:
            raise PersistenceError(f"Redis store: {exc}") from exc

    def release(self, ident: RecordKey, owner: str) -> bool:
        try:
            return bool(self._run(_RELEASE, self._name(ident.principal, ident.tool, ident.key), owner))
        except self._errors as exc:
            raise PersistenceError(f"Redis store: {exc}") from exc

    def get(self, ident: RecordKey) -> Record | None:
        try:
            raw = self._client.get(self._name(ident.principal, ident.tool, ident.key))
        except self._errors as exc:
            raise PersistenceError(f"Redis store: {exc}") from exc
        return _decode(raw) if raw is not None else None

    def records(self, *, tool: str | None = None, key: str | None = None,
                limit: int | None = None) -> Iterable[Record]:
        found = [r for _, _, r in self._scan() if (tool is None or r.tool == tool) and (key is None or r.key == key)]
        found.sort(key=lambda r: r.updated_at, reverse=True)
        return found[:limit] if limit is not None else found

    def purge(self, now: float, updated_before: float | None = None) -> int:
        deleted = 0
        try:
            for name, raw, record in self._scan():
                if not record.live(now) or (updated_before is not None and record.updated_at < updated_before):
                    deleted += int(self._run(_DELETE_IF_SAME, name, raw))
        except self._errors as exc:
            raise PersistenceError(f"Redis store: {exc}") from exc
        return deleted

    def close(self) -> None:
        self._client.close()

    def _run(self, script: str, name: Any, *args: Any) -> Any:
        """EVALSHA one of the scripts on one key; loaded again if the server forgot it (a restart)."""
        try:
            return self._client.evalsha(self._shas[script], 1, name, *args)
        except self._no_script:
            self._shas[script] = self._client.script_load(script)
            return self._client.evalsha(self._shas[script], 1, name, *args)

    def _name(self, principal: str, tool: str, key: str) -> str:
        return self.prefix + ":".join(quote(part, safe="") for part in (principal, tool, key))

    def _scan(self) -> list[tuple[Any, Any, Record]]:
        try:
            names = [n for n in self._client.scan_iter(match=self.prefix + "*", count=1000)
                     if n.count(b":") == self.prefix.count(":") + 2]  # not another namespace's records
            out = []
            for start in range(0, len(names), 500):
                chunk = names[start:start + 500]
                for name, raw in zip(chunk, self._client.mget(chunk), strict=True):
                    if raw is not None:
                        out.append((name, raw, _decode(raw)))
            return out
        except self._errors as exc:
            raise PersistenceError(f"Redis store: {exc}") from exc


def _ttl_ms(record: Record, now: float) -> int:
    return max(1, int((record.expires_at - now) * 1000)) + _GRACE_MS


def _encode(record: Record) -> str:
    fields = [record.principal, record.tool, record.key, record.fingerprint, record.status, record.created_at,
              record.updated_at, record.lease_until, record.expires_at, record.outcome, record.request_key]
    return record.owner + "\n" + json.dumps(fields, ensure_ascii=False, separators=(",", ":"))


def _decode(raw: Any) -> Record:
    text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    owner, _, body = text.partition("\n")
    (principal, tool, key, fingerprint, status, created, updated, lease, expires, outcome,
     request_key) = json.loads(body)
    return Record(principal, tool, key, fingerprint, status, owner, created, updated, lease, expires, outcome,
                  request_key)

