"""The MkDocs plugin: execute (or reuse) chapters before pages are read, then render."""
from __future__ import annotations

import os
import posixpath
from pathlib import Path

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, get_plugin_logger
from mkdocs.structure.files import File

from .book import Book
from .notebook import chapter_notebook
from .page import PageError
from .record import write_atomic
from .render import render_page
from .session import DEFAULT_TIMEOUT, ExecutionError
from .source import page_source

log = get_plugin_logger(__name__)
HOME = "home"  # the snippets of the home page: not a chapter, so no notebook


class BookrunConfig(Config):
    execute = c.Type(bool, default=True)  # False: show code only (a plain build)
    timeout = c.Type((int, float), default=DEFAULT_TIMEOUT)  # seconds per chapter
    snippets_dir = c.Type(str, default="snippets")
    colab_base = c.Optional(c.Type(str))  # e.g. https://colab.research.google.com/github/O/R/blob/gh-pages


class BookrunPlugin(BasePlugin[BookrunConfig]):
    def on_config(self, config):
        root = Path(config.config_file_path).resolve().parent
        self.book = Book(root=root, docs_dir=Path(config.docs_dir),
                         snippets_root=root / self.config.snippets_dir,
                         timeout=float(self.config.timeout))
        self.book.log = lambda msg: log.info(msg.removeprefix("bookrun: "))
        return config

    def on_files(self, files, config):
        try:
            chapters = self.book.chapters()
            records = self.book.build(chapters) if self.config.execute else {}
        except (PageError, ExecutionError) as exc:
            raise PluginError(f"bookrun: {exc}") from None
        self.pages = {}
        for ch in chapters:
            rec = records.get(ch.name)
            self.pages[str(ch.page.resolve())] = (ch, rec)
            if rec is None or ch.name == HOME:
                continue
            figs = self.book.figure_dir(ch.name)
            for s in rec.snippets:
                for f in s["figures"]:
                    files.append(File.generated(config, f"figures/{ch.name}/{f['name']}",
                                                abs_src_path=str(figs / f["name"])))
            # Written to the cache (not handed over as a string) so that mkdocs-jupyter,
            # which reads notebooks from disk, can render it as a page too.
            src_dir = self.book.cache / "generated"
            uri = f"notebooks/{ch.name}.ipynb"
            text = chapter_notebook(ch, rec, self._read_code, figs, _title(ch.page))
            if not (src_dir / uri).is_file() or (src_dir / uri).read_text("utf-8") != text:
                write_atomic(src_dir / uri, text.encode())
            files.append(File(uri, str(src_dir), config.site_dir, config.use_directory_urls))
        return files

    def _read_code(self, rel: str) -> str:
        return (self.book.snippets_root / rel).read_text(encoding="utf-8")

    def on_page_markdown(self, markdown, page, config, files):
        self._name_page_for_extensions(page, markdown)
        found = self.pages.get(str(Path(page.file.abs_src_path).resolve()))
        if found is None:
            return markdown
        chapter, record = found
        links = self._notebook_links(chapter, page) if record and chapter.name != HOME else ""
        return render_page(markdown, chapter, record, self._read_code, page.file.src_uri, links)

    def _name_page_for_extensions(self, page, markdown):
        # The math and diagram extensions see the Markdown after `@run` lines are
        # expanded; this lets their errors name the page and line as written.
        src = Path(page.file.abs_src_path) if page.file.abs_src_path else None
        if src is not None and src.suffix == ".md" and src.is_file():
            page_source.set((os.path.relpath(src, self.book.root),
                             src.read_text(encoding="utf-8")))
        else:
            page_source.set((page.file.src_uri, markdown))

    def _notebook_links(self, chapter, page) -> str:
        """Buttons under the title: the notebook as a page, the .ipynb, Colab."""
        here = posixpath.dirname(page.file.src_uri) or "."
        # The folder the HTML is served from: "setup/" is setup/index.html.
        page_dir = page.url.rstrip("/") if page.url.endswith("/") else posixpath.dirname(page.url)
        ipynb = f"notebooks/{chapter.name}/{chapter.name}.ipynb"  # where mkdocs-jupyter copies it
        links = [
            f"[:material-notebook-outline: Notebook]"
            f"({posixpath.relpath(f'notebooks/{chapter.name}.ipynb', here)}){{ .md-button }}",
            # Raw HTML: the .ipynb is copied after the build, so MkDocs cannot check the link.
            f'<a class="md-button" download href="{posixpath.relpath(ipynb, page_dir or ".")}">'
            ":material-download: Download .ipynb</a>",
        ]
        if self.config.colab_base:
            links.append(f"[:simple-googlecolab: Open in Colab]({self.config.colab_base}/{ipynb})"
                         "{ .md-button }")
        return " ".join(links)


def _title(page: Path) -> str:
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return page.stem
