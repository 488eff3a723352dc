"""The built site in a real browser (Debian's chromium), with no network.

Every page is served from the strict build by a local HTTP server; any request to
another host is blocked and counted as a failure, so a page passes only if it
renders completely offline. One browser for the module; each page loads once, is
measured on a desktop and on a phone-sized viewport, and the checks below read what
that load recorded.
"""
from __future__ import annotations

import json
import re
import statistics
import time
from urllib.parse import urlparse

import pytest

# Skips this module where Debian's chromium or Playwright is missing.
from helpers.browser import (DESKTOP, LAY_OUT_ALL, NEXT_FRAME, PHONE, TIMEOUT_MS, Tab, page_id,
                             url_of)
from helpers.paths import CHAPTERS

# Material 9.8 draws the copy button as button.md-code__button; older ones as .md-clipboard.
COPY_BUTTON = '.md-clipboard, button.md-code__button[data-md-type="copy"]'
# Math and diagrams are drawn when the site is built: no page may fetch a script for them.
CLIENT_SIDE_DRAWING = re.compile(r"mathjax|tex-(?:svg|chtml|mml)|mermaid|katex[^/]*\.js", re.I)
SCRIPT_BUDGET = 250_000  # bytes of script a chapter loads before the reader scrolls
PAGES = ["", *CHAPTERS]  # "" is the home page


# -- what one load of each page shows ---------------------------------------------------------
INSPECT = r"""
(copyButton) => {
  const article = document.querySelector("article") || document.body;
  const shown = el => !el.closest("details:not([open])");
  const h1 = article.querySelector("h1");
  const buttons = h1 ? [...(h1.nextElementSibling || h1).querySelectorAll("a.md-button")] : [];
  const diagrams = [...document.querySelectorAll("div.bookrun-diagram")].map(d => {
    const svg = d.querySelector(":scope > svg");
    const box = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
    return {svg: !!svg, error: svg ? /syntax error/i.test(svg.textContent) : false,
            width: box.width, height: box.height, shown: shown(d),
            described: svg ? (svg.querySelector("desc") || {}).textContent || "" : ""};
  });
  const codes = [...article.querySelectorAll(".highlight pre > code")];
  return {
    title: h1 ? h1.textContent.replace("¶", "").trim() : "",
    headings: [...article.querySelectorAll("h1, h2")].map(h => h.textContent.replace("¶", "")),
    arithmatex: document.querySelectorAll(".arithmatex").length,
    katex: document.querySelectorAll(".arithmatex > .katex, .arithmatex > .katex-display").length,
    mathml: document.querySelectorAll(".arithmatex .katex-mathml math").length,
    raw: [...document.querySelectorAll(".arithmatex")]
      .filter(e => !e.querySelector(".katex") || /\\\(|\\\[|\$\$/.test(
        [...e.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join("")))
      .map(e => e.textContent.slice(0, 80)),
    mathErrors: [...document.querySelectorAll(".katex-error")].map(e => e.textContent.slice(0, 80)),
    // KaTeX sizes math in em of the surrounding text: a formula drawn much smaller
    // than its neighbours means a style squeezed it.
    scale: [...document.querySelectorAll(".arithmatex .katex")].filter(shown).map(k => [
      parseFloat(getComputedStyle(k).fontSize) / parseFloat(getComputedStyle(k.closest(".arithmatex").parentElement).fontSize),
      k.querySelector("annotation").textContent.slice(0, 60)]),
    diagrams,
    mermaidLeft: document.querySelectorAll("pre.mermaid, div.mermaid, code.language-mermaid").length,
    images: [...article.querySelectorAll("img")].map(i => ({src: i.getAttribute("src"),
      width: i.naturalWidth})),
    codeBlocks: codes.length,
    withoutCopy: codes.filter(c => !c.closest("pre").querySelector(copyButton))
      .map(c => c.textContent.slice(0, 60)),
    buttons: buttons.map(a => ({text: a.textContent.trim(), href: a.getAttribute("href"),
      url: a.href, download: a.hasAttribute("download")})),
  };
}
"""

PHONE_INSPECT = r"""
(copyButton) => {
  const root = document.scrollingElement;
  const limit = root.clientWidth + 1;
  // Elements that stick out past the right edge and are not inside something that scrolls.
  const inScroller = el => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === "auto" || o === "scroll" || o === "hidden" || o === "clip") return true;
    }
    return false;
  };
  const offenders = root.scrollWidth <= limit ? [] : [...document.querySelectorAll("article *")]
    .filter(e => e.getBoundingClientRect().right > limit && !inScroller(e))
    .slice(0, 5)
    .map(e => `<${e.tagName.toLowerCase()} class="${e.getAttribute("class") || ""}"> ` +
              `right edge ${Math.round(e.getBoundingClientRect().right)} px: ` +
              e.textContent.trim().slice(0, 50));
  // Every formula, inline or display, in a table or not, is drawn with a size.
  const hiddenMath = [...document.querySelectorAll(".arithmatex .katex-html")]
    .filter(h => !h.closest("details:not([open])"))
    .filter(h => { const r = h.getBoundingClientRect(); return r.width < 3 || r.height < 3; })
    .map(h => h.closest(".arithmatex").querySelector("annotation").textContent.slice(0, 60));
  const formulas = document.querySelectorAll(".arithmatex .katex-html").length;
  const narrowDiagrams = [...document.querySelectorAll("div.bookrun-diagram > svg")]
    .filter(s => !s.closest("details:not([open])"))
    .filter(s => s.getBoundingClientRect().width < 50 || s.getBoundingClientRect().height < 50)
    .length;
  return {scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, offenders, hiddenMath,
          formulas, narrowDiagrams};
}
"""


@pytest.fixture(scope="module")
def tab(browser, base_url):
    """The one desktop tab: every page loads in it once, then search and the palette use it."""
    t = Tab(browser, base_url, viewport=DESKTOP)
    yield t
    t.close()


@pytest.fixture(scope="module")
def desktop(tab, site_pages):
    """Each page of the site loaded once: (problems, what it shows, what it shows on a phone).

    The phone view is the same load with the viewport narrowed to a phone's: the pages set
    `width=device-width`, so the layout is the one a 390 px wide phone gets.
    """
    seen = {}
    for path in site_pages:
        problems = list(tab.open(path))
        tab.page.add_style_tag(content=LAY_OUT_ALL)
        shown = tab.page.evaluate(INSPECT, COPY_BUTTON)
        shown["requests"], shown["scripts"] = list(tab.requests), dict(tab.scripts)
        tab.page.set_viewport_size(PHONE)
        tab.page.evaluate(NEXT_FRAME)
        on_phone = tab.page.evaluate(PHONE_INSPECT)
        tab.page.set_viewport_size(DESKTOP)
        tab.page.evaluate(NEXT_FRAME)
        seen[path] = (problems, shown, on_phone)
    return seen


def _chapter(desktop, path):
    if path not in desktop:
        pytest.fail(f"page {page_id(path)!r} is not in the built site's sitemap.xml")
    return desktop[path]


# -- the checks -------------------------------------------------------------------------------
def test_every_chapter_is_in_the_site(site_pages):
    missing = [p for p in PAGES if p not in site_pages]
    assert not missing, f"chapters missing from the built site: {missing}"


def test_every_page_loads_with_no_errors_and_no_network(desktop):
    bad = {page_id(p): problems for p, (problems, _, _) in desktop.items() if problems}
    assert not bad, "pages with problems:\n" + "\n".join(
        f"  {p}:\n" + "\n".join(f"    - {x}" for x in probs) for p, probs in bad.items())


@pytest.mark.parametrize("path", CHAPTERS)
def test_math_is_drawn_at_build_time(desktop, path):
    _, shown, _ = _chapter(desktop, path)
    assert shown["arithmatex"], "a chapter without equations"
    assert shown["katex"] == shown["arithmatex"], (
        f"{shown['arithmatex'] - shown['katex']} formulas were not drawn by KaTeX")
    assert shown["mathml"] == shown["arithmatex"], "a formula without MathML for screen readers"
    assert not shown["raw"], f"math left as raw TeX: {shown['raw'][:5]}"
    assert not shown["mathErrors"], f"TeX errors: {shown['mathErrors'][:5]}"
    ratios = [r for r, _ in shown["scale"]]
    typical = statistics.median(ratios)
    small = [text for r, text in shown["scale"] if r < 0.8 * typical]
    assert not small, f"math drawn smaller than the text around it: {small[:5]}"


@pytest.mark.parametrize("path", PAGES, ids=page_id)
def test_served_html_holds_no_raw_tex(built_site, path):
    """Read as served, before any script runs: every formula is already markup."""
    text = (built_site / url_of(path) / "index.html").read_text(encoding="utf-8")
    # TeX may stand in KaTeX's annotation (for copying and screen readers) and in code.
    prose = re.sub(r"<(annotation|pre|code|script)\b.*?</\1>", "", text, flags=re.S)
    raw = [m.group(0) + prose[m.end():m.end() + 40] for m in re.finditer(r"\\\(|\\\[|\$\$", prose)]
    assert not raw, f"raw TeX in the served HTML: {raw[:5]}"


@pytest.mark.parametrize("path", CHAPTERS)
def test_code_is_highlighted_with_names_and_punctuation_as_text(site, path):
    """Both generators highlight through bookrun's filter (bookrun/highlight.py): keywords
    keep their colour; names and punctuation are text in the code's own colour."""
    text = (site / url_of(path) / "index.html").read_text(encoding="utf-8")
    article = text[text.index("<article"):text.index("</article>")]
    assert article.count('<span class="k">') >= 20, "the chapter's code is not highlighted"
    assert '<span class="n">' not in article, "plain names drawn as spans"
    assert '<span class="p">' not in article, "punctuation drawn as spans"


def test_no_page_loads_a_math_or_diagram_script(desktop):
    """MathJax, KaTeX's script and mermaid drew everything at build time: none is fetched."""
    fetched = {page_id(p): [u for u in shown["requests"] if CLIENT_SIDE_DRAWING.search(u)]
               for p, (_, shown, _) in desktop.items()}
    fetched = {p: urls for p, urls in fetched.items() if urls}
    assert not fetched, f"pages that fetch a math or diagram script: {fetched}"


@pytest.mark.parametrize("path", CHAPTERS)
def test_script_budget(desktop, path):
    _, shown, _ = _chapter(desktop, path)
    total = sum(shown["scripts"].values())
    listing = ", ".join(f"{u.rsplit('/', 1)[-1]} {n / 1000:.0f} kB"
                        for u, n in sorted(shown["scripts"].items(), key=lambda kv: -kv[1]))
    assert shown["scripts"], "no script loaded: is the load recorded?"
    assert total <= SCRIPT_BUDGET, (
        f"{total / 1000:.0f} kB of script before scrolling, over {SCRIPT_BUDGET / 1000:.0f} kB: "
        f"{listing}")


@pytest.mark.parametrize("path", PAGES, ids=page_id)
def test_diagrams_are_svg(desktop, path):
    _, shown, _ = _chapter(desktop, path)
    # Every chapter has at least one diagram, and so has the home page (reading order).
    assert shown["diagrams"], "no diagram on this page"
    assert shown["mermaidLeft"] == 0, "a mermaid block was left for a script to draw"
    assert all(d["svg"] for d in shown["diagrams"]), "a diagram has no SVG"
    assert not any(d["error"] for d in shown["diagrams"]), "mermaid drew a syntax error"
    assert all(d["width"] > 0 and d["height"] > 0 for d in shown["diagrams"] if d["shown"]), (
        "an empty diagram")
    undescribed = [d for d in shown["diagrams"] if "arrows:" not in d["described"]]
    assert not undescribed, "a diagram without a description for screen readers"


@pytest.mark.parametrize("path", PAGES, ids=page_id)
def test_figures_load(desktop, path):
    _, shown, _ = _chapter(desktop, path)
    broken = [i["src"] for i in shown["images"] if not i["width"]]
    assert not broken, f"images that did not load: {broken}"


# The theme sets up each code block (its copy button) when the block first comes into
# view (mkdocs.yml: content.lazy), as a reader scrolls: open every answer, bring each
# block into view in turn, and list those still without a button after a short wait.
COPY_AS_SCROLLED = """async (copyButton) => {
  const frame = () => Promise.race([new Promise(r => requestAnimationFrame(
    () => requestAnimationFrame(r))), new Promise(r => setTimeout(r, 2000))]);
  for (const d of document.querySelectorAll("article details")) d.open = true;
  const codes = [...document.querySelectorAll("article .highlight pre > code")];
  for (const code of codes) {
    code.scrollIntoView();
    const pre = code.closest("pre");
    for (let i = 0; i < 50 && !pre.querySelector(copyButton); i++) await frame();
  }
  return {blocks: codes.length, without: codes.filter(c => !c.closest("pre")
    .querySelector(copyButton)).map(c => c.textContent.slice(0, 60))};
}"""


@pytest.mark.parametrize("path", CHAPTERS)
def test_code_blocks_have_copy_buttons(tab, desktop, path):
    _chapter(desktop, path)
    assert not tab.open(path), tab.problems
    got = tab.page.evaluate(COPY_AS_SCROLLED, COPY_BUTTON)
    assert got["blocks"] > 0, "a chapter without code blocks"
    assert not got["without"], f"code blocks without a copy button: {got['without'][:3]}"


@pytest.mark.parametrize("path", CHAPTERS)
def test_notebook_buttons_under_the_title(desktop, base_url, site, path):
    _, shown, _ = _chapter(desktop, path)
    buttons = shown["buttons"]
    download = [b for b in buttons if b["download"]]
    assert download, f"no 'Download notebook' button under the title; found {buttons}"
    nb = download[0]["url"]
    assert nb.startswith(base_url) and nb.endswith(".ipynb"), (
        f"'Download notebook' links {download[0]['href']!r}, not a .ipynb file")
    assert (site / nb[len(base_url):]).is_file(), f"{nb} is not in the site"
    colab = [b for b in buttons if "colab.research.google.com" in (b["href"] or "")]
    if colab:  # colab_base is set: it must open the same notebook on the gh-pages branch
        href = colab[0]["href"]
        assert href.startswith("https://colab.research.google.com/github/"), href
        assert href.endswith("/" + nb[len(base_url):]), (href, nb)


# -- search -----------------------------------------------------------------------------------
# Material: a box in the header, results in a list below it. Zensical: a button opens a
# dialog holding the box and a listbox of results.
SEARCH_OPENER = "button.md-search__button"
SEARCH_BOX = 'input.md-search__input, input[role="combobox"][aria-label="Search"]'
SEARCH_RESULTS = '.md-search-result__item a, [role="listbox"] a[role="option"]'
WORD = re.compile(r"[A-Za-z]{5,}")
STOP = {"about", "after", "their", "there", "these", "those", "which", "where", "while", "would",
        "could", "should", "between", "other", "every", "first", "right", "using", "under",
        "chapter", "exercises", "exercise", "summary", "questions", "reading", "papers",
        "further", "answer", "answers", "solution", "solutions", "learning", "reinforcement"}


def distinctive_word(path: str, desktop, index_docs) -> str:
    """The word from the chapter's h1/h2 headings that the fewest other pages contain."""
    _, shown, _ = desktop[path]
    words = [w for h in shown["headings"] for w in WORD.findall(h) if w.lower() not in STOP]
    assert words, f"no searchable word in the headings of {path}: {shown['headings']}"
    others = [text for loc, text in index_docs.items() if loc != path]

    def spread(word):
        pattern = re.compile(rf"\b{re.escape(word)}\b", re.IGNORECASE)
        return sum(bool(pattern.search(t)) for t in others), -len(word)

    return min(dict.fromkeys(words), key=spread)


@pytest.fixture(scope="module")
def index_docs(site):
    """Text of each page, from the search index the site ships."""
    if (site / "search.json").is_file():  # Zensical's index
        docs = json.loads((site / "search.json").read_text())["items"]
    else:
        docs = json.loads((site / "search" / "search_index.json").read_text())["docs"]
    pages = {}
    for d in docs:
        loc = d["location"].split("#")[0]
        pages[loc] = pages.get(loc, "") + " " + d.get("title", "") + " " + d.get("text", "")
    return {loc.rstrip("/").removesuffix("index.html").rstrip("/"): t for loc, t in pages.items()}


def test_the_search_index_waits_until_the_reader_searches(desktop, site):
    """Material asked for its whole index (about 120 kB gzipped) on every page load;
    search_on_demand.js holds that request until the search is used, and
    test_search_finds_each_chapter, which clicks the box, then finds every chapter."""
    index = "search.json" if (site / "search.json").is_file() else "search/search_index.json"
    eager = [p for p, (_, shown, _) in desktop.items()
             if any(r.endswith(index) for r in shown["requests"])]
    if index == "search.json":  # Zensical's own search, which bookrun does not touch
        assert len(eager) in (0, len(desktop))
    else:
        assert not eager, f"pages that fetched the index on load: {eager}"


@pytest.mark.parametrize("path", CHAPTERS)
def test_search_finds_each_chapter(tab, desktop, index_docs, path):
    _chapter(desktop, path)
    tab.problems = []
    word = distinctive_word(path, desktop, index_docs)
    page = tab.page
    opener = page.locator(SEARCH_OPENER)
    if opener.count():  # Zensical: the box is in a dialog that this button opens
        opener.first.click()
    box = page.locator(SEARCH_BOX)
    box.click()
    box.fill("")
    box.press_sequentially(word.lower())
    target, found = f"/{path}/", []
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    try:
        # Locators, not document.querySelectorAll: Zensical draws results in a shadow root.
        while not any(urlparse(h).path.startswith(target) for h in found):
            if time.monotonic() > deadline:
                pytest.fail(f"searching {word!r} did not find {target}; results: {found[:8]}")
            page.wait_for_timeout(200)
            found = page.locator(SEARCH_RESULTS).evaluate_all("as => as.map(a => a.href)")
    finally:
        page.keyboard.press("Escape")
    assert not tab.problems, tab.problems


# -- dark mode and phones ---------------------------------------------------------------------
def test_dark_mode_toggle(tab, desktop):
    tab.problems = []
    page = tab.page
    scheme = "() => document.body.getAttribute('data-md-color-scheme')"
    assert page.evaluate(scheme) == "default", "the light palette is not the default"
    toggle = page.locator('form[data-md-component="palette"] label.md-header__button')
    toggle.locator("visible=true").first.click()
    page.wait_for_function(f"() => ({scheme})() === 'slate'")
    toggle.locator("visible=true").first.click()
    page.wait_for_function(f"() => ({scheme})() === 'default'")
    assert not tab.problems, tab.problems


@pytest.mark.parametrize("path", CHAPTERS)
def test_phone_has_no_horizontal_scroll(desktop, path):
    _, _, shown = _chapter(desktop, path)
    assert shown["scrollWidth"] <= shown["clientWidth"] + 1, (
        f"the page scrolls sideways on a {PHONE['width']} px phone "
        f"({shown['scrollWidth']} > {shown['clientWidth']}); wide content must scroll in its own "
        f"box: {shown['offenders']}")
    assert shown["formulas"], "no formula found on the phone"
    assert not shown["hiddenMath"], f"math drawn with no size on a phone: {shown['hiddenMath'][:3]}"
    assert not shown["narrowDiagrams"], "a diagram shrunk to nothing on a phone"
