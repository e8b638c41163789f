"""Driving the campaign pages in a real headless Chromium (Debian's /usr/bin/chromium through Playwright).

The browser is the system's, installed by .ci/install-browser; Playwright's own downloads are
never used. Without a browser the tests skip, loudly, with the reason in the summary; with
TRACKER_REQUIRE_BROWSER=1 (CI) that is a failure instead. Screenshots go outside the repository: to
$TRACKER_SCREENSHOTS, else a tracker-screenshots folder in the system's temporary directory.
"""

from __future__ import annotations

import os
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from werkzeug.serving import make_server

CHROMIUM = os.environ.get("TRACKER_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
REQUIRE_BROWSER = os.environ.get("TRACKER_REQUIRE_BROWSER") == "1"
ARTIFACTS = Path(os.environ.get("TRACKER_SCREENSHOTS") or Path(tempfile.gettempdir()) / "tracker-screenshots")
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}


def _unavailable(reason: str):
    message = f"BROWSER TESTS SKIPPED: {reason} (run .ci/install-browser as root to install Debian's chromium)"
    if REQUIRE_BROWSER:
        pytest.fail(f"TRACKER_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="module")
def chromium() -> Iterator[object]:
    """One browser per test module: each module imports this fixture, and Playwright's sync API runs one
    at a time, so the module's browser stops before the next module's starts."""
    if not Path(CHROMIUM).exists():
        _unavailable(f"{CHROMIUM} is missing")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed")
    manager = sync_playwright().start()
    try:
        browser = manager.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    except Exception as error:  # noqa: BLE001 - say why, then skip or fail
        manager.stop()
        _unavailable(f"Chromium did not start: {error}")
    yield browser
    browser.close()
    manager.stop()


@pytest.fixture
def live_server(app) -> Iterator[str]:
    """The application under test served over HTTP on a free port, for the browser."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="pages-live-server", daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)


def screenshot(page, name: str, folder: Path | None = None) -> Path:
    """A full-page screenshot; ``folder``: where (a test's tmp_path), else ARTIFACTS (outside the repository)."""
    folder = folder or ARTIFACTS
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 1000
    return path


def sign_in(page, base: str, token: str) -> None:
    """Paste a token into the sign-in form once, as a person would."""
    page.goto(f"{base}/")
    page.fill("#token", token)
    page.click("button[type=submit]")
    page.wait_for_load_state()


def fits_the_width(page) -> bool:
    """Nothing on the page is wider than the window (no sideways scrolling on a phone)."""
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def smallest_chart_text(page) -> float | None:
    """The smallest text on the page's charts as drawn on screen, in CSS pixels (None: no chart)."""
    sizes = page.evaluate(
        """() => Array.from(document.querySelectorAll('figure.chart svg')).flatMap(svg => {
            const box = svg.viewBox.baseVal;
            const scale = svg.getBoundingClientRect().width / ((box && box.width) || svg.width.baseVal.value);
            return Array.from(svg.querySelectorAll('text')).filter(t => t.textContent.trim())
                .map(t => parseFloat(getComputedStyle(t).fontSize) * scale);
        })"""
    )
    return min(sizes) if sizes else None


def open_to(page, selector: str) -> None:
    """Open every folded section (<details>) around an element, and the element's own, as a person taps them."""
    target = page.locator(selector).first
    folds = target.locator("xpath=ancestor-or-self::details")
    for index in range(folds.count()):  # outermost first, each summary tapped
        fold = folds.nth(index)
        if fold.get_attribute("open") is None:
            fold.locator("xpath=./summary").click()


def visible_text(page) -> str:
    """The text a person sees on the page now (folded sections' insides left out, as the browser renders them)."""
    return page.locator("main").inner_text()
