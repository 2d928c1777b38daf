"""S001 warnings for keys a JSON object repeats, which the loader records while parsing.

A JSON parser keeps the last value of a repeated key and drops the others, so the
tool is not what the file seems to say.  The loader reads the file all the same
and lists the repeats (`LoadResult.duplicate_keys`); the command line and
`toolclause.lint()` report them through this one function.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..loading.result import DuplicateKey
from ..model import Diagnostic, Severity, ToolContract, escape_token
from ..rules import rule_class
from .config import LintConfig


def duplicate_key_warnings(found: Iterable[DuplicateKey], tools: Sequence[ToolContract],
                           config: LintConfig) -> list[Diagnostic]:
    """S001 warnings for keys an object repeats: the file is read (the last value wins), the loss is reported,
    on the tool whose object holds it, else on the file; the pointer is into the file, as the rules' are."""
    if not config.enabled("S001"):
        return []
    out = []
    for d in found:
        if config.ignored_in_file("S001", d.file):
            continue
        pointer = f"{d.pointer}/{escape_token(d.key)}"
        holder = max((t for t in tools if t.origin.file == d.file and (t.origin.line is None or t.origin.line == d.line)
                      and pointer.startswith(t.origin.base + "/")), key=lambda t: len(t.origin.base), default=None)
        out.append(Diagnostic(
            "S001", rule_class("S001").name, Severity.WARNING,
            f"the key '{d.key}' appears more than once in this object; a JSON parser keeps only the last value and "
            f"drops the others without a word, so the tool is not what the file seems to say — keep one",
            tool=holder.name if holder is not None else None, file=d.file,
            pointer=pointer, line=d.line))
    return out
