"""toolclause: LLM tool definitions as contracts — linted, exported, versioned and enforced."""

from __future__ import annotations

from typing import Any, Iterable

from .exporting import ExportResult, Loss, export
from .linting.config import LintConfig
from .linting.engine import LintReport, lint_contracts
from .loading import load
from .model import Diagnostic, Severity, ToolContract

__version__ = "0.1.0"


def lint(source: Any, *, config: LintConfig | None = None, targets: Iterable[str] | None = None,
         select: Iterable[str] | None = None, ignore: Iterable[str] | None = None,
         input_format: str | None = None) -> list[Diagnostic]:
    """Lint tools given as contracts, paths, a JSON string or parsed objects.

    >>> [d.code for d in lint({"name": "t", "description": "Looks up one thing by id and returns it.",
    ...   "inputSchema": {"type": "object", "properties": {}, "required": ["id"]}}, select=["S003"])]
    ['S003']
    """
    from .linting.config import parse_targets

    tools = list(source) if _is_contracts(source) else load(source, input_format)
    config = config or LintConfig()
    config = config.with_overrides(
        targets=parse_targets(list(targets)) if targets is not None else None,
        select=tuple(c.upper() for c in select) if select is not None else None,
        ignore=tuple(c.upper() for c in ignore) if ignore is not None else None,
    )
    return lint_contracts(tools, config)


def __getattr__(name: str) -> Any:
    # the runtime (pydantic, the gate) is imported on first use, so `toolclause lint` starts fast
    if name in ("Result", "ToolError", "Toolbox"):
        from . import runtime

        return getattr(runtime, name)
    raise AttributeError(f"module 'toolclause' has no attribute {name!r}")


def _is_contracts(source: Any) -> bool:
    return isinstance(source, (list, tuple)) and bool(source) and all(isinstance(t, ToolContract) for t in source)


__all__ = ["Diagnostic", "ExportResult", "LintConfig", "LintReport", "Loss", "Result", "Severity", "ToolContract",
           "ToolError", "Toolbox", "export", "lint", "load", "__version__"]
