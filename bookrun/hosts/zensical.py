"""The Zensical host: which page Zensical converts, and its fresh committed record.

Zensical loads no MkDocs plugin, so it never executes: `python -m bookrun prepare` runs
before it (executing what is stale, as `mkdocs build` would) and writes each chapter's
figures and notebook into the docs folder, and here a page is drawn only from a fresh
record whose figures and notebook are in place.
"""
from __future__ import annotations

import os
from pathlib import Path

from bookrun.store.book import Book
from bookrun.model.page import Chapter, PageError, RecordError
from bookrun.parse.chapter import parse_chapter
from bookrun.render.extension import FIGURE, NOTEBOOK, PageContext, chapter_number
from bookrun.store.records import Record, record_path, sha256

PREPARE = ("run `python -m bookrun prepare` (it executes what is stale, as `mkdocs build` "
           "would, and writes figures and notebooks into the docs folder) or "
           "`python -m bookrun update`")


def page_context(md) -> PageContext | None:
    """The page Zensical is converting, from the rendering context it registers as a
    preprocessor; None when there is none (a plain Markdown conversion)."""
    if "rendering_context" not in md.preprocessors:
        return None
    context = md.preprocessors["rendering_context"]
    if not hasattr(context, "page"):
        return None
    root = Path(context.config["root_dir"] or ".").resolve()
    book = Book(root=root, docs_dir=root / context.config["docs_dir"])
    path = book.docs_dir / context.page.path
    shown = os.path.relpath(path, root)
    source = path.read_text(encoding="utf-8")
    doc = parse_chapter(source, book.snippets_root, shown, path, book.config.min_alt_words)
    chapter = doc.chapter if doc is not None else None
    record = None
    if chapter is not None:
        record = fresh_record(book, chapter)
        check_prepared(book, chapter, record)
    return PageContext(root, book.snippets_root, context.page.path, context.page.url, shown,
                       source, doc, record,
                       notebook=chapter is not None and book.has_notebook(chapter),
                       html_links_from_source=True, repo_url=_repo_url(context.config),
                       chapter_number=chapter_number(context.page.meta, context.page.title),
                       # The plugin's options and the environment's too: Zensical hands
                       # the extension only its own (bookrun.config.load).
                       config=book.config)


def fresh_record(book: Book, chapter: Chapter) -> Record:
    """The chapter's committed record, if it is fresh; Zensical never executes."""
    try:
        record = book.fresh_record(chapter)
    except RecordError as exc:  # edited by hand or corrupt: named, with the way out
        raise PageError(chapter.shown, chapter.steps[0].line, str(exc)) from None
    if record is None:
        where = os.path.relpath(record_path(chapter.name, book.snippets_root), book.root)
        raise PageError(chapter.shown, chapter.steps[0].line,
                        f"{where} is missing or older than this page's snippets; {PREPARE}")
    return record


def check_prepared(book: Book, chapter: Chapter, record: Record) -> None:
    """The site takes figures and the notebook from the docs folder, where `prepare`
    wrote them; a missing or outdated one would be a broken link."""
    for step in chapter.steps:
        for fig in record.snippet(step.snippet).files:
            path = book.docs_dir / FIGURE.format(chapter.name, fig.name)
            if not path.is_file() or sha256(path) != fig.sha256:
                raise PageError(chapter.shown, step.line, f"{os.path.relpath(path, book.root)} "
                                f"is missing or differs from the record; {PREPARE}")
    if book.has_notebook(chapter):
        path = book.docs_dir / NOTEBOOK.format(chapter.name)
        if not path.is_file():
            raise PageError(chapter.shown, chapter.steps[0].line,
                            f"{os.path.relpath(path, book.root)} is missing; {PREPARE}")


def _repo_url(config) -> str | None:
    """The book's repository as Zensical read it from mkdocs.yml (None: it names none)."""
    try:
        url = config.get("repo_url")
    except AttributeError:
        return None
    return str(url).strip() or None if url else None
