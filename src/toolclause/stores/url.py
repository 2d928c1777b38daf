"""Store URLs: which backend a URL names, checked before anything is opened.

    memory://                      records in this process only (tests)
    sqlite:///path/to/state.db     one file, safe across processes on one machine (the default)
    redis://host:6379/0            rediss:// for TLS
    postgresql://user@host/db      postgres:// and postgresql+psycopg:// too
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from .errors import StoreConfigError

STORE_SCHEMES = {"memory": "memory", "sqlite": "sqlite", "postgresql": "postgresql", "postgres": "postgresql",
                 "redis": "redis", "rediss": "redis"}
DEFAULT_STORE = "sqlite:///.toolclause/state.db"


@dataclass(frozen=True, slots=True)
class StoreURL:
    url: str
    backend: str  # memory | sqlite | postgresql | redis

    @classmethod
    def parse(cls, url: str) -> StoreURL:
        if not isinstance(url, str) or "://" not in url:
            raise StoreConfigError(f"store must be a URL such as 'memory://' or '{DEFAULT_STORE}', got {url!r}")
        scheme = urlsplit(url).scheme.lower().split("+", 1)[0]  # postgresql+psycopg:// → postgresql
        if scheme not in STORE_SCHEMES:
            raise StoreConfigError(f"unknown store scheme '{scheme}://'; use one of "
                                   f"{', '.join(s + '://' for s in STORE_SCHEMES)}")
        return cls(url, STORE_SCHEMES[scheme])

    @property
    def redacted(self) -> str:
        """The URL with any password replaced by '***' (for messages and logs)."""
        parts = urlsplit(self.url)
        if parts.password is None:
            return self.url
        host = parts.netloc.rpartition("@")[2]
        user = parts.username or ""
        return urlunsplit((parts.scheme, f"{user}:***@{host}", parts.path, parts.query, parts.fragment))


def seconds_option(given: str | None, name: str, default: float, store: str) -> float:
    """A timeout given in a store URL's query (`?timeout=2.5`), checked: a number of seconds above 0."""
    if given is None:
        return float(default)
    try:
        value = float(given)
    except ValueError:
        value = float("nan")
    if not 0 < value < 86400:  # NaN fails too
        raise StoreConfigError(f"the {store} store URL's {name} is a number of seconds above 0, not {given[:40]!r}")
    return value


__all__ = ["DEFAULT_STORE", "STORE_SCHEMES", "StoreURL", "seconds_option"]
