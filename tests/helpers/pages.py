"""Render a fixture book's page in-process, as the extension does (no MkDocs)."""
from __future__ import annotations

from bookrun.config import BookConfig
from bookrun.render.links import PageLinks
from bookrun.render.page import render_page

# What this book turns on in mkdocs.yml (the engine's defaults are off).
BOOK_POLICY = BookConfig(chapter_headers=True, min_alt_words=8, number_figures=True)


def render_book_page(book, record, chapter_number: str | None = None,
                     script: str | None = None, config: BookConfig = BOOK_POLICY,
                     uri: str = "demo.md") -> str:
    """The Markdown the extension gives for the book's one chapter page."""
    [doc] = book.documents()
    code = lambda rel: (book.snippets_root / rel).read_text(encoding="utf-8")  # noqa: E731
    return render_page(doc, record, code, PageLinks(uri, script=script), config,
                       chapter_number=chapter_number)
