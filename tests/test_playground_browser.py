"""The playground in a real browser: Playwright driving the system's Chromium (Debian's `chromium` package).

Every request the page makes is watched: one to any host but the local server fails
the test.  Skips, saying why, only where Chromium is not installed (`.ci/run`
installs it) or Playwright cannot start it.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from contextlib import contextmanager
from urllib.parse import urlsplit

import pytest

from test_playground import TYPO, many_tools
from toolclause.web.server import running

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")


def chromium_path() -> str | None:
    explicit = os.environ.get("TOOLCLAUSE_CHROMIUM")
    if explicit:
        return explicit
    return next((found for name in CHROMIUM_NAMES if (found := shutil.which(name))), None)


@pytest.fixture(scope="module")
def browser():
    path = chromium_path()
    if path is None:
        reason = "no Chromium on this machine (apt-get install -y chromium; .ci/run does it)"
        print(f"\nSKIPPED browser tests: {reason}")
        pytest.skip(reason)
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="playwright is in the test extra: pip install -e .[test]")
    with sync_api.sync_playwright() as playwright:
        try:
            chromium = playwright.chromium.launch(executable_path=path, args=["--no-sandbox"])
        except Exception as exc:  # a Chromium that cannot start here (no sandbox, a broken install)
            print(f"\nSKIPPED browser tests: Chromium at {path} did not start: {exc}")
            pytest.skip(f"Chromium at {path} did not start: {exc}")
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def server():
    with running() as url:
        yield url


@contextmanager
def local_page(browser, url: str):
    """A page on the playground at `url`; any request to another host is aborted and fails the test."""
    local = urlsplit(url).netloc
    foreign: list[str] = []
    # bypass_csp: Playwright polls with eval, which the page's CSP forbids (test_playground checks the CSP itself)
    context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)

    def guard(route):
        if urlsplit(route.request.url).netloc == local:
            route.continue_()
        else:
            foreign.append(route.request.url)
            route.abort()

    context.route("**/*", guard)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")
    yield page
    context.close()
    assert foreign == [], f"the page reached for other hosts: {foreign}"
    assert errors == [], errors


@pytest.fixture
def page(browser, server):
    with local_page(browser, server) as page:
        yield page


def paste(page, text: str) -> None:
    revision = int(page.get_attribute("body", "data-lint-revision") or 0)
    page.fill("#editor", text)  # what a paste does: the text arrives at once, with one input event
    page.wait_for_function(f"Number(document.body.dataset.lintRevision) > {revision} "
                           f"&& document.body.dataset.linted === 'current'")


def paste_quickly(page, text: str) -> None:
    """A paste of a large text: set at once, one input event (page.fill takes minutes over a megabyte)."""
    page.evaluate("text => { const e = document.getElementById('editor'); e.value = text; "
                  "e.dispatchEvent(new Event('input', {bubbles: true})); }", text)


def findings(page) -> dict[str, str]:
    return {item.get_attribute("data-code"): item.get_attribute("data-line")
            for item in page.query_selector_all("#findings li.finding")}


def inline(page) -> dict[str, str]:
    """What the editor shows after each line with a finding: line number → symbol, code, message, fix."""
    return {hl.get_attribute("data-line"): hl.query_selector(".lens").inner_text()
            for hl in page.query_selector_all("#backdrop .hl")}


def line_top(page, line: int) -> float:
    """Where line `line` of the textarea is drawn on the screen (its top), from its metrics and scroll."""
    return page.evaluate("""line => {
        const e = document.getElementById('editor'), box = e.getBoundingClientRect(), css = getComputedStyle(e);
        return box.top + parseFloat(css.paddingTop) + (line - 1) * parseFloat(css.lineHeight) - e.scrollTop; }""", line)


def test_pasted_typos_are_shown_in_the_editor_at_their_lines_and_the_type_fix_is_one_key(page):
    paste(page, TYPO)
    found = inline(page)
    assert set(found) == {"6", "9", "11"}
    assert found["9"] == ("✖ S002 type 'str' is not a JSON Schema type; did you mean 'string'? "
                          "— Fix: replace 'str' with 'string'")
    assert found["11"].startswith("✖ S003 required names 'citty', which is not a property; did you mean 'city'?")
    assert found["6"].startswith("▲ C001 ")
    for line in (9, 11):  # highlighted at the textarea's own line, the message after the line's text
        hl = page.locator(f"#backdrop .hl[data-line='{line}']")
        assert abs(hl.bounding_box()["y"] - line_top(page, line)) <= 1
        assert hl.locator(".ghost").inner_text() == TYPO.split("\n")[line - 1]
        ghost, lens = hl.locator(".ghost").bounding_box(), hl.locator(".lens").bounding_box()
        assert lens["x"] >= ghost["x"] + ghost["width"]
    marks = {m.get_attribute("data-line"): m.inner_text() for m in page.query_selector_all("#gutter .mark")}
    assert marks == {"6": "▲", "9": "✖", "11": "✖"}  # a symbol with the colour, never colour alone
    assert findings(page) == {"C001": "6", "S002": "9", "S003": "11"}  # and all of them, listed below
    assert page.inner_text("#format-name").startswith("openai-chat")

    # the keyboard: F8 to the next finding, its message and fix spelled out under the editor, Tab to its button
    page.focus("#editor")
    page.keyboard.press("Control+Home")
    page.keyboard.press("F8")
    assert page.get_attribute("#at-cursor", "data-line") == "6"
    page.keyboard.press("F8")
    at_cursor = page.inner_text("#at-cursor")
    assert page.get_attribute("#at-cursor", "data-line") == "9"
    assert "✖ error" in at_cursor and "did you mean 'string'" in at_cursor
    assert "Fix: replace 'str' with 'string'" in at_cursor
    page.keyboard.press("Tab")  # the rule's documentation, then the fix
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert focused == "Apply fix: replace 'str' with 'string'"
    page.keyboard.press("Enter")
    page.wait_for_selector("#backdrop .hl[data-line='9']", state="detached")
    assert '"type": "string"' in page.input_value("#editor")
    assert "S002" not in findings(page) and "9" not in inline(page)
    assert page.evaluate("document.activeElement.id") == "editor"  # back to the text
    assert "11" in inline(page)  # a guess at the intended name is never applied for you
    page.keyboard.press("Shift+F8")
    assert page.get_attribute("#at-cursor", "data-line") == "6"
    page.click("#gutter .mark[data-line='11']")  # a mark in the margin goes to its line
    assert page.get_attribute("#at-cursor", "data-line") == "11"
    assert "needs your judgement" in page.inner_text("#at-cursor")


def test_the_safe_fixes_of_the_list_and_of_the_cursors_line(page):
    paste(page, TYPO)
    s002 = page.locator("#findings li[data-code=S002]")
    assert "did you mean 'string'" in s002.inner_text() and "✖ error" in s002.inner_text()
    s002.get_by_role("button", name="Apply fix").click()
    page.wait_for_selector("#findings li[data-code=S002]", state="detached")
    page.locator("#findings li[data-code=C001] button.goto").click()
    assert page.get_attribute("#at-cursor", "data-line") == "6"
    page.keyboard.press("Control+.")  # the safe fixes of the cursor's line
    page.wait_for_selector("#findings li[data-code=C001]", state="detached")
    assert '"additionalProperties": false' in page.input_value("#editor")


def test_the_highlights_follow_the_editor_as_it_scrolls(page):
    paste(page, many_tools(50))
    first = page.locator("#backdrop .hl").first
    line = int(first.get_attribute("data-line"))
    page.evaluate("document.getElementById('editor').scrollTop = 300")
    page.wait_for_function("document.getElementById('gutter').scrollTop === 300")
    assert abs(first.bounding_box()["y"] - line_top(page, line)) <= 1
    page.set_viewport_size({"width": 390, "height": 844})  # lines wider than the editor: it scrolls sideways too
    page.evaluate("document.getElementById('editor').scrollLeft = 40")
    page.wait_for_function("getComputedStyle(document.getElementById('backdrop-lines')).transform.includes('-40')")
    assert abs(first.bounding_box()["x"] - page.locator("#editor").bounding_box()["x"] + 40) <= 2


def test_the_openai_strict_export_is_valid(page):
    from openai.types.chat import ChatCompletionFunctionTool

    paste(page, TYPO)
    page.select_option("#export-target", "openai-chat")
    page.check("#export-strict")
    page.wait_for_selector("#export-check[data-valid=true][data-target=openai-chat-strict]")
    assert "Valid for openai-strict" in page.inner_text("#export-check")
    (tool,) = json.loads(page.inner_text("#export-output"))
    ChatCompletionFunctionTool.model_validate(tool)
    parameters = tool["function"]["parameters"]
    assert tool["function"]["strict"] is True and parameters["additionalProperties"] is False
    assert set(parameters["required"]) == set(parameters["properties"])
    assert "citty" in page.inner_text("#export-losses")  # what strict mode could not keep is said


def test_rule_docs_diff_and_the_keyboard(page, tmp_path):
    paste(page, TYPO)
    page.locator("#findings li[data-code=S003] button.code").click()
    page.wait_for_selector("#rule-doc[data-code=S003]")
    assert "What it does" in page.inner_text("#rule-doc")
    page.focus("#tab-rule")
    page.keyboard.press("ArrowLeft")  # tabs move with the arrow keys
    assert page.get_attribute("#tab-diff", "aria-selected") == "true"
    assert page.evaluate("document.activeElement.id") == "tab-diff"
    earlier = tmp_path / "weather-v1.json"
    earlier.write_text(TYPO, encoding="utf-8")
    page.set_input_files("#diff-file", str(earlier))  # an earlier version loaded from a file
    page.wait_for_function("document.querySelector('#diff-summary').textContent.startsWith('No changes')")
    page.click("#diff-snapshot")
    page.focus("#editor")
    page.keyboard.press("Control+End")
    changed = page.input_value("#editor").replace('"required": ["citty"]', '"required": ["city"]')
    page.fill("#editor", changed)
    page.wait_for_function("document.querySelector('#diff-summary').textContent.includes('breaking')")
    assert "required-added" in page.inner_text("#diff-changes") or "breaking" in page.inner_text("#diff-summary")


def test_nothing_overflows_at_390_px(page):
    paste(page, TYPO)
    for width in (390, 1280):
        page.set_viewport_size({"width": width, "height": 844})
        page.wait_for_timeout(50)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, width


def test_an_older_keystrokes_answer_never_replaces_a_newer_ones(page):
    big = many_tools(2000)  # a lint of a second or so: its answer comes back after the next text's

    def is_big(r) -> bool:
        return r.url.endswith("/api/lint") and len(r.request.post_data or "") > 500_000

    with page.expect_response(is_big, timeout=120_000) as slow:
        with page.expect_request(lambda r: r.url.endswith("/api/lint") and len(r.post_data or "") > 500_000):
            paste_quickly(page, big)
        paste(page, TYPO)  # typed while the big one is still being checked
        assert findings(page) == {"C001": "6", "S002": "9", "S003": "11"}
    assert len(slow.value.json()["tools"]) == 2000  # the older answer did arrive, after the newer one
    page.wait_for_timeout(200)
    assert findings(page) == {"C001": "6", "S002": "9", "S003": "11"}
    assert "Checked 1 tool " in page.inner_text("#status")


def test_a_definition_too_large_is_refused_in_the_page_with_what_to_do(page):
    limit = page.evaluate("state.meta.max_text_chars")
    paste_quickly(page, "x" * (limit + 1))
    page.wait_for_selector("body[data-linted=too-large]")
    status = page.inner_text("#status")
    assert f"{limit + 1:,} characters" in status and "toolclause lint FILE" in status


def test_keystroke_to_findings_time_for_a_50_tool_file(page):
    paste(page, many_tools(50))
    assert len(page.query_selector_all("#findings li[data-code=S002]")) == 10
    timings, in_page = [], []
    for _ in range(5):
        revision = int(page.get_attribute("body", "data-lint-revision"))
        page.focus("#editor")
        page.keyboard.press("Control+End")
        started = time.perf_counter()
        page.keyboard.type(" ")
        page.wait_for_function(f"Number(document.body.dataset.lintRevision) > {revision} "
                               f"&& document.body.dataset.linted === 'current'")
        timings.append((time.perf_counter() - started) * 1000)
        in_page.append(int(page.get_attribute("body", "data-keystroke-ms")))
        s002_lines = {item.get_attribute("data-line")
                      for item in page.query_selector_all("#findings li[data-code=S002]")}
        assert len(s002_lines) == 10 and all("S002" in inline(page)[line] for line in s002_lines)
    status = page.inner_text("#status")
    print(f"\nkeystroke → updated findings in the editor, 50 tools: median {sorted(timings)[2]:.0f} ms from the "
          f"test's keystroke, {sorted(in_page)[2]} ms measured in the page from the input event "
          f"(runs: {', '.join(f'{t:.0f}' for t in timings)} / {', '.join(map(str, in_page))} ms; both include "
          f"the page's 120 ms typing pause; page says: {status})")


def test_opened_on_a_folder_it_shows_the_files_and_saves_a_fix_only_when_asked(browser, tmp_path):
    (tmp_path / "tools").mkdir()
    weather = tmp_path / "tools" / "weather.json"
    weather.write_text(TYPO, encoding="utf-8")
    (tmp_path / "tools" / "clock.yaml").write_text(
        "name: get_time\ndescription: The current time in one time zone, as ISO 8601.\ninputSchema:\n"
        "  type: object\n  properties:\n    zone: {type: string, description: 'IANA zone, e.g. Europe/Paris'}\n"
        "  required: [zone]\n  additionalProperties: false\n", encoding="utf-8")
    with running(tmp_path) as url, local_page(browser, url) as page:
        assert sorted(page.locator("#files option").all_inner_texts()) == ["tools/clock.yaml", "tools/weather.json"]
        page.select_option("#files", "tools/weather.json")
        page.wait_for_selector("#backdrop .hl[data-line='9']")
        assert page.inner_text("#save-state") == "saved" and page.is_disabled("#save")
        page.locator("#findings li[data-code=S002]").get_by_role("button", name="Apply fix").click()
        page.wait_for_selector("#findings li[data-code=S002]", state="detached")
        assert weather.read_text(encoding="utf-8") == TYPO  # a fix changes the page, not the file
        assert page.inner_text("#save-state") == "changed, not saved" and "press Save" in page.inner_text("#status")
        page.click("#save")
        page.wait_for_function("document.getElementById('save-state').textContent === 'saved'")
        assert weather.read_text(encoding="utf-8") == page.input_value("#editor")
        assert '"type": "string"' in weather.read_text(encoding="utf-8")


def test_a_dropped_file_and_the_targets_ticked(page):
    yaml = ("name: get_weather\ndescription: Current weather for one city, in Celsius.\ninputSchema:\n"
            "  type: object\n  properties:\n    city: {type: string, description: 'City name, e.g. Paris'}\n")
    revision = int(page.get_attribute("body", "data-lint-revision") or 0)
    page.evaluate("""text => {  // what the browser sends when a file is dropped on the editor
        const data = new DataTransfer();
        data.items.add(new File([text], "weather.yaml", {type: "application/yaml"}));
        document.getElementById('editor-box').dispatchEvent(new DragEvent('drop', {dataTransfer: data, bubbles: true}));
    }""", yaml)
    page.wait_for_function(f"Number(document.body.dataset.lintRevision) > {revision} "
                           f"&& document.body.dataset.linted === 'current'")
    assert page.input_value("#editor") == yaml
    assert page.inner_text("#format-name") == "mcp (yaml)"
    assert "P001" not in findings(page)
    page.check("#target-openai-strict")  # the provider targets, as checkboxes
    page.wait_for_selector("#findings li[data-code=P001]")
    assert findings(page)["P001"] in inline(page)  # and its line is marked in the editor
