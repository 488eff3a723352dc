"""Python-Markdown extension: TeX math drawn by KaTeX when the page is built, not in the browser.

    markdown_extensions:
      - bookrun.markdown.math

Finds math exactly as `pymdownx.arithmatex` does (`$...$`, `\\(...\\)`, `$$...$$`,
`\\[...\\]`, `\\begin{env}...\\end{env}`, the same escapes) and replaces each formula
with KaTeX's HTML for sighted readers plus MathML for screen readers, so a page
needs KaTeX's stylesheet and fonts but no script. KaTeX runs in V8 embedded by the
`mini-racer` wheel. A formula KaTeX cannot draw stops the build with the page, the
line and the TeX. Being a Markdown extension, not an MkDocs plugin, it runs under
any host that runs Python-Markdown extensions.
"""
from __future__ import annotations

import atexit
import html as html_module
import json
import re
import threading
import sys
import xml.etree.ElementTree as etree
from functools import lru_cache
from pathlib import Path

from markdown.postprocessors import Postprocessor
from markdown.util import AtomicString
from pymdownx import arithmatex

from bookrun.markdown.where import Failure, remember_source, where

KATEX_JS = Path(__file__).resolve().parent / "vendor" / "katex" / "katex.min.js"
OPTIONS = {
    "output": "htmlAndMathml",  # the HTML is aria-hidden; the MathML is what is read aloud
    "throwOnError": True,
    "strict": "error",  # what KaTeX would only warn about is a mistake in the source too
    "trust": False,
}


class MathError(Failure):
    """A formula KaTeX cannot draw; the message names page:line and the TeX."""


class _KaTeX:
    """One V8 isolate with KaTeX loaded, shared by every page of the build."""

    def __init__(self):
        from py_mini_racer import MiniRacer

        self.lock = threading.Lock()
        self.ctx = MiniRacer()
        self.ctx.eval(KATEX_JS.read_text(encoding="utf-8"))
        # Errors come back as values: a thrown ParseError carries KaTeX's own message.
        self.ctx.eval("function bookrunRender(tex, display, options) {"
                      " try { return {html: katex.renderToString(tex,"
                      " Object.assign({displayMode: display}, options))}; }"
                      " catch (e) { return {error: String(e.message || e)}; } }")
        self.version = self.ctx.eval("katex.version")
        atexit.register(self.ctx.close)  # an isolate left open hangs interpreter exit

    def render(self, tex: str, display: bool) -> dict:
        with self.lock:
            out = self.ctx.call("bookrunRender", tex, display, OPTIONS)
        return json.loads(out) if isinstance(out, str) else dict(out)


@lru_cache(maxsize=1)
def _katex() -> _KaTeX:
    return _KaTeX()


def close_katex() -> None:
    """Dispose of the V8 isolate now; the next formula starts a new one."""
    if _katex.cache_info().currsize:
        ctx = _katex().ctx
        atexit.unregister(ctx.close)
        ctx.close()
        _katex.cache_clear()


class _CloseAfterPage(Postprocessor):
    """Zensical runs Python embedded and never finalises it, so `atexit` never closes
    the isolate and the process dies at exit (signal 11, measured, after a complete
    build). There the isolate is closed after each page: one V8 start per page."""

    def run(self, text: str) -> str:
        close_katex()
        return text


@lru_cache(maxsize=None)
def render(tex: str, display: bool) -> tuple[str | None, str | None]:
    """(html, None) for a formula KaTeX draws, (None, KaTeX's message) for one it cannot.

    Cached for the life of the process: the same formula on several pages, or on
    every rebuild of `mkdocs serve`, is drawn once.
    """
    out = _katex().render(tex, display)
    html = out.get("html")
    return html, out.get("error")


def katex_version() -> str:
    return _katex().version


class _Drawer:
    """Turns one formula into stashed HTML, or raises MathError naming where it is."""

    def __init__(self, md):
        self.md = md

    def __call__(self, tex: str, display: bool) -> str:
        html, error = render(tex, display)
        if error is not None:
            raise MathError(where(self.md, tex) + f": KaTeX cannot draw this formula: {error}\n"
                            f"    {tex.strip()}")
        return self.md.htmlStash.store(html)


class _Inline(arithmatex.InlineArithmatexPattern):
    def __init__(self, pattern, config, draw):
        super().__init__(pattern, config)
        self.draw = draw

    def handleMatch(self, m, data):
        groups = m.groups()
        escaped = groups[0] or (groups[3] if len(groups) > 3 else None)
        if escaped:  # doubled backslashes before a dollar: arithmatex's own text
            return super().handleMatch(m, data)
        tex = groups[2] or (groups[5] if len(groups) > 5 else "")  # `$...$` or `\(...\)`
        span = etree.Element("span", {"class": "arithmatex"})
        span.text = AtomicString(self.draw(tex, False))
        return span, m.start(0), m.end(0)


class _Block(arithmatex.BlockArithmatexProcessor):
    def __init__(self, pattern, config, md, draw):
        super().__init__(pattern, config, md)
        self.draw = draw

    def generic_output(self, parent, math):
        div = etree.SubElement(parent, "div", {"class": "arithmatex"})
        div.text = AtomicString(self.draw(math, True))


class MathExtension(arithmatex.ArithmatexExtension):
    """arithmatex's syntax, KaTeX's output."""

    def extendMarkdown(self, md):
        self.setConfig("generic", True)
        super().extendMarkdown(md)
        draw = _Drawer(md)
        config = self.getConfigs()
        inline = md.inlinePatterns["arithmatex-inline"]
        md.inlinePatterns.register(_Inline(inline.pattern, config, draw),
                                   "arithmatex-inline", 189.9)
        block = md.parser.blockprocessors["arithmatex-block"]
        md.parser.blockprocessors.register(_Block(block.pattern.pattern, config, md, draw),
                                           "arithmatex-block", 79.9)
        remember_source(md)
        if "zensical" in sys.modules:
            md.postprocessors.register(_CloseAfterPage(md), "bookrun-katex-close", 0)


def makeExtension(**kwargs):
    return MathExtension(**kwargs)


# -- math in HTML that another converter wrote (a notebook page) --------------------------
# nbconvert leaves a Markdown cell's TeX as text for MathJax, which this book does not
# load. Text outside tags and outside code, scripts and styles is searched; an inline
# `$` opens before a non-space and does not close before a digit (so "$5 and $10" is
# prose), as arithmatex reads the chapter's Markdown.
HTML_SKIP = re.compile(r"<(pre|code|script|style|textarea)\b.*?</\1\s*>|<[^>]*>", re.S | re.I)
HTML_MATH = re.compile(r"\$\$(?P<block>.+?)\$\$"
                       r"|(?<![\\$])\$(?P<inline>[^\s$][^$]*?)(?<!\\)\$(?!\d)", re.S)


def draw_math_in_html(page_html: str, shown: str) -> str:
    """Every `$…$` and `$$…$$` in the text of an HTML page drawn by KaTeX, as the
    Markdown pages draw it; a formula KaTeX cannot draw raises MathError naming `shown`."""
    out, at = [], 0
    for m in HTML_SKIP.finditer(page_html):
        out += [_draw_text(page_html[at:m.start()], shown), m.group()]
        at = m.end()
    return "".join(out + [_draw_text(page_html[at:], shown)])


def _draw_text(text: str, shown: str) -> str:
    def draw(m: re.Match) -> str:
        display = m.group("block") is not None
        tex = html_module.unescape(m.group("block") if display else m.group("inline"))
        drawn, error = render(tex, display)
        if error is not None:
            raise MathError(f"{shown}: KaTeX cannot draw this formula: {error}\n"
                            f"    {tex.strip()}")
        return drawn
    return HTML_MATH.sub(draw, text) if "$" in text else text
