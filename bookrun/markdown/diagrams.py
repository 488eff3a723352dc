"""Python-Markdown extension: mermaid fences become inline SVG, drawn once and kept in a committed cache.

    markdown_extensions:
      - bookrun.markdown.diagrams:
          cache_dir: diagrams   # relative to the folder the build runs in
      - pymdownx.superfences:
          custom_fences:
            - name: mermaid
              class: mermaid
              format: !!python/name:bookrun.markdown.diagrams.fence_format

Each diagram is stored as `<cache_dir>/<key>.svg`, the key hashing the diagram's
source, the mermaid version and the drawing settings, like a chapter's record: a
fresh clone builds with no browser. A diagram missing from the cache is drawn by
the vendored mermaid in Debian's chromium (through Playwright) and written there;
with no chromium, the build stops naming the page and line. The SVG's colours
are Material's `--md-mermaid-*` variables, so one drawing follows the light and
the dark palette, and mermaid's accessible description lists the diagram's
arrows in words for screen readers.
"""
from __future__ import annotations

import atexit
import hashlib
import html
import json
import os
import re
import threading
from types import SimpleNamespace
from pathlib import Path

from markdown import Extension
from pymdownx.superfences import SuperFencesException

from bookrun.markdown import reach
from bookrun.markdown.where import Failure, remember_source, where

DEFAULT_CACHE = "diagrams"  # the `cache_dir` option's default, relative to the build's folder
MERMAID_JS = Path(__file__).resolve().parent / "vendor" / "mermaid" / "mermaid.min.js"
MERMAID_VERSION = "11.12.2"  # of MERMAID_JS; tools/vendor_assets.py pins the same
CHROMIUM = Path(os.environ.get("BOOKRUN_CHROMIUM", "/usr/bin/chromium"))
BROWSER_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run",
                "--disable-quic"]
# Arial's widths (Helvetica and Liberation Sans share them): boxes sized here fit
# the labels on the reader's screen too.
FONT = "Helvetica, Arial, 'Liberation Sans', sans-serif"
# Colours are CSS variables resolved where the SVG is shown, so the same drawing
# follows Material's palette; mermaid prefixes each rule with the SVG's own id.
THEME_CSS = """
.node rect, .node circle, .node ellipse, .node polygon, .node path {
  fill: var(--md-mermaid-node-bg-color, #eef); stroke: var(--md-mermaid-node-fg-color, #446);
}
.nodeLabel, .nodeLabel p, .label text, span {
  color: var(--md-mermaid-label-fg-color, #222); fill: var(--md-mermaid-label-fg-color, #222);
}
.flowchart-link, .edgePath .path {
  stroke: var(--md-mermaid-edge-color, #333);
}
.marker, marker path {
  fill: var(--md-mermaid-edge-color, #333) !important;
  stroke: var(--md-mermaid-edge-color, #333) !important;
}
.edgeLabel, .edgeLabel p, .edgeLabel rect, .labelBkg {
  background-color: var(--md-mermaid-label-bg-color, #fff);
  fill: var(--md-mermaid-label-bg-color, #fff);
  color: var(--md-mermaid-label-fg-color, #222);
}
"""
SETTINGS = {"startOnLoad": False, "theme": "base", "securityLevel": "strict",
            "fontFamily": FONT, "themeCSS": THEME_CSS,
            "flowchart": {"useMaxWidth": True, "htmlLabels": True}}
# Runs in the browser: a description of the arrows in words, then the drawing.
RENDER_JS = """
async ({source, id, settings}) => {
  mermaid.initialize(settings);
  let text = source;
  if (!/^\\s*accDescr/m.test(source)) {
    const diagram = await mermaid.mermaidAPI.getDiagramFromText(source);
    const db = diagram.db;
    if (db.getVertices && db.getEdges) {
      const clean = s => String(s || "").replace(/<br\\s*\\/?>/gi, " ").replace(/\\s+/g, " ").trim();
      const vertices = db.getVertices();
      const name = id => clean((vertices.get ? vertices.get(id) : vertices[id])?.text || id);
      const arrows = db.getEdges().map(e => `${name(e.start)} to ${name(e.end)}` +
        (clean(e.text) ? ` (${clean(e.text)})` : ""));
      const said = "Diagram, arrows: " + arrows.join("; ") + ".";
      const lines = source.split("\\n");
      text = [lines[0], "  accDescr: " + said.replace(/[{}]/g, ""), ...lines.slice(1)].join("\\n");
    }
  }
  const {svg} = await mermaid.render(id, text);
  return svg;
}
"""


class DiagramError(SuperFencesException, Failure):
    """A diagram that could not be drawn; the message names page:line.

    A SuperFencesException, because superfences turns any other error raised by a
    fence's formatter into a silent fall-back to a plain code block.
    """


def cache_key(source: str) -> str:
    blob = json.dumps([source.strip(), MERMAID_VERSION, SETTINGS], sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:20]


class _Browser:
    """One headless chromium with mermaid loaded, started on the first cache miss."""

    def __init__(self):
        from playwright.sync_api import sync_playwright

        self.lock = threading.Lock()
        self.playwright = sync_playwright().start()
        self.browser = self.playwright.chromium.launch(executable_path=str(CHROMIUM),
                                                       args=BROWSER_ARGS)
        self.page = self.browser.new_page(viewport={"width": 1200, "height": 900})
        self.page.set_content(f"<!doctype html><html><body style='font-family:{FONT}'>"
                              "</body></html>")
        self.page.add_script_tag(path=str(MERMAID_JS))
        atexit.register(self.close)

    def draw(self, source: str, key: str) -> str:
        with self.lock:
            return self.page.evaluate(RENDER_JS, {"source": source, "id": f"diagram-{key}",
                                                  "settings": SETTINGS})

    def close(self):
        self.browser.close()
        self.playwright.stop()


_browser: _Browser | None = None


def _draw(source: str, key: str) -> str:
    global _browser
    if _browser is None:
        _browser = _Browser()
    return _browser.draw(source, key)


def diagram_svg(source: str, cache_dir: Path, md=None) -> str:
    """The SVG of a mermaid diagram, from the cache or drawn now and cached."""
    key = cache_key(source)
    path = cache_dir / f"{key}.svg"
    if path.is_file():
        return path.read_text(encoding="utf-8")
    if not CHROMIUM.is_file():
        raise DiagramError(f"{where(md, source)}: this mermaid diagram is not in the cache "
                           f"({path}) and drawing it needs {CHROMIUM} (apt-get install "
                           "chromium); build once where chromium is installed and commit "
                           f"{cache_dir.name}/")
    try:
        svg = _draw(source, key)
    except Exception as exc:  # mermaid's parse errors arrive as Playwright errors
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DiagramError(f"{where(md, source)}: mermaid cannot draw this diagram: "
                           f"{first}") from None
    svg = svg.rstrip() + "\n"
    cache_dir.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".svg.partial")  # renamed into place: never half a file
    partial.write_text(svg, encoding="utf-8")
    os.replace(partial, path)
    return svg


class DiagramExtension(Extension):
    def __init__(self, **kwargs):
        self.config = {"cache_dir": [DEFAULT_CACHE, "folder of the committed diagram SVGs"]}
        super().__init__(**kwargs)

    def extendMarkdown(self, md):
        md.bookrun_diagrams = Path(self.getConfig("cache_dir"))
        remember_source(md)


# mermaid draws labels at 16 px and lets the SVG shrink to its column; below this
# share of its natural width (12 px text) a wide diagram scrolls in its box instead.
SMALLEST_SCALE = 0.75
NATURAL_WIDTH = re.compile(r'<svg\b[^>]*?style="[^"]*max-width:\s*([\d.]+)px')


def fence_format(source, language, class_name, options, md, **kwargs):
    """superfences' formatter for ```mermaid fences: the diagram as inline SVG."""
    cache_dir = getattr(md, "bookrun_diagrams", Path(DEFAULT_CACHE))
    svg = diagram_svg(source, cache_dir, md)
    natural = NATURAL_WIDTH.match(svg)
    style = (f' style="--bookrun-diagram-min-width: {float(natural.group(1)) * SMALLEST_SCALE:.0f}px"'
             if natural else "")
    return (f'<div class="bookrun-diagram" data-diagram="{html.escape(cache_key(source))}"{style}>'
            f"{svg}</div>")


def makeExtension(**kwargs):
    return DiagramExtension(**kwargs)


# A mermaid fence that another converter left for a script to draw (nbconvert, in a
# notebook page): its source, HTML-escaped, in <pre class="mermaid">.
HTML_MERMAID = re.compile(r'<div class="jp-Mermaid">\s*<pre class="mermaid">(?P<source>.*?)'
                          r'</pre>\s*</div>|<pre class="mermaid">(?P<bare>.*?)</pre>', re.S)


def draw_diagrams_in_html(page_html: str, cache_dir: Path, shown: str) -> str:
    """Every mermaid block of an HTML page drawn as the Markdown pages draw it, so the
    page fetches no mermaid script; errors name `shown`."""
    md = SimpleNamespace(bookrun_diagrams=cache_dir, bookrun_page=(shown, ""))

    def draw(m: re.Match) -> str:
        source = html.unescape(m.group("source") if m.group("source") is not None
                               else m.group("bare"))
        # Focusable, as `reach` makes it on a Markdown page: a wide diagram scrolls.
        return reach.mark(fence_format(source, "mermaid", "mermaid", {}, md))
    return HTML_MERMAID.sub(draw, page_html)
