"""Size budgets of the built site, and the notebook each chapter offers for download."""
from __future__ import annotations

import html
import json
import posixpath
import re
from pathlib import Path

import nbformat
import pytest

from helpers.paths import CHAPTERS, ROOT

MB, KB = 1_000_000, 1_000
PAGE_BUDGET = 1.5 * MB  # a chapter's HTML plus the figures it shows
FIGURE_BUDGET = 250 * KB  # one figure SVG
# Script a chapter loads before the reader scrolls: Material's bundle and its search
# worker. Math and diagrams are drawn at build time, so nothing else.
SCRIPT_BUDGET = 250 * KB

IMG = re.compile(r'<img\b[^>]*\bsrc="([^"]+)"')
DOWNLOAD = re.compile(r'<a\b(?=[^>]*\bclass="md-button")(?=[^>]*\bdownload\b)[^>]*\bhref="([^"]+)"')
COLAB = re.compile(r'href="(https://colab\.research\.google\.com/[^"]+)"')
SCRIPT_SRC = re.compile(r'<script\b[^>]*\bsrc="([^"]+)"')
SEARCH_WORKER = re.compile(r'"search": *"([^"]+)"')  # in Material's __config
SNIPPET_TITLE = re.compile(r'<span class="filename">(snippets/[^<]+)</span>')


def page_html(site: Path, chapter: str) -> tuple[Path, str]:
    path = site / chapter / "index.html"
    if not path.is_file():
        pytest.fail(f"{chapter}: no page in the built site ({path.relative_to(site)})")
    return path, path.read_text(encoding="utf-8")


def resolve(site: Path, page: Path, href: str) -> Path:
    """A relative link of a page as a path inside the site."""
    rel = page.parent.relative_to(site).as_posix()
    return site / posixpath.normpath(posixpath.join(rel, html.unescape(href)))


def kb(n: int) -> str:
    return f"{n / KB:,.0f} KB"


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_page_weight(site, chapter):
    page, text = page_html(site, chapter)
    figures = {}
    for src in IMG.findall(text):
        if src.startswith(("http:", "https:", "data:")):
            continue
        target = resolve(site, page, src.split("#")[0])
        assert target.is_file(), f"{chapter}: image {src} is not in the site"
        figures[target] = target.stat().st_size
    total = page.stat().st_size + sum(figures.values())
    biggest = sorted(figures.items(), key=lambda kv: -kv[1])[:3]
    assert total <= PAGE_BUDGET, (
        f"{chapter}: {kb(total)} (HTML {kb(page.stat().st_size)} + {len(figures)} figures) is over "
        f"the {kb(PAGE_BUDGET)} budget; largest figures: "
        + ", ".join(f"{p.name} {kb(n)}" for p, n in biggest))


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_script_weight(site, chapter):
    """The script a chapter page loads; the browser test measures the same on a real load."""
    page, text = page_html(site, chapter)
    sources = SCRIPT_SRC.findall(text) + SEARCH_WORKER.findall(text)
    sizes = {}
    for src in sources:
        assert not src.startswith(("http:", "https:", "//")), f"{chapter}: script from another host: {src}"
        target = resolve(site, page, src)
        assert target.is_file(), f"{chapter}: script {src} is not in the site"
        sizes[target.name] = target.stat().st_size
    assert any(n.startswith("bundle.") for n in sizes), f"{chapter}: Material's bundle not found"
    total = sum(sizes.values())
    assert total <= SCRIPT_BUDGET, (
        f"{chapter}: {kb(total)} of script, over {kb(SCRIPT_BUDGET)}: "
        + ", ".join(f"{n} {kb(b)}" for n, b in sorted(sizes.items(), key=lambda kv: -kv[1])))


def test_figure_sizes(site):
    figures = sorted((site / "figures").rglob("*.svg"))
    heavy = [f"{p.relative_to(site)}: {kb(p.stat().st_size)}" for p in figures
             if p.stat().st_size > FIGURE_BUDGET]
    assert not heavy, (f"figures over {kb(FIGURE_BUDGET)} (plot fewer points, or rasterize dense "
                       f"artists with rasterized=True): {heavy}")


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_notebook(site, chapter):
    page, text = page_html(site, chapter)
    links = DOWNLOAD.findall(text)
    assert links, f"{chapter}: no 'Download notebook' button on the page"
    nb_path = resolve(site, page, links[0])
    rel = nb_path.relative_to(site).as_posix()
    assert re.fullmatch(r"notebooks/([\w-]+/)?[\w-]+\.ipynb", rel), (
        f"{chapter}: 'Download' links {links[0]!r}, not a .ipynb file under notebooks/")
    assert nb_path.is_file(), f"{chapter}: the page links {rel}, which is not in the site"

    raw = json.loads(nb_path.read_text(encoding="utf-8"))
    assert raw.get("nbformat") == 4, f"{rel}: nbformat {raw.get('nbformat')}, expected 4"
    nb = nbformat.reads(json.dumps(raw), as_version=4)
    nbformat.validate(nb)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code, f"{rel}: no code cells"
    assert any(c.outputs for c in code), f"{rel}: no code cell has an output"

    # The notebook is the page's code, in page order (plus, after the snippet of each
    # interactive figure, a cell of live sliders: bookrun/interactive.py).
    shown = [html.unescape(t) for t in SNIPPET_TITLE.findall(text)]
    expected = [(ROOT / t).read_text(encoding="utf-8").rstrip("\n") for t in shown]
    live = [c for c in code if "-live-" in c.get("id", "")]
    assert len(live) == text.count('class="bookrun-frames"'), f"{rel}: live-slider cells"
    # and, before an exercise's solution, the reader's answer cell and its check
    answers = [c for c in code if c.get("id", "").startswith("exercise-")]
    assert len(answers) % 2 == 0, f"{rel}: an answer cell without its check, or the reverse"
    assert [c.source for c in code if c not in live and c not in answers] == expected, (
        f"{rel}: its code cells are not the page's {len(shown)} snippets in page order")

    for href in COLAB.findall(text):  # when colab_base is set: the same file on gh-pages
        assert href.endswith("/" + rel), f"{chapter}: Colab opens {href}, the page offers {rel}"
