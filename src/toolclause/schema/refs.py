"""Local `$ref` resolution inside one schema document, without fetching anything.

Only what a provider or MCP client can resolve on its own counts as local: a
fragment of the same document (`#`, `#/json/pointer`, `#anchor`) or the URI of
the document or of one of its embedded resources (`$id`).  Everything else is
external, and never followed.

    value_at(document, pointer)   RFC 6901: the value at a JSON Pointer, or MISSING
    resolve_ref(root, ref)        a `$ref` → Resolution (target, its pointer, or why not)
    ref_target(root, ref)         a "#…" `$ref`'s target, or MISSING
    RefIndex(root)                the anchors and embedded `$id`s, for refs that need them

Scans are iterative and stop at MAX_SCAN_DEPTH, so a schema nested thousands of
levels deep, or one whose references form a loop, costs bounded work.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urljoin

from ..model import escape_token, unescape_token
from .walk import MAX_DEPTH

MAX_SCAN_DEPTH = MAX_DEPTH  # the walker's own depth bound: deeper parts are not analysed anyway
_DATA_KEYWORDS = frozenset({"enum", "const", "default", "examples", "example"})


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return "MISSING"


MISSING: Any = _Missing()
"""What `value_at` and `ref_target` answer where nothing is (None is a value a document may hold)."""


def step(node: Any, token: str) -> Any:
    """One RFC 6901 step (token already unescaped); MISSING where it names nothing."""
    if isinstance(node, dict):
        return node.get(token, MISSING)
    if isinstance(node, list) and token.isdigit() and int(token) < len(node):
        return node[int(token)]
    return MISSING


def value_at(document: Any, pointer: str) -> Any:
    """The value at a JSON Pointer, or MISSING.

    Unescapes only tokens that hold '~' (almost none do): placing lint findings
    calls this for every finding.
    """
    if not pointer:
        return document
    node = document
    for token in pointer[1:].split("/"):
        if "~" in token:
            token = unescape_token(token)
        if node.__class__ is dict:  # nearly every step: answered without a call
            node = node.get(token, MISSING)
        else:
            node = step(node, token)
        if node is MISSING:
            return MISSING
    return node


@dataclass(frozen=True, slots=True)
class Resolution:
    ok: bool
    pointer: str | None = None   # JSON Pointer of the target inside the root (when ok), or of what is missing
    target: Any = None
    external: bool = False       # the ref names another document
    anchor: str | None = None    # the plain-name anchor no subschema declares (when not ok)


def split_ref(ref: str) -> tuple[str, str | None]:
    """(document part, fragment or None)."""
    if "#" in ref:
        document, fragment = ref.split("#", 1)
        return document, fragment
    return ref, None


def resolve_ref(root: Any, ref: str, index_of: Callable[[Any], RefIndex] | None = None) -> Resolution:
    """Where a `$ref` written in `root` points.

    A plain pointer fragment ("#/$defs/x", "#") is answered directly; anchors
    and `$id`-relative references need the root's RefIndex, which `index_of`
    gives (a new one by default: a caller resolving many refs in one root
    passes a memo).
    """
    document, fragment = split_ref(ref)
    if not document and (not fragment or fragment.startswith("/")):
        return _at(root, unquote(fragment or ""))
    return (index_of or RefIndex)(root).resolve(ref)


def ref_target(root: Any, ref: Any) -> Any:
    """The value a same-document `$ref` ("#…") names, or MISSING (dangling, or not such a string).

    A reference by URI ("other.json#/x") is MISSING here even where an embedded
    `$id` would resolve it: readers that ask this per node must not scan the
    whole schema for every such reference (S005 resolves them, with one index).
    """
    if not isinstance(ref, str) or not ref.startswith("#"):
        return MISSING
    resolution = resolve_ref(root, ref)
    return resolution.target if resolution.ok else MISSING


def _at(root: Any, pointer: str) -> Resolution:
    target = value_at(root, pointer)
    if target is MISSING:
        return Resolution(False, pointer=pointer)
    return Resolution(True, pointer=pointer, target=target)


def iter_subschemas(schema: Any, pointer: str = "", depth: int = 0) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every dict in a schema document with its pointer (data keywords skipped), depth-bounded."""
    stack: list[tuple[str, Any, int]] = [(pointer, schema, depth)]
    while stack:
        here, value, level = stack.pop()
        if level > MAX_SCAN_DEPTH:
            continue
        if isinstance(value, dict):
            yield here, value
            for key, child in value.items():
                if key in _DATA_KEYWORDS or not isinstance(child, (dict, list)):
                    continue
                stack.append((here + "/" + escape_token(key), child, level + 1))
        elif isinstance(value, list):
            for index, child in enumerate(value):
                if isinstance(child, (dict, list)):
                    stack.append((f"{here}/{index}", child, level + 1))


def _strip(uri: str) -> str:
    return uri.rstrip("#")


class RefIndex:
    """Anchors and embedded `$id`s of one root schema (ids made absolute), built in one bounded scan."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self.anchors: dict[str, str] = {}
        self.ids: dict[str, str] = {}
        root_id = root.get("$id") if isinstance(root, dict) else None
        self.base = _strip(urljoin("", root_id)) if isinstance(root_id, str) else ""
        draft4 = isinstance(root, dict) and isinstance(root.get("$schema"), str) and "draft-04" in root["$schema"]
        id_keys = ("$id", "id") if draft4 else ("$id",)
        stack: list[tuple[str, Any, int, str]] = [("", root, 0, self.base)]
        while stack:
            pointer, node, depth, base = stack.pop()
            if depth > MAX_SCAN_DEPTH:
                continue
            if isinstance(node, dict):
                base = self._declare(pointer, node, base, id_keys)
                children = ((escape_token(k), v) for k, v in node.items() if k not in _DATA_KEYWORDS)
            elif isinstance(node, list):
                children = ((str(i), v) for i, v in enumerate(node))
            else:
                continue
            stack.extend((f"{pointer}/{token}", child, depth + 1, base)
                         for token, child in children if isinstance(child, (dict, list)))

    def _declare(self, pointer: str, node: dict[str, Any], base: str, id_keys: tuple[str, ...]) -> str:
        for key in ("$anchor", "$dynamicAnchor"):
            if isinstance(node.get(key), str):
                self.anchors.setdefault(node[key], pointer)
        for key in id_keys:
            ident = node.get(key)
            if not isinstance(ident, str):
                continue
            if ident.startswith("#"):  # draft 4–7 spell a plain-name anchor as an id
                self.anchors.setdefault(ident[1:], pointer)
            elif pointer:
                base = _strip(urljoin(base, ident).split("#", 1)[0])
                self.ids.setdefault(base, pointer)
        return base

    def resolve(self, ref: str) -> Resolution:
        document, fragment = split_ref(urljoin(self.base, ref) if self.base else ref)
        document = _strip(document)
        if document and document != self.base:
            if document in self.ids:
                return self._fragment(self.ids[document], fragment or "")
            return Resolution(False, external=True)
        return self._fragment("", fragment or "")

    def _fragment(self, base: str, fragment: str) -> Resolution:
        if not fragment:
            return _at(self.root, base)
        if fragment.startswith("/"):
            return _at(self.root, base + unquote(fragment))
        if fragment in self.anchors:
            return _at(self.root, self.anchors[fragment])
        return Resolution(False, anchor=fragment)
