"""`lint`'s cache: a run whose inputs have not changed prints what it printed last time, without linting.

A run is keyed by everything its output depends on: toolclause itself (the version
and its installed modules' sizes and times), the options that shape the report, the
working directory, the configuration files it could read (with the version of each plugin and the
content of each rule pack they name), and every input file's
path and bytes.  What the run wrote (the report, the lines on stderr, the file of
`-o`) and its exit code are kept in `.toolclause_cache/` in the working directory;
a run with the same key writes them again, byte for byte.  So a pre-commit run over
unchanged files only reads and hashes them.

Runs that depend on more than files are never cached: `--fix`, baselines, live
servers, standard input, Python targets, and a report printed to a terminal (whose
width and colours are the terminal's).  `--no-cache` (or TOOLCLAUSE_NO_CACHE=1)
skips the cache; `toolclause clean` deletes it.

A report is kept only if the inputs still hash to the run's key once the run is done: a file
that changed while it was linted would otherwise leave the report of one version stored under
the key of another, and a broken file could pass from the cache.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .._version import __version__

CACHE_DIR = ".toolclause_cache"
KEPT_RUNS = 32  # the newest runs kept; older ones are deleted when a run is stored

_PACKAGE = Path(__file__).resolve().parent.parent


def _user_rule_versions(config: Path, data: bytes) -> list[Any]:
    """Each plugin's version and each rule pack's content that a configuration names (its rules change with them)."""
    import tomllib

    from ..linting.user_rules import versions

    try:
        table: Any = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return ["unreadable"]  # the run reports it
    if config.name == "pyproject.toml":
        table = table.get("tool", {}).get("toolclause", {}) if isinstance(table.get("tool"), dict) else {}
    names = [v for v in table.get("plugins", ()) if isinstance(v, str)] if isinstance(table, dict) else []
    packs = [v for v in table.get("rule-packs", ()) if isinstance(v, str)] if isinstance(table, dict) else []
    return versions(names, packs, config.parent)


def run_key(options: dict[str, Any], paths: Sequence[str], cwd: str, config_file: str | None) -> str | None:
    """The key of a lint run over files, or None when the run cannot be cached (an input that is not a file)."""
    from ..loading.files import iter_files, read_document_text  # the loader's own listing and reader
    from ..model import Unreadable

    digest = hashlib.sha256()

    def add(*parts: object) -> None:
        digest.update(json.dumps(parts, default=str).encode("utf-8") + b"\0")

    add("toolclause", __version__, sys.version, sorted(options.items()), os.path.abspath(cwd))
    for root, dirs, files in os.walk(_PACKAGE):  # a changed installation never reuses an older run's report
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".py"):
                info = os.stat(os.path.join(root, name))
                add(os.path.relpath(os.path.join(root, name), _PACKAGE), info.st_size, info.st_mtime_ns)
    folder = Path(cwd).resolve()
    config_candidates = [Path(cwd, config_file)] if config_file else [
        parent / name for parent in (folder, *folder.parents) for name in ("toolclause.toml", "pyproject.toml")]
    for candidate in config_candidates:
        if candidate.is_file():
            add("config", str(candidate))
            data = candidate.read_bytes()
            digest.update(data)
            if b"plugins" in data or b"rule-packs" in data:  # the user rules it names are part of the run
                add("user rules", _user_rule_versions(candidate, data))
    for raw in paths:
        path = Path(cwd, raw)
        if path.is_dir():
            files_here: list[Path] = list(iter_files(path))
        elif path.is_file():
            files_here = [path]
        else:
            return None  # standard input, a Python target (app.py:box), or a missing path: linted every time
        add("path", raw)
        for file in files_here:
            add("file", str(file))
            # the loader's one reader: regular files only, within its size cap (a FIFO or a link to
            # /dev/zero is refused here as lint refuses it, never read until it blocks or fills memory)
            text = read_document_text(file)
            if isinstance(text, Unreadable):
                return None  # lint reports it; a run with an unreadable input is not kept
            digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def load(cwd: str, key: str) -> dict[str, Any] | None:
    """What the run with this key wrote and its exit code, or None."""
    try:
        stored = marshal.loads(Path(cwd, CACHE_DIR, "lint", f"{key}.run").read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    return stored if isinstance(stored, dict) and stored.get("key") == key else None


def store(cwd: str, key: str, writes: list[tuple[str, str, bool]], output_text: str | None, code: int) -> None:
    """Keep a run's writes (stream, text, newline), the text of its `-o` file and its exit code."""
    folder = Path(cwd, CACHE_DIR, "lint")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        ignore = folder.parent / ".gitignore"
        if not ignore.exists():
            ignore.write_text("# written by toolclause: nothing here belongs in version control\n*\n",
                              encoding="utf-8")
        temporary = folder / f".{key}.{os.getpid()}.tmp"
        # marshal: the fastest to read back (the key holds the interpreter's version, which fixes the format)
        temporary.write_bytes(marshal.dumps({"key": key, "writes": writes, "output": output_text, "code": code}))
        os.replace(temporary, folder / f"{key}.run")
        runs = sorted(folder.glob("*.run"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for old in runs[KEPT_RUNS:]:
            old.unlink(missing_ok=True)
    except OSError:  # a read-only working directory: the run is simply not kept
        pass


def clean(cwd: str) -> Path | None:
    """Delete the cache of this directory; the folder deleted, or None when there was none."""
    import shutil

    folder = Path(cwd, CACHE_DIR)
    if not folder.is_dir():
        return None
    shutil.rmtree(folder)
    return folder
