"""`open_store(url)`: the backend a URL names, opened now so that a bad URL fails at start-up.

A backend's module (and its driver) is imported only when a URL names it; a
missing driver is a `StoreConfigError` that says which extra to install.
"""

from __future__ import annotations

import importlib
from typing import Any

from .base import Store
from .url import StoreURL

BACKENDS = {  # backend → (module, class)
    "memory": ("memory", "MemoryStore"),
    "sqlite": ("sqlite", "SQLiteStore"),
    "redis": ("redis", "RedisStore"),
    "postgresql": ("postgres", "PostgresStore"),
}


def open_store(url: str | StoreURL, **options: Any) -> Store:
    """Open the store a URL names (`StoreConfigError` if it cannot be opened or reached)."""
    parsed = url if isinstance(url, StoreURL) else StoreURL.parse(url)
    module_name, class_name = BACKENDS[parsed.backend]
    module = importlib.import_module(f"{__package__}.{module_name}")
    return getattr(module, class_name)(parsed, **options)


__all__ = ["BACKENDS", "open_store"]
