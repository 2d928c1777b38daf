"""Place rule findings in the user's document: original pointer, line, fix edits.

Every finding pays for this, so it is the linter's hottest path after the rules
themselves (a corpus run places ~60,000 findings).  Two things keep it cheap:

- `ToolPlacer` caches, per tool, each canonical pointer's placement: several
  rules often report on the same node ("/description", one property).
- Pointer resolution steps through dicts directly and unescapes only tokens that
  hold '~' (almost none do), and a fix edit resolves each parent once and then
  checks the child, instead of resolving four full pointers.
"""

from __future__ import annotations

from typing import Any

from .. import _lazy_re as re
from ..loading.shapes import CONVERTED_FORMATS
from ..model import Edit, Fix, ToolContract, unescape_token
from ..schema.refs import MISSING, step, value_at


def locate_original(tool: ToolContract, canonical: str) -> str:
    """Pointer into the user's document for a canonical pointer, trimmed to a node that exists."""
    return tool.origin.base + _trimmed(tool.raw, tool.origin.pointers.to_original(canonical))


def _trimmed(raw: Any, relative: str) -> str:
    """`relative` cut back to the deepest node that exists in `raw` (all of it, nearly always)."""
    if raw is None or not relative:
        return relative
    tokens = relative[1:].split("/")
    node = raw
    kept = 0
    for token in tokens:
        if "~" in token:
            token = unescape_token(token)
        if isinstance(node, dict):
            if token not in node:
                break
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            break
        kept += 1
    return relative if kept == len(tokens) else "".join("/" + t for t in tokens[:kept])


# a pointer a message quotes, into the canonical tool ("the schema at /inputSchema/anyOf/0")
_QUOTED_POINTER = re.compile(r"/(?:inputSchema|outputSchema)(?:/[^\s'\"(),;:]*)?")


class ToolPlacer:
    """Placement of one tool's findings, with the per-tool work done once."""

    __slots__ = ("tool", "_located", "_canonical_doc", "_converted", "_base", "_to_original", "_unlocated",
                 "_renamed")

    def __init__(self, tool: ToolContract) -> None:
        self.tool = tool
        origin = tool.origin
        self._located: dict[str, tuple[str, int | None, int | None]] = {}
        self._canonical_doc: dict[str, Any] | None = None
        self._converted = origin.format in CONVERTED_FORMATS
        self._base = origin.base
        self._to_original = origin.pointers.to_original
        # without a position index every pointer sits on the record's line (JSONL) or nowhere
        self._unlocated = (origin.line, None) if origin.locate is None else None
        # a format whose keys are not MCP's (Anthropic's input_schema, OpenAI's function.parameters)
        self._renamed = bool(origin.pointers.entries)

    def message(self, text: str) -> str:
        """A finding's message with the pointers it quotes written as the user's document has them
        (`/input_schema/anyOf/0` in an Anthropic file), relative to the tool as the rules write them."""
        if not self._renamed or ("/inputSchema" not in text and "/outputSchema" not in text):
            return text
        raw, to_original = self.tool.raw, self._to_original
        return _QUOTED_POINTER.sub(lambda found: _trimmed(raw, to_original(found.group())) or found.group(), text)

    def locate(self, canonical: str) -> tuple[str, int | None, int | None]:
        """(original pointer, line, column) of a canonical pointer."""
        found = self._located.get(canonical)
        if found is None:
            pointer = self._base + _trimmed(self.tool.raw, self._to_original(canonical))
            line, column = self._unlocated or self.tool.origin.position(pointer)
            found = self._located[canonical] = (pointer, line, column)
        return found

    def place_edits(self, fix: Fix) -> Fix:
        """Translate a fix's edits into the user's document, or drop them where they cannot land.

        An edit can be written back only where the canonical node *is* the user's
        node: the same object (a schema the user wrote as JSON Schema), or an
        existing key holding the same value (a `type` inside a bare property map).
        An edit into a node the loader synthesised — `additionalProperties` on an
        object built from a list of parameter records — would write nonsense into
        the user's format, so the fix is kept as advice and no longer offered to --fix.
        """
        base, to_original = self._base, self._to_original
        if not self._converted:
            # the schema is the user's own JSON Schema: every canonical node is theirs
            return Fix(fix.description, fix.safe, tuple([Edit(e.op, base + to_original(e.pointer), e.value)
                                                         for e in fix.edits]))
        placed = []
        for edit in fix.edits:
            relative = to_original(edit.pointer)
            if not self._lands(edit.pointer, relative):
                return Fix(fix.description, False, ())
            placed.append(Edit(edit.op, base + relative, edit.value))
        return Fix(fix.description, fix.safe, tuple(placed))

    def _lands(self, canonical: str, relative: str) -> bool:
        """Same parent object on both sides, or the same key holding an equal value."""
        doc = self._canonical_doc
        if doc is None:
            tool = self.tool
            doc = self._canonical_doc = {
                "name": tool.name, "description": tool.description, "inputSchema": tool.input_schema,
                "outputSchema": tool.output_schema, "annotations": tool.annotations, "_meta": tool.meta}
        raw = self.tool.raw
        cut_canonical, cut_relative = canonical.rfind("/"), relative.rfind("/")
        if cut_canonical < 0 or cut_relative < 0:
            # not a pointer with a parent (never made by a rule): resolve literally
            parent_canonical, parent_relative = canonical[:cut_canonical], relative[:cut_relative]
            same_parent = value_at(doc, parent_canonical) is value_at(raw, parent_relative) is not MISSING
            same_value = (value_at(doc, canonical) == value_at(raw, relative) is not MISSING
                          and canonical.rsplit("/", 1)[-1] == relative.rsplit("/", 1)[-1])
            return same_parent or same_value
        canonical_parent = value_at(doc, canonical[:cut_canonical])
        original_parent = value_at(raw, relative[:cut_relative])
        if canonical_parent is original_parent is not MISSING:
            return True
        key, original_key = canonical[cut_canonical + 1:], relative[cut_relative + 1:]
        if key != original_key:
            return False
        if "~" in key:
            key = unescape_token(key)
        original_value = step(original_parent, key) if original_parent is not MISSING else MISSING
        if original_value is MISSING:
            return False
        canonical_value = step(canonical_parent, key) if canonical_parent is not MISSING else MISSING
        return canonical_value == original_value
