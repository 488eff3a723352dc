"""What both hosts publish beside the pages: the book built, each chapter's notebook, and
bookrun's own scripts and stylesheet (shipped in bookrun/render/assets/).

The MkDocs plugin adds these to the site itself; `python -m bookrun prepare` writes them
into the docs folder for Zensical, which loads no plugin. Both publish them at the same
addresses, so a page links them the same way under either generator."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from bookrun.model.page import Chapter, ExecutionError, PageError
from bookrun.parse.chapter import ChapterDoc
from bookrun.model.text import visible
from bookrun.render.notebook import chapter_notebook
from bookrun.render.notebook_prose import SiteLinks
from bookrun.store.book import Book
from bookrun.store.records import Record, write_atomic

ASSET_DIR = Path(__file__).resolve().parent.parent / "render" / "assets"
ASSET_URL = "assets/bookrun/{}"  # in the site (and, for Zensical, in the docs folder)
STYLESHEETS = ["bookrun.css"]  # on every page
SCRIPTS = ["copy_above.js"]  # on every page
# Loaded only by the pages that need it (bookrun.parse.controls.SCRIPT names its address).
ON_DEMAND = ["frames.js"]
# Material only: runs before its bundle (bookrun.hosts.mkdocs puts it there).
BEFORE_THEME = ["search_on_demand.js"]


class BuildError(Exception):
    """A page or chapter error, written out for a terminal (an error may quote a snippet's
    output, and `\\x1b[2J` would clear the screen)."""


@dataclass(frozen=True)
class Published:
    """What a page's chapter has, as the host published it."""

    doc: ChapterDoc  # the page's one parse
    record: Record | None  # None: execution switched off
    failure: str | None = None  # under serve: the chapter's error, record its last good run
    notebook_page: bool = False  # the notebook is rendered as a page too (mkdocs-jupyter)

    @property
    def chapter(self) -> Chapter:
        return self.doc.chapter


def build(book: Book, execute: bool = True) -> tuple[list[ChapterDoc], dict[str, Record]]:
    """Every chapter's page, each read and parsed once, and the records of those executed
    (or reused); none when `execute` is off. A page or chapter error is a BuildError."""
    try:
        docs = book.documents()
        return docs, (book.build([d.chapter for d in docs]) if execute else {})
    except (PageError, ExecutionError) as exc:
        raise BuildError(visible(str(exc))) from None


def notebook_text(book: Book, doc: ChapterDoc, record: Record,
                  site_url: str | None = None) -> str:
    """The chapter's notebook, from its page, record and code; its links to other pages
    lead to the published book at `site_url` (relative without one)."""
    src = Path(os.path.relpath(doc.chapter.page, book.docs_dir)).as_posix()
    return chapter_notebook(doc, record, lambda rel: read_code(book, rel),
                            book.figure_dir(doc.chapter.name), SiteLinks(src, site_url))


def read_code(book: Book, rel: str) -> str:
    return (book.snippets_root / rel).read_text(encoding="utf-8")


def assets(material: bool = True) -> dict[str, Path]:
    """Each shipped asset's address in the site, and its file in the package (without
    `material`, those for any theme: Zensical's search is its own)."""
    names = STYLESHEETS + SCRIPTS + ON_DEMAND + (BEFORE_THEME if material else [])
    return {ASSET_URL.format(name): ASSET_DIR / name for name in names}


def write_if_changed(path: Path, data: bytes) -> bool:
    """Write `path` only when its bytes differ (a rebuild then touches nothing)."""
    if path.is_file() and path.read_bytes() == data:
        return False
    write_atomic(path, data)
    return True
