"""`--fix`: the file side — read each tool file, write its fixed text back in place.

The fixes themselves (which apply, pass after pass, to each file's text, by the
pure `linting.fix_text`, which keeps the file's layout) are `linting.run`'s;
here are only the reading, the refusal of a read-only file and the atomic write
(the file's mode kept): `Files`, the `FixFiles` the command line gives a lint.
Standard input is never written back.  With `--diff` the fixed texts stay in
memory (`texts`) and `unified_diff` shows them.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..linting.fix import SkippedFix
from ..linting.run import fix_file as fix_one
from ..model import Diagnostic


@dataclass
class Files:
    """The files --fix reads and writes back in place; with `kept` (--diff's), the fixed texts stay there, keyed
    by path, and nothing is written."""

    kept: dict[str, str] | None = None

    def read(self, file: str) -> str:
        path = Path(file)
        if self.kept is not None and str(path) in self.kept:
            return self.kept[str(path)]
        return path.read_bytes().decode("utf-8")

    def refusal(self, file: str) -> str | None:
        if self.kept is None and _read_only(Path(file)):
            # a read-only file is one its owner protected: refuse, as editors do, rather than replace it
            return f"{Path(file)} is read-only; --fix does not write it"
        return None

    def write(self, file: str, text: str) -> None:
        if self.kept is not None:
            self.kept[str(Path(file))] = text
        else:
            _write_atomically(Path(file), text)


def fix_file(path: Path, diagnostics: Sequence[Diagnostic],
             texts: dict[str, str] | None = None) -> tuple[list[Diagnostic], list[SkippedFix], bool]:
    """Apply safe fixes to one file: (fixed, skipped, file written).

    With `texts` ({file: its text so far}), nothing is written: the fixed text goes there.
    """
    applied, skipped, written = fix_one(str(path), diagnostics, Files(texts))
    return applied, skipped, written is not None


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


def unified_diff(before: str, after: str, name: str) -> str:
    """`diff -u` of one file's text, as `a/NAME` and `b/NAME` (`git apply` and `patch -p1` take it)."""
    lines = []
    for line in difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                     f"a/{name}", f"b/{name}"):
        lines.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(lines)
