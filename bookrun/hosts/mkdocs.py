"""The MkDocs host: execute (or reuse) chapters before pages are read; publish their
figures, notebooks and bookrun's assets; hand the Markdown extension the page it
converts (PageContext) through the one provider it was built with.

Its options are BookConfig's fields (the MkDocs `Config` below is generated from them),
and so are `bookrun.extension`'s: each option is given in one of the two places. What
only `mkdocs serve` does lives in bookrun.hosts.serve."""
from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority, get_plugin_logger
from mkdocs.structure.files import File

from bookrun.config import EXTENSION, PLUGIN, BookConfig, ConfigError, option_lines, places
from bookrun.hosts import publish
from bookrun.hosts.search_view import search_view, without_search_attributes
from bookrun.hosts.serve import Serve, stale, stop_on_sigterm
from bookrun.markdown.diagrams import DEFAULT_CACHE, DiagramError, draw_diagrams_in_html
from bookrun.markdown.math import MathError, draw_math_in_html
from bookrun.model.text import unprefixed
from bookrun.render.extension import (FIGURE, NOTEBOOK, BookrunExtension, PageContext,
                                      chapter_number, markdown_problems)
from bookrun.render import zoom
from bookrun.render.links import placeholder_links
from bookrun.store.book import Book

log = get_plugin_logger(__name__)
NOTEBOOK_PAGES = "mkdocs-jupyter"  # the plugin that renders a chapter's notebook as a page
NO_ALT = "No description has been provided for this image"  # nbconvert's placeholder


def _plugin_config() -> type[Config]:
    """The plugin's MkDocs Config, generated from BookConfig: every field an option that
    is None unless given here. Defaults, checks and the environment are BookConfig's
    (`from_sources`), so they are declared once for both places."""
    options = {f.name: c.Optional(c.Type(object)) for f in dataclasses.fields(BookConfig)}
    return type("BookrunConfig", (Config,),
                {"__doc__": "The bookrun plugin's options: BookConfig's fields.", **options})


BookrunConfig = _plugin_config()


class CurrentPage:
    """The plugin's one channel to the extension, given to it at construction: the
    PageContext of the page MkDocs converts now. MkDocs converts a page right after
    `on_page_markdown` (which begins it) and before `on_page_content` (which ends it)."""

    def __init__(self):
        self.context: PageContext | None = None

    def __call__(self, md) -> PageContext | None:
        return self.context


class BookrunPlugin(BasePlugin[BookrunConfig]):
    def __init__(self):
        super().__init__()
        self.current = CurrentPage()
        self.serve: Serve | None = None  # under `mkdocs serve` only
        self.book: Book | None = None
        self.pages: dict[str, publish.Published] = {}  # page file -> what its chapter has
        self.broken: dict[str, str] = {}  # serve: page file -> the error it shows
        self.drawn: str | None = None  # the page's own HTML while the search reads its TeX
        self.built = None  # a build's (pages, records), executed before site/ is cleaned

    # Having on_startup keeps one plugin object across the rebuilds of `mkdocs serve`.
    def on_startup(self, *, command, dirty):
        # Only `mkdocs serve` shows a failing chapter as an error panel on its page; a
        # build (strict or not) and `serve --clean` fail as before, so no error page is
        # ever published.
        if command == "serve" and self.serve is None:
            self.serve = Serve(dirty, log.info)
            stop_on_sigterm()

    def on_config(self, config):
        book_config = self._book_config(config)
        problems = markdown_problems(config.markdown_extensions, config.mdx_configs, book_config)
        if problems:
            raise PluginError(f"bookrun: {os.path.relpath(config.config_file_path)}: "
                              + "; ".join(problems))
        # The extension renders what the plugin executes: its entry in mkdocs.yml becomes
        # an instance built with the book's config and this plugin's page provider. A
        # config that lists only the plugin gets it too.
        for e in [e for e in config.markdown_extensions
                  if e == EXTENSION or isinstance(e, BookrunExtension)]:
            config.markdown_extensions.remove(e)
        config.markdown_extensions.append(BookrunExtension(self.current, book_config))
        # bookrun's stylesheet before the book's (which may override it); its scripts after.
        for name in reversed(publish.STYLESHEETS):
            config.extra_css.insert(0, publish.ASSET_URL.format(name))
        config.extra_javascript.extend(publish.ASSET_URL.format(n) for n in publish.SCRIPTS)
        root = Path(config.config_file_path).resolve().parent
        self.book = Book(root=root, config=book_config, docs_dir=Path(config.docs_dir),
                         frozen=book_config.frozen)
        self.book.log = lambda msg: log.info(msg.removeprefix("bookrun: "))
        self.book.warn = log.warning  # `mkdocs build --strict` then fails on it
        if self.serve is not None:
            self.serve.configure(self.book)
        return config

    def _book_config(self, config) -> BookConfig:
        """The plugin's options and the extension's, met in one BookConfig; a wrong one
        is named with its line in mkdocs.yml."""
        plugin, extension = places(os.path.relpath(config.config_file_path))
        lines = option_lines(Path(config.config_file_path))
        given = {k: v for k, v in self.config.items() if v is not None}
        try:
            return BookConfig.from_sources([(plugin, given, lines[PLUGIN]), (extension, dict(
                config.mdx_configs.get(EXTENSION) or {}), lines[EXTENSION])])
        except ConfigError as exc:
            raise PluginError(f"bookrun: {exc}") from None

    def on_pre_build(self, config):
        """A build executes what is stale here, before MkDocs cleans the site folder:
        a chapter that fails leaves the last site as it was. (Serve runs in on_files.)"""
        self.built = None
        if self.serve is None:
            try:
                self.built = publish.build(self.book, self.book.config.execute)
            except publish.BuildError as exc:
                raise PluginError(f"bookrun: {unprefixed(str(exc))}") from None

    def on_files(self, files, config):
        execute = self.book.config.execute
        try:
            if self.serve is not None:
                docs, records, failures, self.broken = self.serve.build(self.book, execute)
            else:
                (docs, records), failures = self.built, {}
        except publish.BuildError as exc:
            raise PluginError(f"bookrun: {unprefixed(str(exc))}") from None
        self._drop_prepared(files, [d.chapter for d in docs])
        for url, path in publish.assets().items():
            files.append(File.generated(config, url, abs_src_path=str(path)))
        self.pages = {}
        for doc in docs:
            ch = doc.chapter
            rec, failure = records.get(ch.name), failures.get(ch.name)
            notebook = rec is not None and self.book.has_notebook(ch) and self._publish(
                doc, rec, failure, files, config)
            self.pages[str(ch.page.resolve())] = publish.Published(doc, rec, failure, notebook)
            if self.serve is not None:
                self.serve.mark_changed(self.book, ch, rec, failure, files)
        return files

    def _publish(self, doc, record, failure, files, config) -> bool:
        """Add the chapter's figures and notebook to the site; whether the notebook is a
        page too (when mkdocs-jupyter is there to render it)."""
        chapter = doc.chapter
        figs = self.book.figure_dir(chapter.name)
        for s in record.snippets:
            for f in s.files:
                if failure is None or (figs / f.name).is_file():
                    files.append(File.generated(config, FIGURE.format(chapter.name, f.name),
                                                abs_src_path=str(figs / f.name)))
        # Written to the cache (not handed over as a string) so that mkdocs-jupyter,
        # which reads notebooks from disk, can render it as a page too.
        src_dir = self.book.cache / "generated"
        uri = f"notebooks/{chapter.name}.ipynb"
        if failure is None:
            site_url = config.site_url or None  # where the notebook's links lead
            text = (self.serve.notebook(self.book, doc, record, site_url)
                    if self.serve is not None
                    else publish.notebook_text(self.book, doc, record, site_url))
            publish.write_if_changed(src_dir / uri, text.encode())
        elif not (src_dir / uri).is_file():  # a failing chapter keeps its last notebook
            return False
        # The download, where the button links it (and Colab opens it on gh-pages), with
        # mkdocs-jupyter or without: from memory, so mkdocs-jupyter takes it for no page.
        files.append(File.generated(config, NOTEBOOK.format(chapter.name),
                                    content=(src_dir / uri).read_bytes()))
        if NOTEBOOK_PAGES not in config.plugins:
            return False
        files.append(File(uri, str(src_dir), config.site_dir, config.use_directory_urls))
        return True

    def _drop_prepared(self, files, chapters):
        """`python -m bookrun prepare` (for Zensical) writes figures, notebooks and
        bookrun's assets into the docs folder; here the plugin publishes its own at the
        same paths, so those copies are left out (no duplicate files, and mkdocs-jupyter
        does not take a copied .ipynb for a page)."""
        owned = tuple(f"{top}/{ch.name}/" for ch in chapters for top in ("figures", "notebooks"))
        owned += (publish.ASSET_URL.format(""),)
        for f in list(files):
            if f.src_uri.startswith(owned):
                files.remove(f)

    def on_pre_page(self, page, config, files):
        if self.serve is not None and page.file.src_uri.endswith(".md"):
            src = str(Path(page.file.abs_src_path).resolve())
            self.serve.reuse_render(page, files, self.book, self.pages.get(src))
        return page

    def on_env(self, env, config, files):
        if self.serve is not None:
            # MkDocs makes a new Jinja environment per rebuild; compiling Material's
            # templates again was about 1 s of every rebuild.
            env.bytecode_cache = self.serve.templates
        return env

    def on_page_markdown(self, markdown, page, config, files):
        """Tell the extension the page MkDocs converts next, and what its chapter has."""
        if _is_notebook_page(page):
            # A chapter's notebook repeats its code and outputs: searching "epsilon"
            # should find the chapter once, and readers download a smaller index.
            page.meta.setdefault("search", {})["exclude"] = True
        self.current.context = self._page_context(page, markdown, config.repo_url)
        return markdown

    def _page_context(self, page, markdown, repo_url) -> PageContext:
        src = Path(page.file.abs_src_path).resolve() if page.file.abs_src_path else None
        found = self.pages.get(str(src))
        if found is not None:  # read once, when the book was parsed
            shown, source = os.path.relpath(src, self.book.root), found.doc.text
        elif src is not None and src.suffix == ".md" and src.is_file():
            shown, source = os.path.relpath(src, self.book.root), src.read_text(encoding="utf-8")
        else:  # generated: the Markdown is all there is
            shown, source = page.file.src_uri, markdown
        chapter = found.chapter if found else None
        record = found.record if found else None
        failure = found.failure if found else None
        if failure is not None:
            record = stale(chapter, record)
        return PageContext(self.book.root, self.book.snippets_root, page.file.src_uri, page.url,
                           shown, source, found.doc if found else None, record, failure,
                           notebook=chapter is not None and self.book.has_notebook(chapter),
                           notebook_page=bool(found and found.notebook_page),
                           chapter_number=chapter_number(page.meta, page.title),
                           serving=self.serve is not None,
                           error=self.broken.get(str(src)), repo_url=repo_url or None)

    def on_page_content(self, html, page, config, files):
        self.current.context = None
        if _is_notebook_page(page):
            # nbconvert gives every image without alt text a placeholder that says so; a
            # chapter's figures are described in the cell under them (notebook.py), so a
            # screen reader should pass over the image rather than read the placeholder.
            html = html.replace(f'alt="{NO_ALT}"', 'alt=""')
            html = self._draw_notebook_prose(html, page.file.src_uri, config)
            html = _page_links(html, page, files)
            html = _unique_heading_ids(html)
        elif "glightbox" in config.plugins:
            # The lightbox (mkdocs-glightbox) opens what has its class: each figure's link
            # (render/zoom.py). Not under Zensical, whose theme would fetch GLightbox from a
            # CDN for any element of that class: there a figure links to its image.
            html = html.replace(f'<a class="{zoom.LINK}"', f'<a class="glightbox {zoom.LINK}"')
        return html

    # Material's search indexes page.content in its own on_page_context (priority 0):
    # it is handed the page with each formula as its TeX (bookrun.hosts.search_view),
    # and the page gets its drawn formulas back before the theme renders it.
    @event_priority(50)
    def _search_reads_tex(self, context, *, page, config, nav):
        self.drawn = page.content
        if page.content:
            page.content = search_view(page.content)
        return context

    @event_priority(-50)
    def _page_keeps_drawn_math(self, context, *, page, config, nav):
        if self.drawn:
            page.content = without_search_attributes(self.drawn)
        self.drawn = None
        return context

    on_page_context = CombinedEvent(_search_reads_tex, _page_keeps_drawn_math)

    @staticmethod
    def _draw_notebook_prose(html, shown: str, config) -> str:
        """The notebook carries the chapter's prose: its TeX and mermaid drawn as the
        chapter's are, since the site loads no math or diagram script (nbconvert left
        them for MathJax and mermaid.js, fetched from other hosts)."""
        # Where the diagrams extension reads its cache: relative to the build's folder.
        cache = (config.mdx_configs.get("bookrun.markdown.diagrams") or {}).get(
            "cache_dir", DEFAULT_CACHE)
        try:
            html = draw_diagrams_in_html(html, Path(cache), shown)
            return draw_math_in_html(html, shown)
        except (MathError, DiagramError) as exc:
            raise PluginError(f"bookrun: {exc}") from None

    def on_post_page(self, output, page, config):
        output = _search_on_demand(output)
        # A link to a placeholder host (an example.com, or a template repository named "example")
        # leads nowhere; a warning, so that a strict build fails.
        for url in placeholder_links(output):
            log.warning(f"{page.file.src_uri}: links a placeholder address, {url}: set the "
                        "book's real one (repo_url and site_url in mkdocs.yml) or remove it")
        return output

    def on_serve(self, server, config, builder):
        return self.serve.watch(server, self.book)

    def on_shutdown(self):
        if self.serve is not None:
            self.serve.close()


PAGE_LINK = re.compile(r'href="([^"#:/]+\.md)(#[^"]*)?"')


def _page_links(html: str, page, files) -> str:
    """A notebook keeps the chapter's links to other pages as `page.md#anchor` (made
    absolute only where the book has a `site_url`); on the site's notebook page each
    becomes that page's address from here, as MkDocs does for a chapter's own links."""
    def address(m):
        target = files.get_file_from_path(m.group(1))
        if target is None:
            return m.group(0)  # not a page of this site: MkDocs' own check reports it
        return f'href="{target.url_relative_to(page.file)}{m.group(2) or ""}"'
    return PAGE_LINK.sub(address, html)


HEADING = re.compile(r'<(h[1-6]) id="([^"]+)"(.*?)</\1>', re.S)


def _unique_heading_ids(html: str) -> str:
    """nbconvert gives headings of the same text the same id (each exercise's
    "Solution"), while mkdocs-jupyter's contents link `solution_1`, `solution_2`, as
    Python-Markdown numbers them: the second and later get those ids, and their own
    permalinks follow."""
    seen: dict[str, int] = {}

    def unique(m):
        tag, ident, rest = m.groups()
        n = seen.get(ident, 0)
        seen[ident] = n + 1
        if n == 0:
            return m.group(0)
        new = f"{ident}_{n}"
        rest = rest.replace(f'href="#{ident}"', f'href="#{new}"')
        return f'<{tag} id="{new}"{rest}</{tag}>'
    return HEADING.sub(unique, html)


THEME_BUNDLE = re.compile(r'<script src="([^"]*)assets/javascripts/bundle\.')


def _search_on_demand(output: str) -> str:
    """The page with search_on_demand.js loaded just before Material's bundle (whose
    start requests the search index), at the bundle's own relative address."""
    found = THEME_BUNDLE.search(output)
    if found is None:
        return output
    script = publish.ASSET_URL.format(publish.BEFORE_THEME[0])
    tag = f'<script src="{found.group(1)}{script}"></script>\n'
    return output[:found.start()] + tag + output[found.start():]


def _is_notebook_page(page) -> bool:
    """A chapter's notebook, rendered as a page by mkdocs-jupyter."""
    return page.file.src_uri.startswith("notebooks/") and page.file.src_uri.endswith(".ipynb")
