"""`--fix`: the file side — read each tool file, fix its text, write it back in place.

Fixing the text is pure (`linting.fix_text`, which keeps the file's layout);
here are only the reading, the atomic write (the file's mode kept) and the
summary of a pass.  Standard input is never written back.  With `--diff` the
fixed texts stay in memory (`texts`) and `unified_diff` shows them.
"""

from __future__ import annotations

import difflib
import os
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..linting.fix import SkippedFix, safe_edits
from ..linting.fix_text import FixRefused, fix_text
from ..model import Diagnostic, ToolContract
from ..report.base import FixSummary


def fix_file(path: Path, diagnostics: Sequence[Diagnostic],
             texts: dict[str, str] | None = None) -> tuple[list[Diagnostic], list[SkippedFix], bool]:
    """Apply safe fixes to one file: (fixed, skipped, file written).

    With `texts` ({file: its text so far}), nothing is written: the fixed text goes there.
    """
    try:
        original = texts[str(path)] if texts is not None and str(path) in texts else \
            path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return [], [SkippedFix(d, f"cannot read {path}: {exc}") for d in diagnostics], False
    if texts is None and _read_only(path):
        # a read-only file is one its owner protected: refuse, as editors do, rather than replace it
        return [], [SkippedFix(d, f"{path} is read-only; --fix does not write it", refused=True)
                    for d in diagnostics], False
    try:
        fixed = fix_text(original, str(path), diagnostics)
    except FixRefused as exc:
        return [], [SkippedFix(d, f"{path}: {exc}", refused=True) for d in diagnostics], False
    except Exception as exc:  # the file changed since it was linted, or cannot be re-read
        reason = f"cannot re-read {path} to fix it: {exc or type(exc).__name__}"
        return [], [SkippedFix(d, reason) for d in diagnostics], False
    if fixed.text == original:
        return [], fixed.skipped, False
    if texts is not None:
        texts[str(path)] = fixed.text
        return fixed.applied, fixed.skipped, True
    try:
        _write_atomically(path, fixed.text)
    except OSError as exc:
        unwritten = [SkippedFix(d, f"cannot write {path}: {exc.strerror or exc}") for d in fixed.applied]
        return [], fixed.skipped + unwritten, False
    return fixed.applied, fixed.skipped, True


def _read_only(path: Path) -> bool:
    """Whether the file is protected from writing: no write permission bit at all (as `chmod 444`
    leaves it, which root too is held to here), or no permission for this user."""
    try:
        return not os.stat(path).st_mode & 0o222 or not os.access(path, os.W_OK)
    except OSError:
        return False  # the write itself will say what is wrong


def _write_atomically(path: Path, text: str) -> None:
    """Write `text` where `path` leads, keeping what the file is.

    A symlink is written through (its target changes, the link stays a link); a
    file with other hard links is rewritten in place, since replacing it would
    cut them off; otherwise a temporary file beside it takes its mode and owner
    and replaces it atomically.
    """
    path = Path(os.path.realpath(path))
    info = path.stat()
    if info.st_nlink > 1:
        with open(path, "r+", encoding="utf-8", newline="") as stream:
            stream.write(text)
            stream.truncate()
        return
    import tempfile  # only a run that writes a fix

    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".toolclause")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        try:
            os.chown(temp, info.st_uid, info.st_gid)
        except OSError:
            pass  # only root may give a file away; the file is then its writer's, as any editor leaves it
        try:
            os.chmod(temp, info.st_mode & 0o7777)
        except OSError:
            pass
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def fix_pass(diagnostics: Iterable[Diagnostic], tools: Sequence[ToolContract],
             texts: dict[str, str] | None = None) -> FixSummary:
    """One pass: every safe fix of `diagnostics` applied to its file (or, with `texts`, to its text there)."""
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
        applied, skipped, written = fix_file(Path(file), group, texts)
        summary.applied.extend(applied)
        summary.skipped.extend(skipped)
        if written:
            summary.files_changed.append(file)
    return summary


def unified_diff(before: str, after: str, name: str) -> str:
    """`diff -u` of one file's text, as `a/NAME` and `b/NAME` (`git apply` and `patch -p1` take it)."""
    lines = []
    for line in difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                     f"a/{name}", f"b/{name}"):
        lines.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(lines)
