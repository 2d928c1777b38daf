"""toolclause diff: what changed between two versions of a tool set, and whether it breaks anyone.

Each side is anything `lint` reads (files, folders, exported tool lists, JSONL)
or `git:REF:PATH`, read from the repository without checking anything out.
Tools are matched by name, then by `$id` across renames; each change is
classified as breaking-calls, breaking-results, risky or compatible by what the
schemas accept (see `schemas.py`), and the old version's examples and fixtures
are validated against the new one as evidence.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
from pathlib import Path, PurePosixPath
from typing import Any, Sequence

from ..loading import LoadResult, contracts_from_document, load_paths, load_text
from ..loading import SUFFIXES
from ..model import ToolContract, Unreadable
from .model import Change, DiffReport, Impact
from .tools import diff_tools, match_tools

__all__ = ["Change", "DiffReport", "Impact", "diff", "diff_tools", "load_side", "match_tools"]

GIT_PREFIX = "git:"


class DiffInputError(ValueError):
    """A side that cannot be read at all (a bad git reference, say); the CLI exits 2."""


def _git(args: list[str], cwd: Path) -> bytes:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise DiffInputError(f"cannot run git: {exc}") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise DiffInputError(f"git {' '.join(args)}: {message[-1] if message else 'failed'}")
    return done.stdout


def load_git(spec: str, cwd: Path | None = None) -> LoadResult:
    """`git:REF:PATH` — a file or a folder as it was at REF (`git show`, `git ls-tree`)."""
    body = spec[len(GIT_PREFIX):]
    ref, sep, path = body.partition(":")
    if not sep or not ref:
        raise DiffInputError(f"{spec!r}: write git:REF:PATH, e.g. git:main:contracts/ or git:HEAD~1:tools.json")
    cwd = cwd or Path.cwd()
    top = Path(_git(["rev-parse", "--show-toplevel"], cwd).decode().strip())
    prefix = _git(["rev-parse", "--show-prefix"], cwd).decode().strip()
    target = str(PurePosixPath(prefix) / path) if path not in ("", ".") else prefix.rstrip("/")
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
            result.unreadable.append(Unreadable(display, "not UTF-8 text"))
            continue
        loaded = load_text(text, file, None)
        loaded.tools = [dataclasses.replace(t, origin=dataclasses.replace(t.origin, file=display)) for t in loaded.tools]
        if kind != "blob" and not loaded.tools:
            continue  # a folder's non-tool files (fixtures, configs) are not tools
        result.extend(loaded)
    return result


def _fixtures_for(root: Path, tools: list[ToolContract]) -> list[ToolContract]:
    """Attach `examples/<tool>/valid/*.json` fixtures found under a contracts folder."""
    out = []
    for tool in tools:
        folder = root / "examples" / tool.name / "valid"
        fixtures = []
        if folder.is_dir():
            for file in sorted(folder.glob("*.json")):
                try:
                    fixtures.append((str(file.relative_to(root)), json.loads(file.read_text(encoding="utf-8"))))
                except (OSError, ValueError):
                    continue
        if fixtures:
            tool = dataclasses.replace(tool, extra={**tool.extra, "fixtures": fixtures})
        out.append(tool)
    return out


def load_side(source: Any) -> LoadResult:
    """One side of a diff: a path, `git:REF:PATH`, a list of paths, or parsed tool objects."""
    if isinstance(source, str) and source.startswith(GIT_PREFIX):
        return load_git(source)
    if isinstance(source, (str, Path)):
        result = load_paths([source])
        if Path(source).is_dir():
            result.tools = _fixtures_for(Path(source), result.tools)
        return result
    if isinstance(source, (list, tuple)) and source and all(isinstance(t, ToolContract) for t in source):
        return LoadResult(tools=list(source))
    if isinstance(source, (list, tuple)) and source and all(isinstance(s, (str, Path)) for s in source):
        return load_paths(source)
    tools, problems = contracts_from_document(source, "<object>")
    return LoadResult(tools=tools, unreadable=problems)


def diff(old: Any, new: Any) -> DiffReport:
    """Classify every change from `old` to `new` (see the module docstring).

    >>> old = {"name": "get_weather", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}
    >>> new = {"name": "get_weather", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}},
    ...                                               "required": ["city"]}}
    >>> [(c.kind, c.impact.label) for c in diff(old, new).changes]
    [('required-added', 'breaking-calls')]
    """
    before, after = load_side(old), load_side(new)
    report = diff_tools(before.tools, after.tools)
    report.unreadable = before.unreadable + after.unreadable
    return report


def exit_code(report: DiffReport, fail_on: str) -> int:
    """0, or 1 when a change reaches `fail_on` (breaking | any | never)."""
    if fail_on == "never":
        return 0
    if fail_on == "any":
        return 1 if report.changes else 0
    return 1 if any(c.impact.breaking for c in report.changes) else 0


def changes_by_tool(changes: Sequence[Change]) -> dict[str, list[Change]]:
    grouped: dict[str, list[Change]] = {}
    for change in changes:
        grouped.setdefault(change.tool, []).append(change)
    return grouped
