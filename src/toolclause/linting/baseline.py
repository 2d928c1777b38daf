"""A baseline: the findings a project has accepted for now, so CI fails only on new ones.

A finding's identity is its code, file, tool and pointer — never its line or
message, so moving a tool down a file or rewording a message does not make an
old finding look new.  The same finding may occur more than once (two list
rules, two tools of one name); the baseline counts them, and only occurrences
beyond the count are reported.

Pure text in, text out: the CLI reads and writes the file.  Paths are stored
relative to the folder that holds the baseline, with '/' separators, so the
baseline works from any working directory and on any OS.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from typing import Iterable

from ..model import Diagnostic

BASELINE_VERSION = 1

Key = tuple[str, str, str, str]  # code, file, tool, pointer


class BaselineError(ValueError):
    """A baseline file that cannot be used; the CLI exits 2."""


def path_key(file: str | None, base_dir: str, cwd: str) -> str:
    """`file` (as given on the command line) relative to `base_dir`, posix style.

    Standard input and in-memory sources keep their name.  A file outside
    `base_dir` gets a `../` path, which still works in another checkout.
    """
    if not file or file == "-" or file.startswith("<") or ":" in file and not os.path.splitdrive(file)[0]:
        return file or ""
    absolute = os.path.normpath(os.path.join(cwd, file))
    base = os.path.normpath(os.path.join(cwd, base_dir))
    try:
        relative = os.path.relpath(absolute, base)
    except ValueError:  # another drive on Windows
        return absolute.replace(os.sep, "/")
    return relative.replace(os.sep, "/")


def finding_key(diagnostic: Diagnostic, base_dir: str, cwd: str) -> Key:
    return (diagnostic.code, path_key(diagnostic.file, base_dir, cwd), diagnostic.tool or "", diagnostic.pointer)


def dumps_baseline(diagnostics: Iterable[Diagnostic], base_dir: str, cwd: str) -> str:
    """The baseline file's text: sorted, one entry per identity with its count."""
    counts: Counter[Key] = Counter()
    names: dict[str, str] = {}
    for diagnostic in diagnostics:
        counts[finding_key(diagnostic, base_dir, cwd)] += 1
        names[diagnostic.code] = diagnostic.name
    findings = [
        {"file": file, "tool": tool, "code": code, "name": names.get(code, ""), "pointer": pointer, "count": count}
        for (code, file, tool, pointer), count in sorted(counts.items(), key=lambda kv: (kv[0][1], kv[0][2], kv[0][3], kv[0][0]))
    ]
    document = {"version": BASELINE_VERSION, "tool": "toolclause", "findings": findings}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def parse_baseline(text: str, source: str) -> Counter[Key]:
    """The accepted findings of a baseline file; BaselineError names what is wrong."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BaselineError(f"{source}: not a toolclause baseline (invalid JSON at line {exc.lineno}, "
                            f"column {exc.colno}: {exc.msg})") from None
    if not isinstance(document, dict) or not isinstance(document.get("findings"), list):
        raise BaselineError(f"{source}: not a toolclause baseline (expected an object with 'version' and 'findings'; "
                            f"write one with --write-baseline)")
    version = document.get("version")
    if version != BASELINE_VERSION:
        raise BaselineError(f"{source}: baseline version {version!r} is not supported (this toolclause writes "
                            f"version {BASELINE_VERSION}); write it again with --write-baseline")
    accepted: Counter[Key] = Counter()
    for index, entry in enumerate(document["findings"]):
        if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str) for k in ("code", "file", "tool", "pointer")):
            raise BaselineError(f"{source}: findings[{index}] needs string 'code', 'file', 'tool' and 'pointer'")
        count = entry.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise BaselineError(f"{source}: findings[{index}].count must be a positive integer")
        accepted[(entry["code"], entry["file"], entry["tool"], entry["pointer"])] += count
    return accepted


def filter_new(diagnostics: Iterable[Diagnostic], accepted: Counter[Key], base_dir: str,
               cwd: str) -> tuple[list[Diagnostic], int]:
    """(findings not covered by the baseline, how many were hidden)."""
    remaining = Counter(accepted)
    new: list[Diagnostic] = []
    hidden = 0
    for diagnostic in diagnostics:
        key = finding_key(diagnostic, base_dir, cwd)
        if remaining[key] > 0:
            remaining[key] -= 1
            hidden += 1
        else:
            new.append(diagnostic)
    return new, hidden
