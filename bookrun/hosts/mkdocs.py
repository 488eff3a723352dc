"""The MkDocs host: execute (or reuse) chapters before pages are read; publish their
figures and notebooks; hand the Markdown extension the page it converts (PageContext).

The speed-ups that patch MkDocs' neighbours for `mkdocs serve` alone (compiled templates
and search entries kept across rebuilds) live in bookrun.hosts.serve."""
from __future__ import annotations

import dataclasses
import hashlib
import logging
import os
import shutil
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, get_plugin_logger
from mkdocs.structure.files import File
from watchdog.events import FileSystemEventHandler
from watchdog.observers import Observer

from bookrun.execute.worker import checkpoint
from bookrun.store.book import Book
from bookrun.config import ConfigError
from bookrun.markdown.highlight import missing_filters
from bookrun.model.page import ExecutionError, PageError, SnippetRecord
from bookrun.render.notebook import chapter_notebook
from bookrun.render.extension import FIGURE, BookrunExtension, PageContext, chapter_number
from bookrun.store.records import Record, read_if_valid, record_path, write_atomic
from bookrun.model.text import visible
from bookrun.hosts.serve import CompiledTemplates, reuse_notebook_templates, reuse_search_entries
from bookrun.execute.session import DEFAULT_TIMEOUT

log = get_plugin_logger(__name__)
CHANGES = {"created", "modified", "moved", "deleted"}  # watchdog event types
NO_ALT = "No description has been provided for this image"  # nbconvert's placeholder


class BookrunConfig(Config):
    execute = c.Type(bool, default=True)  # False: show code only (a plain build)
    frozen = c.Type(bool, default=False)  # True: a stale record fails the build (publishing)
    timeout = c.Type((int, float), default=DEFAULT_TIMEOUT)  # seconds per chapter
    snippets_dir = c.Type(str, default="snippets")


class BookrunPlugin(BasePlugin[BookrunConfig]):
    # Having on_startup keeps one plugin object across the rebuilds of `mkdocs serve`.
    def on_startup(self, *, command, dirty):
        # Only `mkdocs serve` shows a failing chapter as an error panel on its page; a
        # build (strict or not) and `serve --clean` fail as before, so no error page is
        # ever published.
        self.serving = command == "serve"
        self.dirty = dirty
        self.shown: dict[str, tuple] = {}  # chapter -> (record stamp, error) last rendered
        self.observer = None
        self.rendered: dict[str, tuple] = {}  # page -> (key, HTML and what render() sets)
        self.notebooks: dict[str, tuple] = {}  # chapter -> (key, notebook text)
        self.templates = CompiledTemplates()
        self.sessions = None  # serve: the folder of kept chapter sessions
        if self.serving:
            reuse_search_entries()
            reuse_notebook_templates(self.templates)
        if self.serving:  # one line per notebook per rebuild drowns the useful lines
            for name in ("mkdocs.plugins.mkdocs_jupyter", "mkdocs.mkdocs-jupyter"):
                logging.getLogger(name).setLevel(logging.WARNING)

    def on_config(self, config):
        if "pymdownx.blocks.caption" not in config.markdown_extensions:
            # Without it a figure's caption block would show as plain `///` text.
            raise PluginError("bookrun: add `pymdownx.blocks.caption` to markdown_extensions: "
                              "it renders each figure with its numbered caption")
        missing = missing_filters(config.mdx_configs.get("pymdownx.highlight") or {})
        if missing:
            raise PluginError(f"bookrun: {config.config_file_path}: " + "; ".join(missing))
        # The extension renders what the plugin executes: its entry in mkdocs.yml (with
        # the book's options) becomes an instance that asks this plugin which page it
        # converts. A config that lists only the plugin gets it too, with no options.
        options = dict(config.mdx_configs.get("bookrun.extension") or {})
        entries = [e for e in config.markdown_extensions
                   if e == "bookrun.extension" or isinstance(e, BookrunExtension)]
        for e in entries:
            config.markdown_extensions.remove(e)
        ext = BookrunExtension(context_of=lambda md: self.current, **options)
        config.markdown_extensions.append(ext)
        try:
            book_config = ext.book_config()
        except ConfigError as exc:
            raise PluginError(f"bookrun: {exc}") from None
        self.current: PageContext | None = None
        if not self.config.timeout > 0:  # 0 would not mean "no limit": it would mean none
            env = os.environ.get("BOOKRUN_TIMEOUT")
            source = (f"BOOKRUN_TIMEOUT={env!r}, which mkdocs.yml reads" if env is not None
                      else "the bookrun plugin's `timeout` option in mkdocs.yml")
            raise PluginError(f"bookrun: the time limit must be a positive number of "
                              f"seconds; {source}, gives {self.config.timeout!r}")
        root = Path(config.config_file_path).resolve().parent
        self.book = Book(root=root, config=book_config, docs_dir=Path(config.docs_dir),
                         snippets_root=root / self.config.snippets_dir,
                         timeout=float(self.config.timeout), frozen=self.config.frozen)
        self.book.log = lambda msg: log.info(msg.removeprefix("bookrun: "))
        if getattr(self, "serving", False):
            if getattr(self, "sessions", None) is None:  # once per serve (a short path:
                # a Unix socket's name is limited to 107 bytes). Made by the first kept
                # session, and removed by the last one to end.
                self.sessions = Path(tempfile.gettempdir()) / f"bookrun-serve-{os.getpid()}"
            self.book.checkpoints = self.sessions
        return config

    def on_files(self, files, config):
        failures: dict[str, str] = {}
        self.broken: dict[str, str] = {}
        try:
            # Under serve, a page error is kept (the extension shows it on the page).
            broken: dict[Path, str] | None = {} if getattr(self, "serving", False) else None
            docs = self.book.documents(broken)  # each page read and parsed once
            chapters = [doc.chapter for doc in docs]
            for page, error in (broken or {}).items():
                self.broken[str(page)] = error
                log.info(f"{os.path.relpath(page, self.book.root)} shows this error "
                         f"until it is fixed:\n{visible(error)}")
            if not self.config.execute:
                records = {}
            elif getattr(self, "serving", False):
                records, failures = self._build_keeping_failures(chapters)
            else:
                records = self.book.build(chapters)
        except (PageError, ExecutionError) as exc:
            # Written out: an error may quote a snippet's output (`\x1b[2J` would clear
            # the terminal).
            raise PluginError(f"bookrun: {visible(str(exc))}") from None
        self._drop_prepared(files, chapters)
        self.pages = {}
        for doc in docs:
            ch = doc.chapter
            rec, failure = records.get(ch.name), failures.get(ch.name)
            self.pages[str(ch.page.resolve())] = (doc, rec, failure, False)
            self._mark_changed(ch, rec, failure, files)
            if rec is None or not self.book.has_notebook(ch):
                continue
            figs = self.book.figure_dir(ch.name)
            for s in rec.snippets:
                for f in s.files:
                    if failure is None or (figs / f.name).is_file():
                        files.append(File.generated(config, FIGURE.format(ch.name, f.name),
                                                    abs_src_path=str(figs / f.name)))
            # Written to the cache (not handed over as a string) so that mkdocs-jupyter,
            # which reads notebooks from disk, can render it as a page too.
            src_dir = self.book.cache / "generated"
            uri = f"notebooks/{ch.name}.ipynb"
            if failure is None:
                text = self._notebook(ch, rec, figs, doc.title)
                if not (src_dir / uri).is_file() or (src_dir / uri).read_text("utf-8") != text:
                    write_atomic(src_dir / uri, text.encode())
            elif not (src_dir / uri).is_file():  # a failing chapter keeps its last notebook
                continue
            files.append(File(uri, str(src_dir), config.site_dir, config.use_directory_urls))
            self.pages[str(ch.page.resolve())] = (doc, rec, failure, True)
        return files

    def _drop_prepared(self, files, chapters):
        """`python -m bookrun prepare` (for Zensical) writes figures and notebooks into
        docs/figures/<chapter>/ and docs/notebooks/<chapter>/; here the plugin publishes
        its own at the same paths, so those copies are left out (no duplicate files, and
        mkdocs-jupyter does not take a copied .ipynb for a page)."""
        owned = tuple(f"{top}/{ch.name}/" for ch in chapters for top in ("figures", "notebooks"))
        for f in list(files):
            if f.src_uri.startswith(owned):
                files.remove(f)

    def on_pre_page(self, page, config, files):
        """Under serve, a page whose Markdown (after our expansion) and place did not
        change reuses its HTML from the last rebuild: a save then converts one page,
        not the whole book. Builds always convert every page."""
        if not getattr(self, "serving", False) or not page.file.src_uri.endswith(".md"):
            return page
        render, cache, uri = page.render, self.rendered, page.file.src_uri
        site = "\0".join(sorted(f.src_uri for f in files.documentation_pages()))
        inputs = self._render_inputs(page)

        def render_or_reuse(config, files):
            # The extension expands the page from its record and code, so they are part
            # of what the HTML depends on.
            key = hashlib.sha256(f"{page.url}\0{site}\0{inputs}\0{page.markdown}"
                                 .encode()).hexdigest()
            hit = cache.get(uri)
            if hit and hit[0] == key:
                # Anchor links of a reused page were checked when it was converted.
                page.content, page.toc, page._title_from_render, page.present_anchor_ids = hit[1]
                return
            render(config, files)
            cache[uri] = (key, (page.content, page.toc, page._title_from_render,
                                page.present_anchor_ids))

        page.render = render_or_reuse
        return page

    def _mark_changed(self, chapter, record, failure, files) -> None:
        """Under `serve --dirty` MkDocs rebuilds only pages whose source is newer than
        their HTML; a chapter re-executed from an edited snippet has an unchanged page,
        so its old HTML is made to look older."""
        if not (getattr(self, "serving", False) and self.dirty):
            return
        now = (record.stamp if record else None, failure)
        if self.shown.get(chapter.name, now) != now:
            src = chapter.page.relative_to(self.book.docs_dir).as_posix()
            page = files.get_file_from_path(src)
            if page is not None and Path(page.abs_dest_path).is_file():
                os.utime(page.abs_dest_path, (0, 0))
        self.shown[chapter.name] = now

    def _render_inputs(self, page) -> str:
        """A digest of what the extension reads besides the page: record, error, code."""
        found = self.pages.get(str(Path(page.file.abs_src_path).resolve()))
        if found is None:
            return ""
        doc, record, failure, notebook = found
        parts = [record.to_json() if record else "", failure or "", str(notebook)]
        parts += [self._read_code(s.snippet) for s in doc.chapter.steps]
        return hashlib.sha256("\0".join(parts).encode()).hexdigest()

    def _notebook(self, chapter, record, figs, title: str) -> str:
        """The chapter's notebook text; under serve, rebuilt only when its inputs change."""
        key = hashlib.sha256("\0".join([record.to_json(), title] + [
            self._read_code(s.snippet) for s in chapter.steps]).encode()).hexdigest()
        memo = getattr(self, "notebooks", {})
        if memo.get(chapter.name, (None,))[0] != key:
            memo[chapter.name] = (key, chapter_notebook(chapter, record, self._read_code,
                                                        figs, title))
        return memo[chapter.name][1]

    def _read_code(self, rel: str) -> str:
        return (self.book.snippets_root / rel).read_text(encoding="utf-8")

    def on_env(self, env, config, files):
        """Under serve, keep the theme's compiled templates across rebuilds: MkDocs makes a
        new Jinja environment each time, and compiling Material's templates again was
        about 1 s of every rebuild. Jinja checks each template's source before reuse."""
        if getattr(self, "serving", False):
            env.bytecode_cache = self.templates
        return env

    def on_page_markdown(self, markdown, page, config, files):
        """Hand the extension the page MkDocs converts next, and what its chapter has."""
        if _is_notebook_page(page):
            # A chapter's notebook repeats its code and outputs: searching "epsilon"
            # should find the chapter once, and readers download a smaller index.
            page.meta.setdefault("search", {})["exclude"] = True
        self.current = self._page_context(page, markdown)
        return markdown

    def _page_context(self, page, markdown) -> PageContext:
        src = Path(page.file.abs_src_path).resolve() if page.file.abs_src_path else None
        doc, record, failure, notebook = self.pages.get(str(src), (None, None, None, False))
        chapter = doc.chapter if doc is not None else None
        if doc is not None:  # read once, when the book was parsed
            shown, source = os.path.relpath(src, self.book.root), doc.text
        elif src is not None and src.suffix == ".md" and src.is_file():
            shown, source = os.path.relpath(src, self.book.root), src.read_text(encoding="utf-8")
        else:  # generated: the Markdown is all there is
            shown, source = page.file.src_uri, markdown
        if failure is not None:
            record = _stale(chapter, record)
        return PageContext(self.book.root, self.book.snippets_root, page.file.src_uri, page.url,
                           shown, source, doc, record, failure,
                           notebook=chapter is not None and self.book.has_notebook(chapter),
                           notebook_page=notebook,
                           chapter_number=chapter_number(page.meta, page.title),
                           serving=getattr(self, "serving", False),
                           error=self.broken.get(str(src)))

    def on_page_content(self, html, page, config, files):
        self.current = None
        if _is_notebook_page(page):
            # nbconvert gives every image without alt text a placeholder that says so; a
            # chapter's figures are described in the cell under them (notebook.py), so a
            # screen reader should pass over the image rather than read the placeholder.
            html = html.replace(f'alt="{NO_ALT}"', 'alt=""')
        return html

    # -- mkdocs serve -----------------------------------------------------------------
    def on_serve(self, server, config, builder):
        """Rebuild when a snippet (a .py file under snippets/) is saved, but not when a
        rebuild rewrites a record or figure there: that would start a second build.

        MkDocs can only watch whole paths, by polling (one thread per path), so one
        inotify watch on the snippets folder filters the events and touches a single
        file that MkDocs watches."""
        trigger = self.book.cache / "serve" / "snippet-saved"
        trigger.parent.mkdir(parents=True, exist_ok=True)
        trigger.write_text("")

        def saved(event):
            # Reads (the worker's, ours) raise events too: only a change counts.
            paths = (event.src_path, getattr(event, "dest_path", "") or "")
            if event.event_type in CHANGES and any(str(p).endswith(".py") for p in paths):
                trigger.write_text(str(time.time_ns()))

        handler = FileSystemEventHandler()
        handler.on_any_event = saved
        self.observer = Observer()
        self.observer.schedule(handler, str(self.book.snippets_root), recursive=True)
        self.observer.start()
        server.watch(str(trigger))
        return server

    def on_shutdown(self):
        if getattr(self, "observer", None) is not None:
            self.observer.stop()
            self.observer.join()
        sessions = getattr(self, "sessions", None)
        if sessions is not None and sessions.is_dir():
            for chapter in sessions.iterdir():
                checkpoint.release(chapter)
            shutil.rmtree(sessions, ignore_errors=True)

    def _build_keeping_failures(self, chapters):
        """Under serve: build each chapter on its own, so one failing chapter leaves the
        others built and its page shows the error with the last good outputs."""
        records, failures = {}, {}

        def one(ch):
            try:
                records.update(self.book.build([ch]))
            except ExecutionError as exc:
                failures[ch.name] = str(exc)
                records[ch.name] = read_if_valid(record_path(ch.name, self.book.snippets_root))
                log.info(f"{ch.page.name} shows this error until it is fixed:\n"
                         f"{visible(str(exc))}")

        with ThreadPoolExecutor(max_workers=max(1, self.book.jobs)) as pool:
            list(pool.map(one, chapters))
        return records, failures


def _stale(chapter, record: Record | None) -> Record | None:
    """The last good record of a failing chapter, with a placeholder for any value it
    never computed (a binding added since)."""
    if record is None:
        return None
    kept = {s.snippet: s for s in record.snippets}
    snippets = []
    for step in chapter.steps:  # a snippet added since has an entry with no output
        old = kept.get(step.snippet) or SnippetRecord(step.snippet, "", ())
        values = {b.body: old.values.get(b.body, f"[{b.body}: not computed]")
                  for b in step.bindings}
        snippets.append(dataclasses.replace(old, values=values))
    return dataclasses.replace(record, snippets=tuple(snippets))  # keeps every other field


def _is_notebook_page(page) -> bool:
    """A chapter's notebook, rendered as a page by mkdocs-jupyter."""
    return page.file.src_uri.startswith("notebooks/") and page.file.src_uri.endswith(".ipynb")

