"""The language server: `toolclause lsp` speaks LSP over stdio (pygls 2).

A JSON, JSONC, JSON Lines or YAML document is linted when it is opened, saved, and changed (after
`DEBOUNCE` seconds without a further change), through the lint pipeline with the configuration found
from the document's folder.  Each finding is published with `source: "toolclause"`, its code, a link
to the rule's documentation (`codeDescription.href`) and a range with start and end in UTF-16 units.
Every finding with a safe fix gets a quick fix, and `source.fixAll.toolclause` applies them all (the
pipeline's --fix, in memory).  A document that is no tool file (a package.json) gets no findings.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from .. import _lazy_re as re
from .._version import __version__
from ..linting.config import ConfigError
from ..linting.run import LintOutcome, LintRequest, Text, run
from ..loading import MAX_DOCUMENT_BYTES, SUFFIXES
from ..loading.codes import skippable
from ..model import Diagnostic, Severity, Unreadable
from .ranges import Lines, Spot

DEBOUNCE = 0.3  # seconds without a change before a changed document is linted
FIX_ALL = "source.fixAll.toolclause"
LANGUAGES = {"json": ".json", "jsonc": ".jsonc", "jsonl": ".jsonl", "yaml": ".yaml"}
_AT = re.compile(r"at line (\d+), column (\d+)")
_LEVEL = {Severity.ERROR: types.DiagnosticSeverity.Error, Severity.WARNING: types.DiagnosticSeverity.Warning,
          Severity.INFO: types.DiagnosticSeverity.Information}


def _name(uri: str, language: str | None) -> str | None:
    """The file name a document is linted under (its path; the suffix tells JSON, JSONC and YAML apart), or None
    for a document toolclause does not read."""
    path = to_fs_path(uri) or uri
    if Path(path).suffix.lower() in SUFFIXES:
        return path
    if language in LANGUAGES:
        return path + LANGUAGES[language]
    return None


class _Memory:
    """--fix's files for one document, in memory (the editor owns the file)."""

    def __init__(self, name: str, text: str) -> None:
        self.texts = {name: text}

    def read(self, file: str) -> str:
        return self.texts[file]

    def refusal(self, file: str) -> str | None:
        return None

    def write(self, file: str, text: str) -> None:
        self.texts[file] = text


def lint(name: str, text: str, fix: bool = False) -> LintOutcome:
    """The pipeline's lint of one document, with the configuration found from its folder (ConfigError)."""
    return run(LintRequest(reader=Text(text, name, blank_is_empty=True), discover_from=Path(name).parent,
                           fix=_Memory(name, text) if fix else None))


def _href(code: str) -> str | None:
    from ..rules import rule_class
    from ..rules.docs import documentation_url

    try:
        return documentation_url(rule_class(code))
    except KeyError:  # a user's rule: its documentation is the team's
        return None


def _range(spots: tuple[Spot, Spot]) -> types.Range:
    start, end = spots
    return types.Range(types.Position(start.line, start.character), types.Position(end.line, end.character))


def safe(d: Diagnostic) -> bool:
    return d.fix is not None and d.fix.safe and bool(d.fix.edits)


def to_lsp(d: Diagnostic, lines: Lines, parsed: str | None) -> types.Diagnostic:
    href = _href(d.code)
    return types.Diagnostic(
        range=_range(lines.range(d.line, d.column, parsed)), message=d.message, severity=_LEVEL[d.severity],
        code=d.code, source="toolclause",
        code_description=types.CodeDescription(href=href) if href else None,
        data={"pointer": d.pointer, "tool": d.tool, "fixable": safe(d)})


def _problem(problem: Unreadable, lines: Lines) -> types.Diagnostic:
    where = _AT.search(problem.message)
    spot = lines.spot(int(where.group(1)), int(where.group(2))) if where else Spot((problem.line or 1) - 1, 0)
    position = types.Position(spot.line, spot.character)
    return types.Diagnostic(range=types.Range(position, position), message=problem.message,
                            severity=types.DiagnosticSeverity.Error, code=problem.code, source="toolclause")


def _parsed(name: str, text: str) -> str | None:
    """The text the JSON scanner reads, for ranges' ends (None for YAML)."""
    kind = SUFFIXES.get(Path(name).suffix.lower())
    if kind == "jsonc":
        from ..loading.jsonc import blank_jsonc

        return blank_jsonc(text)
    return text if kind in ("json", "jsonl") else None


def diagnostics(name: str, text: str) -> list[types.Diagnostic]:
    """What the editor shows for a document: the findings, and why it could not be read (but for a file that
    is simply no tool file)."""
    lines = Lines(text)
    if len(text) > MAX_DOCUMENT_BYTES:
        return [types.Diagnostic(range=types.Range(types.Position(0, 0), types.Position(0, 0)),
                                 message=f"over {MAX_DOCUMENT_BYTES // (1024 * 1024)} MiB: not linted",
                                 severity=types.DiagnosticSeverity.Information, source="toolclause")]
    try:
        outcome = lint(name, text)
    except ConfigError as exc:
        return [types.Diagnostic(range=types.Range(types.Position(0, 0), types.Position(0, 0)),
                                 message=f"configuration: {exc}", severity=types.DiagnosticSeverity.Error,
                                 source="toolclause")]
    problems = [p for p in outcome.report.unreadable if not skippable(p.code)]
    parsed = _parsed(name, text)
    return [*(_problem(p, lines) for p in problems), *(to_lsp(d, lines, parsed) for d in outcome.diagnostics)]


def _whole(text: str, new: str, uri: str, version: int | None) -> types.WorkspaceEdit:
    end = Lines(text).end()
    edit = types.TextEdit(range=types.Range(types.Position(0, 0), types.Position(end.line, end.character)),
                          new_text=new)
    document = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
    return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(text_document=document, edits=[edit])])


def _overlaps(a: types.Range, b: types.Range) -> bool:
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and \
        (b.start.line, b.start.character) <= (a.end.line, a.end.character)


def code_actions(name: str, text: str, uri: str, version: int | None, wanted: types.Range,
                 only: list[str] | None) -> Iterator[types.CodeAction]:
    """A quick fix for each finding with a safe fix in `wanted`, and one action that applies them all."""
    from ..linting.fix_text import FixRefused, fix_text

    try:
        outcome = lint(name, text)
    except ConfigError:
        return
    fixable = [d for d in outcome.diagnostics if safe(d)]
    if not fixable:
        return
    lines, parsed = Lines(text), _parsed(name, text)
    quick = only is None or any(types.CodeActionKind.QuickFix.value.startswith(kind) or kind.startswith("quickfix")
                                for kind in only)
    for d in fixable if quick else ():
        shown = to_lsp(d, lines, parsed)
        if not _overlaps(shown.range, wanted):
            continue
        try:
            fixed = fix_text(text, name, [d])
        except (FixRefused, ValueError):
            continue
        if fixed.text != text and d.fix is not None:
            yield types.CodeAction(title=f"{d.code}: {d.fix.description}", kind=types.CodeActionKind.QuickFix,
                                   diagnostics=[shown], is_preferred=True, edit=_whole(text, fixed.text, uri, version))
    if only is None or any(FIX_ALL.startswith(kind) for kind in only):
        try:
            done = lint(name, text, fix=True)
        except ConfigError:
            return
        new = done.fixes.texts.get(name) if done.fixes is not None else None
        if new is not None and new != text:
            yield types.CodeAction(title="toolclause: fix all safe fixes", kind=FIX_ALL,
                                   edit=_whole(text, new, uri, version))


def build() -> LanguageServer:
    server = LanguageServer("toolclause", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full)
    latest: dict[str, int] = {}  # each document's newest version: a debounced lint of an older one is dropped

    def publish(uri: str, version: int | None = None) -> None:
        document = server.workspace.get_text_document(uri)
        name = _name(uri, document.language_id)
        found = diagnostics(name, document.source) if name is not None else []
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=found,
                                                                                version=version))

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: LanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        latest[params.text_document.uri] = params.text_document.version
        publish(params.text_document.uri, params.text_document.version)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: LanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        uri, version = params.text_document.uri, params.text_document.version
        latest[uri] = version
        await asyncio.sleep(DEBOUNCE)
        if latest.get(uri) == version:  # no newer change came meanwhile
            publish(uri, version)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: LanguageServer, params: types.DidSaveTextDocumentParams) -> None:
        publish(params.text_document.uri, latest.get(params.text_document.uri))

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: LanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        latest.pop(params.text_document.uri, None)
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=params.text_document.uri,
                                                                                diagnostics=[]))

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL]))  # LSP kinds are an open set
    def code_action(ls: LanguageServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        document = server.workspace.get_text_document(uri)
        name = _name(uri, document.language_id)
        if name is None:
            return []
        only = [str(getattr(kind, "value", kind)) for kind in params.context.only] if params.context.only else None
        return list(code_actions(name, document.source, uri, document.version, params.range, only))

    return server


def main() -> None:
    build().start_io()


__all__ = ["DEBOUNCE", "FIX_ALL", "build", "code_actions", "diagnostics", "lint", "main", "to_lsp"]

