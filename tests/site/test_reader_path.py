"""The reader's path through the built sites, in chromium: every internal link followed.

On every page of the MkDocs build (and on the Zensical build's home page and one
chapter), at a desktop's and a phone's width (a notebook page at the desktop's only:
NOTEBOOK_WIDTHS), each link to a place in the same page is
clicked once, and each link to another page's anchor is followed by loading that
address, as a reader arriving from the link does. The target must exist and be on the
screen, under the sticky header, after that first click; a collapsed question it points
at must be open. Each page is loaded once per width and its links clicked from the top:
first the link to its deepest target (on the page as first loaded, the most blocks above
it are placeholders: book.css skips far blocks until drawn), then the others in document
order. A target that can be skipped itself, an anchor in a paragraph ("Check yourself"),
has landed off the screen on a first visit where a click after others landed right
(book.css keeps the size a block was drawn at), so at the desktop's width each such
link is also clicked on a load of its own. Headings are never skipped, and each of
their clicks on a walked page meets the same layout (book.css lays every block out
while the page has a :target): a load per heading cost 114 of the walk's 190 loads and
found nothing a first click in place would not. Each other page's anchor is loaded, a
first visit too. Links
to whole pages and files must exist; no link may lead to a placeholder host; and no
printed output may be wider than its column on a desktop. At the phone's width, every
figure's smallest text is measured as drawn (at least 9 px: rows of panels stack, and a
wide figure scrolls sideways), and in the MkDocs build one figure per chapter is opened
by the keyboard in the lightbox, must be larger there than inline, and closes with Escape.

One browser, one walk per generator; every wait is bounded, and each page's walk has a
time limit that fails the test when it is reached, naming what was left unfollowed.
"""
from __future__ import annotations

import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urldefrag, urlparse

import pytest

# Skips this module where Debian's chromium or Playwright is missing.
from helpers.browser import DESKTOP, LAY_OUT_ALL, NEXT_FRAME, PHONE, Tab, page_id, sync_api, url_of
from helpers.site_server import pages_of, serve, stop

WIDTHS = (DESKTOP, PHONE)
# A notebook page is walked at the desktop's width only. Its notebook is one block of the
# article (IN_FIRST_BLOCK, checked on each walk), drawn from the load, so none of its
# targets is ever in a skipped block, the cause of every off-screen landing the walk has
# found; at 390 px the lines wrap elsewhere under the same 48 px header. It has none of
# the book's figures to measure or enlarge. Its walk at 390 px took a fifth of the walk's
# CPU time (33 of 168 s).
NOTEBOOK_WIDTHS = (DESKTOP,)
ZENSICAL_PAGES = ["", "ppo"]  # Zensical's home page and one chapter: its share of the walk
PAGE_LIMIT_S = 90  # one page's walk at one width: a load, about 25 clicks, the measures
# Hosts reserved for examples (RFC 2606) and the placeholder names a template ships with.
PLACEHOLDER_HOSTS = ("example", "example.com", "example.org", "example.net", "example.github.io")
PLACEHOLDER_OWNERS = ("github.com/example/", "colab.research.google.com/github/example/")

# Every link of the page as loaded, in document order (nav, header, article, footer).
LINKS = "() => [...document.querySelectorAll('a[href]')].map(a => a.href)"
# A click on the first link to `href`, as a tap sends it (the table of contents sits in
# a closed drawer on a phone, where no pointer can reach it without opening the drawer);
# where the page was scrolled to before it, or null if no link goes there.
CLICK = """(href) => {
  const link = [...document.querySelectorAll('a[href]')].find(a => a.href === href);
  if (!link) return null;
  const start = Math.round(scrollY);
  link.click();
  return start;
}"""
FRESH_WIDTH = DESKTOP["width"]  # where a link to a target that is not a heading gets a load
# A click the browser dropped: the address changed, the page never moved. Under CI's
# load (two cores, three workers) Chromium now and then leaves a page unscrolled at its
# new address: 0 to 2 clicks in 640 in seven runs, and 5 in 496 (on four pages) in one
# where the walk ran beside the audits' two browsers; never on a quiet machine, nor with
# the CPU slowed 8 or 12 times on its own. A reader whose click does nothing clicks
# again: the walk does so once and counts it. It fails if the second click is dropped
# too; if one page drops a quarter of its clicks at one width (a page whose script
# undoes the scroll drops every one of its 20 or so); or if drops pass 1 in 20.
DROPPED_SHARE = 0.05
DROPPED_SHARE_OF_A_PAGE = 0.25
# Back to the top before the next click, so that each click scrolls the page. (Waiting
# there for three still frames cost 25 s of the walk and did not stop the drops that
# DROPPED_SHARE now counts: 1 or 2 in 640 clicks came with it and without it.)
TO_TOP = "() => scrollTo(0, 0)"

# On a notebook page, whether every target of the links given lies in the article's
# first block: mkdocs-jupyter puts the whole notebook in one (its .jupyter-wrapper), which
# is on the screen from the load, so no target is ever in a skipped block.
IN_FIRST_BLOCK = """(hrefs) => {
  const first = document.querySelector(".md-typeset > :not(script, style)");
  return hrefs.every(href => {
    const target = document.getElementById(decodeURIComponent(new URL(href).hash.slice(1)));
    return target && first && first.contains(target);
  });
}"""
# The links, of those given, whose target is no heading (each gets a load of its own).
NOT_HEADINGS = """(hrefs) => hrefs.filter(href => {
  const target = document.getElementById(decodeURIComponent(new URL(href).hash.slice(1)));
  return target && !/^H[1-6]$/.test(target.tagName);
})"""
# The link, of those given, whose target comes last in the page (null: no target found).
DEEPEST = """(hrefs) => {
  let deepest = null, last = null;
  for (const href of hrefs) {
    const target = document.getElementById(decodeURIComponent(new URL(href).hash.slice(1)));
    if (target && (!last || last.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING)) {
      deepest = href;
      last = target;
    }
  }
  return deepest;
}"""
# Where the target is once the click's navigation has happened and scrolling has stopped
# with the target in view: three drawn frames at one position (a frame that does not
# come in 100 ms is not counted), or 3 s. On the heaviest page (a notebook's, 19,000
# elements) under CI's load, the address had changed but the page had not yet scrolled
# after three still frames (3 of 1,920 clicks in three runs): the test waits for the
# target to come into view, within the 3 s, and fails if it does not.
# `cover` is the bottom of the sticky header: a target under it is not in view.
# A collapsed question belongs to the target when the target is it, is inside it, or
# is an empty anchor right above it (the chapter header's "Check yourself" anchors).
LANDED = """async (id) => {
  const frame = () => Promise.race([new Promise(r => requestAnimationFrame(() => r(true))),
                                    new Promise(r => setTimeout(() => r(false), 100))]);
  // A click navigates in a task of its own: on a busy machine frames can come before it.
  const navigated = performance.now() + 3000;
  while (decodeURIComponent(location.hash.slice(1)) !== id && performance.now() < navigated) {
    await frame();
  }
  const target = document.getElementById(id);
  if (!target) return null;
  const header = document.querySelector(".md-header");
  const inView = () => {
    const top = target.getBoundingClientRect().top;
    return top >= (header ? header.getBoundingClientRect().bottom : 0) - 2 && top < innerHeight;
  };
  const until = performance.now() + 3000;
  for (let last = null, same = 0; !(same >= 3 && inView()) && performance.now() < until; ) {
    if (!(await frame())) continue;
    same = scrollY === last ? same + 1 : 0;
    last = scrollY;
  }
  const box = target.getBoundingClientRect();
  const block = target.closest("p") || target;
  const after = block.textContent.trim() ? null : block.nextElementSibling;
  const details = target.closest("details") ||
    (after && after.matches("details") ? after : null);
  const cover = header ? header.getBoundingClientRect().bottom : 0;
  return {top: Math.round(box.top), cover: Math.round(cover), height: innerHeight,
          scrolled: Math.round(scrollY), hash: decodeURIComponent(location.hash.slice(1)),
          question: !!details, open: !!details && details.open};
}"""
# Printed outputs wider than their column, every block laid out and every answer open;
# each named by the snippet printed above it and its first line.
OVERFLOWING = """() => {
  for (const d of document.querySelectorAll("article details")) d.open = true;
  let snippet = "";
  const wide = [];
  for (const name of document.querySelectorAll("article .highlight .filename")) {
    const block = name.closest(".highlight");
    if (!block.classList.contains("bookrun-output")) { snippet = name.textContent; continue; }
    const code = block.querySelector("pre > code");
    if (code && code.scrollWidth > code.clientWidth + 1) {
      const first = code.textContent.split("\\n").find(l => l.trim()) || "";
      const size = `${code.scrollWidth} > ${code.clientWidth} px`;
      wide.push(`${snippet}: ${size}: ${first.trim().slice(0, 50)}`);
    }
  }
  return wide;
}"""


# The smallest text of each figure as shown, in CSS px: each image on the screen (the
# whole figure, or each stacked panel's crop of it) drawn again as inline SVG at the same
# width, each text's size read from its glyphs' screen transform (100 glyph units to the
# em), counting only texts inside the visible crop.
FIGURE_TEXT = """async () => {
  const frame = () => Promise.race([new Promise(r => requestAnimationFrame(
    () => requestAnimationFrame(r))), new Promise(r => setTimeout(r, 2000))]);
  const svgs = {}, sizes = {};
  for (const figure of document.querySelectorAll("figure")) {
    if (!figure.querySelector("img.bookrun-figure")) continue;
    figure.scrollIntoView();  // far blocks are not laid out (content-visibility)
    await frame();
    const shown = [...figure.querySelectorAll("img.bookrun-figure, .bookrun-panel img")]
      .filter(i => i.getBoundingClientRect().width > 0);
    let least = Infinity;
    for (const img of shown) {
      svgs[img.src] = svgs[img.src] || await (await fetch(img.src)).text();
      const at = img.getBoundingClientRect();
      const crop = img.closest(".bookrun-panel, a, p").getBoundingClientRect();
      const box = document.createElement("div");
      box.style.cssText = "position:absolute;left:-20000px;top:0";
      box.innerHTML = svgs[img.src].slice(svgs[img.src].indexOf("<svg"));
      document.body.append(box);
      const svg = box.querySelector("svg");
      svg.style.width = at.width + "px";
      svg.style.height = "auto";
      const origin = svg.getBoundingClientRect();
      for (const text of svg.querySelectorAll("g[id^=text_]")) {
        const r = text.getBoundingClientRect();
        const x = at.left + r.left + r.width / 2 - origin.left;
        const y = at.top + r.top + r.height / 2 - origin.top;
        if (x < crop.left || x > crop.right || y < crop.top || y > crop.bottom) continue;
        let size = 0;
        for (const glyph of text.querySelectorAll("use:not([x])")) {
          const m = glyph.getScreenCTM();
          size = Math.max(size, Math.hypot(m.a, m.b) * 100);
        }
        if (size) least = Math.min(least, size);
      }
      box.remove();
    }
    sizes[figure.id] = {px: Math.round(least * 100) / 100, images: shown.length};
  }
  return sizes;
}"""
READABLE_PX = 9
# The lightbox's image, once its opening has settled (two frames at one width).
ENLARGED = """async () => {
  const frame = () => new Promise(r => setTimeout(r, 100));
  let last = -1;
  for (let n = 0; n < 30; n++) {
    const img = document.querySelector(".glightbox-container .gslide.current img");
    const width = img ? img.getBoundingClientRect().width : 0;
    if (width && width === last) return {width, src: img.src};
    last = width;
    await frame();
  }
  return null;
}"""


@dataclass
class Walk:
    """What one walk saw: every target followed with where it landed, and the rest."""
    pages: list[str]
    links: int = 0  # link elements seen, over every page and width
    landings: list[tuple[str, str, dict | None]] = field(default_factory=list)  # (how, url, box)
    placeholders: set[str] = field(default_factory=set)
    overflowing: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    outputs_seen: int = 0
    generator: str = "mkdocs"
    figure_text: dict[str, dict] = field(default_factory=dict)  # "page#figure" -> size
    enlarged: dict[str, dict] = field(default_factory=dict)  # page -> what opening did
    dropped: list[str] = field(default_factory=list)  # clicks made twice (DROPPED_SHARE)
    one_block: set[str] = field(default_factory=set)  # notebook pages (NOTEBOOK_WIDTHS)


def is_placeholder(url: str) -> bool:
    parts = urlparse(url)
    host = (parts.hostname or "").lower()
    where = f"{host}{parts.path}".lower()
    return (any(host == h or host.endswith("." + h) for h in PLACEHOLDER_HOSTS)
            or any(where.startswith(o) or where + "/" == o for o in PLACEHOLDER_OWNERS))


def exists(url: str) -> bool:
    """A page or file of the served site answers (the server redirects a folder's URL
    without its slash, which urllib follows)."""
    try:
        with urllib.request.urlopen(url, timeout=20) as answer:
            return answer.status == 200
    except urllib.error.URLError:
        return False


def load(tab: Tab, url: str) -> str | None:
    """A fresh load of `url`, fonts and images done; why it failed, or None."""
    try:
        answer = tab.page.goto(url, wait_until="load")
    except sync_api.Error as exc:
        return f"{url} did not load: {str(exc).splitlines()[0]}"
    if answer is not None and answer.status >= 400:
        return f"{url}: HTTP {answer.status}"
    tab.settle()
    return None


def sort_links(hrefs: list[str], here: str, base: str):
    """(anchors on this page, anchors on other pages, whole pages and files, external)."""
    same, other, whole, external = {}, set(), set(), set()
    for href in hrefs:
        address, anchor = urldefrag(href)
        if not href.startswith(base):
            external.add(href)
        elif address == here and anchor:
            same.setdefault(href, None)  # document order, each once
        elif anchor and address != here:
            other.add(href)
        elif address != here:
            whole.add(address)
    return list(same), other, whole, external


def land(tab: Tab, how: str, url: str, walk: Walk, start: int | None = None) -> None:
    """Where `url` landed: a page loaded at it (`start` None), or a click on it made at
    scroll position `start` (CLICK's answer). A click the browser dropped (see
    DROPPED_SHARE) is made once more, and counted."""
    target = urldefrag(url)[1]
    box = tab.page.evaluate(LANDED, target)
    if (start is not None and box and off_screen(box) and box["scrolled"] == start
            and box["hash"] == target):
        walk.dropped.append(f"{how}: {url}")
        tab.page.evaluate(CLICK, url)
        box = tab.page.evaluate(LANDED, target)
    walk.landings.append((how, url, box))


def walk_page(tab: Tab, base: str, path: str, width: int, walk: Walk, others: set,
              wholes: set) -> None:
    """Every same-page link of one page, each clicked once from the top of one load:
    first the deepest target's, then the others in document order; at FRESH_WIDTH, each
    link to a target that is no heading clicked again on a load of its own."""
    here = base + url_of(path)
    deadline = time.monotonic() + PAGE_LIMIT_S
    failed = load(tab, here)
    if failed:
        walk.problems.append(failed)
        return
    hrefs = tab.page.evaluate(LINKS)
    walk.links += len(hrefs)
    same, other, whole, external = sort_links(hrefs, here, base)
    others |= other
    wholes |= whole
    walk.placeholders |= {u for u in external if is_placeholder(u)}
    if path.startswith("notebooks/") and width == DESKTOP["width"]:
        if tab.page.evaluate(IN_FIRST_BLOCK, same):
            walk.one_block.add(path)
        else:
            walk.problems.append(f"{page_id(path)}: a target lies outside the notebook's "
                                 "block: walk the page at every width (NOTEBOOK_WIDTHS)")
    deepest = tab.page.evaluate(DEEPEST, same)
    if deepest:
        same = [deepest] + [h for h in same if h != deepest]
    fresh = tab.page.evaluate(NOT_HEADINGS, same) if width == FRESH_WIDTH else []
    for n, href in enumerate(same + fresh):
        if time.monotonic() > deadline:
            walk.problems.append(f"{page_id(path)} at {width} px: over {PAGE_LIMIT_S} s, "
                                 f"{len(same) + len(fresh) - n} clicks not made: "
                                 f"{(same + fresh)[n:][:5]}")
            return
        first_visit = n >= len(same)
        if first_visit:
            failed = load(tab, here)
            if failed:
                walk.problems.append(failed)
                continue
        elif n:  # the first click uses the load that found the links
            tab.page.evaluate(TO_TOP)
        start = tab.page.evaluate(CLICK, href)
        if start is None:
            walk.problems.append(f"{href}: the link is gone")
            continue
        how = "on a load of its own" if first_visit else "in turn"
        land(tab, f"clicked {how} on {page_id(path)} at {width} px", href, walk, start)
    if width == PHONE["width"]:
        sizes = tab.page.evaluate(FIGURE_TEXT)
        walk.figure_text |= {f"{page_id(path)}#{fig}": size for fig, size in sizes.items()}
        if sizes and tab.page.evaluate("() => typeof GLightbox !== 'undefined'"):
            walk.enlarged[page_id(path)] = enlarge(tab)
    if width == DESKTOP["width"]:
        tab.page.add_style_tag(content=LAY_OUT_ALL)
        tab.page.evaluate(NEXT_FRAME)
        walk.outputs_seen += tab.page.evaluate(
            "() => document.querySelectorAll('.bookrun-output pre > code').length")
        walk.overflowing += [f"{page_id(path)}: {w}" for w in tab.page.evaluate(OVERFLOWING)]


def enlarge(tab: Tab) -> dict:
    """The page's first figure, opened as a keyboard reader does (Tab to its link,
    Enter), measured inline and enlarged, then closed with Escape."""
    page = tab.page
    link = page.locator("a.bookrun-zoom").first
    link.scroll_into_view_if_needed()
    inline = page.evaluate("""() => {
      const link = document.querySelector("a.bookrun-zoom");
      const widths = [...link.querySelectorAll("img")].map(i => i.getBoundingClientRect().width);
      return Math.min(Math.max(...widths), link.clientWidth);
    }""")
    link.focus()
    page.keyboard.press("Enter")
    shown = page.evaluate(ENLARGED)
    page.keyboard.press("Escape")
    try:
        page.wait_for_selector(".glightbox-container", state="detached", timeout=5000)
        closed = True
    except sync_api.Error:
        closed = False
    href = link.evaluate("a => a.href")
    return {"inline": inline, "enlarged": shown and shown["width"],
            "same image": bool(shown) and shown["src"] == href, "closed": closed}


def walk_site(browser, base: str, pages: list[str]) -> Walk:
    walk = Walk(pages=pages)
    others: set[str] = set()
    wholes: set[str] = set()
    for size in WIDTHS:
        tab = Tab(browser, base, viewport=size)
        try:
            for path in pages:
                if path in walk.one_block and size not in NOTEBOOK_WIDTHS:
                    continue
                walk_page(tab, base, path, size["width"], walk, others, wholes)
            # Another page's anchor, reached as its link leads there: a load of the
            # address from another document (from the same page, with only the anchor
            # changed, it would be a scroll within that page, not a load).
            for url in sorted(others):
                tab.page.goto("about:blank")
                failed = load(tab, url)
                if failed:
                    walk.problems.append(failed)
                else:
                    land(tab, f"loaded at {size['width']} px", url, walk)
        finally:
            tab.close()
    walk.problems += [f"{url}: no such page or file" for url in sorted(wholes) if not exists(url)]
    return walk


def summary(walk: Walk) -> str:
    off = sum(off_screen(box) is not None for _, _, box in walk.landings)
    return (f"{len(walk.pages)} pages at {len(WIDTHS)} widths, {walk.links} links seen, "
            f"{len(walk.landings)} targets followed, {off} did not land; "
            f"{len(walk.overflowing)} of {walk.outputs_seen} outputs too wide")


@pytest.fixture(scope="module", params=["mkdocs", "zensical"])
def walk(request, browser, built_site):
    """The walk of one generator's build: MkDocs' every page, Zensical's home and one
    chapter (the pages of the nav are the same; its theme and builder are what differ)."""
    zensical = request.param == "zensical"
    site = request.getfixturevalue("zensical_site") if zensical else built_site
    server, base = serve(site, gzip=False)
    try:
        walked = walk_site(browser, base, ZENSICAL_PAGES if zensical else pages_of(site))
        walked.generator = request.param
        print(f"\n{request.param}: {summary(walked)}")  # shown with -s, or by a failure
        yield walked
    finally:
        stop(server)


def off_screen(box: dict | None) -> str | None:
    """Why a landing failed the reader, or None."""
    if box is None:
        return "no element has this id"
    if not box["cover"] - 2 <= box["top"] < box["height"]:
        return (f"its top is at {box['top']} px; the screen shows {box['cover']} to "
                f"{box['height']} (scrolled {box['scrolled']} px, address #{box['hash']})")
    if box["question"] and not box["open"]:
        return "the question it points at stays closed"
    return None


def test_the_walk_follows_links_of_every_kind(walk):
    """The walk ran: every page loaded, and it followed same-page and other-page anchors
    and self-test links (so that the test below cannot pass on an empty walk)."""
    assert not walk.problems, "\n".join(walk.problems)
    kinds = {"clicked in turn", "clicked on a load of its own", "loaded at"}
    hows = {k for how, _, _ in walk.landings for k in kinds if how.startswith(k)}
    assert hows == kinds, f"the walk followed only: {hows}"
    assert any(box and box["question"] for _, _, box in walk.landings), "no self-test link"


def test_every_internal_link_lands_in_view_on_the_first_click(walk):
    """A click that scrolls lands in view at once; a click the browser dropped under load
    (the page never moved) is made again once, and such drops stay rare."""
    missed = [f"{how}: {url}: {why}" for how, url, box in walk.landings
              if (why := off_screen(box))]
    assert not missed, (f"{len(missed)} of {len(walk.landings)} links did not land:\n"
                        + "\n".join(missed))
    problems = too_many_drops(walk)
    assert not problems, "\n".join(problems + walk.dropped)


def test_no_link_points_at_a_placeholder_host(walk):
    assert not walk.placeholders, sorted(walk.placeholders)


def test_no_output_is_wider_than_its_column_on_a_desktop(walk):
    """A printed output that needs a sideways scroll on a 1280 px screen hides its end
    from a reader who does not scroll it."""
    assert walk.outputs_seen, "no printed output found: is the output block's class right?"
    assert not walk.overflowing, (f"{len(walk.overflowing)} of {walk.outputs_seen} outputs "
                                  f"scroll sideways at {DESKTOP['width']} px:\n"
                                  + "\n".join(walk.overflowing))


def test_figure_text_reads_at_9_px_on_a_phone(walk):
    """At 390 px, every figure's smallest text measures at least READABLE_PX as drawn:
    a row of panels stacks (render/zoom.py), a wide figure keeps a width that holds its
    text and scrolls sideways. Before this, the book's figures drew it at 5 to 7.8 px."""
    assert walk.figure_text, "no figure measured"
    small = {f: s for f, s in walk.figure_text.items() if not s["px"] >= READABLE_PX}
    assert not small, f"figures whose text is under {READABLE_PX} px at 390 px: {small}"
    assert any(s["images"] > 1 for s in walk.figure_text.values()), "no figure stacked"


@pytest.mark.parametrize("walk", ["mkdocs"], indirect=True)  # Zensical runs no plugin
def test_one_figure_per_chapter_opens_enlarged_by_keyboard_and_closes_with_escape(walk):
    """MkDocs' build (Zensical runs no plugin, so its figures are plain links to their
    images): Enter on a chapter's first figure link opens it in the lightbox, wider than
    inline at 390 px, showing the image the link points at; Escape closes it."""
    chapters = {p.split("#")[0] for p in walk.figure_text} - {"home"}
    assert set(walk.enlarged) >= chapters, f"not opened: {sorted(chapters - set(walk.enlarged))}"
    failed = {p: e for p, e in walk.enlarged.items()
              if not (e["enlarged"] and e["enlarged"] > e["inline"] and e["same image"]
                      and e["closed"])}
    assert not failed, f"figures not enlarged, or not closed by Escape: {failed}"


def too_many_drops(walk: Walk) -> list[str]:
    """Why the walk's dropped clicks are more than load explains (DROPPED_SHARE), if they are."""
    problems = []
    if len(walk.dropped) > DROPPED_SHARE * len(walk.landings):
        problems.append(f"{len(walk.dropped)} of {len(walk.landings)} clicks left the page "
                        "where it was")
    # "clicked in turn on q-learning at 390 px: URL" -> "q-learning at 390 px", and so
    # "clicked on a load of its own on q-learning at 390 px" (the last " on ")
    def where(how: str) -> str:
        return how.split(": ", 1)[0].rsplit(" on ", 1)[-1]
    clicks = Counter(where(how) for how, _, _ in walk.landings if how.startswith("clicked"))
    for page, n in Counter(where(how) for how in walk.dropped).items():
        if n > DROPPED_SHARE_OF_A_PAGE * clicks[page]:
            problems.append(f"{page}: {n} of {clicks[page]} clicks left the page where it was")
    return problems


def test_drops_on_one_page_fail_the_walk_where_a_few_spread_drops_do_not():
    def walk_with(drops: dict[str, int]) -> Walk:
        walk = Walk(pages=list("abcdef"))  # 240 clicks: 12 drops are 1 in 20
        for page in walk.pages:
            for width in (1280, 390):
                how = f"clicked in turn on {page} at {width} px"
                walk.landings += [(how, f"u{n}", None) for n in range(20)]
                walk.dropped += [f"{how}: u{n}" for n in range(drops.get(f"{page} {width}", 0))]
        return walk
    assert too_many_drops(walk_with({"a 390": 2, "b 390": 2, "c 1280": 1})) == []
    # A click on a load of its own counts with the other clicks of its page and width.
    fresh = walk_with({"a 1280": 1})
    fresh.landings += [("clicked on a load of its own on a at 1280 px", f"f{n}", None)
                       for n in range(3)]
    fresh.dropped.append("clicked on a load of its own on a at 1280 px: f0")
    assert too_many_drops(fresh) == []
    assert too_many_drops(walk_with({"a 390": 6})) == [
        "a at 390 px: 6 of 20 clicks left the page where it was"]
    assert too_many_drops(walk_with({"a 390": 5, "b 390": 4, "c 390": 4})) == [
        "13 of 240 clicks left the page where it was"]


DROPS_FIRST_CLICK = """<!doctype html><html lang="en"><title>t</title>
<p><a href="#far">far</a></p><div style="height: 4000px"></div><h2 id="far">Far</h2>
<script>
  // The first click changes the address and leaves the page where it is, as a click
  // Chromium dropped under load did; the second is the browser's own.
  document.querySelector("a").addEventListener("click", (event) => {
    event.preventDefault();
    history.pushState(null, "", "#far");
  }, {once: true});
</script>"""


def test_a_click_the_browser_drops_is_made_once_more_and_counted(browser, tmp_path):
    (tmp_path / "index.html").write_text(DROPS_FIRST_CLICK)
    server, base = serve(tmp_path)
    tab = Tab(browser, base, viewport=DESKTOP)
    try:
        tab.page.goto(base)
        walk = Walk(pages=[""])
        start = tab.page.evaluate(CLICK, base + "#far")
        assert start == 0
        land(tab, "clicked", base + "#far", walk, start)
        assert walk.dropped == [f"clicked: {base}#far"]
        assert [off_screen(box) for _, _, box in walk.landings] == [None]
    finally:
        tab.close()
        stop(server)
