"""`toolclause lsp`, driven by pygls's own client over stdio: diagnostics on open and change through the lint
pipeline (the configuration found from the document's folder), UTF-16 ranges, rule links, quick fixes and
fix-all, and an edit that fixes a finding clears it."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsprotocol import types  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

# an emoji (two UTF-16 units, one character) before the finding on its line
TOOL = ('[\n  {"name": "get_weather", "description": "☀️🌧 Current weather for one city, in metric units.",\n'
        '   "inputSchema": {"type": "object", "additionalProperties": false, "required": ["city"],\n'
        '                   "properties": {"city": {"description": "🏙 City name", "type": "str"}}}}\n]\n')


class Session:
    """A client connected to `python -m toolclause lsp`, collecting what the server publishes."""

    def __init__(self) -> None:
        self.client = LanguageClient("toolclause-tests", "1")
        self.published: asyncio.Queue[types.PublishDiagnosticsParams] = asyncio.Queue()

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
            self.published.put_nowait(params)

    async def start(self, root: Path) -> types.InitializeResult:
        await self.client.start_io(sys.executable, "-m", "toolclause", "lsp")
        result = await self.client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=root.as_uri(), process_id=None))
        self.client.initialized(types.InitializedParams())
        return result

    async def next(self, uri: str) -> list[types.Diagnostic]:
        while True:
            params = await asyncio.wait_for(self.published.get(), 60)
            if params.uri == uri:
                return list(params.diagnostics)

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()


def _open(session: Session, path: Path, text: str, language: str = "json") -> str:
    uri = path.as_uri()
    session.client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)))
    return uri


def _apply(text: str, action: types.CodeAction) -> str:
    assert action.edit is not None and action.edit.document_changes
    (change,) = action.edit.document_changes
    (edit,) = change.edits  # type: ignore[union-attr]
    assert (edit.range.start.line, edit.range.start.character) == (0, 0)
    return edit.new_text


@pytest.mark.timeout(240)
def test_diagnostics_quick_fixes_and_an_edit_that_fixes_the_finding(tmp_path: Path):
    (tmp_path / "toolclause.toml").write_text('ignore = ["D009", "C003"]\n')
    path = tmp_path / "weather.json"
    path.write_text(TOOL, encoding="utf-8")

    async def scenario() -> None:
        session = Session()
        init = await session.start(tmp_path)
        assert init.capabilities.code_action_provider is not None
        uri = _open(session, path, TOOL)
        found = await session.next(uri)
        s002 = [d for d in found if d.code == "S002"]
        assert len(s002) == 1 and {d.code for d in found}.isdisjoint({"D009", "C003"})  # the folder's configuration
        d = s002[0]
        line = TOOL.splitlines()[3]
        at = line.index('"str"')
        units = len(line[:at].encode("utf-16-le")) // 2
        assert units == at + 1  # the emoji is one character and two UTF-16 units
        assert (d.range.start.line, d.range.start.character) == (3, units)
        assert (d.range.end.line, d.range.end.character) == (3, units + len('"str"'))
        assert d.source == "toolclause" and d.code_description is not None
        assert d.code_description.href.endswith("/rules/schema/s002_unknown_type.py")
        actions = await session.client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), range=d.range,
            context=types.CodeActionContext(diagnostics=[d])))
        quick = [a for a in actions or []
                 if isinstance(a, types.CodeAction) and a.kind == types.CodeActionKind.QuickFix]
        assert [a.title for a in quick] == ["S002: replace 'str' with 'string'"]
        assert any(isinstance(a, types.CodeAction) and a.kind == "source.fixAll.toolclause" for a in actions or [])
        fixed = _apply(TOOL, quick[0])
        assert json.loads(fixed)[0]["inputSchema"]["properties"]["city"]["type"] == "string"
        assert fixed.replace('"string"', '"str"') == TOOL  # nothing else moved
        session.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=fixed)]))
        again = await session.next(uri)
        assert "S002" not in {d.code for d in again}
        await session.stop()

    asyncio.run(scenario())


@pytest.mark.timeout(240)
def test_jsonc_and_yaml_documents_and_files_that_are_no_tools(tmp_path: Path):
    jsonc = ('// tools\n[{"name": "get_weather", "description": "Weather.", // short\n'
             ' "inputSchema": {"type": "str",},},]\n')
    yaml = 'name: get_weather\ndescription: Current weather for one city, in metric units.\ninputSchema:\n  type: obj\n'

    async def scenario() -> None:
        session = Session()
        await session.start(tmp_path)
        found = await session.next(_open(session, tmp_path / "tools.jsonc", jsonc, "jsonc"))
        (s002,) = [d for d in found if d.code == "S002"]
        assert s002.range.start.line == 2 and jsonc.splitlines()[2][s002.range.start.character:].startswith('"str"')
        found = await session.next(_open(session, tmp_path / "tool.yaml", yaml, "yaml"))
        (s002,) = [d for d in found if d.code == "S002"]
        assert (s002.range.start.line, s002.range.start.character, s002.range.end.character) == (3, 8, 11)
        assert await session.next(_open(session, tmp_path / "package.json", '{"name": "x", "version": "1.0.0"}')) == []
        broken = await session.next(_open(session, tmp_path / "broken.json", '[\n  {"name": \n'))
        assert [d.code for d in broken] == ["invalid-json"] and broken[0].range.start.line == 2
        await session.stop()

    asyncio.run(scenario())
