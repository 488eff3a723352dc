"""What Material's search indexes of a page: each formula as its TeX, read in order.

KaTeX writes a formula three times: as MathML (read aloud), as its TeX (the MathML's
annotation) and as drawn HTML. The drawn HTML's text comes in layout order, so a
fraction's denominator can come before its numerator and a preview reads the ratio
upside down; the MathML's text runs tokens together with no fraction bar. The TeX is
the one text a reader can read back. Material's `data-search-exclude` cannot leave out
the drawn HTML alone: its parser compares elements by tag, so the first nested `</span>`
ends the exclusion. So the search is handed a copy of the page in which each formula
is its TeX, and the page itself keeps every formula as drawn.
"""
from __future__ import annotations

import re

FORMULA = re.compile(r'<span class="katex(?:-display)?">')
TEX = re.compile(r'<annotation encoding="application/x-tex">(.*?)</annotation>', re.S)
SPAN = re.compile(r"<span\b|</span>")
# Material removes its search attributes from a page once indexed; so does the restore.
SEARCH_ATTRIBUTE = re.compile(r'\s?data-search-\w+(?:="[^"]*")?(?=[\s>])')


def _end_of_span(text: str, start: int) -> int:
    """Where the <span> opened at `start` closes (just past its `</span>`)."""
    depth = 0
    for tag in SPAN.finditer(text, start):
        depth += 1 if tag.group() == "<span" else -1
        if depth == 0:
            return tag.end()
    return len(text)  # unbalanced: the formula runs to the end of the page


def without_search_attributes(page_html: str) -> str:
    return SEARCH_ATTRIBUTE.sub("", page_html)


def search_view(page_html: str) -> str:
    """The page with each KaTeX formula replaced by its TeX (escaped as text)."""
    out, at = [], 0
    while (found := FORMULA.search(page_html, at)) is not None:
        end = _end_of_span(page_html, found.start())
        tex = TEX.search(page_html, found.start(), end)
        out.append(page_html[at:found.start()])
        # Already escaped as it stands in the annotation; the prose brings its own spaces.
        out.append(tex.group(1).strip() if tex else "")
        at = end
    out.append(page_html[at:])
    return "".join(out)

