"""toolclause: LLM tool definitions as contracts — linted, exported, versioned and enforced.

    from toolclause import Toolbox, ToolError, Result, Reply, load, lint, export, diff, route

Each public name is imported from the module that defines it on first use, so
`import toolclause` (and the start-up of every `toolclause` command, which
imports this package first) costs only what a run touches: linting files never
loads the runtime, the exporters or the diff classifier.  Type checkers read
the same names from the imports under TYPE_CHECKING.
"""

import importlib

from . import _provided
from ._version import __version__

# typing.TYPE_CHECKING without importing typing, which `toolclause --version` does not need (see __main__.py)
_TYPE_CHECKING = False
if _TYPE_CHECKING:
    from ._api import diff, lint
    from .diffing import DiffReport
    from .exporting import ExportResult, Loss, export
    from .exporting.provider import ProviderSchema, to_provider
    from .linting.config import LintConfig
    from .linting.engine import LintReport
    from .loading import load
    from .model import Diagnostic, Severity, ToolContract
    from .routing import route
    from .runtime import Reply, Result, Toolbox, ToolError, ToolRegistrationError
if _TYPE_CHECKING:  # apart from the block above, which names the public API alone (a test reads it)
    from typing import Any

# each public name → the module it is imported from (keep in step with the imports above)
_HOMES: dict[str, str] = {
    "Toolbox": ".runtime", "ToolError": ".runtime", "Result": ".runtime", "Reply": ".runtime",
    "ToolRegistrationError": ".runtime",
    "load": ".loading", "lint": "._api", "export": ".exporting", "diff": "._api", "route": ".routing",
    # the data the functions take and return
    "Diagnostic": ".model", "Severity": ".model", "ToolContract": ".model",
    "LintConfig": ".linting.config", "LintReport": ".linting.engine",
    "ExportResult": ".exporting", "Loss": ".exporting", "DiffReport": ".diffing",
    "to_provider": ".exporting.provider", "ProviderSchema": ".exporting.provider",
}

__all__ = ["Diagnostic", "DiffReport", "ExportResult", "LintConfig", "LintReport", "Loss", "ProviderSchema", "Reply",
           "Result", "Severity", "ToolContract", "ToolError", "ToolRegistrationError", "Toolbox", "__version__", "diff",
           "export", "lint", "load", "route", "to_provider"]


def __getattr__(name: str) -> "Any":
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'toolclause' has no attribute {name!r}")
    value = getattr(importlib.import_module(home, __name__), name)
    globals()[name] = value  # found once; later lookups are plain attribute reads
    return value


def _mcp_server(box: "Any", **options: "Any") -> "Any":
    from .mcp.serving import build_server  # the SDK is imported by the first server built

    return build_server(box, **options)


_provided.provide("mcp_server", _mcp_server)  # Toolbox.mcp_server(): the runtime names it, the mcp layer serves


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
