"""`lint --format html`: one self-contained page, summary first, findings by tool with their source lines."""

from __future__ import annotations

import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

from test_playground import TYPO as PLAYGROUND_TYPO
from toolclause.cli.running import LintRequest, run_lint
from toolclause.report import REPORTERS

TYPO = PLAYGROUND_TYPO.replace("e.g. Paris", "e.g. <b>Paris</b>")  # markup in a description, to be escaped
CLEAN = ('{"name": "list_cities", "description": "Lists the cities the weather service covers, by country.", '
         '"inputSchema": {"type": "object", "properties": {"country": {"type": "string", "minLength": 2, '
         '"maxLength": 2, "description": "ISO 3166-1 alpha-2 code, e.g. FR"}}, "required": ["country"], '
         '"additionalProperties": false}, "annotations": {"readOnlyHint": true}}\n')


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def report_for(tmp_path: Path, files: dict[str, str]) -> str:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    run, _ = run_lint(LintRequest(paths=tuple(files), cwd=str(tmp_path)))
    return REPORTERS["html"](run)


def test_one_self_contained_page_with_the_summary_first(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    page = report_for(tmp_path, {"weather.json": TYPO, "cities.json": CLEAN})
    parsed = _Tags()
    parsed.feed(page)
    assert page.startswith("<!doctype html>")
    for tag, attrs in parsed.tags:  # nothing is fetched: no stylesheet, script, image or font from elsewhere
        assert not (tag in ("link", "img", "iframe") or (tag == "script" and "src" in attrs)), (tag, attrs)
    assert "<style>" in page and "<script>" in page and "@media print" in page
    assert page.index('id="summary"') < page.index('id="findings"')
    summary = page[page.index('id="summary"'):page.index('id="findings"')]
    assert "2 errors" in summary and "2 tools, 2 files" in summary
    assert re.search(r"<code>S003</code></a></td><td>required-not-defined</td><td><span class=\"sev sev-error\">✖ error"
                     r"</span></td><td class=\"num\">1</td>", summary)
    # each code links to its rule's documentation, the address SARIF gives as the rule's helpUri
    from toolclause.rules import BY_CODE
    from toolclause.rules.docs import documentation_url

    assert f'<a href="{documentation_url(BY_CODE["S003"])}"><code>S003</code></a>' in summary
    assert "list_cities" in summary and "✓ clean" in summary  # every tool is in the per-tool table


def test_findings_quote_their_source_lines_escaped(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    page = report_for(tmp_path, {"weather.json": TYPO})
    finding = page[page.index('data-code="S003"'):]
    finding = finding[:finding.index("</li>")]
    assert "weather.json:11:20" in finding and "did you mean &#x27;city&#x27;?" in finding
    assert re.search(r'<span class="src-line here"><span class="ln">11</span><span class="mark">▶</span>', finding)
    assert '<span class="ln">10</span>' in finding and '<span class="ln">12</span>' in finding
    assert "needs your judgement" in finding
    s002 = page[page.index('data-code="S002"'):]
    assert "--fix</code> applies it" in s002[:s002.index("</li>")]
    assert "<b>Paris</b>" not in page and "&lt;b&gt;Paris&lt;/b&gt;" in page  # the file's text is never markup


def test_standard_input_and_unreadable_files_are_reported_without_a_quote(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "broken.json").write_text('{"name": ', encoding="utf-8")
    (tmp_path / "weather.json").write_text(TYPO, encoding="utf-8")
    run, _ = run_lint(LintRequest(paths=("broken.json", "weather.json"), cwd=str(tmp_path)))
    (tmp_path / "weather.json").unlink()  # gone since it was linted: still a report, without the quotation
    page = REPORTERS["html"](run)
    assert "✖ Unreadable" in page and "broken.json" in page
    assert "S003" in page and 'class="source"' not in page


def test_the_command_writes_the_file(tmp_path):
    (tmp_path / "weather.json").write_text(TYPO, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "toolclause.cli.main", "lint", "weather.json", "--format", "html",
                           "-o", "report.html"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and done.stdout == ""
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert page.rstrip().endswith("</html>") and "get_weather" in page


def test_what_fix_did_is_in_the_report(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "weather.json").write_text(TYPO, encoding="utf-8")
    run, _ = run_lint(LintRequest(paths=("weather.json",), fix=True, cwd=str(tmp_path)))
    page = REPORTERS["html"](run)
    fixes = page[page.index('id="fixes"'):page.index('id="findings"')]
    assert "fixed weather.json" in fixes and "S002" in fixes
    assert 'data-code="S002"' not in page  # fixed, so no longer a finding


# --------------------------------------------------------------------------- how reports reach the terminal

def lint_cli(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    import os

    return subprocess.run([sys.executable, "-m", "toolclause", "lint", *args], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120, env={**os.environ, **(env or {})})


def test_quiet_prints_the_findings_only(tmp_path):
    (tmp_path / "weather.json").write_text(TYPO, encoding="utf-8")
    (tmp_path / "cities.json").write_text(CLEAN, encoding="utf-8")
    loud = lint_cli(tmp_path, "weather.json")
    quiet = lint_cli(tmp_path, "weather.json", "--quiet")
    assert loud.returncode == quiet.returncode == 1
    assert "in 1 tool, 1 file" in loud.stdout and "in 1 tool" not in quiet.stdout
    assert "S003" in quiet.stdout and quiet.stdout == loud.stdout[:len(quiet.stdout)]
    clean = lint_cli(tmp_path, "cities.json", "-q", "--select", "S")
    assert clean.returncode == 0 and clean.stdout == "" and clean.stderr == ""
    assert lint_cli(tmp_path, "cities.json", "--select", "S").stdout.startswith("0 errors")


def test_no_color_wins_over_force_color(tmp_path):
    (tmp_path / "weather.json").write_text(TYPO, encoding="utf-8")
    forced = lint_cli(tmp_path, "weather.json", env={"FORCE_COLOR": "1"})
    plain = lint_cli(tmp_path, "weather.json", "--no-color", env={"FORCE_COLOR": "1"})
    assert "\x1b[" in forced.stdout
    assert "\x1b[" not in plain.stdout and "S003" in plain.stdout
