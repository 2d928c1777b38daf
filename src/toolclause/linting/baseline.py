"""A baseline: the findings a project has accepted for now, so CI fails only on new ones.

A finding's identity is its code, file, tool name, its pointer *inside the
tool* and a fingerprint of what was found there — never its line, its message
or where the tool sits in the file.  Moving a tool down a file, inserting
another tool above it or rewording a message does not make an old finding look
new; changing the part of the tool it was found on does.  The fingerprint is a
hash of the value at the pointer, one level deep (an object's own keys and
plain values, a list's plain items), so an edit elsewhere in the tool leaves
it alone.  The same finding may occur more than once (two list rules, two
tools of one name); the baseline counts them, and only occurrences beyond the
count are reported.

When written, a baseline records who accepted its findings, on what day and why (`accepted`: `by`, `on`,
`reason`), so a reviewer of the file sees who answers for them; reading ignores it.

Version 1 files (identity: code, file, tool and the pointer into the file) are
still read with that identity; `--write-baseline` writes version 2.

Pure text in, text out: the CLI reads and writes the file.  Paths are stored
relative to the folder that holds the baseline, with '/' separators, so the
baseline works from any working directory and on any OS.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..model import Diagnostic
from ..schema.refs import MISSING, value_at

BASELINE_VERSION = 2
READS = (1, 2)

# version 2: code, file, tool, pointer in the tool, fingerprint; version 1: code, file, tool, pointer
Key = tuple[str, ...]


class Accepted(Counter):
    """The accepted findings of a baseline file, counted by identity, and the version whose identity they use."""

    version: int = BASELINE_VERSION


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
    """The identity a version 2 baseline records (see the module docstring)."""
    inner, fingerprint = found_at(diagnostic)
    return (diagnostic.code, path_key(diagnostic.file, base_dir, cwd), diagnostic.tool or "", inner, fingerprint)


def position_key(diagnostic: Diagnostic, base_dir: str, cwd: str) -> Key:
    """The identity a version 1 baseline recorded: the pointer into the file, which moves with the tool."""
    return (diagnostic.code, path_key(diagnostic.file, base_dir, cwd), diagnostic.tool or "", diagnostic.pointer)


def found_at(diagnostic: Diagnostic) -> tuple[str, str]:
    """(the pointer inside the tool, the fingerprint of the value there); no tool known: the pointer and ''.

    The identity baselines and SARIF's partialFingerprints give a finding, with its code, file and tool name.
    """
    contract = diagnostic.contract
    pointer = diagnostic.pointer
    if contract is None:
        return pointer, ""
    base = contract.origin.base
    if base and (pointer == base or pointer.startswith(base + "/")):
        pointer = pointer[len(base):]
    if contract.raw is None:
        return pointer, ""
    return pointer, fingerprint(value_at(contract.raw, pointer))


def fingerprint(value: Any) -> str:
    """A short hash of a value one level deep: an object's keys and plain values, a list's plain items."""
    if value is MISSING:
        shallow: Any = "<missing>"
    elif isinstance(value, dict):
        shallow = {str(k): _leaf(v) for k, v in value.items()}
    elif isinstance(value, list):
        shallow = [_leaf(v) for v in value]
    else:
        shallow = value
    text = json.dumps(shallow, sort_keys=True, ensure_ascii=False, default=repr)
    import hashlib  # only a run with a baseline fingerprints findings

    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _leaf(value: Any) -> Any:
    if isinstance(value, dict):
        return "<object>"
    if isinstance(value, list):
        return "<array>"
    return value


def dumps_baseline(diagnostics: Iterable[Diagnostic], base_dir: str, cwd: str,
                   accepted: Mapping[str, str] | None = None) -> str:
    """The baseline file's text (version 2): sorted, one entry per identity with its count; `accepted`: who
    accepted these findings, on what day and why ({"by", "on", "reason"}), recorded beside them."""
    counts: Counter[Key] = Counter()
    names: dict[str, str] = {}
    for diagnostic in diagnostics:
        counts[finding_key(diagnostic, base_dir, cwd)] += 1
        names[diagnostic.code] = diagnostic.name
    findings = [
        {"file": file, "tool": tool, "code": code, "name": names.get(code, ""), "pointer": pointer,
         "fingerprint": found, "count": count}
        for (code, file, tool, pointer, found), count in sorted(
            counts.items(), key=lambda kv: (kv[0][1], kv[0][2], kv[0][3], kv[0][0], kv[0][4]))
    ]
    document: dict[str, Any] = {"version": BASELINE_VERSION, "tool": "toolclause"}
    if accepted:
        document["accepted"] = {k: v for k, v in accepted.items() if v}
    document["findings"] = findings
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def parse_baseline(text: str, source: str) -> Accepted:
    """The accepted findings of a baseline file (version 1 or 2); BaselineError names what is wrong."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BaselineError(f"{source}: not a toolclause baseline (invalid JSON at line {exc.lineno}, "
                            f"column {exc.colno}: {exc.msg})") from None
    if not isinstance(document, dict) or not isinstance(document.get("findings"), list):
        raise BaselineError(f"{source}: not a toolclause baseline (expected an object with 'version' and 'findings'; "
                            f"write one with --write-baseline)")
    version = document.get("version")
    if version not in READS or isinstance(version, bool):
        raise BaselineError(f"{source}: baseline version {version!r} is not supported (this toolclause reads "
                            f"versions {' and '.join(map(str, READS))} and writes version {BASELINE_VERSION}); "
                            f"write it again with --write-baseline")
    fields = ("code", "file", "tool", "pointer") + (("fingerprint",) if version >= 2 else ())
    accepted = Accepted()
    accepted.version = version
    for index, entry in enumerate(document["findings"]):
        if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str) for k in fields):
            raise BaselineError(f"{source}: findings[{index}] needs string {', '.join(repr(f) for f in fields[:-1])} "
                                f"and {fields[-1]!r}")
        count = entry.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise BaselineError(f"{source}: findings[{index}].count must be a positive integer")
        accepted[tuple(entry[k] for k in fields)] += count
    return accepted


def filter_new(diagnostics: Iterable[Diagnostic], accepted: Counter[Key], base_dir: str,
               cwd: str) -> tuple[list[Diagnostic], int]:
    """(findings not covered by the baseline, how many were hidden), each compared by its baseline's identity."""
    key: Callable[[Diagnostic, str, str], Key] = (
        position_key if getattr(accepted, "version", BASELINE_VERSION) == 1 else finding_key)
    remaining = Counter(accepted)
    new: list[Diagnostic] = []
    hidden = 0
    for diagnostic in diagnostics:
        identity = key(diagnostic, base_dir, cwd)
        if remaining[identity] > 0:
            remaining[identity] -= 1
            hidden += 1
        else:
            new.append(diagnostic)
    return new, hidden
