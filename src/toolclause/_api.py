"""The public functions that do more than name a subpackage's function: `lint` and `diff`.

`load` and `export` are `toolclause.loading.load` and `toolclause.exporting.export`
themselves; `toolclause/__init__.py` names all four.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .linting.config import LintConfig, parse_codes, parse_targets
from .linting.run import LintRequest, run, with_texts
from .loading import LoadResult
from .loading.sources import load_result
from .model import Diagnostic, ToolContract

if TYPE_CHECKING:
    from .diffing import DiffReport


def lint(source: Any, *, config: LintConfig | None = None, targets: Iterable[str] | None = None,
         select: Iterable[str] | None = None, ignore: Iterable[str] | None = None,
         input_format: str | None = None) -> list[Diagnostic]:
    """Lint tools given as contracts, paths, a JSON string or parsed objects: the findings
    `toolclause lint` reports, in its order (`toolclause.linting.run`, the lint every door runs).

    `config` is used as given (none: the defaults; the API reads no configuration file).
    `select` and `ignore` take rule codes or prefixes, as the command line does (`ignore` adds to
    the configuration's, as `--ignore` does); one that names no rule raises `ConfigError` (a
    ValueError) naming it, as does an unknown target.  Input that cannot be read raises ValueError.

    >>> [d.code for d in lint({"name": "t", "description": "Looks up one thing by id and returns it.",
    ...   "inputSchema": {"type": "object", "properties": {}, "required": ["id"]}}, select=["S003"])]
    ['S003']
    """
    return run(LintRequest(
        reader=_Given(source, input_format), config=config or LintConfig(),
        targets=parse_targets(list(targets)) if targets is not None else None,
        select=parse_codes(select, "select") if select is not None else None,
        ignore=parse_codes(ignore, "ignore") if ignore is not None else None,
    )).diagnostics


@dataclass(frozen=True)
class _Given:
    """What `lint()` was given, read as `load()` reads it: a ValueError, before any linting, when some of it
    cannot be read."""

    source: Any
    input_format: str | None

    def read(self, exclude: Sequence[str]) -> LoadResult:
        if _is_contracts(self.source):
            return LoadResult(tools=list(self.source))
        return load_result(self.source, self.input_format)

    def reread(self, before: LoadResult, fixed: Mapping[str, str], exclude: Sequence[str]) -> LoadResult:
        return with_texts(before, fixed, self.input_format)


def diff(old: Any, new: Any) -> DiffReport:
    """What changed from `old` to `new`, and whether it breaks calls or consumers of results.

    Each side is what `toolclause diff` takes — a file, a folder, `git:REF:PATH`,
    a list of paths — or contracts (one, or a list), or parsed tool objects.
    Inputs that cannot be read are listed in the report's `unreadable`.

    >>> before = {"name": "get_weather", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}
    >>> from toolclause import load
    >>> after = load({**before, "inputSchema": {**before["inputSchema"], "required": ["city"]}})[0]
    >>> [(c.kind, c.impact.label) for c in diff(before, after).changes]
    [('required-added', 'breaking-calls')]
    """
    from .diffing import diff as diff_sides  # only a diff pays for the change classifier

    return diff_sides(_side(old), _side(new))


def _side(source: Any) -> Any:
    return [source] if isinstance(source, ToolContract) else source


def _is_contracts(source: Any) -> bool:
    return isinstance(source, (list, tuple)) and bool(source) and all(isinstance(t, ToolContract) for t in source)
