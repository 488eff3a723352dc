"""Debian's chromium through Playwright, for the site's tests: the launch, the viewports,
bounded waits, and a tab that records every problem a page load causes.

Importing this module skips the importing test module, with the install command, where
chromium or Playwright is missing (tests/site/conftest.py's `browser` imports it when
first used, so that a module needing no browser collects without one)."""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(f"browser tests need {CHROMIUM}: install Debian's chromium: "
                "apt-get install chromium", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="pip install -r requirements.txt")

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
TIMEOUT_MS = 20_000  # per wait, on a slow CI machine
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
# Playwright's evaluate has no time limit of its own: every wait in a page script is
# bounded, so a frame that never comes (a hidden or stalled page) fails a test instead of
# hanging the suite. NEXT_FRAME is two animation frames, or FRAME_LIMIT_MS if frames stop.
FRAME_LIMIT_MS = 2000
NEXT_FRAME = (f"() => Promise.race([new Promise(r => requestAnimationFrame(() => "
              f"requestAnimationFrame(r))), new Promise(r => setTimeout(r, {FRAME_LIMIT_MS}))])")
# Blocks far from the viewport skip layout until the reader scrolls near them
# (book.css: content-visibility: auto) and measure 0 x 0 until then. Lay the whole
# page out before measuring, as a reader scrolling through it would see it.
LAY_OUT_ALL = ".md-typeset > * { content-visibility: visible !important; }"


def page_id(path: str) -> str:
    return path or "home"


def url_of(path: str) -> str:
    """A page's URL relative to the site root (MkDocs' directory URLs)."""
    return path + "/" if path else ""


@contextmanager
def chromium():
    """Debian's chromium, with a Playwright of this thread's own (the sync API wants one
    instance per thread)."""
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield b
        finally:
            b.close()


class Tab:
    """One browser context and page; records every problem a load causes."""

    def __init__(self, browser, base_url, **context_options):
        self.base = base_url
        self.problems: list[str] = []
        self.context = browser.new_context(color_scheme="light", **context_options)
        self.requests: list[str] = []
        self.scripts: dict[str, int] = {}  # URL -> bytes, for scripts loaded by the page
        # Requests made since the last open(): a font the previous page asked for late
        # (text laid out after its fonts were ready) is aborted by the next navigation,
        # which says nothing about the page being opened.
        self.mine: set = set()
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.set_default_timeout(TIMEOUT_MS)
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda exc: self.problems.append(f"uncaught error: {exc}"))
        self.page.on("requestfailed", self._failed)
        self.page.on("response", self._response)

    def _route(self, route):
        url = route.request.url
        self.requests.append(url)
        self.mine.add(route.request)
        if url.startswith(self.base):
            route.continue_()
        else:
            self.problems.append(f"request to another host (pages must render offline): {url}")
            route.abort()

    def _console(self, msg):
        if msg.type == "error":
            where = msg.location.get("url", "") if msg.location else ""
            self.problems.append(f"console error: {msg.text} {where}".rstrip())

    def _failed(self, request):
        # Chromium asks for the favicon on its own (resource type "other") after the
        # load; the next navigation may abort it. No page needed it: not a problem.
        if request.resource_type == "other" and request.failure == "net::ERR_ABORTED":
            return
        if request.url.startswith(self.base) and request in self.mine:
            self.problems.append(f"request failed: {request.url} ({request.failure})")

    def _response(self, response):
        if response.status >= 400:
            self.problems.append(f"HTTP {response.status}: {response.url}")
        elif response.request.resource_type == "script":
            self.scripts[response.url] = int(response.header_value("content-length") or 0)

    def open(self, path: str) -> list[str]:
        """Load a page and wait until math, diagrams and images are done; return problems."""
        self.problems, self.requests, self.scripts, self.mine = [], [], {}, set()
        try:
            self.page.goto(self.base + url_of(path), wait_until="load")
        except sync_api.Error as exc:
            self.problems.append(f"page did not load: {str(exc).splitlines()[0]}")
            return self.problems
        self.settle()
        return self.problems

    def settle(self):
        page = self.page
        try:
            # Nothing typesets any more; wait for the math fonts and the figures.
            # Bounded: Playwright's evaluate would wait for ever on a promise that never
            # settles.
            page.evaluate(f"() => Promise.race([document.fonts.ready.then(() => true), "
                          f"new Promise((_, no) => setTimeout(() => no('fonts'), {TIMEOUT_MS}))])")
            page.wait_for_function("() => [...document.images].every(i => i.complete)")
        except sync_api.Error:
            self.problems.append("fonts or images still loading")

    def close(self):
        self.context.close()
