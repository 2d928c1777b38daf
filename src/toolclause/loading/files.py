"""Files, standard input and folders → LoadResults.

Files are JSON, JSONL or YAML (by suffix, else by content); `-` is standard
input.  A folder is searched for such files, leaving out version-control and
tool folders; a file met in a folder that holds something other than tools is
left out silently (see `codes.UNREADABLE`'s `skippable`).
"""

from __future__ import annotations

import ast
import fnmatch
import io
import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path, PurePath
from typing import BinaryIO

from .._gc import gc_paused
from ..model import Unreadable
from .codes import skippable
from .contract_files import load_file_text
from .result import LoadResult
from .text import MAX_DOCUMENT_BYTES, SUFFIXES, load_jsonl_lines, load_text

SKIP_DIRS = {".git", ".venv", "venv", "node_modules", "__pycache__", ".toolclause", ".mypy_cache", ".pytest_cache"}


def _decode(data: bytes, file: str) -> str | Unreadable:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return Unreadable("not-utf8", f"not UTF-8 text (byte {exc.start})", file=file)


def _too_large(file: str, size: int) -> Unreadable:
    return Unreadable("too-large", f"file is {size / 1024 / 1024:.1f} MiB; documents over "
                                   f"{MAX_DOCUMENT_BYTES // (1024 * 1024)} MiB are not read (split it, or use JSONL)",
                      file=file)


def load_file(path: Path, input_format: str | None = None, display: str | None = None) -> LoadResult:
    with gc_paused():  # parsing allocates only acyclic containers: see toolclause._gc
        return _load_file(path, input_format, display)


def _load_file(path: Path, input_format: str | None, display: str | None) -> LoadResult:
    file = display or str(path)
    if SUFFIXES.get(path.suffix.lower()) == "jsonl":
        try:
            handle = _open_regular(path, file)
            if isinstance(handle, Unreadable):
                return LoadResult(files=1, unreadable=[handle])
            with handle:
                lines = io.TextIOWrapper(handle, encoding="utf-8-sig", errors="strict")
                return load_jsonl_lines(lines, file, input_format)
        except UnicodeDecodeError as exc:
            return LoadResult(files=1, unreadable=[Unreadable("not-utf8", f"not UTF-8 text (byte {exc.start})",
                                                              file=file)])
        except OSError as exc:
            return LoadResult(files=1, unreadable=[_cannot_read(file, exc)])
    text = read_document_text(path, file)
    if isinstance(text, Unreadable):
        return LoadResult(files=1, unreadable=[text])
    return load_file_text(text, file, path, input_format)


def read_document_text(path: Path, file: str | None = None) -> str | Unreadable:
    """The text of one JSON or YAML document file, or why it is not read: not a regular file, over
    `MAX_DOCUMENT_BYTES`, not UTF-8, or not readable.  Every reader of a user's document goes through here."""
    file = file or str(path)
    try:
        handle = _open_regular(path, file)
        if isinstance(handle, Unreadable):
            return handle
        with handle:
            size = os.fstat(handle.fileno()).st_size
            if size > MAX_DOCUMENT_BYTES:
                return _too_large(file, size)
            data = handle.read(MAX_DOCUMENT_BYTES + 1)  # capped: a file may grow while it is read
            if len(data) > MAX_DOCUMENT_BYTES:
                return _too_large(file, len(data))
    except OSError as exc:
        return _cannot_read(file, exc)
    return _decode(data, file)


def _cannot_read(file: str, exc: OSError) -> Unreadable:
    return Unreadable("cannot-read", f"cannot read: {exc.strerror or exc}", file=file)


def _open_regular(path: Path, file: str) -> BinaryIO | Unreadable:
    """The file opened for reading if it is a regular file (through symlinks), else why not.

    A `*.json` symlink to /dev/zero would be read until memory runs out and a FIFO
    would block the run forever; a pull request can commit either.  Opening without
    blocking, then asking the open file what it is, leaves no window to swap it.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            os.close(fd)
            kind = ("a named pipe" if stat.S_ISFIFO(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                    else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
            return Unreadable("not-a-regular-file", f"{kind}, not a regular file; only regular files are read",
                              file=file)
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        try:
            os.close(fd)
        except OSError:
            pass
        raise


def python_source(path: Path) -> Unreadable:
    """A .py file named as a tool file: say how to name the Toolbox it defines (`app.py:box`)."""
    names = []
    try:
        tree = ast.parse(path.read_bytes())
        for node in tree.body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                called = node.value.func
                called_name = called.attr if isinstance(called, ast.Attribute) else getattr(called, "id", "")
                if called_name in ("Toolbox", "ToolboxServer"):
                    names += [t.id for t in node.targets if isinstance(t, ast.Name)]
    except (OSError, SyntaxError, ValueError):
        pass
    if names:
        hint = " or ".join(f"toolclause lint {path}:{name}" for name in names[:3])
    else:
        hint = f"toolclause lint {path}:box, with the name of the Toolbox it defines"
    return Unreadable("python-source", f"Python source, not a tool definition; to lint the tools a Toolbox in it "
                                       f"registers, name the Toolbox: {hint}", file=str(path))


def load_stdin(stream: BinaryIO | None = None, input_format: str | None = None) -> LoadResult:
    data = (stream or sys.stdin.buffer).read(MAX_DOCUMENT_BYTES + 1)
    if len(data) > MAX_DOCUMENT_BYTES:
        return LoadResult(files=1, unreadable=[_too_large("-", len(data))])
    text = _decode(data, "-")
    if isinstance(text, Unreadable):
        return LoadResult(files=1, unreadable=[text])
    return load_text(text, "-", None, input_format)


def excluded(path: Path, folder: Path, patterns: Sequence[str]) -> bool:
    """Whether a glob of `patterns` matches the path (as given, or from `folder`) or its name.

    `tests/fixtures`, `legacy/*.json` and `.pre-commit-hooks.yaml` all work; a pattern
    that names a folder leaves out everything in it.
    """
    if not patterns:
        return False
    given = PurePath(os.path.normpath(path)).as_posix()
    inside = PurePath(os.path.relpath(path, folder)).as_posix()
    # "./tests/fixtures" and "tests/fixtures/" name what "tests/fixtures" names
    globs = [PurePath(os.path.normpath(pattern)).as_posix() for pattern in patterns]
    return any(fnmatch.fnmatch(form, glob) for glob in globs for form in (given, inside, path.name))


def iter_files(folder: Path, unreadable: list[Unreadable] | None = None,
               exclude: Sequence[str] = ()) -> Iterator[Path]:
    """The tool files below `folder`, less those `exclude` names; a subfolder that cannot be listed goes
    onto `unreadable`."""

    def refused(exc: OSError) -> None:
        if unreadable is not None:
            unreadable.append(Unreadable("cannot-read", f"cannot list the folder: {exc.strerror or exc}",
                                         file=str(exc.filename or folder)))

    for root, dirs, files in os.walk(folder, onerror=refused):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith(".")
                         and not excluded(Path(root) / d, folder, exclude))
        for name in sorted(files):
            if Path(name).suffix.lower() in SUFFIXES and not excluded(Path(root) / name, folder, exclude):
                yield Path(root) / name


def load_paths(paths: Iterable[str | Path], input_format: str | None = None,
               on_file: Callable[[str], None] | None = None, exclude: Sequence[str] = ()) -> LoadResult:
    """Load every file given; folders are searched for .json, .jsonl, .yaml and .yml files.

    In a folder, a file that holds no tool at all (a package.json, a fixture) is
    skipped rather than reported, and so is one `exclude` matches; a file named
    explicitly is always read and reported.
    """
    result = LoadResult()
    for raw in paths:
        if str(raw) == "-":
            result.extend(load_stdin(input_format=input_format))
            continue
        path = Path(raw)
        if path.is_dir():
            for file in iter_files(path, result.unreadable, exclude):
                if on_file is not None:
                    on_file(str(file))
                loaded = load_file(file, input_format)
                if not loaded.tools and loaded.unreadable and all(skippable(u.code) for u in loaded.unreadable):
                    continue
                result.extend(loaded)
        elif path.suffix.lower() == ".py" and path.is_file():
            result.files += 1
            result.unreadable.append(python_source(path))
        elif path.exists():
            if on_file is not None:
                on_file(str(path))
            result.extend(load_file(path, input_format))
        else:  # no file was read: the path is counted as unreadable, not as a file
            result.unreadable.append(Unreadable("no-such-path", "no such file or folder", file=str(raw)))
    return result
