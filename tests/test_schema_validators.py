"""Compiled validators: the named settings, the memo, and that compiling never fetches anything."""

from __future__ import annotations

import http.server
import threading
from pathlib import Path

import pytest

import toolclause
from toolclause.schema.validators import ARGUMENTS, COMPILE_ERRORS, DRAFT, VALUES, ValidatorMemo, compile_schema

DRAFT_07 = "http://json-schema.org/draft-07/schema#"


class _Recorder(http.server.BaseHTTPRequestHandler):
    requests: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        type(self).requests.append(self.path)
        body = b'{"type": "integer"}'
        self.send_response(200)
        self.send_header("Content-Type", "application/schema+json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture()
def schema_server():
    """A real HTTP server that would serve a schema and records every request it gets."""
    _Recorder.requests = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", _Recorder.requests
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture()
def schema_file(tmp_path: Path) -> str:
    path = tmp_path / "integer.json"
    path.write_text('{"type": "integer"}', encoding="utf-8")
    return path.as_uri()


@pytest.mark.parametrize("settings", [ARGUMENTS, VALUES, DRAFT], ids=lambda s: s.name)
def test_no_setting_fetches_a_network_reference(settings, schema_server):
    base, requests = schema_server
    for schema in ({"$ref": f"{base}/integer.json"},
                   {"$id": f"{base}/root.json", "properties": {"a": {"$ref": "integer.json"}}}):
        with pytest.raises(COMPILE_ERRORS, match="not fetched"):
            compile_schema(schema, settings)
    assert requests == []


@pytest.mark.parametrize("settings", [ARGUMENTS, VALUES, DRAFT], ids=lambda s: s.name)
def test_no_setting_reads_a_file_reference(settings, schema_file):
    with pytest.raises(COMPILE_ERRORS, match="not fetched"):
        compile_schema({"$ref": schema_file}, settings)


def test_local_and_standard_references_still_compile():
    validator = compile_schema({"$defs": {"n": {"type": "integer"}}, "properties": {"a": {"$ref": "#/$defs/n"}}},
                               ARGUMENTS)
    assert validator.is_valid({"a": 1}) and not validator.is_valid({"a": "x"})
    # the official meta-schemas are known without fetching them
    meta = compile_schema({"$ref": "https://json-schema.org/draft/2020-12/schema"}, VALUES)
    assert meta.is_valid({"type": "string"}) and not meta.is_valid({"minLength": -1})


def test_settings_differ_only_where_named():
    email, email_07 = {"format": "email"}, {"$schema": DRAFT_07, "format": "email"}
    assert not compile_schema(email, ARGUMENTS).is_valid("x")        # asserted
    assert compile_schema(email, VALUES).is_valid("x")               # annotation
    assert compile_schema(email, DRAFT).is_valid("x")                # 2020-12: annotation
    assert not compile_schema(email_07, DRAFT).is_valid("x")         # draft 7: asserted
    assert not compile_schema({"$schema": DRAFT_07, "minimum": 1}, VALUES).is_valid(0)  # draft detected


def test_memo_keeps_failures_and_empties_past_its_limit():
    memo = ValidatorMemo(limit=2)
    built: list[str] = []

    def build(name: str):
        built.append(name)
        return None if name == "bad" else name

    assert memo.compiled("bad", lambda: build("bad")) is None
    assert memo.compiled("bad", lambda: build("bad")) is None
    assert memo.compiled("a", lambda: build("a")) == "a"
    assert built == ["bad", "a"]
    memo.compiled("b", lambda: build("b"))  # third entry: the memo starts over
    assert len(memo) == 1 and built == ["bad", "a", "b"]


def test_lint_export_and_registration_never_fetch(schema_server, schema_file):
    base, requests = schema_server
    remote = {"type": "object", "properties": {
        "n": {"$ref": f"{base}/integer.json", "default": "x"},
        "f": {"$ref": schema_file, "default": "x"}}}
    tool = {"name": "count_items", "description": "Counts the items of one order, by order id.",
            "inputSchema": remote}
    toolclause.lint(tool, targets=["all"])
    toolclause.export([tool], "openai-chat", strict=True)
    box = toolclause.Toolbox("memory://", lint="off")
    with pytest.raises(Exception, match="not fetched"):
        box.add(tool, lambda n="x", f="x": n)
    assert requests == []
