"""What the playground asks for, answered as plain data (JSON-ready dicts).

Pure except for the `Workspace`, which lists, reads and (only when asked)
writes the tool files under the folder the playground was opened on.  Bad input
never raises: text that cannot be read comes back as `unreadable`, a request
that makes no sense as a `RequestError` the app turns into a 400 with its message.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..exporting import LINT_TARGETS as EXPORT_LINT_TARGETS
from ..exporting import TARGETS, ExportResult, dumps, export
from ..linting.config import ConfigError, LintConfig, discover_config, parse_targets
from ..linting.fix import safe_edits
from ..linting.fix_text import fix_text
from ..linting.run import Gate, LintRequest, Text, run
from ..loading import LoadResult, detect_kind
from ..loading.files import iter_files
from ..model import Diagnostic, ToolContract
from ..rules import ALL_RULES
from ..rules.docs import SECTIONS, parse_doc
from ..targets import EXPORT_TARGETS, LINT_TARGETS

PASTED = "<pasted>"  # the file name of text typed or pasted into the page (its kind is told from the text)
MAX_TEXT_CHARS = 2 * 1024 * 1024  # a page sends at most this much; more is refused, not parsed


class RequestError(ValueError):
    """A request the page should not have sent (unknown target, missing text): a 400 with this message."""


# --------------------------------------------------------------------------- reading what the page sent

def _text(value: Any, what: str = "text") -> str:
    if not isinstance(value, str):
        raise RequestError(f"{what} must be a string")
    if len(value) > MAX_TEXT_CHARS:
        raise RequestError(f"{what} is {len(value):,} characters; the playground checks at most {MAX_TEXT_CHARS:,}: "
                           "check a file that large with `toolclause lint FILE`")
    return value


def _name(value: Any) -> str:
    """The file name the text is linted under: its suffix tells JSON, JSONL and YAML apart."""
    if value is None or value == "":
        return PASTED
    if not isinstance(value, str) or len(value) > 4096:
        raise RequestError("name must be a file name")
    return value


def _targets(value: Any) -> frozenset[str] | None:
    """The targets the page ticked (none ticked: none); not sent: the configured ones, as `toolclause lint`
    without --target."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RequestError("targets must be a list of names")
    try:
        return parse_targets(value)
    except ConfigError as exc:
        raise RequestError(str(exc)) from None


def _source(text: str, name: str) -> Text:
    """The page's text, read as `toolclause lint` reads the file of that name (an empty editor holds nothing)."""
    return Text(text, name, blank_is_empty=True)


def _load(text: str, name: str) -> LoadResult:
    return _source(text, name).read(())


def detected_format(tools: Sequence[ToolContract]) -> str | None:
    """The shape the tools were read as ("openai-chat", "mcp", …), or "a, b" when a file mixes shapes."""
    shapes = list(dict.fromkeys(t.origin.format for t in tools))
    return ", ".join(shapes) if shapes else None


# --------------------------------------------------------------------------- lint and fix

@dataclass
class Linted:
    """One lint of a text: what was read, what was found."""

    kind: str
    loaded: LoadResult
    diagnostics: list[Diagnostic] = field(default_factory=list)


def _lint(text: str, name: str, base: LintConfig, targets: frozenset[str] | None) -> Linted:
    """The lint `toolclause lint` runs on this text as the file `name`, with the playground's configuration (the
    one found from the folder it was opened on) and the targets the page sent on top."""
    outcome = run(LintRequest(reader=_source(text, name), config=base, targets=targets))
    return Linted(detect_kind(name, text), outcome.loaded, outcome.diagnostics)


def finding_key(d: Diagnostic) -> str:
    """What names one finding across two lints of the same text (the page sends it back to fix it)."""
    return f"{d.code}|{d.tool or ''}|{d.pointer}"


def _finding(d: Diagnostic) -> dict[str, Any]:
    out = d.to_dict()
    out["key"] = finding_key(d)
    out["fixable"] = bool(safe_edits(d))
    return out


def _seq(value: Any) -> int | None:
    """The page's number for a request, echoed so it can drop an answer older than the one it shows."""
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise RequestError("seq must be a non-negative whole number")
    return value


def lint_request(body: Mapping[str, Any], base: LintConfig) -> dict[str, Any]:
    """{text, name?, targets?, seq?} → the findings, with the detected format and the tools read (and seq)."""
    seq = _seq(body.get("seq"))
    text, name = _text(body.get("text")), _name(body.get("name"))
    linted = _lint(text, name, base, _targets(body.get("targets")))
    summary = {label: 0 for label in ("error", "warning", "info")}
    for d in linted.diagnostics:
        summary[d.severity.label] += 1
    return {"seq": seq, "kind": linted.kind, "format": detected_format(linted.loaded.tools),
            "tools": [t.name for t in linted.loaded.tools],
            "diagnostics": [_finding(d) for d in linted.diagnostics],
            "unreadable": [u.to_dict() for u in linted.loaded.unreadable],
            "summary": summary}


def fix_request(body: Mapping[str, Any], base: LintConfig) -> dict[str, Any]:
    """{text, name?, targets?, keys: [finding key] | "all"} → the text with those safe fixes applied.

    The text is linted again here, so a fix is always computed against the text
    it is applied to; a key that no longer names a finding is reported, not applied.
    """
    text, name = _text(body.get("text")), _name(body.get("name"))
    targets = _targets(body.get("targets"))
    keys = body.get("keys")
    if keys != "all" and (not isinstance(keys, list) or not all(isinstance(k, str) for k in keys)):
        raise RequestError('keys must be a list of finding keys, or "all"')
    linted = _lint(text, name, base, targets)
    chosen = [d for d in linted.diagnostics if safe_edits(d) and (keys == "all" or finding_key(d) in keys)]
    if not chosen:
        return {"text": text, "applied": [], "skipped": [], "changed": False,
                "message": "no safe fix applies to this text any more"}
    try:
        fixed = fix_text(text, name, chosen)
    except Exception as exc:  # the text no longer parses the way it was linted: say so, never a 500
        return {"text": text, "applied": [], "skipped": [], "changed": False, "message": f"cannot fix: {exc}"}
    return {"text": fixed.text, "changed": fixed.text != text,
            "applied": [_finding(d) for d in fixed.applied],
            "skipped": [{**_finding(s.diagnostic), "reason": s.reason} for s in fixed.skipped]}


# --------------------------------------------------------------------------- export and diff

def _export_check(result: ExportResult, target: str, strict: bool) -> dict[str, Any] | None:
    """The output read back and linted for the provider it is meant for: the errors it would get."""
    lint_as = EXPORT_LINT_TARGETS.get((target, strict))
    if lint_as is None:
        return None
    read_back = Text(dumps(result.document() if target != "mcp" else result.payload), f"{target}.json")
    outcome = run(LintRequest(reader=read_back, config=LintConfig(select=("S", "P", "N001")),
                              targets=frozenset({lint_as}), gate=Gate()))
    return {"lint_target": lint_as, "tools": len(outcome.loaded.tools),
            "errors": [{"code": d.code, "tool": d.tool, "message": d.message} for d in outcome.blocking]}


def export_request(body: Mapping[str, Any]) -> dict[str, Any]:
    """{text, name?, target, strict?} → the export as the provider takes it, its losses, and a check of it."""
    text, name = _text(body.get("text")), _name(body.get("name"))
    target = body.get("target")
    if target not in TARGETS:
        raise RequestError(f"unknown export target {target!r}; choose from {', '.join(TARGETS)}")
    strict = bool(body.get("strict")) and EXPORT_TARGETS[target].strict
    loaded = _load(text, name)
    if not loaded.tools:
        return {"target": target, "strict": strict, "output": None, "losses": [], "check": None,
                "message": "no tool to export" + (f": {loaded.unreadable[0].message}" if loaded.unreadable else "")}
    try:
        result = export(loaded.tools, target, strict)
    except (ValueError, TypeError) as exc:  # a setting the target needs (a2a's url) or a shape it cannot take
        return {"target": target, "strict": strict, "output": None, "losses": [], "check": None,
                "message": f"cannot export to {target}: {exc}"}
    return {"target": target, "strict": strict, "output": dumps(result.document()),
            "losses": [{**loss.to_dict(), "text": str(loss)} for loss in result.losses],
            "renamed": result.routing(), "check": _export_check(result, target, strict)}


def diff_request(body: Mapping[str, Any]) -> dict[str, Any]:
    """{old, new, old_name?, new_name?} → what changed from old to new, and whether it breaks callers."""
    from ..diffing.tools import diff_tools  # only a diff pays for the change classifier

    old = _load(_text(body.get("old"), "old"), _name(body.get("old_name")))
    new = _load(_text(body.get("new"), "new"), _name(body.get("new_name")))
    report = diff_tools(old.tools, new.tools)
    report.unreadable = old.unreadable + new.unreadable
    out = report.to_dict()
    worst = report.worst()
    out["worst"] = worst.label if worst is not None else None
    return out


# --------------------------------------------------------------------------- rules

def rules_catalogue() -> dict[str, Any]:
    return {"rules": [{"code": r.code, "name": r.name, "severity": r.severity.label, "fixable": bool(r.fixable),
                       "targets": sorted(r.targets), "summary": r.summary()} for r in ALL_RULES],
            "lint_targets": list(LINT_TARGETS),
            "export_targets": [{"name": t.name, "strict": t.strict} for t in EXPORT_TARGETS.values()]}


def rule_documentation(code: str) -> dict[str, Any] | None:
    """`toolclause rules CODE`'s content: the rule's facts and its documentation sections, in order."""
    rule = next((r for r in ALL_RULES if r.code == code.strip().upper() or r.name == code.strip().lower()), None)
    if rule is None:
        return None
    sections = parse_doc(rule).sections
    ordered = [s for s in SECTIONS if s in sections] + [s for s in sections if s not in SECTIONS]
    return {"code": rule.code, "name": rule.name, "severity": rule.severity.label, "fixable": bool(rule.fixable),
            "targets": sorted(rule.targets), "sections": [{"title": s, "body": sections[s]} for s in ordered]}


# --------------------------------------------------------------------------- the folder it was opened on

class Workspace:
    """The tool files under one folder (or one file): listed, read, and written back only on request.

    Only files the listing names can be read or written, so a request can never
    reach outside the folder (no `..`, no absolute path, no symlink out of it).
    """

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.config = self._config()

    def _config(self) -> LintConfig:
        folder = self.root if self.root.is_dir() else self.root.parent
        try:
            return discover_config(folder)
        except ConfigError:
            return LintConfig()  # the page still works; `toolclause lint` reports the bad configuration

    def files(self) -> list[str]:
        if self.root.is_file():
            return [self.root.name]
        return [p.relative_to(self.root).as_posix() for p in self._paths(iter_files(self.root))]

    def _paths(self, paths: Iterable[Path]) -> Iterable[Path]:
        for path in paths:
            if path.resolve().is_relative_to(self.root):
                yield path

    def _path(self, relative: Any) -> Path:
        if not isinstance(relative, str) or relative not in self.files():
            raise RequestError(f"{relative!r} is not one of the files this playground was opened on")
        return self.root if self.root.is_file() else self.root / relative

    def read(self, relative: Any) -> dict[str, Any]:
        path = self._path(relative)
        try:
            return {"path": relative, "text": path.read_text(encoding="utf-8")}
        except (OSError, UnicodeDecodeError) as exc:
            raise RequestError(f"cannot read {relative}: {exc}") from None

    def save(self, body: Mapping[str, Any]) -> dict[str, Any]:
        path, text = self._path(body.get("path")), _text(body.get("text"))
        try:
            # rewritten in place: the file keeps its mode, owner and links
            with open(path, "r+", encoding="utf-8", newline="") as stream:
                stream.write(text)
                stream.truncate()
        except OSError as exc:
            raise RequestError(f"cannot write {body.get('path')}: {exc.strerror or exc}") from None
        return {"path": body.get("path"), "saved": True, "bytes": len(text.encode("utf-8"))}


def workspace_for(path: str | os.PathLike[str] | None) -> Workspace | None:
    return Workspace(Path(path)) if path is not None else None


__all__ = ["PASTED", "RequestError", "Workspace", "detected_format", "diff_request", "export_request",
           "finding_key", "fix_request", "lint_request", "rule_documentation", "rules_catalogue", "workspace_for"]
