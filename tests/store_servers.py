"""The real Redis and PostgreSQL servers the store tests use, and private ones a test may stop.

Shared servers (127.0.0.1:6379 and :5432, as `.ci/run` starts them): each test
run gets its own PostgreSQL database and its own Redis key namespace, so runs
in parallel never see each other's records.  A test that stops a server stops
a private one it started on a free port (`PrivateRedis`, `PrivatePostgres`),
never the shared ones.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

REDIS_URL = os.environ.get("TOOLCLAUSE_TEST_REDIS", "redis://127.0.0.1:6379/0")
POSTGRES_URL = os.environ.get("TOOLCLAUSE_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
RUN = uuid.uuid4().hex[:10]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def redis_unreachable(url: str = REDIS_URL) -> str | None:
    """None when a Redis server answers at `url`, else why not."""
    try:
        import redis
    except ImportError:
        return "the redis package is not installed (pip install 'toolclause[redis]')"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2).ping()
    except Exception as exc:  # noqa: BLE001 - any failure means: skip, and say why
        return f"no Redis server at {url}: {exc}"
    return None


def postgres_unreachable(url: str = POSTGRES_URL) -> str | None:
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed (pip install 'toolclause[postgres]')"
    try:
        psycopg.connect(url, connect_timeout=2).close()
    except Exception as exc:  # noqa: BLE001
        return f"no PostgreSQL server at {url}: {exc}"
    return None


def redis_test_url() -> str:
    """The shared Redis, with a namespace of this test run's own."""
    return f"{REDIS_URL}?namespace=test-{RUN}"


def create_postgres_database(base: str = POSTGRES_URL) -> str:
    """A fresh database for this test run on the shared server; its URL."""
    import psycopg

    name = f"toolclause_test_{RUN}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return base.rsplit("/", 1)[0] + "/" + name


def drop_postgres_database(url: str, base: str = POSTGRES_URL) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def forget_redis_namespace(url: str = REDIS_URL) -> None:
    import redis

    client = redis.Redis.from_url(url)
    names = list(client.scan_iter(match=f"toolclause:test-{RUN}:*", count=1000))
    for start in range(0, len(names), 500):
        client.delete(*names[start:start + 500])
    client.close()


def _wait_for(ready, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if ready():
            return
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not come up within {seconds:g} s")


class PrivateRedis:
    """A redis-server of the test's own on a free port, with an append-only file so a restart keeps its data."""

    def __init__(self) -> None:
        self.binary = shutil.which("redis-server")
        if self.binary is None:
            raise RuntimeError("redis-server is not installed")
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="toolclause-redis-")
        self.process: subprocess.Popen | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> PrivateRedis:
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "yes",
             "--appendfsync", "always", "--dir", self.dir], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait_for(lambda: redis_unreachable(self.url) is None, 10, "the private redis-server")
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # redis-server flushes its append-only file on SIGTERM
            self.process.wait(10)
        self.process = None

    def close(self) -> None:
        try:
            self.stop()
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


class PrivatePostgres:
    """A PostgreSQL cluster of the test's own (initdb in a temporary folder, run as the postgres user)."""

    def __init__(self) -> None:
        bindir = Path(os.environ.get("PG_BINDIR", "")) if os.environ.get("PG_BINDIR") else _pg_bindir()
        if bindir is None:
            raise RuntimeError("PostgreSQL's initdb and pg_ctl are not installed")
        self.initdb, self.pg_ctl = str(bindir / "initdb"), str(bindir / "pg_ctl")
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="toolclause-pg-")
        self.data = os.path.join(self.dir, "data")
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        self._as_postgres = os.geteuid() == 0  # PostgreSQL refuses to run as root
        if self._as_postgres:
            shutil.chown(self.dir, "postgres", "postgres")
        self._run([self.initdb, "-D", self.data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"])

    def start(self) -> PrivatePostgres:
        self._run([self.pg_ctl, "-D", self.data, "-l", os.path.join(self.dir, "log"), "-w", "-t", "30",
                   "-o", f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off", "start"])
        _wait_for(lambda: postgres_unreachable(self.url) is None, 30, "the private PostgreSQL")
        return self

    def stop(self) -> None:
        self._run([self.pg_ctl, "-D", self.data, "-m", "fast", "-w", "stop"], check=False)

    def close(self) -> None:
        try:
            self.stop()
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)

    def _run(self, command: list[str], check: bool = True) -> None:
        if self._as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=check, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)


def _pg_bindir() -> Path | None:
    found = shutil.which("pg_ctl")
    if found:
        return Path(os.path.realpath(found)).parent
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
    return versions[-1].parent if versions else None
