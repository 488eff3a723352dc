"""Markdown extension `bookrun.markdown.reach`: boxes that may scroll sideways take keyboard focus.

A code block, a display formula or a diagram wider than the column (on a phone, most
of them) scrolls inside its own box, and a keyboard can only scroll a box that can
take focus (WCAG 2.1.1; axe's scrollable-region-focusable). Whether a box overflows
is only known once it is laid out, and measuring every box on load forced the
layout of the whole page (the work book.css defers with content-visibility): the
longest task of a chapter's load. So every such box is made focusable here, in the
HTML, under both generators; a box that turns out not to scroll is one more Tab
stop, which costs a keyboard reader less than a box it cannot scroll.

Tables are wrapped in their scrolling box by the theme's script, so
docs/assets/a11y.js marks those, without measuring them.
"""
from __future__ import annotations

import re

from markdown import Extension
from markdown.postprocessors import Postprocessor

# The scrolling element of each kind (book.css and the theme give it overflow-x:
# auto): the <code> inside a highlighted <pre>, KaTeX's display box, a diagram.
SCROLLERS = re.compile(r'<(?:code|div class="(?:arithmatex|bookrun-diagram)")(?=[\s>])'
                       r"(?![^>]*\btabindex=)")
IN_PRE = re.compile(r"<pre[^>]*>(?:<span></span>)?$")


def mark(html: str) -> str:
    """`tabindex="0"` on every scrolling box: block code, display math, diagrams."""
    out, last = [], 0
    for m in SCROLLERS.finditer(html):
        # Inline code is not a box: only a <code> that opens a <pre>.
        if m.group().startswith("<code") and not IN_PRE.search(html, max(0, m.start() - 60),
                                                               m.start()):
            continue
        out += [html[last:m.end()], ' tabindex="0"']
        last = m.end()
    return "".join(out) + html[last:]


class ReachPostprocessor(Postprocessor):
    def run(self, text: str) -> str:
        return mark(text)


class ReachExtension(Extension):
    def extendMarkdown(self, md):
        # After the raw HTML (highlighted code, math, diagrams) is back in place (30).
        md.postprocessors.register(ReachPostprocessor(md), "bookrun_reach", 14)


def makeExtension(**kwargs):
    return ReachExtension(**kwargs)
