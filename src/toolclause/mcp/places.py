"""Where a Toolbox's tools are written: the line of each function, and of each of its parameters.

`toolclause lint app.py:box` reads the tools as a client would list them, a document with no
lines of its own.  A finding about a tool written in code should still point at the code: the
`def` of its function, or the parameter a property comes from.  Only functions written in the
target's own file are placed (a finding cannot name a second file), and only tools built from a
function (a tool bound to a JSON or YAML contract is placed by that file, not here).
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

Place = tuple[int, int]  # (line, column), 1-based


def function_places(fn: Callable[..., Any]) -> tuple[str, Place, dict[str, Place]] | None:
    """(the file, the `def` line, each parameter's line) of a function written in Python source, or None."""
    try:
        file = inspect.getsourcefile(fn)
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        return None
    if file is None:
        return None
    try:
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except SyntaxError:
        return None
    node = next((n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    if node is None:
        return None
    indent = len(lines[0]) - len(lines[0].lstrip())
    shift = first - 1
    every = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
    params = {a.arg: (a.lineno + shift, a.col_offset + indent + 1) for a in every}
    return str(Path(file).resolve()), (node.lineno + shift, node.col_offset + indent + 1), params


def locator(listing: Mapping[str, Any], functions: Mapping[str, Callable[..., Any]],
            file: Path | None) -> Callable[[str], Place | None]:
    """A `locate` for the listing's pointers: a tool's `def`, or the parameter a top-level property names."""
    tools = listing.get("tools") or []
    names = [t.get("name") if isinstance(t, dict) else None for t in tools]
    target = str(file.resolve()) if file is not None else None
    known: dict[str, tuple[Place, dict[str, Place]]] = {}
    for name, fn in functions.items():
        found = function_places(fn)
        if found is not None and found[0] == target:
            known[name] = (found[1], found[2])

    def locate(pointer: str) -> Place | None:
        parts = pointer.split("/")
        if len(parts) < 3 or parts[1] != "tools" or not parts[2].isdigit() or int(parts[2]) >= len(names):
            return None
        place = known.get(str(names[int(parts[2])]))
        if place is None:
            return None
        if len(parts) >= 6 and parts[3] == "inputSchema" and parts[4] == "properties":
            return place[1].get(parts[5].replace("~1", "/").replace("~0", "~"), place[0])
        return place[0]

    return locate


__all__ = ["Place", "function_places", "locator"]
