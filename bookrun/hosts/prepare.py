"""Write each chapter's figures and notebook, and bookrun's assets, into the docs folder,
for Zensical.

Zensical loads no MkDocs plugin, and files an extension creates during its build do
not reliably reach the site (see the README, "Building with Zensical"), so this runs
before it: docs/figures/<chapter>/<name>, docs/notebooks/<chapter>/<chapter>.ipynb and
docs/assets/bookrun/, the URLs the MkDocs build publishes them at. The three folders
are gitignored. A file is rewritten only when its bytes differ, and a figure no longer
in the record is removed.
"""
from __future__ import annotations

import os

from bookrun.config import read_site_config
from bookrun.hosts.publish import assets, notebook_text, write_if_changed
from bookrun.render.extension import FIGURE, NOTEBOOK
from bookrun.store.book import Book


def prepare(book: Book) -> list[str]:
    """Execute stale chapters (like a build), then publish; the paths rewritten."""
    docs = book.documents()
    records = book.build([d.chapter for d in docs])
    site_url = read_site_config(book.root).get("site_url")  # the notebooks' links lead there
    written = []

    def put(rel: str, data: bytes) -> None:
        path = book.docs_dir / rel
        if write_if_changed(path, data):
            written.append(os.path.relpath(path, book.root))

    for url, source in assets(material=False).items():
        put(url, source.read_bytes())
    for doc in docs:
        ch = doc.chapter
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
        put(NOTEBOOK.format(ch.name), notebook_text(book, doc, rec, site_url).encode())
    return written
