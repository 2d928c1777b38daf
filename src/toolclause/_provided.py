"""What a lower layer offers and a higher one implements: `Toolbox.mcp_server()`.

Serving is the `mcp` layer's job, and the runtime never imports a layer above it.  So the
runtime names the feature and looks it up here; the package root (`toolclause/__init__.py`,
which Python runs before any of its submodules) registers the implementation, importing it
only when it is first called.
"""

from __future__ import annotations

_TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing, as the package root does
if _TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

_PROVIDERS: dict[str, Callable[..., Any]] = {}


def provide(name: str, implementation: Callable[..., Any]) -> None:
    _PROVIDERS[name] = implementation


def provided(name: str) -> Callable[..., Any]:
    try:
        return _PROVIDERS[name]
    except KeyError:  # pragma: no cover - the package root always registers them
        raise RuntimeError(f"{name} is not available: the toolclause package did not register it") from None


__all__ = ["provide", "provided"]
