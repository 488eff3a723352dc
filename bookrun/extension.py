"""The Markdown extension that renders `@run` lines and `{{ }}` values from records.

Listed under `markdown_extensions` as `bookrun.extension`, it is the one renderer of
both site generators. It never executes: under MkDocs the bookrun plugin has already
executed stale chapters and tells it which page comes next (`set_page`); under Zensical,
which loads no MkDocs plugin, it reads the page from Zensical's rendering context and
accepts only fresh committed records, with figures and the notebook already written
into the docs folder by `python -m bookrun prepare`.
"""
from __future__ import annotations

import html
import os
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path

from markdown import Extension
from markdown.preprocessors import Preprocessor

from .book import Book
from .interactive import published, script_url
from .page import Chapter, PageError, parse_chapter
from .record import Record, record_path, sha256
from .render import render_page

HOME = "home"  # the snippets of the home page: not a chapter, so no notebook
# Where a chapter's .ipynb is published, under both generators (mkdocs-jupyter copies it
# there; `prepare` writes it there), and so where the Colab button opens it on gh-pages.
NOTEBOOK = "notebooks/{0}/{0}.ipynb"
FIGURE = "figures/{0}/{1}"  # a figure's path in the site, under both generators
PREPARE = ("run `python -m bookrun prepare` (it executes what is stale, as `mkdocs build` "
           "would, and writes figures and notebooks into the docs folder) or "
           "`python -m bookrun update`")


@dataclass
class PageHint:
    """What the MkDocs plugin knows of the page MkDocs is about to render."""

    root: Path  # the project root: errors name files from there
    docs_dir: Path
    snippets_root: Path
    src_uri: str  # the page's path in the docs folder, e.g. "bandits.md"
    url: str  # e.g. "bandits/"
    record: Record | None  # None: execution switched off, show code only
    failure: str | None = None  # under serve: the chapter's error; record is its last good run
    notebook_page: bool = False  # mkdocs-jupyter renders the chapter's notebook as a page
    # Zensical resolves a relative link in raw HTML from the Markdown source, as it does
    # a Markdown link; MkDocs leaves raw HTML alone, so there it is relative to the URL.
    html_links_from_source: bool = False
    chapter_number: str | None = None  # "3" numbers its figures 3.1, 3.2, ...
    serving: bool = False  # under serve a page error is shown on the page, not raised


_next_page: PageHint | None = None


def set_page(hint: PageHint | None) -> None:
    """Called by the MkDocs plugin before each page (MkDocs renders pages one by one)."""
    global _next_page
    _next_page = hint


def notebook_links(chapter: str, hint: PageHint, colab_base: str) -> str:
    """Buttons under the title: the notebook as a page (MkDocs only), the .ipynb, Colab."""
    here = posixpath.dirname(hint.src_uri) or "."
    # The folder the HTML is served from: "setup/" is setup/index.html.
    url = hint.url
    page_dir = url.rstrip("/") if url.endswith("/") else posixpath.dirname(url)
    if hint.html_links_from_source:
        page_dir = here
    ipynb = NOTEBOOK.format(chapter)
    links = []
    if hint.notebook_page:
        links.append(f"[:material-notebook-outline: Notebook]"
                     f"({posixpath.relpath(f'notebooks/{chapter}.ipynb', here)}){{ .md-button }}")
    # Raw HTML, for `download`; MkDocs copies the .ipynb after the build and could not
    # check a Markdown link to it anyway.
    href = posixpath.relpath(ipynb, page_dir or ".")
    links.append(f'<a class="md-button" download href="{href}">'
                 ":material-download: Download .ipynb</a>")
    if colab_base:
        links.append(f"[:simple-googlecolab: Open in Colab]({colab_base}/{ipynb})"
                     "{ .md-button }")
    return " ".join(links)


STALE = "This chapter failed: the outputs below are from its last good run, and stale"
BROKEN = "This page cannot be drawn until this is fixed (the page reloads when it is)"


def error_panel(markdown: str, error: str, title: str = STALE) -> str:
    """A page whose chapter failed under serve: the error first, escaped, then the last
    good outputs, marked stale. Raw HTML (Material's admonition classes), so it needs
    no Markdown extension and nothing in the error is read as Markdown."""
    panel = ('<div class="admonition failure bookrun-error" role="alert">\n'
             f'<p class="admonition-title">{title}</p>\n'
             f'<pre><code>{html.escape(error)}</code></pre>\n</div>')
    lines = markdown.split("\n")
    title = next((i for i, ln in enumerate(lines) if ln.startswith("# ")), -1)
    return "\n".join(lines[:title + 1] + ["", panel, ""] + lines[title + 1:])


class BookrunPreprocessor(Preprocessor):
    def __init__(self, md, colab_base: str):
        super().__init__(md)
        self.colab_base = colab_base

    def run(self, lines: list[str]) -> list[str]:
        text = "\n".join(lines)
        # Zensical registers its rendering context (the page) as a preprocessor.
        context = (self.md.preprocessors["rendering_context"]
                   if "rendering_context" in self.md.preprocessors else None)
        zensical = context is not None and hasattr(context, "page")
        hint = zensical_page(context) if zensical else _next_page
        if hint is None:
            if "@run" in text:
                raise PageError("(unknown page)", 1, "bookrun.extension does not know which "
                                "page it renders: under MkDocs, list the bookrun plugin too")
            return lines
        try:
            return self.render(text, hint, zensical).split("\n")
        except PageError as exc:
            if not hint.serving:
                raise
            # Under serve: the error on the page (a title alone), not a stuck server.
            title = next((ln for ln in lines if ln.startswith("# ")), "# (untitled)")
            return error_panel(title, str(exc), BROKEN).split("\n")

    def render(self, text: str, hint: PageHint, zensical: bool) -> str:
        page = hint.docs_dir / hint.src_uri
        shown = os.path.relpath(page, hint.root)
        chapter = parse_chapter(text, hint.snippets_root, shown, page)
        if chapter is None:
            return text
        if zensical:
            hint.record = fresh_record(chapter, hint, shown)
            check_prepared(chapter, hint, shown)
        links = ""
        if hint.record is not None and chapter.name != HOME:
            links = notebook_links(chapter.name, hint, self.colab_base)
        code = lambda rel: (hint.snippets_root / rel).read_text(encoding="utf-8")  # noqa: E731
        out = render_page(text, chapter, hint.record, code, hint.src_uri, links,
                          chapter_number=hint.chapter_number,
                          script=script_url(hint.src_uri, hint.url, hint.html_links_from_source))
        if hint.failure is not None:
            out = error_panel(out, hint.failure)
        return out


def zensical_page(context) -> PageHint:
    """The page Zensical is rendering, from its rendering context."""
    root = Path(context.config["root_dir"] or ".").resolve()
    book = Book(root=root, docs_dir=root / context.config["docs_dir"])
    return PageHint(root, book.docs_dir, book.snippets_root, context.page.path,
                    context.page.url, None, html_links_from_source=True,
                    chapter_number=chapter_number(context.page.meta, context.page.title))


def chapter_number(meta: dict, title: str | None) -> str | None:
    """`chapter:` from the front matter, else the number of a nav title like `3. Bandits`."""
    if "chapter" in meta:
        return str(meta["chapter"])
    m = re.match(r"(\d+)\.\s", title or "")
    return m.group(1) if m else None


def fresh_record(chapter: Chapter, hint: PageHint, shown: str) -> Record:
    """The chapter's committed record, if it is fresh; this renderer never executes."""
    book = Book(root=hint.root, docs_dir=hint.docs_dir, snippets_root=hint.snippets_root)
    record = book.fresh_record(chapter)
    if record is None:
        where = os.path.relpath(record_path(chapter.name, hint.snippets_root), hint.root)
        raise PageError(shown, chapter.steps[0].line,
                        f"{where} is missing or older than this page's snippets; {PREPARE}")
    return record


def check_prepared(chapter: Chapter, hint: PageHint, shown: str) -> None:
    """Under Zensical the site takes figures and the notebook from the docs folder, where
    `prepare` wrote them; a missing or outdated one would be a broken link."""
    for step in chapter.steps:
        snippet = next(s for s in hint.record.snippets if s["snippet"] == step.snippet)
        for fig in published(snippet):
            path = hint.docs_dir / FIGURE.format(chapter.name, fig["name"])
            if not path.is_file() or sha256(path) != fig["sha256"]:
                raise PageError(shown, step.line, f"{os.path.relpath(path, hint.root)} is "
                                f"missing or differs from the record; {PREPARE}")
    if chapter.name != HOME:
        path = hint.docs_dir / NOTEBOOK.format(chapter.name)
        if not path.is_file():
            raise PageError(shown, chapter.steps[0].line,
                            f"{os.path.relpath(path, hint.root)} is missing; {PREPARE}")


class BookrunExtension(Extension):
    def __init__(self, **kwargs):
        self.config = {"colab_base": ["", "e.g. https://colab.research.google.com/github/"
                                      "OWNER/REPO/blob/gh-pages; empty: no Colab button"]}
        super().__init__(**kwargs)

    def extendMarkdown(self, md):
        # Before whitespace normalisation (30) and fenced code (25): the directives are
        # replaced with the very text the page shows, fences and all.
        md.preprocessors.register(BookrunPreprocessor(md, self.getConfig("colab_base")),
                                  "bookrun", 32)


def makeExtension(**kwargs):
    return BookrunExtension(**kwargs)
