"""`re`, with patterns compiled on first use, and compiled once per installation.

    from .. import _lazy_re as re      # then re.compile(...) at module level as usual

The rules and word lists hold about 140 module-level patterns; compiling them all
costs more than a small lint run itself.  Two things make that cheap:

* `compile` returns a stand-in that keeps the pattern and flags and compiles on
  the first method call, then keeps the compiled pattern's bound methods as its
  own attributes, so later calls cost what they cost on a pattern.  A run on a
  few tools uses about half of the patterns.
* What Python's regex compiler produces for a pattern (the matcher's code, the
  groups) is kept in `__pycache__/` beside this module, as `.pyc` files keep a
  module's bytecode: one file per interpreter version, written when a run
  compiled something new (never under PYTHONDONTWRITEBYTECODE), read once per
  process.  A pattern found there is built from it directly, skipping the
  parse and the compile; a stale or damaged file is ignored.  Patterns built
  either way are the same objects `re.compile` returns.

Every other name is the `re` module's own.  A compile error surfaces at first use
rather than at import (the tests exercise every pattern).
"""

from __future__ import annotations

import atexit
import re as _re
import sys
from pathlib import Path
from re import *  # noqa: F403  (the rest of `re`, unchanged)
from types import FrameType
from typing import Any, AnyStr

from . import _kept

try:  # the interpreter's own regex compiler, as re.compile calls it; without it, patterns compile as usual
    import _sre  # type: ignore[import-not-found]  # a C module with no type stubs
    from re import _compiler, _parser  # type: ignore[attr-defined]  # private modules typeshed leaves out

    _CODE_OF = _compiler._code
    _PARSE = _parser.parse
except (ImportError, AttributeError):  # pragma: no cover - another interpreter
    _CODE_OF = None

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split", "scanner")

# the file of compiled patterns: named by the interpreter's exact version, since its regex compiler may change
CACHE_FILE = Path(__file__).resolve().parent / "__pycache__" / (
    f"_lazy_re.{_kept.VERSION_TAG}.{getattr(_sre, 'MAGIC', 0) if _CODE_OF is not None else 0}.patterns")

KEPT = _kept.Kept(CACHE_FILE)  # (pattern, flags) → _sre.compile's other arguments


class LazyPattern:
    """A pattern compiled the first time one of its methods or compiled attributes is read."""

    def __init__(self, pattern: Any, flags: int) -> None:
        self.pattern = pattern
        self.flags = flags

    def __getattr__(self, name: str) -> Any:  # only for attributes not set yet
        if name.startswith("__") or name in ("pattern", "flags"):  # copy and pickle probe these on a bare object
            raise AttributeError(name)
        compiled = compiled_pattern(self.pattern, self.flags)
        for method in _METHODS:
            setattr(self, method, getattr(compiled, method))
        self.flags = compiled.flags  # as re reports them (with the implied UNICODE flag)
        self.groups = compiled.groups
        self.groupindex = compiled.groupindex
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"re.compile({self.pattern!r})" if not self.flags else f"re.compile({self.pattern!r}, {self.flags})"


def compile(  # type: ignore[no-redef]  # noqa: A001  (replaces re.compile)
        pattern: AnyStr | _re.Pattern[AnyStr], flags: int | _re.RegexFlag = 0) -> _re.Pattern[AnyStr]:
    """A pattern that compiles on first use (a compiled pattern is returned as it is).

    Only a module's own patterns are lazy and kept in the file: a pattern built while a run
    works (from a tool's name, say) is compiled at once by `re` itself, so nothing read from
    the linted files is ever written beside the package, and the file stays the size of the
    rule set.
    """
    if isinstance(pattern, (_re.Pattern, LazyPattern)):
        return pattern
    if not _called_from_module_level():
        return _re.compile(pattern, flags)
    return LazyPattern(pattern, int(flags))  # type: ignore[return-value]  # a stand-in for a Pattern


def _called_from_module_level() -> bool:
    """Whether `compile`'s caller is a module's top-level code (or a comprehension in it)."""
    frame: FrameType | None = sys._getframe(2)
    while frame is not None and frame.f_code.co_name in ("<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>"):
        frame = frame.f_back
    return frame is not None and frame.f_code.co_name == "<module>"


def compiled_pattern(pattern: Any, flags: int) -> _re.Pattern:
    """`re.compile(pattern, flags)`, from the file of compiled patterns when it holds this one."""
    if _CODE_OF is None:  # pragma: no cover - another interpreter
        return _re.compile(pattern, flags)
    key = (pattern, flags)
    arguments = KEPT.values.get(key)
    if arguments is not None:
        try:
            return _sre.compile(pattern, *arguments)
        except Exception:  # noqa: BLE001 - a damaged entry: compiled afresh below and replaced
            pass
    compiled = _re.compile(pattern, flags)  # raises re.error for a bad pattern, as re.compile does
    try:
        parsed = _PARSE(pattern, flags)
        state = parsed.state
        names: list[Any] = [None] * state.groups
        for name, index in state.groupdict.items():
            names[index] = name
        code = [int(op) for op in _CODE_OF(parsed, flags)]  # plain ints: the opcodes are an int subclass
        KEPT.add(key, (int(flags | state.flags), code, state.groups - 1, dict(state.groupdict), tuple(names)))
    except Exception:  # noqa: BLE001 - not kept; the pattern itself compiled
        pass
    return compiled


def save() -> None:
    """Write the compiled patterns when this process compiled new ones (and writing bytecode is allowed)."""
    KEPT.save()


atexit.register(save)
