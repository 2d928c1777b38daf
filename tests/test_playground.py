"""The playground's server: its JSON API, its guards, its files, and the command that starts it.

Run against the real app served by uvicorn on 127.0.0.1 (no test client stands in for it).
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from toolclause.linting.config import LintConfig
from toolclause.web import service
from toolclause.web.app import MAX_BODY_BYTES
from toolclause.web.assets import MEDIA_TYPES
from toolclause.web.server import running

ROOT = Path(__file__).resolve().parents[1]

TYPO = """{
  "type": "function",
  "function": {
    "name": "get_weather",
    "description": "Current weather for one city, in Celsius. Not for forecasts.",
    "parameters": {
      "type": "object",
      "properties": {
        "city": {"type": "str", "description": "City name, e.g. Paris"}
      },
      "required": ["citty"]
    }
  }
}
"""


def post(url: str, path: str, body: object, content_type: str = "application/json",
         host: str | None = None) -> tuple[int, dict]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(url.rstrip("/") + path, data=data, method="POST",
                                     headers={"Content-Type": content_type, **({"Host": host} if host else {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def get(url: str, path: str, host: str | None = None) -> tuple[int, bytes, dict]:
    request = urllib.request.Request(url.rstrip("/") + path, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), dict(exc.headers)


@pytest.fixture(scope="module")
def server():
    with running() as url:
        yield url


# --------------------------------------------------------------------------- lint, fix

def test_lint_shows_the_detected_format_and_each_finding_at_its_line(server):
    status, result = post(server, "/api/lint", {"text": TYPO})
    assert status == 200
    assert result["format"] == "openai-chat" and result["kind"] == "json"
    assert result["tools"] == ["get_weather"]
    lines = {d["code"]: d["line"] for d in result["diagnostics"]}
    assert lines["S002"] == 9 and lines["S003"] == 11
    s002 = next(d for d in result["diagnostics"] if d["code"] == "S002")
    assert s002["fixable"] and s002["fix"]["description"] == "replace 'str' with 'string'"
    assert not next(d for d in result["diagnostics"] if d["code"] == "S003")["fixable"]  # a guess: never one click


def test_lint_reads_yaml_and_the_targets_chosen(server):
    yaml = "name: get_weather\ndescription: Current weather for one city, in Celsius.\ninputSchema:\n" \
           "  type: object\n  properties:\n    city: {type: string}\n"
    _, plain = post(server, "/api/lint", {"text": yaml})
    _, strict = post(server, "/api/lint", {"text": yaml, "targets": ["openai-strict"]})
    assert plain["kind"] == "yaml" and plain["format"] == "mcp"
    assert "P001" not in {d["code"] for d in plain["diagnostics"]}
    assert "P001" in {d["code"] for d in strict["diagnostics"]}
    status, bad = post(server, "/api/lint", {"text": yaml, "targets": ["openai-stric"]})
    assert status == 400 and "openai-stric" in bad["error"]


def test_text_that_cannot_be_read_is_reported_with_its_line_not_a_crash(server):
    status, result = post(server, "/api/lint", {"text": '{\n  "name": "x",\n  "description": \n}'})
    assert status == 200 and result["tools"] == []
    assert "line 4" in result["unreadable"][0]["message"]
    for body in ({"text": 3}, {}, {"text": "[" * 100_000}, {"text": TYPO, "targets": "openai"}):
        status, result = post(server, "/api/lint", body)
        assert status in (200, 400), body
        assert "Traceback" not in json.dumps(result)


def test_a_safe_fix_applies_only_the_finding_asked_for(server):
    _, linted = post(server, "/api/lint", {"text": TYPO})
    key = next(d["key"] for d in linted["diagnostics"] if d["code"] == "S002")
    status, fixed = post(server, "/api/fix", {"text": TYPO, "keys": [key]})
    assert status == 200 and fixed["changed"]
    assert '"string"' in fixed["text"] and '"citty"' in fixed["text"]  # the unsafe S003 fix is not applied
    assert [d["code"] for d in fixed["applied"]] == ["S002"]
    _, again = post(server, "/api/lint", {"text": fixed["text"]})
    assert "S002" not in {d["code"] for d in again["diagnostics"]}
    _, stale = post(server, "/api/fix", {"text": fixed["text"], "keys": [key]})
    assert not stale["changed"] and "no safe fix" in stale["message"]
    _, every = post(server, "/api/fix", {"text": TYPO, "keys": "all"})
    assert {d["code"] for d in every["applied"]} == {"S002", "C001"}


def many_tools(count: int) -> str:
    return json.dumps([{"type": "function", "function": {
        "name": f"tool_{i}", "description": f"Looks up record {i} by its id and returns it.",
        "parameters": {"type": "object", "properties": {"id": {"type": "str" if i % 5 == 0 else "string"},
                                                        "limit": {"type": "integer"}},
                       "required": ["id"]}}} for i in range(count)], indent=2)


def test_a_slow_lint_does_not_hold_up_the_other_requests(server):
    big = many_tools(4000)
    assert len(big) < service.MAX_TEXT_CHARS
    done: dict[str, float] = {}

    def lint_big() -> None:
        status, result = post(server, "/api/lint", {"text": big, "seq": 1})
        assert status == 200 and len(result["tools"]) == 4000
        done["big"] = time.perf_counter()

    worker = threading.Thread(target=lint_big)
    worker.start()
    time.sleep(0.3)  # the big lint is under way
    status, small = post(server, "/api/lint", {"text": TYPO, "seq": 2})
    done["small"] = time.perf_counter()
    status_meta = get(server, "/api/meta")[0]
    done["meta"] = time.perf_counter()
    worker.join(timeout=120)
    assert status == 200 and small["seq"] == 2 and status_meta == 200
    assert done["small"] < done["big"] and done["meta"] < done["big"], done  # answered while the big one ran


def test_oversized_input_is_refused_with_what_to_do_instead(server):
    status, result = post(server, "/api/lint", {"text": "x" * (service.MAX_TEXT_CHARS + 1)})
    assert status == 400
    assert f"{service.MAX_TEXT_CHARS + 1:,} characters" in result["error"] and "toolclause lint FILE" in result["error"]
    status, result = post(server, "/api/lint", b'{"text": "' + b"x" * MAX_BODY_BYTES + b'"}')
    assert status == 413
    assert f"at most {MAX_BODY_BYTES:,}" in result["error"] and "toolclause lint FILE" in result["error"]
    for seq in (-1, "2", True, 1.5):
        status, result = post(server, "/api/lint", {"text": TYPO, "seq": seq})
        assert status == 400 and "seq" in result["error"], seq
    assert post(server, "/api/lint", {"text": TYPO})[1]["seq"] is None


# --------------------------------------------------------------------------- export, diff, rules

def test_export_gives_the_strict_projection_its_losses_and_a_check_for_the_provider(server):
    status, result = post(server, "/api/export", {"text": TYPO, "target": "openai-chat", "strict": True})
    assert status == 200 and result["strict"]
    payload = json.loads(result["output"])
    assert payload[0]["function"]["strict"] is True
    assert any(loss["keyword"] == "required" for loss in result["losses"])
    assert result["check"]["lint_target"] == "openai-strict" and result["check"]["errors"] == []
    _, loose = post(server, "/api/export", {"text": TYPO, "target": "mcp", "strict": True})
    assert loose["strict"] is False  # mcp has no strict projection
    status, bad = post(server, "/api/export", {"text": TYPO, "target": "openai"})
    assert status == 400 and "openai-chat" in bad["error"]
    _, empty = post(server, "/api/export", {"text": "", "target": "anthropic"})
    assert empty["output"] is None and "no tool" in empty["message"]


def test_diff_classifies_the_change_from_the_earlier_version(server):
    new = TYPO.replace('"required": ["citty"]', '"required": ["city", "unit"]') \
              .replace('"description": "City name, e.g. Paris"}', '"description": "City name"},\n'
                       '        "unit": {"type": "string", "enum": ["C", "F"]}')
    status, result = post(server, "/api/diff", {"old": TYPO, "new": new})
    assert status == 200 and result["tools"] == {"old": 1, "new": 1}
    assert result["worst"] == "breaking-calls"
    assert any(c["kind"] == "required-added" for c in result["changes"])


def test_rule_documentation_is_one_request_away(server):
    status, body, _ = get(server, "/api/rules/s003")
    doc = json.loads(body)
    assert status == 200 and doc["code"] == "S003"
    assert [s["title"] for s in doc["sections"]][:3] == ["What it does", "Why is this bad?", "Example"]
    status, body, _ = get(server, "/api/rules/Z999")
    assert status == 404
    status, body, _ = get(server, "/api/meta")
    meta = json.loads(body)
    assert len(meta["rules"]) >= 50 and "openai-strict" in meta["lint_targets"]
    assert {"name": "openai-chat", "strict": True} in meta["export_targets"]


# --------------------------------------------------------------------------- the page and its guards

def test_the_page_and_every_asset_ship_in_the_package_and_name_no_other_host(server):
    status, page, headers = get(server, "/")
    assert status == 200 and b"toolclause" in page
    assert "connect-src 'self'" in headers["content-security-policy"]
    for name in re.findall(r'/static/([\w.-]+)', page.decode()):
        status, body, headers = get(server, f"/static/{name}")
        assert status == 200 and body, name
    for path in (ROOT / "src/toolclause/web/static").iterdir():
        assert path.suffix in MEDIA_TYPES
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(src|href)=\"(https?:)?//", text), path.name  # no CDN
        assert "fetch(\"http" not in text and "import(" not in text
    assert get(server, "/static/..%2Fservice.py")[0] == 404
    assert get(server, "/static/service.py")[0] == 404


def test_only_local_hosts_and_json_posts_are_answered(server):
    assert get(server, "/", host="evil.example")[0] == 403
    assert get(server, "/api/meta", host="localhost:1234")[0] == 200
    status, result = post(server, "/api/lint", {"text": TYPO}, host="attacker.test")
    assert status == 403
    status, result = post(server, "/api/lint", b"text=x", content_type="application/x-www-form-urlencoded")
    assert status == 400 and "application/json" in result["error"]
    status, result = post(server, "/api/lint", b"[1]")
    assert status == 400
    assert post(server, "/api/save", {"path": "x.json", "text": ""})[0] == 400  # not opened on a folder


# --------------------------------------------------------------------------- opened on a folder

def test_opened_on_a_folder_it_lists_reads_and_saves_only_when_asked(tmp_path):
    (tmp_path / "tools").mkdir()
    tool = tmp_path / "tools" / "weather.json"
    tool.write_text(TYPO, encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a tool", encoding="utf-8")
    outside = tmp_path.parent / f"{tmp_path.name}-outside.json"
    outside.write_text("{}", encoding="utf-8")
    with running(tmp_path) as url:
        _, body, _ = get(url, "/api/meta")
        assert json.loads(body)["files"] == ["tools/weather.json"]
        _, body, _ = get(url, "/api/file?path=tools/weather.json")
        text = json.loads(body)["text"]
        assert text == TYPO
        _, linted = post(url, "/api/lint", {"text": text, "name": "tools/weather.json"})
        key = next(d["key"] for d in linted["diagnostics"] if d["code"] == "S002")
        _, fixed = post(url, "/api/fix", {"text": text, "name": "tools/weather.json", "keys": [key]})
        assert tool.read_text(encoding="utf-8") == TYPO  # a fix changes the page, never the file by itself
        status, saved = post(url, "/api/save", {"path": "tools/weather.json", "text": fixed["text"]})
        assert status == 200 and saved["saved"]
        assert tool.read_text(encoding="utf-8") == fixed["text"]
        for path in ("../" + outside.name, str(outside), "notes.txt", "tools/../tools/weather.json"):
            assert post(url, "/api/save", {"path": path, "text": "{}"})[0] == 400, path
            assert get(url, f"/api/file?path={path}")[0] == 404, path
    assert outside.read_text(encoding="utf-8") == "{}"


def test_a_workspace_on_one_file(tmp_path):
    tool = tmp_path / "weather.json"
    tool.write_text(TYPO, encoding="utf-8")
    workspace = service.Workspace(tool)
    assert workspace.files() == ["weather.json"]
    assert workspace.read("weather.json")["text"] == TYPO
    result = service.lint_request({"text": TYPO, "name": "weather.json"}, LintConfig())
    assert result["diagnostics"][0]["file"] == "weather.json"


# --------------------------------------------------------------------------- the command

def test_the_command_is_offered_and_says_when_the_port_is_taken():
    done = subprocess.run([sys.executable, "-m", "toolclause.cli.main", "playground", "--help"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "--port" in done.stdout
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "toolclause.cli.main", "playground", "--port", str(port)],
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith(f"toolclause: error: cannot listen on 127.0.0.1:{port}")


def test_the_web_dependencies_are_declared():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for name in ("starlette", "uvicorn", "playwright"):
        assert re.search(rf'"{name}[>=<]', pyproject), name
    assert '"web/static/*"' in pyproject


def test_python_dash_m_toolclause_is_the_command_line():
    done = subprocess.run([sys.executable, "-m", "toolclause", "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("toolclause")
    done = subprocess.run([sys.executable, "-m", "toolclause", "lint"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "give at least one PATH" in done.stderr
