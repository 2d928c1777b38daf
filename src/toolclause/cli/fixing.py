"""`--fix`: the file side — read a tool file, apply safe fixes, write it back as the user wrote it.

The edit logic itself is pure (`linting.fix`); here we keep what a person would
notice in a diff: JSON indentation, separators, key order, non-ASCII text (or
\\u escapes when the file used them), the trailing newline, CRLF line endings,
a UTF-8 BOM, and — for YAML — comments, quotes and indentation (ruamel.yaml
round-trip).  JSONL files are edited record by record: a diagnostic's `line`
names the record its pointer is into.  Standard input is never written back.
"""

from __future__ import annotations

import io
import json
import os
import re
import tempfile
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

from ..linting.fix import SkippedFix, apply_fixes, safe_edits
from ..loading import detect_kind
from ..model import Diagnostic, ToolContract
from ..report.base import FixSummary

_INDENTED_LINE = re.compile(r"\n([ \t]+)[^\s]")
_NON_ASCII_ESCAPE = re.compile(r"\\u(?:00[89a-fA-F][0-9a-fA-F]|0[1-9a-fA-F][0-9a-fA-F]{2}|[1-9a-fA-F][0-9a-fA-F]{3})")


@dataclass
class TextStyle:
    """How a file's text was written, so the rewrite looks the same."""

    bom: bool = False
    crlf: bool = False
    trailing_newline: bool = False

    @classmethod
    def of(cls, text: str) -> "TextStyle":
        return cls(bom=text.startswith("\ufeff"), crlf="\r\n" in text, trailing_newline=text.endswith("\n"))

    def apply(self, text: str) -> str:
        text = text.rstrip("\n")
        if self.trailing_newline:
            text += "\n"
        if self.crlf:
            text = text.replace("\r\n", "\n").replace("\n", "\r\n")
        return ("\ufeff" if self.bom else "") + text


def json_dump_like(value: Any, original: str) -> str:
    """`value` as JSON in the layout of `original` (indent, separators, escaping)."""
    body = original.strip().lstrip("\ufeff")
    ensure_ascii = bool(_NON_ASCII_ESCAPE.search(body)) and all(ord(ch) < 128 for ch in body)
    if "\n" in body:
        match = _INDENTED_LINE.search(body)
        indent: Any = 0
        if match:
            unit = match.group(1)
            indent = "\t" if unit.startswith("\t") else len(unit)
        return json.dumps(value, indent=indent, ensure_ascii=ensure_ascii)
    compact = re.search(r'"\s*:\s', body) is None and '":' in body
    separators = (",", ":") if compact else (", ", ": ")
    return json.dumps(value, separators=separators, ensure_ascii=ensure_ascii)


def _yaml():
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


def _fix_yaml(text: str, diagnostics: Sequence[Diagnostic]) -> tuple[str, Any]:
    yaml = _yaml()
    mapping, sequence, offset = yaml_layout(text)
    yaml.indent(mapping=mapping, sequence=sequence, offset=offset)
    tree = yaml.load(text)
    outcome = apply_fixes(tree, diagnostics)
    stream = io.StringIO()
    yaml.dump(tree, stream)
    return stream.getvalue(), outcome


def _fix_json(text: str, diagnostics: Sequence[Diagnostic]) -> tuple[str, Any]:
    document = json.loads(text.lstrip("\ufeff"))
    outcome = apply_fixes(document, diagnostics)
    return json_dump_like(document, text), outcome


def _fix_jsonl(text: str, diagnostics: Sequence[Diagnostic]):
    lines = text.splitlines(keepends=True)
    by_line: dict[int, list[Diagnostic]] = defaultdict(list)
    outcomes = []
    for d in diagnostics:
        by_line[d.line or 0].append(d)
    for number, group in by_line.items():
        if not 1 <= number <= len(lines):
            outcomes.append(([SkippedFix(d, f"line {number} is not in the file") for d in group], []))
            continue
        raw = lines[number - 1]
        ending = raw[len(raw.rstrip("\r\n")):]
        record = json.loads(raw)
        outcome = apply_fixes(record, group)
        if outcome.applied:  # an untouched record keeps its exact bytes
            lines[number - 1] = json_dump_like(record, raw) + ending
        outcomes.append((outcome.skipped, outcome.applied))
    skipped = [s for pair in outcomes for s in pair[0]]
    applied = [d for pair in outcomes for d in pair[1]]
    return "".join(lines), skipped, applied


def fix_file(path: Path, diagnostics: Sequence[Diagnostic]) -> tuple[list[Diagnostic], list[SkippedFix], bool]:
    """Apply safe fixes to one file: (fixed, skipped, file written)."""
    try:
        original = path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return [], [SkippedFix(d, f"cannot read {path}: {exc}") for d in diagnostics], False
    style = TextStyle.of(original)
    text = original.lstrip("\ufeff")
    kind = detect_kind(str(path), text)
    try:
        if kind == "jsonl":
            new_text, skipped, applied = _fix_jsonl(text, diagnostics)
        else:
            new_text, outcome = (_fix_yaml if kind == "yaml" else _fix_json)(text, diagnostics)
            skipped, applied = outcome.skipped, outcome.applied
    except Exception as exc:  # the file changed since it was linted, or cannot be re-read
        return [], [SkippedFix(d, f"cannot re-read {path} to fix it: {exc}") for d in diagnostics], False
    # JSONL lines keep their own endings; JSON and YAML were written anew with '\n'
    new_text = ("\ufeff" if style.bom else "") + new_text if kind == "jsonl" else style.apply(new_text)
    if new_text == original:
        return [], skipped + [SkippedFix(d, "the fix changes nothing in the file") for d in applied], False
    try:
        _write_atomically(path, new_text)
    except OSError as exc:
        return [], skipped + [SkippedFix(d, f"cannot write {path}: {exc.strerror or exc}") for d in applied], False
    return applied, skipped, True


def _write_atomically(path: Path, text: str) -> None:
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".toolclause")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        try:
            os.chmod(temp, path.stat().st_mode & 0o7777)
        except OSError:
            pass
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def fix_pass(diagnostics: Iterable[Diagnostic], tools: Sequence[ToolContract]) -> FixSummary:
    """One pass: every safe fix of `diagnostics` applied to its file."""
    summary = FixSummary()
    by_file: dict[str, list[Diagnostic]] = defaultdict(list)
    for d in diagnostics:
        if not safe_edits(d) or not d.file:
            continue
        if d.file == "-":
            if not summary.notes:
                summary.notes.append("standard input is never written back; fixes for it were not applied")
            continue
        by_file[d.file].append(d)
    for file, group in by_file.items():
        applied, skipped, written = fix_file(Path(file), group)
        summary.applied.extend(applied)
        summary.skipped.extend(skipped)
        if written:
            summary.files_changed.append(file)
    return summary
