"""Interactive figures on a built fixture site, in a real browser (Debian's chromium):
controls by mouse and keyboard, the live text, play, no script, lazy loading, axe, the
frame shown enlarged in the lightbox.
Also the same page built by Zensical."""
from __future__ import annotations

import re
import shutil

import pytest

# Skips this module where Debian's chromium or Playwright is missing.
from helpers.browser import DESKTOP, NEXT_FRAME, TIMEOUT_MS, Tab
from helpers.builds import build_frozen, zensical_build
from helpers.demo_book import make_project
from helpers.site_server import serve, stop

from bookrun.store.book import Book
from bookrun.hosts.prepare import prepare


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return make_project(tmp_path_factory.mktemp("interactive"))


@pytest.fixture(scope="module")
def demo_site(project):
    return build_frozen(project, project / "mk")


@pytest.fixture(scope="module")
def base_url(demo_site):
    server, url = serve(demo_site, gzip=False)
    yield url
    stop(server)


@pytest.fixture
def tab(browser, base_url):
    t = Tab(browser, base_url, viewport=DESKTOP)
    yield t
    t.close()


FIGURE = "#figure-1-1 img"
TEXT = ".bookrun-frame-text"


def frames_requested(tab) -> list[str]:
    return [u for u in tab.requests if u.endswith(".frames.json")]


def state(tab) -> dict:
    return tab.page.evaluate("""() => ({src: document.querySelector("#figure-1-1 img").src,
        text: document.querySelector(".bookrun-frame-text").textContent,
        width: document.querySelector("#figure-1-1 img").naturalWidth})""")


def wait_for_text(tab, text: str) -> None:
    tab.page.wait_for_function("t => document.querySelector('.bookrun-frame-text')"
                               ".textContent === t", arg=text, timeout=TIMEOUT_MS)
    tab.page.wait_for_function("() => document.querySelector('#figure-1-1 img').complete",
                               timeout=TIMEOUT_MS)


def test_nothing_is_fetched_before_the_figure_comes_near(tab):
    assert tab.open("demo") == []
    assert any(u.endswith("/assets/bookrun/frames.js") for u in tab.requests)
    assert frames_requested(tab) == []
    tab.page.evaluate(NEXT_FRAME, None)
    assert frames_requested(tab) == []  # the figure is many screens down
    tab.page.locator(FIGURE).scroll_into_view_if_needed(timeout=TIMEOUT_MS)
    tab.page.wait_for_function("() => performance.getEntriesByType('resource').some("
                               "e => e.name.endsWith('.frames.json'))", timeout=TIMEOUT_MS)
    assert len(frames_requested(tab)) == 1


def test_a_page_without_interactive_figures_loads_no_new_script(tab):
    assert tab.open("plain") == []
    assert not any("frames" in u for u in tab.requests)


def test_each_control_changes_the_frame_by_mouse(tab):
    assert tab.open("demo") == []
    page = tab.page
    first = state(tab)
    assert first["text"] == "curve a: frequency 1.0, amplitude 1"
    # the slider: a click at its right end picks its last value
    slider = page.locator("#figure-1-1-freq")
    slider.scroll_into_view_if_needed(timeout=TIMEOUT_MS)
    box = slider.bounding_box(timeout=TIMEOUT_MS)
    page.mouse.click(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)
    wait_for_text(tab, "curve a: frequency 2.0, amplitude 1")
    assert page.locator("output[for=figure-1-1-freq]").text_content(timeout=TIMEOUT_MS) == "2.0"
    after = state(tab)
    assert after["src"].startswith("blob:") and after["width"] > 0
    # the radio buttons, by their visible label
    page.get_by_label("2", exact=True).click(timeout=TIMEOUT_MS)
    wait_for_text(tab, "curve a: frequency 2.0, amplitude 2")
    # the select
    page.select_option("#figure-1-1-name", label="d", timeout=TIMEOUT_MS)
    wait_for_text(tab, "curve d: frequency 2.0, amplitude 2")
    # and back to the default values shows the default figure itself
    page.get_by_label("1", exact=True).click(timeout=TIMEOUT_MS)
    page.select_option("#figure-1-1-name", label="a", timeout=TIMEOUT_MS)
    page.locator("#figure-1-1-freq").fill("0", timeout=TIMEOUT_MS)
    wait_for_text(tab, "curve a: frequency 1.0, amplitude 1")
    assert state(tab)["src"] == first["src"]
    assert tab.problems == []


def test_each_control_changes_the_frame_by_keyboard(tab):
    assert tab.open("demo") == []
    page = tab.page
    page.locator("#figure-1-1-freq").focus(timeout=TIMEOUT_MS)
    page.keyboard.press("ArrowRight")
    wait_for_text(tab, "curve a: frequency 1.5, amplitude 1")
    assert page.get_attribute("#figure-1-1-freq", "aria-valuetext", timeout=TIMEOUT_MS) == "1.5"
    page.keyboard.press("Tab")  # past the play button, to the radio group
    page.keyboard.press("Tab")
    page.keyboard.press("ArrowRight")
    wait_for_text(tab, "curve a: frequency 1.5, amplitude 2")
    page.keyboard.press("Tab")
    page.keyboard.press("ArrowDown")
    wait_for_text(tab, "curve b: frequency 1.5, amplitude 2")
    assert state(tab)["width"] > 0 and tab.problems == []


ENLARGED = """() => {
  const img = document.querySelector(".glightbox-container .gslide.current img");
  const text = document.querySelector(".glightbox-container .gslide.current .gslide-desc");
  return img && img.complete && {src: img.src, width: img.getBoundingClientRect().width,
                                 text: text ? text.textContent : null};
}"""


def enlarge(tab) -> dict:
    """Enter on the figure's link; what the lightbox shows once it has opened."""
    tab.page.locator("#figure-1-1 a.bookrun-zoom").focus(timeout=TIMEOUT_MS)
    tab.page.keyboard.press("Enter")
    tab.page.wait_for_function(ENLARGED, timeout=TIMEOUT_MS)
    tab.page.wait_for_timeout(600)  # the opening fades in
    return tab.page.evaluate(ENLARGED)


def test_the_lightbox_enlarges_the_frame_shown_with_its_text(tab):
    """The controls stay on the page; the enlarged figure is the frame they show, with its
    text under it, after any number of changes (frames.js keeps the link current)."""
    assert tab.open("demo") == []
    page = tab.page
    page.locator("#figure-1-1-freq").focus(timeout=TIMEOUT_MS)
    page.keyboard.press("ArrowRight")
    wait_for_text(tab, "curve a: frequency 1.5, amplitude 1")
    inline = page.locator(FIGURE).bounding_box(timeout=TIMEOUT_MS)["width"]
    shown = enlarge(tab)
    assert shown == {"src": state(tab)["src"], "width": shown["width"],
                     "text": "curve a: frequency 1.5, amplitude 1"}
    assert shown["src"].startswith("blob:") and shown["width"] > 1.3 * inline
    page.keyboard.press("Escape")
    page.wait_for_selector(".glightbox-container", state="detached", timeout=TIMEOUT_MS)
    page.locator("#figure-1-1-freq").focus(timeout=TIMEOUT_MS)
    page.keyboard.press("ArrowRight")
    wait_for_text(tab, "curve a: frequency 2.0, amplitude 1")
    again = enlarge(tab)
    assert (again["src"], again["text"]) == (state(tab)["src"],
                                             "curve a: frequency 2.0, amplitude 1")
    assert tab.problems == []


def test_play_steps_the_time_control_and_pause_stops_it(tab):
    assert tab.open("demo") == []
    page = tab.page
    button = page.locator(".bookrun-play")
    button.click(timeout=TIMEOUT_MS)
    assert button.text_content(timeout=TIMEOUT_MS) == "Pause"
    wait_for_text(tab, "curve a: frequency 1.5, amplitude 1")
    wait_for_text(tab, "curve a: frequency 2.0, amplitude 1")
    button.click(timeout=TIMEOUT_MS)
    assert button.text_content(timeout=TIMEOUT_MS) == "Play"
    held = state(tab)["text"]
    page.wait_for_timeout(1200)  # over two play steps: nothing moves
    assert state(tab)["text"] == held


def test_without_script_the_default_figure_shows(browser, base_url):
    tab = Tab(browser, base_url, java_script_enabled=False)
    try:
        assert tab.open("demo") == []
        img = tab.page.locator(FIGURE)
        img.scroll_into_view_if_needed(timeout=TIMEOUT_MS)
        assert img.evaluate("i => i.naturalWidth", timeout=TIMEOUT_MS) > 0
        assert not tab.page.locator(".bookrun-frames").is_visible()
        assert frames_requested(tab) == []
    finally:
        tab.close()


def test_axe_passes_with_the_controls(tab):
    axe_violations = pytest.importorskip("test_accessibility").axe_violations
    for scheme in ("light", "dark"):
        tab.page.emulate_media(color_scheme=scheme)
        assert tab.open("demo") == []
        tab.page.locator(FIGURE).scroll_into_view_if_needed(timeout=TIMEOUT_MS)
        tab.page.locator("#figure-1-1-freq").focus(timeout=TIMEOUT_MS)
        tab.page.keyboard.press("ArrowRight")
        wait_for_text(tab, "curve a: frequency 1.5, amplitude 1")
        # Scrolling shows Material's "back to top" button with a fade: axe would judge
        # its colours halfway (flaky in dark), so let every transition end first.
        tab.page.wait_for_function(
            "() => document.getAnimations().every(a => a.playState !== 'running')",
            timeout=TIMEOUT_MS)
        found = axe_violations(tab.page)
        bad = [f"{v['id']}: {v['help']} at {v['nodes'][0]['target']}" for v in found
               if v["impact"] in ("serious", "critical")]
        assert bad == [], scheme


def test_zensical_renders_the_same_controls(project, tmp_path):
    copy = tmp_path / "z"
    shutil.copytree(project, copy, ignore=shutil.ignore_patterns("mk", "site", ".cache"))
    prepare(Book(root=copy, frozen=True))
    assert (copy / "docs" / "figures" / "demo" / "wave-1.frames.json").is_file()
    built = zensical_build(copy)
    assert built.returncode == 0, built.stderr
    html = (copy / "site" / "demo" / "index.html").read_text()
    assert 'data-frames="wave-1.frames.json"' in html and 'type="range"' in html
    src = re.search(r'<script defer src="([^"]+frames\.js)"', html).group(1)
    assert (copy / "site" / "demo" / src).resolve().is_file()
    assert (copy / "site" / "figures" / "demo" / "wave-1.frames.json").is_file()
    plain = (copy / "site" / "plain" / "index.html").read_text()
    assert "frames.js" not in plain
