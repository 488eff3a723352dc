"""The Markdown extension's core: renders `@run` lines and `{{ }}` values from records.

It never executes, and it knows no host. It learns which page it converts from a
`PageContext`, which a provider the host gives at construction returns (`page_context(md)`):
bookrun.extension passes Zensical's, the MkDocs plugin its own (bookrun.hosts.mkdocs). The math and
diagram extensions find the page for their error messages on the Markdown instance
(`md.bookrun_page`), which this one sets before they run.
"""
from __future__ import annotations

import html
import posixpath
from dataclasses import dataclass
from pathlib import Path

from markdown import Extension
from markdown.preprocessors import Preprocessor

from bookrun.render import copy_above, zoom
from bookrun.render.icons import icon
from bookrun.config import CONFIG_FILE, EXTENSION, BookConfig, ConfigError, option_lines
from bookrun.markdown.highlight import missing_filters
from bookrun.parse.controls import script_url
from bookrun.model.page import Chapter, PageError
from bookrun.parse.chapter import DIRECTIVE, ChapterDoc
from bookrun.parse.front_matter import chapter_number  # noqa: F401 (the hosts' import)
from bookrun.store.records import Record, figures_path
from bookrun.render.links import PageLinks, colab_url, expand_book_lines
from bookrun.render.page import render_page
from bookrun.model.text import visible

# Where a chapter's .ipynb is published, under both generators (mkdocs-jupyter copies it
# there; `prepare` writes it there), and so where the Colab button opens it on gh-pages.
NOTEBOOK = "notebooks/{0}/{0}.ipynb"
FIGURE = "figures/{0}/{1}"  # a figure's path in the site, under both generators


@dataclass
class PageContext:
    """What the host knows of the page it is about to convert."""

    root: Path  # the project root: errors name files from there
    snippets_root: Path
    src_uri: str  # the page's path in the docs folder, e.g. "bandits.md"
    url: str  # e.g. "bandits/"
    shown: str  # the page's file as errors name it, e.g. "docs/bandits.md"
    source: str  # the page's file as the author wrote it (front matter and all)
    doc: ChapterDoc | None  # its parse (read once); None: it runs no snippet
    record: Record | None  # None: execution switched off, show code only
    failure: str | None = None  # under serve: the chapter's error; record is its last good run
    notebook: bool = False  # the chapter has a notebook (buttons under the title)
    notebook_page: bool = False  # mkdocs-jupyter renders the chapter's notebook as a page
    # Zensical resolves a relative link in raw HTML from the Markdown source, as it does
    # a Markdown link; MkDocs leaves raw HTML alone, so there it is relative to the URL.
    html_links_from_source: bool = False
    chapter_number: str | None = None  # "3" numbers its figures 3.1, 3.2, ...
    # The book's repository (MkDocs' `repo_url`; None: it names none): the Colab button
    # and the clone command are derived from it.
    repo_url: str | None = None
    serving: bool = False  # under serve a page error is shown on the page, not raised
    error: str | None = None  # the page itself is broken (serve shows this on the page)
    # The book's whole config (both places in mkdocs.yml and the environment), where the
    # host read it (Zensical's); None: the one the extension was built with (the plugin's).
    config: BookConfig | None = None

    @property
    def chapter(self) -> Chapter | None:
        return self.doc.chapter if self.doc is not None else None


def served_dir(hint: PageContext) -> str:
    """The folder the page's raw-HTML links are resolved from: the folder its HTML is
    served from ("setup/" is setup/index.html) under MkDocs, its source's under Zensical."""
    if hint.html_links_from_source:
        return posixpath.dirname(hint.src_uri) or "."
    url = hint.url
    return (url.rstrip("/") if url.endswith("/") else posixpath.dirname(url)) or "."


def site_root(hint: PageContext) -> str:
    """The site root as the page's raw-HTML links reach it: "../", or "" at the top."""
    folder = served_dir(hint)
    return "" if folder == "." else posixpath.relpath(".", folder) + "/"


def notebook_links(chapter: str, hint: PageContext) -> str:
    """Buttons under the title: the notebook as a page (MkDocs only), the .ipynb, Colab."""
    here = posixpath.dirname(hint.src_uri) or "."
    page_dir = served_dir(hint)
    ipynb = NOTEBOOK.format(chapter)
    links = []
    if hint.notebook_page:
        links.append(f"[{icon('notebook')} Notebook]"
                     f"({posixpath.relpath(f'notebooks/{chapter}.ipynb', here)}){{ .md-button }}")
    # Raw HTML, for `download`; MkDocs copies the .ipynb after the build and could not
    # check a Markdown link to it anyway.
    href = posixpath.relpath(ipynb, page_dir or ".")
    links.append(f'<a class="md-button" download href="{href}">'
                 f"{icon('download')} Download .ipynb</a>")
    colab = colab_url(hint.repo_url, ipynb)
    if colab:  # the book's repository is on GitHub: Colab opens its published notebook
        links.append(f"[{icon('colab')} Open in Colab]({colab}){{ .md-button }}")
    return " ".join(links)


STALE = "This chapter failed: the outputs below are from its last good run, and stale"
BROKEN = "This page cannot be drawn until this is fixed (the page reloads when it is)"


def error_panel(markdown: str, error: str, title: str = STALE) -> str:
    """A page whose chapter failed under serve: the error first, escaped, then the last
    good outputs, marked stale. Raw HTML (Material's admonition classes), so it needs
    no Markdown extension and nothing in the error is read as Markdown."""
    panel = ('<div class="admonition failure bookrun-error" role="alert">\n'
             f'<p class="admonition-title">{title}</p>\n'
             f'<pre><code>{html.escape(visible(error))}</code></pre>\n</div>')
    lines = markdown.split("\n")
    title = next((i for i, ln in enumerate(lines) if ln.startswith("# ")), -1)
    return "\n".join(lines[:title + 1] + ["", panel, ""] + lines[title + 1:])


class BookrunPreprocessor(Preprocessor):
    def __init__(self, md, config: BookConfig, page_context, error: ConfigError | None = None):
        super().__init__(md)
        self.config, self.page_context, self.error = config, page_context, error

    def run(self, lines: list[str]) -> list[str]:
        context = self.page_context(self.md)
        self.md.bookrun_page = (context.shown, context.source) if context else None
        if self.error is not None and (context is None or context.config is None):
            raise self.error  # its own options were wrong, and no host read them first
        if context is not None and context.config is not None:
            self.config = context.config  # the book's, which the host read (Zensical)
        if context is None or (context.chapter is None and context.error is None):
            if context is None and any(DIRECTIVE.match(ln) for ln in lines):
                raise no_plugin()
            if context is None:
                return lines
            pdf = PageLinks(context.src_uri, root=site_root(context), has_pdf=self.config.pdf).pdf
            return expand_book_lines("\n".join(lines), context.repo_url, pdf).split("\n")
        try:
            if context.error is not None:
                raise PageError(context.shown, 0, context.error)
            return self.render("\n".join(lines), context).split("\n")
        except PageError as exc:
            if not context.serving:
                raise
            # Under serve: the error on the page (a title alone), not a stuck server.
            title = next((ln for ln in lines if ln.startswith("# ")), "# (untitled)")
            message = context.error if context.error is not None else str(exc)
            return error_panel(title, message, BROKEN).split("\n")

    def render(self, text: str, context: PageContext) -> str:
        chapter = context.chapter
        buttons = ""
        if context.record is not None and context.notebook:
            buttons = notebook_links(chapter.name, context)
        links = PageLinks(context.src_uri, buttons, site_root(context),
                          script_url(context.src_uri, context.url, context.html_links_from_source),
                          has_pdf=self.config.pdf)
        code = lambda rel: (context.snippets_root / rel).read_text(encoding="utf-8")  # noqa: E731
        figures = figures_path(chapter.name, context.snippets_root)
        out = render_page(context.doc, context.record, code, links, self.config,
                          chapter_number=context.chapter_number, text=text,
                          first_line=first_line(context.source, text),
                          read_figure=lambda name: read_svg(figures / name))
        # After the page is drawn: its bindings are placed by the lines of the source.
        out = expand_book_lines(out, context.repo_url, links.pdf)
        if context.failure is not None:
            out = error_panel(out, context.failure)
        return out


def no_plugin() -> PageError:
    """A page with `@run` lines converted by MkDocs without the bookrun plugin, which
    executes the snippets and names the page: the error names mkdocs.yml's line."""
    line = option_lines(Path(CONFIG_FILE))[EXTENSION].get("", 1)
    return PageError(CONFIG_FILE, line, f"{EXTENSION} is listed but MkDocs runs no `bookrun` "
                     "plugin, which executes the snippets and tells the extension which page "
                     "it renders: add `- bookrun` under `plugins:` (Zensical needs none: run "
                     "`python -m bookrun prepare` before `zensical build`)")


def read_svg(path: Path) -> str:
    """A figure's SVG, or "" where it is missing (serve's last good run): no panels."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""


def first_line(source: str, text: str) -> int:
    """The line of the file on which the converted text starts: a host strips the front
    matter (and MkDocs the blank lines after it) before conversion."""
    body = text.strip("\n")
    at = source.rfind(body) if body else -1
    return source.count("\n", 0, at) + 1 if at >= 0 else 1


# The Markdown extensions the rendered pages rely on, with what each draws; the MkDocs
# host refuses a config without them (Python-Markdown would show the markup as text).
NEEDED = {
    "attr_list": "the classes of figures, outputs and notebook buttons (`{ .bookrun-figure }`)",
    "pymdownx.superfences": "each snippet's code and output blocks, with their titles",
    "pymdownx.blocks.caption": "each figure with its numbered caption",
}
NEEDED_FOR_HEADERS = {"md_in_html": "the chapter header (Markdown inside its HTML block)"}


def markdown_problems(extensions, extension_configs: dict, config: BookConfig) -> list[str]:
    """What a host's Markdown setup (the extensions' names and their options) lacks for
    the pages this extension renders, each said with what needs it: a missing extension,
    or a Pygments filter the highlighter is told to use and does not have."""
    needed = dict(NEEDED, **(NEEDED_FOR_HEADERS if config.chapter_headers else {}))
    have = {n for n in extensions if isinstance(n, str)}
    problems = [f"add `{name}` to markdown_extensions: bookrun needs it for {why}"
                for name, why in needed.items() if name not in have]
    return problems + missing_filters(extension_configs.get("pymdownx.highlight") or {})


class BookrunExtension(Extension):
    """The renderer as a Python-Markdown extension.

    `page_context(md)`: the host's provider of the page being converted (its PageContext,
    or None), given at construction; `config`: the book's options, or None to read them
    from this extension's own options (Zensical passes those as keyword arguments)."""

    def __init__(self, page_context, config: BookConfig | None = None, **options):
        super().__init__()
        self.page_context = page_context
        # A wrong option of its own is raised when a page is converted, not here: MkDocs
        # builds the extension while it checks mkdocs.yml, and would bury the message
        # under a traceback, while the plugin (or Zensical's host, which reads
        # mkdocs.yml itself) names the option with its line first.
        self.error = None
        if config is None:
            try:
                config = BookConfig.from_options(options)
            except ConfigError as exc:
                config, self.error = BookConfig(), exc
        self.book_config = config

    def extendMarkdown(self, md):
        # Before whitespace normalisation (30) and fenced code (25): the directives are
        # replaced with the very text the page shows, fences and all.
        md.preprocessors.register(BookrunPreprocessor(md, self.book_config, self.page_context,
                                                      self.error), "bookrun", 32)
        copy_above.register(md)  # the HTML of the placeholders render_step writes
        zoom.register(md)  # each figure in a link the lightbox opens; its panels
