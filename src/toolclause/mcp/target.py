"""TARGET: a Python object named as `path/to/app.py:box` or `package.module:box`.

A file is imported with its folder first on `sys.path`, so it can import the modules beside it;
a module is imported from the current folder first, as `python -m` does.  Every failure (no such
file or module, an exception while importing it, no such attribute) is one `TargetError` line.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

FORM = "path/to/app.py:box or package.module:box"


class TargetError(Exception):
    """A TARGET that names nothing importable; the message is one line."""


def load_object(spec: str) -> Any:
    """The object `spec` names."""
    where, colon, attribute = spec.rpartition(":")
    if not colon or not where or not attribute:
        raise TargetError(f"{spec!r}: give TARGET as {FORM}")
    if where.endswith(".py") or "/" in where or os.sep in where:
        module = _import_file(Path(where), spec)
    else:
        module = _import_module(where, spec)
    value: Any = module
    for part in attribute.split("."):
        try:
            value = getattr(value, part)
        except AttributeError:
            found = sorted(n for n in vars(module) if not n.startswith("_"))[:20]
            raise TargetError(f"{spec}: {where} has no attribute {attribute!r} (it has: {', '.join(found)})") from None
    return value


def _import_file(path: Path, spec: str) -> Any:
    if not path.is_file():
        raise TargetError(f"{spec}: no file {path}")
    path = path.resolve()
    folder = str(path.parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    name = path.stem if path.stem.isidentifier() else "toolclause_target"
    loaded = sys.modules.get(name)
    if loaded is not None and Path(getattr(loaded, "__file__", "") or "").resolve() == path:
        return loaded
    if loaded is not None:  # another module holds the name: keep it, load this one beside it
        name = f"toolclause_target_{name}"
    found = importlib.util.spec_from_file_location(name, path)
    if found is None or found.loader is None:
        raise TargetError(f"{spec}: {path} cannot be imported as Python")
    module = importlib.util.module_from_spec(found)
    sys.modules[name] = module
    try:
        found.loader.exec_module(module)
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - the user's module: one line, not a traceback
        sys.modules.pop(name, None)
        raise TargetError(f"{spec}: importing {path.name} failed: {type(exc).__name__}: {exc}") from exc
    return module


def _import_module(name: str, spec: str) -> Any:
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and (name == exc.name or name.startswith(exc.name + ".")):
            raise TargetError(f"{spec}: no module named {exc.name!r}") from None
        raise TargetError(f"{spec}: importing {name} failed: {type(exc).__name__}: {exc}") from exc
    except (Exception, SystemExit) as exc:  # noqa: BLE001
        raise TargetError(f"{spec}: importing {name} failed: {type(exc).__name__}: {exc}") from exc




def _server(spec: str) -> Any:
    """The ToolboxServer `spec` names (a Toolbox is wrapped in one)."""
    from ..runtime import Toolbox
    from .serving import ToolboxServer, build_server

    found = load_object(spec)
    if isinstance(found, Toolbox):
        found = build_server(found)
    if not isinstance(found, ToolboxServer):
        raise TargetError(f"{spec}: names a {type(found).__name__}, not a toolclause Toolbox "
                          f"(or a server made with box.mcp_server())")
    return found


def load_toolbox_listing(spec: str) -> dict[str, Any]:
    """The listing (tools, widgets) a client of the Toolbox `spec` names would get: the shape a live
    server's snapshot has, read without starting a server."""
    return _server(spec).snapshot()


def load_toolbox_located(spec: str) -> tuple[dict[str, Any], Callable[[str], tuple[int, int] | None]]:
    """`load_toolbox_listing`, with a `locate` that gives the line of the function (or parameter) each
    pointer of the listing comes from, for the tools written in the target's own file."""
    from .places import locator

    server = _server(spec)
    listing = server.snapshot()
    where = spec.rpartition(":")[0]
    source = where if where.endswith(".py") else getattr(sys.modules.get(where), "__file__", None)
    functions = {name: bound.fn for name, bound in server.toolbox.registry.tools.items()
                 if bound.contract.origin.file.startswith("<python:")}
    return listing, locator(listing, functions, Path(source) if source else None)


__all__ = ["FORM", "TargetError", "load_object", "load_toolbox_located", "load_toolbox_listing"]
