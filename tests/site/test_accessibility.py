"""Accessibility of the built sites (MkDocs and Zensical) in a real browser: axe-core,
figures, keyboard.

axe-core (the npm package pinned in package.json, installed by `npm ci` and injected
into the page; nothing is downloaded) checks every page of the site, chapters and
notebook pages, in the light and the dark palette; a page passes with no serious or
critical violation. Figures must be numbered <figure>s with a caption and a real text
alternative, and a keyboard alone must reach the search, the palette toggle and a
collapsible answer.
"""
from __future__ import annotations

import json
import queue
import re
from concurrent.futures import ThreadPoolExecutor

import pytest

# The browser and the page loader are the browser tests' own (the import also skips this
# module, with their message, where Debian's chromium is missing); tests/site/conftest.py
# serves the site and launches the browser.
from helpers.browser import (DESKTOP, LAY_OUT_ALL, NEXT_FRAME, Tab, chromium, page_id,
                             sync_api)
from helpers.paths import CHAPTERS, ROOT
from helpers.tools import missing_tool


SCHEMES = {"light": "default", "dark": "slate"}  # prefers-color-scheme -> Material's palette
BLOCKING = ("serious", "critical")
FIGURE_NUMBER = re.compile(r"^Figure (\d+)\.(\d+)\.")
# Figures are numbered by the chapter's place in the nav ("3. Bandits"): CHAPTERS order.
CHAPTER_NUMBER = {path: str(n) for n, path in enumerate(CHAPTERS, start=1)}
# Every wait in a page script is bounded (helpers/browser.py): two animation frames, or
# FRAME_LIMIT_MS if frames stop.
FRAME = NEXT_FRAME
# One screen at a time, two frames each (time for the browser to draw what came into
# view), then back to the top.
SCROLL_THROUGH = f"""async () => {{
  const frame = {FRAME};
  for (let y = 0; y < document.body.scrollHeight; y += window.innerHeight) {{
    window.scrollTo(0, y);
    await frame();
  }}
  window.scrollTo(0, 0);
  await frame();
}}"""
# A page is audited as loaded, the way Lighthouse and a reader who tabs before scrolling
# meet it (blocks far from the viewport not yet laid out), and after a read through, every
# block laid out so that axe can measure the colours of all of them. The palettes differ
# in colour only and the states in layout only: the light palette is audited in both
# states and the dark one after the read through, where every colour it draws is on
# screen. An as-loaded dark audit repeated the light one's layout at 8 s of axe a chapter
# (DESIGN-NOTES.md, "the suite's time"). All three come from one load: as loaded, read
# through, then switched to the dark palette by the page's own toggle, as a reader does
# (Material and Zensical draw the palette from the body's data-md-color-* attributes
# alone, and the toggle sets them; test_the_palette_toggle_draws_what_a_dark_load_draws
# checks it). A load and a read through per palette cost a ninth of the module's CPU
# (296 s, 263 s without them).
STATES = ("as loaded", "scrolled")
AUDITS = {"light": STATES, "dark": ("scrolled",)}
# Switch to the dark palette with the header's toggle: the label of its slate radio.
TO_DARK = """() => {
  const input = document.querySelector(
    'form[data-md-component="palette"] input[data-md-color-scheme="slate"]');
  const label = input && document.querySelector(`label[for="${input.id}"]`);
  if (!label) return false;
  label.click();
  return true;
}"""
SHOWN_SCHEME = "() => document.body.getAttribute('data-md-color-scheme')"


def switch_to_dark(page) -> bool:
    """Click the palette toggle and wait (bounded) until the page shows the dark palette."""
    if not page.evaluate(TO_DARK):
        return False
    try:
        page.wait_for_function(f"() => ({SHOWN_SCHEME})() === '{SCHEMES['dark']}'")
    except sync_api.Error:
        return False
    return True


# axe-core from npm (package.json pins it; Lighthouse runs the same release). 4.14.1 audits
# a chapter in about 0.56 of the time 4.12.1 took, with the same findings (DESIGN-NOTES.md,
# "axe-core from npm, and a third worker").
AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"
if not AXE_JS.is_file():
    missing_tool(f"axe-core is not installed at {AXE_JS}: npm ci (package.json pins it)",
                 module=True)
AXE_SCRIPT = AXE_JS.read_text(encoding="utf-8")
# One axe-core run (2 to 4 s on a chapter). A run that never settles fails, and the audits'
# threads always end.
AXE_LIMIT_MS = 180_000


def axe_violations(page, exclude: str | None = None) -> list[dict]:
    """axe-core's violations on the page (without the elements `exclude` selects), in
    at most AXE_LIMIT_MS."""
    page.evaluate(AXE_SCRIPT)
    context = json.dumps({"exclude": [[exclude]]} if exclude else {"include": [["html"]]})
    return page.evaluate(
        f"""() => Promise.race([axe.run({context}, {{resultTypes: ["violations"]}}),
          new Promise((_, no) => setTimeout(
            () => no(new Error("axe-core took over {AXE_LIMIT_MS} ms")), {AXE_LIMIT_MS}))])
        """)["violations"]


# As loaded, the article's blocks more than two screens down are not drawn (book.css:
# content-visibility) and no reader meets them before scrolling, which draws them: they
# are audited read through. Measured as loaded, they kept placeholder heights and left
# 700 of a chapter's colours undecided, at most of the audit's cost. The last three
# blocks are always drawn (they border the footer) and stay in.
FAR = "data-audit-far"
MARK_FAR = f"""() => {{
  const blocks = [...document.querySelectorAll(".md-typeset > *")].slice(0, -3);
  const far = blocks.filter(b => b.getBoundingClientRect().top > 2 * innerHeight);
  far.forEach(b => b.setAttribute("{FAR}", ""));
  return far.length;
}}"""
UNMARK_FAR = f"""() => document.querySelectorAll("[{FAR}]").forEach(b => b.removeAttribute("{FAR}"))"""


def _blocking(found: list[dict]) -> list[str]:
    lines = []
    for v in found:
        if v["impact"] not in BLOCKING:
            continue
        nodes = v["nodes"]
        first = nodes[0]
        why = (first["any"] or first["all"] or first["none"] or [{"message": ""}])[0]["message"]
        lines.append(f"{v['id']} ({v['impact']}) x{len(nodes)}: {v['help']}; first at "
                     f"{first['target']}: {why}")
    return lines


def _audit_page(tab: Tab, path: str, states: dict[str, tuple[str, ...]]
                ) -> dict[tuple[str, str], list[str]]:
    """{(scheme, state): violations} for one page, loaded once in the light palette: as
    loaded first, then read through, then switched to the dark palette."""
    problems = tab.open(path)
    if problems:
        return {(scheme, state): [f"did not load cleanly: {p}" for p in problems]
                for scheme, wanted in states.items() for state in wanted}
    found = {}
    if "as loaded" in states["light"]:
        tab.page.evaluate(FRAME)
        tab.page.evaluate(MARK_FAR)
        found["light", "as loaded"] = _blocking(axe_violations(tab.page, exclude=f"[{FAR}]"))
        tab.page.evaluate(UNMARK_FAR)
    # Read the page as a reader does, top to bottom: blocks off screen are skipped
    # (book.css: content-visibility) and drawn as they come near the viewport. Then
    # lay out every block at once, so that axe can measure the colours of all.
    tab.page.evaluate(SCROLL_THROUGH)
    tab.page.add_style_tag(content=LAY_OUT_ALL)
    tab.page.evaluate(FRAME)
    for scheme in (s for s in SCHEMES if "scrolled" in states[s]):  # light, then dark
        if scheme == "dark" and not switch_to_dark(tab.page):
            found[scheme, "scrolled"] = ["the palette toggle did not switch to the dark palette"]
            continue
        tab.page.evaluate(FRAME)
        lines = _blocking(axe_violations(tab.page))
        shown = tab.page.evaluate(SHOWN_SCHEME)
        if shown != SCHEMES[scheme]:  # the palette under test must be the one shown
            lines.append(f"expected the {SCHEMES[scheme]!r} palette, the page shows {shown!r}")
        found[scheme, "scrolled"] = lines
    # The toggle stored the reader's choice (Material keeps it for the next pages): the
    # next page must open in the light palette again.
    tab.page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    return found


def _audit_jobs(base_url: str, jobs: queue.SimpleQueue) -> dict:
    """Audit pages until none is left, in a browser of this thread's own (Playwright's
    sync API wants one instance per thread): {(scheme, state, path): [violations]}."""
    report = {}
    with chromium() as browser:
        # A reader whose system asks for the light scheme: Material follows the media
        # query when the page loads.
        tab = Tab(browser, base_url, viewport=DESKTOP)
        tab.page.emulate_media(color_scheme="light")
        try:
            while True:
                try:
                    path = jobs.get_nowait()
                except queue.Empty:
                    break
                # A notebook page is audited read through only: readers reach it from its
                # chapter, which is audited both ways.
                states = ({scheme: ("scrolled",) for scheme in SCHEMES}
                          if path.startswith("notebooks/") else AUDITS)
                for (scheme, state), lines in _audit_page(tab, path, states).items():
                    report[scheme, state, path] = lines
        finally:
            tab.close()
    return report


@pytest.fixture(scope="module")
def axe_report(base_url, site_pages):
    """{(scheme, state, path): [violations]} for every page, in the AUDITS it gets.

    axe takes 2 to 5 s on a page (10-20k elements), all of it in one renderer's main
    thread: two threads, each with its own browser, take the pages from one queue (the
    notebook pages, the longest, first), so both cores work until the last page."""
    jobs = queue.SimpleQueue()
    for path in sorted(site_pages, key=lambda p: not p.startswith("notebooks/")):
        jobs.put(path)
    with ThreadPoolExecutor(max_workers=2) as pool:
        parts = list(pool.map(lambda _: _audit_jobs(base_url, jobs), range(2)))
    return {key: lines for part in parts for key, lines in part.items()}


def test_the_audit_runs_the_pinned_axe_and_finds_what_is_planted(browser):
    # What every audit below rests on: the injected script is the release package.json
    # pins, and a faint paragraph and an image with no text alternative come back as
    # serious or critical violations, the only kind that fails a page.
    pinned = json.loads((ROOT / "package.json").read_text())
    page = browser.new_page()
    try:
        page.set_content('<html lang="en"><head><title>planted</title></head><body><main>'
                         '<h1>Planted</h1><p style="color: #bbb; background: #fff">faint</p>'
                         '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">'
                         '</main></body></html>')
        blocking = {v["id"] for v in axe_violations(page) if v["impact"] in BLOCKING}
        assert page.evaluate("() => axe.version") == pinned["dependencies"]["axe-core"]
    finally:
        page.close()
    assert blocking == {"color-contrast", "image-alt"}


@pytest.mark.parametrize("scheme,state", [(scheme, state) for scheme, states in AUDITS.items()
                                          for state in states])
def test_no_serious_or_critical_axe_violations(axe_report, site, site_pages, scheme, state):
    # Every chapter, and every notebook page the generator made (MkDocs does; Zensical
    # publishes the .ipynb files only), is audited scrolled through; the home page and
    # the chapters also as loaded, in the light palette (AUDITS).
    notebooks = {p.parent.relative_to(site).as_posix()
                 for p in site.glob("notebooks/*/index.html")}
    assert set(CHAPTERS) | notebooks <= set(site_pages), "pages missing from the audit"
    bad = {page_id(p): lines for (s, st, p), lines in axe_report.items()
           if s == scheme and st == state and lines}
    assert not bad, f"axe-core, {scheme} palette, {state}:\n" + "\n".join(
        f"  {p}:\n" + "\n".join(f"    - {x}" for x in lines) for p, lines in bad.items())


# Every element's colours as drawn, in document order (after every block is laid out).
COLOURS = """() => [...document.querySelectorAll("body *")].map(el => {
  const s = getComputedStyle(el);
  return [s.color, s.backgroundColor, s.borderTopColor, s.outlineColor, s.fill].join(" ");
})"""


def test_the_palette_toggle_draws_what_a_dark_load_draws(browser, base_url, site_pages):
    """The dark audit switches palettes on a light load (_audit_page): every element of a
    chapter, and of its notebook page where the generator makes one, must then have the
    colours a load in the dark palette gives it."""
    paths = [p for p in ("ppo", "notebooks/ppo") if p in site_pages]
    assert paths[0] == "ppo", "ppo is not in the site"
    for path in paths:
        drawn = {}
        for scheme in SCHEMES:
            tab = Tab(browser, base_url, viewport=DESKTOP)
            tab.page.emulate_media(color_scheme=scheme)
            try:
                assert not tab.open(path), tab.problems
                tab.page.add_style_tag(content=LAY_OUT_ALL)
                if scheme == "light":
                    assert switch_to_dark(tab.page), f"{path}: the toggle did not switch"
                tab.page.evaluate(FRAME)
                assert tab.page.evaluate(SHOWN_SCHEME) == SCHEMES["dark"], path
                drawn[scheme] = tab.page.evaluate(COLOURS)
            finally:
                tab.close()
        toggled, loaded = drawn["light"], drawn["dark"]
        assert len(toggled) == len(loaded) > 1000, path
        differ = [n for n, (a, b) in enumerate(zip(toggled, loaded)) if a != b]
        assert not differ, (f"{path}: {len(differ)} elements differ, first #{differ[0]}: "
                            f"{toggled[differ[0]]!r} toggled, {loaded[differ[0]]!r} loaded dark")


# -- figures ----------------------------------------------------------------------------------
# Each image but a stacked panel's copy of its figure (render/zoom.py): the panels are
# read as one image, labelled with the figure's alt text.
FIGURES = r"""
() => [...document.querySelectorAll("article img")].filter(img => !img.closest(".bookrun-panels"))
  .map(img => {
  const figure = img.closest("figure");
  const caption = figure && figure.querySelector(":scope > figcaption");
  const panels = img.parentElement.querySelector(".bookrun-panels");
  return {src: img.getAttribute("src"), alt: img.getAttribute("alt"),
          id: figure ? figure.id : null,
          caption: caption ? caption.textContent.trim().replace(/\s+/g, " ") : null,
          panels: panels && {label: panels.getAttribute("aria-label"), role: panels.getAttribute("role"),
                             silent: [...panels.querySelectorAll("img")].every(i => i.alt === "")}};
})
"""


@pytest.fixture(scope="module")
def figures(browser, base_url):
    tab = Tab(browser, base_url, viewport=DESKTOP)
    found = {}
    for path in CHAPTERS:
        tab.open(path)
        found[path] = tab.page.evaluate(FIGURES)
    tab.close()
    return found


@pytest.mark.parametrize("path", CHAPTERS)
def test_every_figure_has_a_numbered_caption_and_a_text_alternative(figures, path):
    shown = [f for f in figures[path] if "figures/" in f["src"]]
    numbers = []
    for f in shown:
        assert f["caption"], f"{f['src']} is not in a <figure> with a <figcaption>"
        m = FIGURE_NUMBER.match(f["caption"])
        assert m, f"caption of {f['src']} does not start with 'Figure N.M.': {f['caption']!r}"
        assert m.group(1) == CHAPTER_NUMBER[path], (
            f"{f['caption'][:12]!r} on chapter {CHAPTER_NUMBER[path]}")
        assert f["id"] == f"figure-{m.group(1)}-{m.group(2)}", f"anchor {f['id']!r}"
        numbers.append(int(m.group(2)))
        alt = f["alt"] or ""
        assert len(alt.split()) >= 8 and alt not in f["caption"], (
            f"{f['src']}: the alt text must say what the figure shows: {alt!r}")
        if f["panels"]:  # stacked on a phone: one image, with the same text alternative
            assert f["panels"] == {"label": alt, "role": "img", "silent": True}, f["src"]
    assert numbers == list(range(1, len(shown) + 1)), f"figures numbered {numbers}"
    # every image in a chapter is one of these figures: none is left without a caption
    assert len(shown) == len(figures[path]), [f["src"] for f in figures[path]]


def test_the_book_has_figures(figures):
    assert sum(len(v) for v in figures.values()) >= 20, {k: len(v) for k, v in figures.items()}


# -- keyboard ---------------------------------------------------------------------------------
ACTIVE = r"""
() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el);
  const next = el.nextElementSibling;  // Material's palette radio is drawn by its label
  const ring = s => s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0;
  const box = el.getBoundingClientRect();
  return {
    tag: el.tagName.toLowerCase(),
    // Material's search is a field in the header; Zensical's, a button opening a dialog.
    kind: el.matches("input.md-search__input, button.md-search__button") ? "search"
        : el.matches('form[data-md-component="palette"] input') ? "palette"
        : el.matches("details > summary") ? "answer"
        : el.matches("a.md-skip") ? "skip" : "other",
    text: (el.textContent || el.getAttribute("aria-label") || "").trim().slice(0, 40),
    ring: ring(style) || (next && next.tagName === "LABEL" && ring(getComputedStyle(next))),
    onScreen: box.bottom > 0 && box.top < innerHeight && box.width > 0 && box.height > 0,
  };
}
"""
# After ArrowDown in the search: Material moves focus into its result list; Zensical's
# combobox keeps focus in its field and points at the chosen option
# (aria-activedescendant), as the ARIA combobox pattern has it.
RESULT_CHOSEN = """() => {
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  if (!el) return false;
  if (el.closest(".md-search-result")) return true;
  const chosen = el.getAttribute("aria-activedescendant");
  const option = chosen && el.getRootNode().getElementById(chosen);
  return Boolean(option && option.getAttribute("role") === "option");
}"""
MAX_TABS = 1500  # a chapter has many code blocks, each with a copy button, before its answers


def test_keyboard_reaches_skip_link_search_palette_and_answers(browser, base_url, site_pages):
    tab = Tab(browser, base_url, viewport=DESKTOP)
    try:
        path = CHAPTERS[0]
        assert path in site_pages, f"{path} is not in the site"
        assert not tab.open(path), tab.problems
        page = tab.page
        first_answer = page.locator("details:not([open]) > summary").first
        assert first_answer.count(), f"{path} has no collapsible answer to reach"
        page.keyboard.press("Tab")
        skip = page.evaluate(ACTIVE)
        assert skip and skip["kind"] == "skip", f"the first Tab stop is not the skip link: {skip}"
        assert skip["onScreen"] and skip["ring"], f"the skip link is not shown when focused: {skip}"
        reached, unringed = {}, []
        for _ in range(MAX_TABS):
            page.keyboard.press("Tab")
            now = page.evaluate(ACTIVE)
            if now is None:
                continue
            if not now["ring"]:
                unringed.append(now)
            reached.setdefault(now["kind"], now)
            if now["kind"] == "answer":
                break
        missing = {"search", "palette", "answer"} - reached.keys()
        assert not missing, f"Tab never reached {sorted(missing)} on {path}"
        assert not unringed, f"focused without a visible focus ring: {unringed[:5]}"
        # Enter opens the answer that has focus
        opened = "() => document.activeElement.parentElement.open"
        assert not page.evaluate(opened)
        page.keyboard.press("Enter")
        page.wait_for_function(opened)
    finally:
        tab.close()


def tab_to(page, kind: str, what: str, presses: int = 40) -> None:
    """Press Tab until the focus is on an element of ACTIVE's `kind`; fail naming `what`
    if `presses` do not reach it."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if (page.evaluate(ACTIVE) or {}).get("kind") == kind:
            return
    pytest.fail(f"Tab never reached {what}")


def test_keyboard_switches_the_palette_and_searches(browser, base_url):
    tab = Tab(browser, base_url, viewport=DESKTOP)
    try:
        assert not tab.open(CHAPTERS[0]), tab.problems
        page = tab.page
        scheme = "() => document.body.getAttribute('data-md-color-scheme')"
        assert page.evaluate(scheme) == "default"
        tab_to(page, "palette", "the palette toggle")
        page.keyboard.press("Space")  # a radio in a group: Space selects, arrows move
        if page.evaluate(scheme) == "default":
            page.keyboard.press("ArrowRight")
        page.wait_for_function(f"() => ({scheme})() === 'slate'")
        tab_to(page, "search", "the search box")
        if page.evaluate(ACTIVE)["tag"] == "button":
            page.keyboard.press("Enter")  # Zensical: the button opens the search dialog
        page.keyboard.type("regret")
        # Material lists results in the page; Zensical in its dialog's shadow root,
        # which Playwright's selectors reach.
        page.wait_for_selector(".md-search-result__item a, [role=option]")
        name = page.evaluate("() => document.querySelector('.md-search[role=dialog]')"
                             ".getAttribute('aria-label')")
        assert name, "the search dialog has no accessible name"
        page.keyboard.press("ArrowDown")
        assert page.evaluate(RESULT_CHOSEN), "the arrow keys do not reach the search results"
        assert not tab.problems, tab.problems
    finally:
        tab.close()
