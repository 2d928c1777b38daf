"""Resolve `$ref`s inside one tool's schema, without fetching anything (used by S005 and S008).

Only what a provider or MCP client can resolve on its own counts: a fragment
of the same document (`#`, `#/json/pointer`, `#anchor`) or the URI of the
document or of one of its embedded resources (`$id`).  Everything else is
external.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator
from urllib.parse import unquote, urljoin

from ...model import escape_token, resolve_pointer, split_pointer
from ...suggest import closest

MAX_SCAN_DEPTH = 64  # the walker's own depth bound: deeper parts are not analysed anyway
_DATA_KEYWORDS = frozenset({"enum", "const", "default", "examples", "example"})


@dataclass(frozen=True, slots=True)
class Resolution:
    ok: bool
    pointer: str | None = None   # JSON pointer of the target inside the root (when ok)
    target: Any = None
    external: bool = False       # the ref names another document
    problem: str = ""            # why it does not resolve (when not ok and not external)


def split_ref(ref: str) -> tuple[str, str | None]:
    """(document part, fragment or None)."""
    if "#" in ref:
        document, fragment = ref.split("#", 1)
        return document, fragment
    return ref, None


def _strip(uri: str) -> str:
    return uri.rstrip("#")


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


class RefIndex:
    """Anchors and embedded `$id`s of one root schema (ids made absolute), built on first need."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.anchors: dict[str, str] = {}
        self.ids: dict[str, str] = {}
        root_id = root.get("$id")
        self.base = _strip(urljoin("", root_id)) if isinstance(root_id, str) else ""
        draft4 = isinstance(root.get("$schema"), str) and "draft-04" in root["$schema"]
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
            return self._at(base)
        if fragment.startswith("/"):
            return self._at(base + unquote(fragment))
        if fragment in self.anchors:
            return self._at(self.anchors[fragment])
        return Resolution(False, problem=f"no subschema declares the anchor '{fragment}'")

    def _at(self, pointer: str) -> Resolution:
        try:
            target = resolve_pointer(self.root, pointer)
        except KeyError:
            return Resolution(False, problem=missing_part(self.root, pointer))
        return Resolution(True, pointer=pointer, target=target)


def missing_part(root: Any, pointer: str) -> str:
    """Which step of a pointer fails, and the closest names that exist there."""
    node = root
    walked = ""
    for token in split_pointer(pointer):
        if isinstance(node, dict) and token in node:
            node = node[token]
            walked += "/" + escape_token(token)
            continue
        if isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
            walked += "/" + token
            continue
        where = f"'{walked}'" if walked else "the root"
        if isinstance(node, dict):
            guess = closest(token, [k for k in node if isinstance(k, str)])
            if guess:
                return f"{where} has no '{token}' (did you mean '#{walked}/{escape_token(guess)}'?)"
            return f"{where} has no '{token}'"
        return f"{where} is not an object, so it has no '{token}'"
    return "it does not exist"


def index_for(root: dict[str, Any], cache: dict[str, Any]) -> RefIndex:
    """One RefIndex per root schema per lint run (kept in the run's cache)."""
    store = cache.setdefault("S:ref-index", {})
    entry = store.get(id(root))
    if entry is None or entry.root is not root:
        entry = store[id(root)] = RefIndex(root)
    return entry
