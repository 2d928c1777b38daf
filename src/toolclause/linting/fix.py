"""Apply the safe fixes of diagnostics to a parsed document.

Pure: no files are read or written here (the CLI does that).  A document is
whatever the reader produced: plain dicts and lists from `json.loads`, or
ruamel.yaml's round-trip containers, which behave as dicts and lists, so edits
keep YAML comments and key order.

Every edit pointer is into the document as written (the engine has translated
it).  A fix is applied whole or not at all: when one of its edits names a place
that no longer exists, the edits already made are undone and the fix is
reported as skipped, never raised.  Fixes that touch overlapping places in one
pass are deferred: the caller re-lints and applies them on the next pass,
against the document as it then is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, MutableMapping, MutableSequence
from dataclasses import dataclass, field
from typing import Any

from ..model import Diagnostic, Edit, split_pointer

_MISSING = object()


class EditError(Exception):
    """An edit that cannot be applied to the document as it is now."""


@dataclass(frozen=True)
class SkippedFix:
    diagnostic: Diagnostic
    reason: str
    # the file itself was refused (it repeats a key, it is read-only): the run fails, as nothing was fixed
    refused: bool = False


@dataclass
class FixOutcome:
    applied: list[Diagnostic] = field(default_factory=list)
    skipped: list[SkippedFix] = field(default_factory=list)
    deferred: list[Diagnostic] = field(default_factory=list)  # overlapped another fix this pass

    @property
    def changed(self) -> bool:
        return bool(self.applied)


def can_write_back(file: str | None) -> bool:
    """Whether --fix can write where a finding came from: a file, not standard input,
    a live server ("server:…", an http(s) URL) or an in-memory object ("<…>").

    >>> [can_write_back(f) for f in ("tools.json", "-", "server:python srv.py", "https://x/mcp", "<object>")]
    [True, False, False, False, False]
    """
    if not file:
        return False
    return file != "-" and not file.startswith(("<", "server:", "http://", "https://"))


def safe_edits(diagnostic: Diagnostic, *, unsafe: bool = False) -> tuple[Edit, ...]:
    """The edits `--fix` may apply for a diagnostic: none unless its fix is safe, or, with `unsafe`
    (`--unsafe-fixes`), the edits of a fix that could reject a documented value too (Ruff's split: an unsafe
    fix is applied only when the user asks for it by name)."""
    fix = diagnostic.fix
    if fix is None or not (fix.safe or unsafe):
        return ()
    return tuple(fix.edits)


# --------------------------------------------------------------------------- pointer plumbing

def _child(container: Any, token: str) -> Any:
    """The value under `token`, or _MISSING; keys are compared as strings because
    YAML allows non-string keys that the loader turned into strings."""
    if isinstance(container, MutableMapping):
        if token in container:
            return container[token]
        for key in container:
            if str(key) == token:
                return container[key]
        return _MISSING
    if isinstance(container, MutableSequence):
        if token.isdigit() and int(token) < len(container):
            return container[int(token)]
        return _MISSING
    return _MISSING


def _real_key(mapping: MutableMapping, token: str) -> Any:
    if token in mapping:
        return token
    for key in mapping:
        if str(key) == token:
            return key
    return token


def _parent(document: Any, tokens: list[str], pointer: str) -> Any:
    node = document
    for depth, token in enumerate(tokens):
        node = _child(node, token)
        if node is _MISSING:
            missing = "/" + "/".join(tokens[: depth + 1])
            raise EditError(f"{missing} no longer exists")
    return node


def _set_key_at(mapping: MutableMapping, key: Any, value: Any, position: int) -> None:
    """Put `key` back at its former position (undoing a removal keeps key order)."""
    insert = getattr(mapping, "insert", None)  # ruamel's CommentedMap
    if callable(insert):
        insert(position, key, value)
        return
    items = list(mapping.items())
    items.insert(position, (key, value))
    mapping.clear()
    mapping.update(items)


def apply_edit(document: Any, edit: Edit) -> Callable[[], None]:
    """Apply one edit in place; return a function that undoes it.  Raises EditError."""
    tokens = split_pointer(edit.pointer)
    if not tokens:
        raise EditError("an edit cannot replace the whole document")
    parent = _parent(document, tokens[:-1], edit.pointer)
    last = tokens[-1]
    if isinstance(parent, MutableMapping):
        key = _real_key(parent, last)
        if edit.op == "set":
            if key in parent:
                old = parent[key]
                parent[key] = edit.value
                return lambda: parent.__setitem__(key, old)
            parent[key] = edit.value
            return lambda: parent.__delitem__(key)
        if edit.op == "remove":
            if key not in parent:
                raise EditError(f"{edit.pointer} no longer exists")
            position = list(parent).index(key)
            old = parent.pop(key)
            return lambda: _set_key_at(parent, key, old, position)
    elif isinstance(parent, MutableSequence):
        if edit.op == "set" and (last == "-" or (last.isdigit() and int(last) == len(parent))):
            parent.append(edit.value)
            return parent.pop
        if not last.isdigit() or int(last) >= len(parent):
            raise EditError(f"{edit.pointer} no longer exists")
        index = int(last)
        if edit.op == "set":
            old = parent[index]
            parent[index] = edit.value
            return lambda: parent.__setitem__(index, old)
        if edit.op == "remove":
            old = parent.pop(index)
            return lambda: parent.insert(index, old)
    else:
        raise EditError(f"{edit.pointer}: its parent is not an object or array")
    raise EditError(f"unknown edit operation {edit.op!r}")


def apply_fix(document: Any, edits: Iterable[Edit]) -> None:
    """Apply all edits or none (raises EditError after undoing what was done)."""
    undo: list[Callable[[], None]] = []
    try:
        for edit in edits:
            undo.append(apply_edit(document, edit))
    except EditError:
        for step in reversed(undo):
            step()
        raise


# --------------------------------------------------------------------------- many fixes

def _order_key(pointer: str) -> tuple:
    # numbers compare as numbers, so removals in a list run from the end and
    # never shift an index another fix still relies on
    return tuple((0, int(t), "") if t.isdigit() else (1, 0, t) for t in split_pointer(pointer))


def _overlaps(a: str, b: str) -> bool:
    return a == b or a.startswith(b + "/") or b.startswith(a + "/")


def apply_fixes(document: Any, diagnostics: Iterable[Diagnostic], *, unsafe: bool = False) -> FixOutcome:
    """Apply the safe fixes of `diagnostics` (all into this one document) in place; the unsafe ones too with
    `unsafe`."""
    outcome = FixOutcome()
    fixable = [(d, safe_edits(d, unsafe=unsafe)) for d in diagnostics]
    fixable = [(d, edits) for d, edits in fixable if edits]
    fixable.sort(key=lambda item: _order_key(item[1][0].pointer), reverse=True)
    touched: list[str] = []
    done: set[tuple] = set()
    for diagnostic, edits in fixable:
        identity = tuple((e.op, e.pointer, repr(e.value)) for e in edits)
        if identity in done:  # two findings asking for the very same change
            outcome.applied.append(diagnostic)
            continue
        if any(_overlaps(e.pointer, t) for e in edits for t in touched):
            outcome.deferred.append(diagnostic)
            continue
        try:
            apply_fix(document, edits)
        except EditError as exc:
            outcome.skipped.append(SkippedFix(diagnostic, str(exc)))
            continue
        done.add(identity)
        touched.extend(e.pointer for e in edits)
        outcome.applied.append(diagnostic)
    return outcome
