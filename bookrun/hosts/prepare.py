"""Write each chapter's figures and notebook into the docs folder, for Zensical.

Zensical loads no MkDocs plugin, and files an extension creates during its build do
not reliably reach the site (see the README, "Building with Zensical"), so this runs
before it: docs/figures/<chapter>/<name> and docs/notebooks/<chapter>/<chapter>.ipynb,
the URLs the MkDocs build publishes them at. Both folders are gitignored. A file is
rewritten only when its bytes differ, and a figure no longer in the record is removed.
"""
from __future__ import annotations

import os

from bookrun.store.book import Book
from bookrun.render.extension import FIGURE, NOTEBOOK
from bookrun.render.notebook import chapter_notebook, page_title
from bookrun.store.records import write_atomic


def prepare(book: Book) -> list[str]:
    """Execute stale chapters (like a build), then publish; the paths rewritten."""
    chapters = book.chapters()
    records = book.build(chapters)
    written = []

    def put(rel: str, data: bytes) -> None:
        path = book.docs_dir / rel
        if not path.is_file() or path.read_bytes() != data:
            write_atomic(path, data)
            written.append(os.path.relpath(path, book.root))

    for ch in chapters:
        if not book.has_notebook(ch):
            continue
        rec, figs = records[ch.name], book.figure_dir(ch.name)
        names = [f.name for s in rec.snippets for f in s.files]
        for name in names:
            put(FIGURE.format(ch.name, name), (figs / name).read_bytes())
        folder = book.docs_dir / FIGURE.format(ch.name, "")
        for old in sorted(folder.glob("*")) if folder.is_dir() else []:
            if old.name not in names:
                old.unlink()
                written.append(os.path.relpath(old, book.root))
        code = lambda rel: (book.snippets_root / rel).read_text(encoding="utf-8")  # noqa: E731
        text = chapter_notebook(ch, rec, code, figs, page_title(ch.page))
        put(NOTEBOOK.format(ch.name), text.encode())
    return written
