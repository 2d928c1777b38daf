"""`git:REF:PATH`: a file or folder as it was at a commit, read without checking anything out."""

from __future__ import annotations

import dataclasses
import subprocess
from pathlib import Path, PurePosixPath

from ..loading import SUFFIXES, LoadResult, load_file_text
from ..model import Unreadable
from .model import DiffInputError

GIT_PREFIX = "git:"


def _git(args: list[str], cwd: Path) -> bytes:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise DiffInputError(f"cannot run git: {exc}") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise DiffInputError(f"git {' '.join(args)}: {message[-1] if message else 'failed'}")
    return done.stdout


def _in_repository(path: str, cwd: Path) -> str:
    """PATH as git reads `REF:PATH`: from the repository's root, or from `cwd` when it starts with ./ or ../"""
    if path in (".", "..") or path.startswith(("./", "../")):
        prefix = _git(["rev-parse", "--show-prefix"], cwd).decode().strip()
        parts: list[str] = []
        for part in PurePosixPath(prefix, path).parts:
            if part == "..":
                if not parts:
                    raise DiffInputError(f"{path!r} leads out of the repository")
                parts.pop()
            elif part != ".":
                parts.append(part)
        return "/".join(parts)
    return path.strip("/")


def load_git(spec: str, cwd: Path | None = None) -> LoadResult:
    """`git:REF:PATH` — a file or a folder as it was at REF (`git show`, `git ls-tree`).

    PATH is read as git reads `REF:PATH`: from the root of the repository, wherever
    toolclause runs in it, unless it starts with `./` or `../`, which are from the
    current folder (`git:main:tools/` and, inside tools/, `git:main:./`).
    """
    body = spec[len(GIT_PREFIX):]
    ref, sep, path = body.partition(":")
    if not sep or not ref:
        raise DiffInputError(f"{spec!r}: write git:REF:PATH, e.g. git:main:contracts/ or git:HEAD~1:tools.json")
    if ref.startswith("-"):  # git would read it as one of its own options (`-p`), not as a commit
        raise DiffInputError(f"{spec!r}: a REF cannot start with '-'; name a branch, tag or commit, "
                             f"e.g. git:main:tools.json")
    cwd = cwd or Path.cwd()
    top = Path(_git(["rev-parse", "--show-toplevel"], cwd).decode().strip())
    target = _in_repository(path, cwd)
    kind = _git(["cat-file", "-t", f"{ref}:{target}"], top).decode().strip() if target else "tree"
    result = LoadResult()
    if kind == "blob":
        files = [target]
    else:
        listing = _git(["ls-tree", "-r", "--name-only", ref, "--", target or "."], top).decode()
        files = [f for f in listing.splitlines() if PurePosixPath(f).suffix.lower() in SUFFIXES]
    for file in files:
        data = _git(["show", f"{ref}:{file}"], top)
        display = f"{ref}:{file}"
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            result.files += 1
            result.unreadable.append(Unreadable("not-utf8", "not UTF-8 text", file=display))
            continue
        loaded = load_file_text(text, file, PurePosixPath(file))
        loaded.tools = [dataclasses.replace(t, origin=dataclasses.replace(t.origin, file=display))
                        for t in loaded.tools]
        if kind != "blob" and not loaded.tools:
            continue  # a folder's other files (handoffs, fixtures, configs) are not this side's tools
        result.extend(loaded)
    return result
