"""Schemas that refer to each other by `$id`, made self-contained for structured outputs.

A state schema may refer to a handoff schema by its `$id`
(`{"$ref": "urn:example:handoff:triage_to_billing"}`).  No provider fetches a
reference: OpenAI's structured outputs resolve only `#/…` inside the schema
sent, and Anthropic's grammar compiler the same.  So each schema of the project
referred to is copied under the root's `$defs` (named by its file's stem) and
the `$ref` pointed there: `#/$defs/triage_to_billing`.

The copy leaves its `$id` behind, so inside it `#/…` now means the root; its
own references are rewritten to the place it has in the root.  References
inside the copies are followed too (a handoff that names another by `$id`), each
schema copied once; one back to the root becomes `#…`.  A reference to an `$id`
the project does not have is left as written, for lint (S005) to report.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import quote, urljoin

from ..model import SchemaDocument, escape_token
from ..schema.refs import RefIndex, split_ref

# keywords whose values are data, not schemas: a `$ref` key in an enum value is no reference
_DATA_KEYWORDS = frozenset({"enum", "const", "default", "examples", "example"})
# keywords whose values map names (anything, "enum" included) to schemas
_SCHEMA_MAPS = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"})
# what a copy leaves behind: its base URI and its dialect are the root's once it is inside it
_LEFT_BEHIND = frozenset({"$id", "$schema"})
# characters a JSON Pointer token may keep in a URI fragment (RFC 3986 pchar, less what must be escaped)
_FRAGMENT_SAFE = "!$&'()*+,;=:@~"


def document_uri(ref: str, base: str | None) -> str:
    """The document part of a `$ref`, made absolute against the `$id` of the schema it is written in."""
    document, _ = split_ref(ref)
    if not document:
        return ""
    return urljoin(base or "", document).rstrip("#")


def ids_of(documents: list[SchemaDocument]) -> dict[str, SchemaDocument]:
    """{`$id`: document} (without a trailing '#', as references are compared)."""
    return {document.id.rstrip("#"): document for document in documents if document.id}


def referred_document(ref: Any, base: str | None,
                      by_id: Mapping[str, SchemaDocument]) -> SchemaDocument | None:
    """The project's schema a `$ref` names by `$id` (that of the schema it is written in, `base`, included)."""
    if not isinstance(ref, str):
        return None
    uri = document_uri(ref, base)
    return by_id.get(uri) if uri else None


def bundle_schema(root: SchemaDocument,
                  by_id: Mapping[str, SchemaDocument]) -> tuple[Any, list[SchemaDocument]]:
    """(the root's schema with every schema it refers to by `$id` under its `$defs`, the documents copied).

    The documents themselves are never changed.
    """
    if not isinstance(root.schema, dict):
        return root.schema, []  # not a schema at all: the projection reports it
    bundler = _Bundler(root, by_id)
    schema = bundler.rewrite(root.schema, root, "")
    if bundler.copies:
        own = schema.get("$defs")
        schema["$defs"] = {**(own if isinstance(own, dict) else {}), **bundler.copies}
    return schema, bundler.copied


class _Bundler:
    def __init__(self, root: SchemaDocument, by_id: Mapping[str, SchemaDocument]) -> None:
        self.root = root
        self.by_id = by_id
        self.places: dict[int, str] = {id(root): ""}  # id(document) → its pointer in the bundle
        self.copies: dict[str, Any] = {}               # the new `$defs` entries, by name
        self.copied: list[SchemaDocument] = []
        own = root.schema.get("$defs")
        self.taken = set(own) if isinstance(own, dict) else set()

    def rewrite(self, node: Any, document: SchemaDocument, place: str) -> Any:
        """A copy of `node` (part of `document`, which sits at `place` in the bundle) with its refs moved."""
        if isinstance(node, list):
            return [self.rewrite(item, document, place) for item in node]
        if not isinstance(node, dict):
            return node
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                out[key] = self.moved_ref(value, document, place)
            elif key in _DATA_KEYWORDS:
                out[key] = value
            elif key in _SCHEMA_MAPS and isinstance(value, dict):
                out[key] = {name: self.rewrite(sub, document, place) for name, sub in value.items()}
            else:
                out[key] = self.rewrite(value, document, place)
        return out

    def moved_ref(self, ref: str, document: SchemaDocument, place: str) -> str:
        """Where `ref`, written in `document`, points in the bundle."""
        target = referred_document(ref, document.id, self.by_id)
        if target is None:
            if document_uri(ref, document.id) or not place:
                return ref  # another document the project lacks, or a root's own local ref: as written
            target = document
        pointer = _fragment_pointer(ref, target)
        if pointer is None:
            return ref  # an anchor the target does not declare: lint reports it
        return "#" + self.place_of(target) + pointer

    def place_of(self, document: SchemaDocument) -> str:
        """The pointer of the document in the bundle, copying it under `$defs` the first time."""
        if id(document) not in self.places:
            name = self._free_name(document.name)
            place = self.places[id(document)] = "/$defs/" + quote(escape_token(name), safe=_FRAGMENT_SAFE)
            self.copied.append(document)  # placed before it is rewritten: a cycle back to it finds it
            copy = self.rewrite(document.schema, document, place)
            self.copies[name] = {k: v for k, v in copy.items() if k not in _LEFT_BEHIND}
        return self.places[id(document)]

    def _free_name(self, name: str) -> str:
        candidate, n = name, 1
        while candidate in self.taken:
            n += 1
            candidate = f"{name}_{n}"
        self.taken.add(candidate)
        return candidate


def _fragment_pointer(ref: str, target: SchemaDocument) -> str | None:
    """The part of the target a ref's fragment names, as a URI-fragment JSON Pointer ("" for the whole)."""
    _, fragment = split_ref(ref)
    if not fragment or fragment.startswith("/"):
        return fragment or ""
    resolution = RefIndex(target.schema).resolve("#" + fragment)  # a plain-name anchor
    if not resolution.ok or resolution.pointer is None:
        return None
    return quote(resolution.pointer, safe="/" + _FRAGMENT_SAFE)


__all__ = ["bundle_schema", "document_uri", "ids_of", "referred_document"]
