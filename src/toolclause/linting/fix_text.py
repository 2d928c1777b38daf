"""Safe fixes applied to a tool file's text, written back the way the user wrote it.

Pure: text in, text out (the CLI reads and writes the files; a web page can
call this on what was pasted).  The edits themselves are `linting.fix`; here we
keep what a person would notice in a diff: JSON indentation, separators, key
order, non-ASCII text (or \\u escapes when the text used them), the trailing
newline, CRLF line endings, a UTF-8 BOM, and — for YAML — comments, quotes and
indentation (ruamel.yaml round-trip).  JSON Lines are edited record by record: a
diagnostic's `line` names the record its pointer is into.
"""

from __future__ import annotations

import io
import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .. import _lazy_re as re
from ..loading import detect_kind
from ..loading.positions import JSON_SPACE, scan_string, scan_value  # JSON_SPACE always matches: the union-attr ignores
from ..model import Diagnostic
from .fix import FixOutcome, SkippedFix, apply_fixes

if TYPE_CHECKING:
    from ruamel.yaml import YAML

_INDENTED_LINE = re.compile(r"\n([ \t]+)[^\s]")
_NON_ASCII_ESCAPE = re.compile(r"\\u(?:00[89a-fA-F][0-9a-fA-F]|0[1-9a-fA-F][0-9a-fA-F]{2}|[1-9a-fA-F][0-9a-fA-F]{3})")


@dataclass
class TextStyle:
    """How a file's text was written, so the rewrite looks the same."""

    bom: bool = False
    crlf: bool = False
    trailing_newline: bool = False

    @classmethod
    def of(cls, text: str) -> TextStyle:
        return cls(bom=text.startswith("\ufeff"), crlf="\r\n" in text, trailing_newline=text.endswith("\n"))

    def apply(self, text: str) -> str:
        text = text.rstrip("\n")
        if self.trailing_newline:
            text += "\n"
        if self.crlf:
            text = text.replace("\r\n", "\n").replace("\n", "\r\n")
        return ("\ufeff" if self.bom else "") + text


def _escapes_non_ascii(body: str) -> bool:
    """Whether the text writes non-ASCII characters as \\u escapes (and never as themselves)."""
    return bool(_NON_ASCII_ESCAPE.search(body)) and all(ord(ch) < 128 for ch in body)


def json_dump_like(value: Any, original: str) -> str:
    """`value` as JSON in the layout of `original` (indent, separators, escaping)."""
    body = original.strip().lstrip("\ufeff")
    ensure_ascii = _escapes_non_ascii(body)
    if "\n" in body:
        match = _INDENTED_LINE.search(body)
        indent: Any = 0
        if match:
            unit = match.group(1)
            indent = "\t" if unit.startswith("\t") else len(unit)
        return json.dumps(value, indent=indent, ensure_ascii=ensure_ascii, allow_nan=False)
    compact = re.search(r'"\s*:\s', body) is None and '":' in body
    separators = (",", ":") if compact else (", ", ": ")
    # allow_nan=False: a number JSON cannot hold (1e400 read as infinity) stops the fix rather than writing Infinity
    return json.dumps(value, separators=separators, ensure_ascii=ensure_ascii, allow_nan=False)


def _yaml() -> YAML:
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 4096  # never re-wrap long descriptions
    return yaml


_YAML_LINE = re.compile(r"^( *)(- +)?(.*)$")


def yaml_layout(text: str) -> tuple[int, int, int]:
    """(mapping indent, sequence indent, dash offset) as ruamel.yaml's `indent()` takes them.

    Measured from the first nested mapping and the first nested sequence: the
    columns of a child line against the key that opens it.
    """
    mapping = sequence = offset = None
    opener: int | None = None  # the column of a key that ends its line with ':'
    for raw in text.splitlines():
        stripped = raw.split(" #", 1)[0].rstrip()
        if not stripped.strip() or stripped.lstrip().startswith("#"):
            continue
        match = _YAML_LINE.match(stripped)
        assert match is not None  # every line matches: each group may be empty
        indent, dash, rest = len(match.group(1)), match.group(2), match.group(3)
        key_column = indent + (len(dash) if dash else 0)
        if opener is not None:
            if dash and offset is None and indent >= opener:
                offset, sequence = indent - opener, indent - opener + len(dash)
            elif not dash and mapping is None and indent > opener:
                mapping = indent - opener
        opener = key_column if rest.endswith(":") else None
        if mapping is not None and offset is not None:
            break
    mapping = mapping or 2
    if offset is None:
        offset, sequence = 0, 2
    return mapping, max(sequence or 2, offset + 2), offset


def _fix_yaml(text: str, diagnostics: Sequence[Diagnostic], unsafe: bool) -> tuple[str, FixOutcome]:
    yaml = _yaml()
    mapping, sequence, offset = yaml_layout(text)
    yaml.indent(mapping=mapping, sequence=sequence, offset=offset)
    documents = list(yaml.load_all(text))
    if len(documents) == 1:
        outcome = apply_fixes(documents[0], diagnostics, unsafe=unsafe)
        stream = io.StringIO()
        yaml.dump(documents[0], stream)
        return stream.getvalue(), outcome
    # several documents (`---`): the loader's pointers start at the index among the non-empty ones
    found = [tree for tree in documents if tree is not None]
    outcome = apply_fixes(found if len(found) > 1 else found[0] if found else None, diagnostics, unsafe=unsafe)
    yaml.explicit_start = True
    stream = io.StringIO()
    yaml.dump_all(found, stream)
    head = re.match(r"(?:[ \t]*(?:#[^\n]*)?\n)*(?=---)", text)  # comments before the first `---` stay
    return (head.group() if head else "") + stream.getvalue(), outcome


# --------------------------------------------------------------------------- JSON: splice, do not rewrite



@dataclass
class _Span:
    """Where one value of well-formed JSON text is: [start, end), and for a container its members."""

    start: int
    end: int
    members: list[tuple[str, int, _Span]] = field(default_factory=list)  # (key, key start, value) of an object
    items: list[_Span] = field(default_factory=list)  # of an array


def _span(text: str, at: int) -> _Span:
    """The span of the value starting at `at` (after whitespace); the text has parsed, so it is well formed."""
    start = JSON_SPACE.match(text, at).end()  # type: ignore[union-attr]
    opener = text[start]
    if opener == '"':
        return _Span(start, scan_string(text, start + 1)[1])
    if opener not in "{[":
        return _Span(start, scan_value(text, start)[1])  # NaN and Infinity too, as json.loads reads them
    span = _Span(start, start)
    position = JSON_SPACE.match(text, start + 1).end()  # type: ignore[union-attr]
    closer = "}" if opener == "{" else "]"
    while text[position] != closer:
        if opener == "{":
            key, after = scan_string(text, position + 1)
            colon = JSON_SPACE.match(text, after).end()  # type: ignore[union-attr]
            value = _span(text, colon + 1)
            span.members.append((key, position, value))
        else:
            value = _span(text, position)
            span.items.append(value)
        position = JSON_SPACE.match(text, value.end).end()  # type: ignore[union-attr]
        if text[position] == ",":
            position = JSON_SPACE.match(text, position + 1).end()  # type: ignore[union-attr]
    span.end = position + 1
    return span


def _line_indent(text: str, offset: int) -> str:
    line_start = text.rfind("\n", 0, offset) + 1
    return text[line_start:JSON_SPACE.match(text, line_start).end()].replace("\n", "").replace("\r", "")  # type: ignore[union-attr]


def _dump_at(value: Any, text: str, offset: int, inline: bool) -> str:
    """`value` written as the file writes values: on one line where it goes into one line, else indented
    for the line it goes on."""
    if inline:
        compact = _compact(text)
        return json.dumps(value, separators=(",", ":") if compact else (", ", ": "), allow_nan=False,
                          ensure_ascii=_escapes_non_ascii(text))
    dumped = json_dump_like(value, text)
    return dumped.replace("\n", "\n" + _line_indent(text, offset)) if "\n" in dumped else dumped


def _splices(old: Any, new: Any, span: _Span, text: str, out: list[tuple[int, int, str]]) -> None:
    """The smallest text replacements that turn `old` (written at `span`) into `new`."""
    if type(old) is type(new) and old == new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        members = {key: (key_start, value) for key, key_start, value in span.members}
        kept = [key for key in old if key in new]
        if len(members) != len(span.members) or not kept and old:  # a repeated key; every member replaced
            out.append((span.start, span.end, _dump_at(new, text, span.start, _one_line(text, span))))
            return
        for key in kept:
            _splices(old[key], new[key], members[key][1], text, out)
        gone = [key for key in old if key not in new]
        for key in gone:
            out.append(_removal(text, span, list(members).index(key)))
        added = [key for key in new if key not in old]
        if added:
            out.append(_insertion(text, span, [(key, new[key]) for key in added]))
        return
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for before, after, item in zip(old, new, span.items, strict=True):
            _splices(before, after, item, text, out)
        return
    out.append((span.start, span.end, _dump_at(new, text, span.start, _one_line(text, span))))


def _one_line(text: str, span: _Span) -> bool:
    return "\n" not in text[span.start:span.end]


def _removal(text: str, span: _Span, index: int) -> tuple[int, int, str]:
    """Cut member `index` of an object with the comma that joins it to a neighbour."""
    _, key_start, value = span.members[index]
    if index + 1 < len(span.members):
        return key_start, span.members[index + 1][1], ""
    if index > 0:
        return span.members[index - 1][2].end, value.end, ""
    return span.start + 1, span.end - 1, ""


def _insertion(text: str, span: _Span, added: list[tuple[str, Any]]) -> tuple[int, int, str]:
    """New members written after the object's last one (or into the empty object), in its own layout."""
    compact = _compact(text)
    separator = ":" if compact else ": "
    inline = _one_line(text, span)
    if not span.members:
        written = ("," if compact else ", ").join(_member(key, value, separator, text, span.start, inline)
                                                  for key, value in added)
        return span.start + 1, span.end - 1, written
    _, last_start, last_value = span.members[-1]
    written_separator = text[scan_string(text, last_start + 1)[1]:last_value.start]  # as the last member has it
    if "\n" not in written_separator:
        separator = written_separator
    joiner = ("," if compact else ", ") if inline else ",\n" + _line_indent(text, last_start)
    written = "".join(joiner + _member(key, value, separator, text, last_start, inline) for key, value in added)
    return last_value.end, last_value.end, written


def _member(key: str, value: Any, separator: str, text: str, offset: int, inline: bool) -> str:
    return json.dumps(key, ensure_ascii=_escapes_non_ascii(text)) + separator + _dump_at(value, text, offset, inline)


def _compact(text: str) -> bool:
    return re.search(r'"\s*:\s', text) is None and '":' in text


def splice_json(text: str, old: Any, new: Any) -> str:
    """`text` (the JSON of `old`) changed to hold `new`, touching only the values that differ.

    Everything else keeps its bytes: compact objects stay on their line, indentation
    and key order stay.  Whatever the splicing cannot match is written whole.
    """
    offset = len(text) - len(text.lstrip("\ufeff"))
    body = text[offset:]
    out: list[tuple[int, int, str]] = []
    _splices(old, new, _span(body, 0), body, out)
    for start, end, replacement in sorted(out, reverse=True):
        body = body[:start] + replacement + body[end:]
    try:
        if json.loads(body) == new:
            return text[:offset] + body
    except ValueError:
        pass
    # the splice went wrong somewhere; writing the whole value again would respell numbers (1E2 as 100.0)
    raise FixRefused("the fix could not be written without rewriting the whole file; apply it by hand")


class FixRefused(ValueError):
    """A file --fix will not touch: writing it back would lose something the user wrote."""


def _no_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise FixRefused(f"the file repeats the key {json.dumps(key)[:80]} in one object, and a fix would keep "
                             f"only the last one; remove the repeated key by hand, then run --fix again")
        seen.add(key)
    return dict(pairs)


def _parse_for_fixing(text: str) -> Any:
    """The JSON value of `text`, refused (FixRefused) when an object repeats a key."""
    return json.loads(text, object_pairs_hook=_no_repeated_keys)


def _fix_json(text: str, diagnostics: Sequence[Diagnostic], unsafe: bool) -> tuple[str, FixOutcome]:
    document = _parse_for_fixing(text.lstrip("\ufeff"))
    original = json.loads(text.lstrip("\ufeff"))
    outcome = apply_fixes(document, diagnostics, unsafe=unsafe)
    return splice_json(text.lstrip("\ufeff"), original, document), outcome


def _fix_jsonl(text: str, diagnostics: Sequence[Diagnostic],
               unsafe: bool) -> tuple[str, list[SkippedFix], list[Diagnostic]]:
    lines = text.splitlines(keepends=True)
    by_line: dict[int, list[Diagnostic]] = defaultdict(list)
    outcomes: list[tuple[list[SkippedFix], list[Diagnostic]]] = []
    for d in diagnostics:
        by_line[d.line or 0].append(d)
    for number, group in by_line.items():
        if not 1 <= number <= len(lines):
            outcomes.append(([SkippedFix(d, f"line {number} is not in the file") for d in group], []))
            continue
        raw = lines[number - 1]
        ending = raw[len(raw.rstrip("\r\n")):]
        record = _parse_for_fixing(raw)
        outcome = apply_fixes(record, group, unsafe=unsafe)
        if outcome.applied:  # an untouched record keeps its exact bytes
            lines[number - 1] = splice_json(raw[:len(raw) - len(ending)], json.loads(raw), record) + ending
        outcomes.append((outcome.skipped, outcome.applied))
    skipped = [s for pair in outcomes for s in pair[0]]
    applied = [d for pair in outcomes for d in pair[1]]
    return "".join(lines), skipped, applied


@dataclass
class TextFix:
    """What fixing a text gave: the text (the original when nothing changed) and each fix's fate."""

    text: str
    applied: list[Diagnostic] = field(default_factory=list)
    skipped: list[SkippedFix] = field(default_factory=list)


def fix_text(original: str, name: str, diagnostics: Sequence[Diagnostic], *, unsafe: bool = False) -> TextFix:
    """Apply the safe fixes of `diagnostics` to `original`, the text of the file called `name` (the unsafe ones
    too with `unsafe`).

    `name` tells JSON, JSON Lines and YAML apart (with the text itself, as the
    loader does).  Raises when the text cannot be parsed again (it changed since
    it was linted): the caller says which file.
    """
    style = TextStyle.of(original)
    text = original.lstrip("\ufeff")
    kind = detect_kind(name, text)
    if kind == "jsonc":
        raise FixRefused("--fix does not write JSON with comments (.jsonc) yet: a comment would have to move with "
                         "the value it explains; apply the fix by hand")
    if kind == "jsonl":
        new_text, skipped, applied = _fix_jsonl(text, diagnostics, unsafe)
    else:
        new_text, outcome = (_fix_yaml if kind == "yaml" else _fix_json)(text, diagnostics, unsafe)
        skipped, applied = outcome.skipped, outcome.applied
    # JSONL lines keep their own endings; JSON and YAML were written anew with '\n'
    new_text = ("\ufeff" if style.bom else "") + new_text if kind == "jsonl" else style.apply(new_text)
    if new_text == original:
        return TextFix(original, [], skipped + [SkippedFix(d, "the fix changes nothing in the file") for d in applied])
    return TextFix(new_text, applied, skipped)


__all__ = ["FixRefused", "TextFix", "TextStyle", "fix_text", "json_dump_like", "yaml_layout"]
