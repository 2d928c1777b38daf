"""Shared fixtures: the store servers, and a default store that never writes into the working directory."""

from __future__ import annotations

import os

import pytest

import store_servers

# A Toolbox made without a store URL uses TOOLCLAUSE_STORE, else .toolclause/state.db in the working
# directory; the test suite keeps its records in memory unless a test names a store.
os.environ["TOOLCLAUSE_STORE"] = "memory://"
os.environ.setdefault("TOOLCLAUSE_CONFIRMATION_SECRET", "test-secret-of-the-test-suite-0123456789")
# lint keeps no cache of its runs (each test lints afresh, whatever it patched); tests/test_lint_cache.py turns it on
os.environ["TOOLCLAUSE_NO_CACHE"] = "1"

_UNREACHED: dict[str, str] = {}


def _skip_unreached(backend: str, reason: str | None) -> None:
    if reason is not None:
        _UNREACHED[backend] = reason
        pytest.skip(reason)


@pytest.fixture(scope="session")
def redis_url():
    _skip_unreached("redis", store_servers.redis_unreachable())
    yield store_servers.redis_test_url()
    store_servers.forget_redis_namespace()


@pytest.fixture(scope="session")
def postgres_url():
    _skip_unreached("postgresql", store_servers.postgres_unreachable())
    url = store_servers.create_postgres_database()
    yield url
    store_servers.drop_postgres_database(url)


STORE_BACKENDS = ["memory", "sqlite", "redis", "postgresql"]


@pytest.fixture(params=STORE_BACKENDS)
def store_url(request, tmp_path):
    """One URL per backend; the test runs once for each (skipped, with the reason, where no server answers)."""
    return url_for(request, request.param, tmp_path)


def url_for(request, backend: str, tmp_path) -> str:
    if backend == "memory":
        return "memory://"
    if backend == "sqlite":
        return f"sqlite:///{tmp_path}/state.db"  # tmp_path is absolute: sqlite:////tmp/…
    return request.getfixturevalue("redis_url" if backend == "redis" else "postgres_url")


def pytest_terminal_summary(terminalreporter):
    for backend, reason in sorted(_UNREACHED.items()):
        terminalreporter.write_line(f"{backend} store tests skipped: {reason}")
