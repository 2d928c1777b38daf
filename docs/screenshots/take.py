"""Take the screenshots in this folder: the playground and an HTML lint report, 1280 and 390 px wide.

    .venv/bin/python docs/screenshots/take.py      # needs Chromium (apt-get install chromium) and playwright
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from toolclause.web.server import running

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
WIDTHS = {"wide": (1280, 900), "narrow": (390, 844)}


def lint_report(folder: Path) -> Path:
    report = folder / "report.html"
    subprocess.run([sys.executable, "-m", "toolclause.cli.main", "lint", str(ROOT / "examples"), "--format", "html",
                    "-o", str(report), "--fail-on", "never"], check=True, cwd=ROOT)
    return report


def main() -> None:
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with tempfile.TemporaryDirectory() as temp, running() as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium)
        report = lint_report(Path(temp)) if "--no-report" not in sys.argv else None
        for label, (width, height) in WIDTHS.items():
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(url)
            page.wait_for_selector("body[data-ready=true]")
            page.click("#load-example")
            page.wait_for_selector("#findings li[data-code=S003]")
            page.check("#export-strict")
            page.wait_for_selector("#export-check[data-valid=true]")
            page.focus("#editor")
            page.keyboard.press("Control+Home")
            for _ in range(2):  # F8 twice: the cursor on line 9, its finding spelled out under the editor
                page.keyboard.press("F8")
            page.wait_for_selector("#at-cursor[data-line='9']")
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=HERE / f"playground-{label}.png", full_page=label == "wide")
            if report is not None:
                page.goto(report.as_uri())
                page.screenshot(path=HERE / f"report-{label}.png")
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
