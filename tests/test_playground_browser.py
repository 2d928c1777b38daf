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


@pytest.fixture
def page(browser, server):
    """A page on the playground; any request to another host is aborted and fails the test."""
    local = urlsplit(server).netloc
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
    page.goto(server)
    page.wait_for_selector("body[data-ready=true]")
    yield page
    context.close()
    assert foreign == [], f"the page reached for other hosts: {foreign}"
    assert errors == [], errors


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


def test_pasted_typos_are_shown_at_their_lines_and_the_type_fix_is_one_click(page):
    paste(page, TYPO)
    page.wait_for_selector("#findings li[data-code=S003]")
    found = findings(page)
    assert found["S002"] == "9" and found["S003"] == "11"
    assert page.inner_text("#format-name").startswith("openai-chat")
    marks = {m.get_attribute("data-line") for m in page.query_selector_all("#gutter .mark")}
    assert {"9", "11"} <= marks
    s002 = page.locator("#findings li[data-code=S002]")
    assert "did you mean 'string'" in s002.inner_text() and "✖ error" in s002.inner_text()
    s002.get_by_role("button", name="Apply fix").click()
    page.wait_for_selector("#findings li[data-code=S002]", state="detached")
    assert '"type": "string"' in page.input_value("#editor")
    assert "S003" in findings(page)  # a guess at the intended name is never applied with one click


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


def test_rule_docs_diff_and_the_keyboard(page):
    paste(page, TYPO)
    page.locator("#findings li[data-code=S003] button.code").click()
    page.wait_for_selector("#rule-doc[data-code=S003]")
    assert "What it does" in page.inner_text("#rule-doc")
    page.focus("#tab-rule")
    page.keyboard.press("ArrowLeft")  # tabs move with the arrow keys
    assert page.get_attribute("#tab-diff", "aria-selected") == "true"
    assert page.evaluate("document.activeElement.id") == "tab-diff"
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
    timings = []
    for _ in range(5):
        revision = int(page.get_attribute("body", "data-lint-revision"))
        page.focus("#editor")
        page.keyboard.press("Control+End")
        started = time.perf_counter()
        page.keyboard.type(" ")
        page.wait_for_function(f"Number(document.body.dataset.lintRevision) > {revision} "
                               f"&& document.body.dataset.linted === 'current'")
        timings.append((time.perf_counter() - started) * 1000)
    status = page.inner_text("#status")
    print(f"\nkeystroke → updated findings, 50 tools: median {sorted(timings)[2]:.0f} ms "
          f"(runs: {', '.join(f'{t:.0f}' for t in timings)} ms; includes the page's 120 ms typing pause; "
          f"page says: {status})")
