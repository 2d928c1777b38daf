"""The page, its script and its styles, shipped inside the package (read with importlib.resources)."""

from __future__ import annotations

from functools import cache
from importlib import resources

# what the app serves, and as what; nothing else in static/ is reachable
MEDIA_TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
               ".js": "text/javascript; charset=utf-8", ".svg": "image/svg+xml"}


@cache
def asset_text(name: str) -> str:
    """The text of `static/<name>`; FileNotFoundError when there is no such asset."""
    if "/" in name or "\\" in name or name.startswith(".") or not any(name.endswith(s) for s in MEDIA_TYPES):
        raise FileNotFoundError(name)
    return resources.files(__package__).joinpath("static", name).read_text(encoding="utf-8")


def media_type(name: str) -> str:
    return next(kind for suffix, kind in MEDIA_TYPES.items() if name.endswith(suffix))
