"""Everything the MkDocs host does under `mkdocs serve` only (`Serve`), so that the
build path (bookrun.hosts.mkdocs) stays short.

A failing chapter or a broken page is shown on its page instead of failing the build;
each chapter's session is kept at its snippet boundaries, so a save re-runs a chapter
from the snippet edited; a watcher on the snippets folder starts a rebuild; `--dirty`
rewinds the HTML of a page whose chapter changed.

MkDocs rebuilds the whole site on every save. What follows keeps work whose inputs did
not change: each unchanged page's HTML, each chapter's notebook, Material's compiled
templates, nbconvert's compiled templates, and each unchanged page's search entries.
Two of them patch a third-party class; each checks that the method it wraps is still
there (`_patch`), so an upstream change fails loudly (tests/hosts/test_plugin.py)
instead of silently doing nothing.
"""
from __future__ import annotations

import dataclasses
import hashlib
import logging
import os
import shutil
import signal
import stat
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from jinja2 import BytecodeCache
from watchdog.events import FileSystemEventHandler
from watchdog.observers import Observer

from bookrun.execute.worker import checkpoint
from bookrun.hosts.publish import BuildError, Published, notebook_text, read_code
from bookrun.model.page import ExecutionError, PageError, SnippetRecord
from bookrun.model.text import visible
from bookrun.store.book import Book
from bookrun.store.records import Record, read_if_valid, record_path

CHANGES = {"created", "modified", "moved", "deleted"}  # watchdog event types
SESSIONS_PREFIX = "bookrun-serve-"


def stop_on_sigterm() -> None:
    """SIGTERM (`kill`, a process manager's stop) ends `mkdocs serve` as Ctrl-C does, so
    its shutdown runs: MkDocs removes its temporary site, and `Serve.close` the kept
    sessions' folder. Python's default ends the process at once, with no `finally`. Only
    from the main thread, and only where nothing else has claimed the signal."""
    if (threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGTERM) is signal.SIG_DFL):
        signal.signal(signal.SIGTERM, _interrupt)


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def remove_orphaned_sessions(folder: Path) -> list[Path]:
    """Remove the kept-session folders of serve processes that no longer run (ended by
    SIGKILL, or by a signal before this serve stopped on SIGTERM): their sessions ended
    with them (each keeper sees its serve's pipe close), their folders did not. Only
    this user's folders, and only those whose process is gone; the removed ones."""
    removed = []
    for path in folder.glob(f"{SESSIONS_PREFIX}*"):
        pid = path.name[len(SESSIONS_PREFIX):]
        try:
            info = path.lstat()  # a link is never followed
        except FileNotFoundError:  # another serve starting removed it first
            continue
        if not (pid.isdigit() and stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid()):
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
        except PermissionError:  # a live process of another user: not ours to judge
            continue
    return removed


class Serve:
    """What one `mkdocs serve` keeps across its rebuilds."""

    def __init__(self, dirty: bool, log):
        self.dirty = dirty  # `serve --dirty`: MkDocs rebuilds only pages it thinks changed
        self.log = log
        self.shown: dict[str, tuple] = {}  # chapter -> (record stamp, error) last rendered
        self.rendered: dict[str, tuple] = {}  # page -> (key, HTML and what render() sets)
        self.notebooks: dict[str, tuple] = {}  # chapter -> (key, notebook text)
        self.templates = CompiledTemplates()
        # The folder of kept chapter sessions, one per serve (a short path: a Unix socket's
        # name is limited to 107 bytes). Made by the first kept session, removed at the end;
        # one a killed serve left behind is removed by the next serve.
        self.sessions = Path(tempfile.gettempdir()) / f"{SESSIONS_PREFIX}{os.getpid()}"
        remove_orphaned_sessions(self.sessions.parent)
        self.observer = None
        reuse_search_entries()
        reuse_notebook_templates(self.templates)
        # One line per notebook per rebuild drowns the useful lines.
        for name in ("mkdocs.plugins.mkdocs_jupyter", "mkdocs.mkdocs-jupyter"):
            logging.getLogger(name).setLevel(logging.WARNING)

    def configure(self, book: Book) -> None:
        book.checkpoints = self.sessions

    def build(self, book: Book, execute: bool):
        """(chapters, records, failures, broken pages): a page error or a failing chapter
        is kept (its page shows it) and the rest of the book is built."""
        broken: dict[Path, str] = {}
        try:
            docs = book.documents(broken)  # each page read and parsed once
        except PageError as exc:  # not one page's: two pages using one snippet folder
            raise BuildError(visible(str(exc))) from None
        chapters = [d.chapter for d in docs]
        for page, error in broken.items():
            self.log(f"{os.path.relpath(page, book.root)} shows this error until it is "
                     f"fixed:\n{visible(error)}")
        records, failures = (self._build_keeping_failures(book, chapters) if execute
                             else ({}, {}))
        return docs, records, failures, {str(p): e for p, e in broken.items()}

    def _build_keeping_failures(self, book: Book, chapters):
        """Each chapter on its own, so one failing chapter leaves the others built and its
        page shows the error with the last good outputs."""
        records, failures = {}, {}

        def one(ch):
            try:
                records.update(book.build([ch]))
            except ExecutionError as exc:
                failures[ch.name] = str(exc)
                records[ch.name] = read_if_valid(record_path(ch.name, book.snippets_root))
                self.log(f"{ch.page.name} shows this error until it is fixed:\n"
                         f"{visible(str(exc))}")

        with ThreadPoolExecutor(max_workers=max(1, book.jobs)) as pool:
            list(pool.map(one, chapters))
        return records, failures

    def mark_changed(self, book: Book, chapter, record, failure, files) -> None:
        """Under `serve --dirty` MkDocs rebuilds only pages whose source is newer than
        their HTML; a chapter re-executed from an edited snippet has an unchanged page,
        so its old HTML is made to look older."""
        if not self.dirty:
            return
        now = (record.stamp if record else None, failure)
        if self.shown.get(chapter.name, now) != now:
            src = chapter.page.relative_to(book.docs_dir).as_posix()
            page = files.get_file_from_path(src)
            if page is not None and Path(page.abs_dest_path).is_file():
                os.utime(page.abs_dest_path, (0, 0))
        self.shown[chapter.name] = now

    def notebook(self, book: Book, doc, record, site_url: str | None) -> str:
        """The chapter's notebook text, rebuilt only when its inputs change (the page's
        text is one: the notebook carries its prose)."""
        chapter = doc.chapter
        key = _digest([record.to_json(), doc.text, site_url or ""]
                      + [read_code(book, s.snippet) for s in chapter.steps])
        if self.notebooks.get(chapter.name, (None,))[0] != key:
            self.notebooks[chapter.name] = (key, notebook_text(book, doc, record, site_url))
        return self.notebooks[chapter.name][1]

    def reuse_render(self, page, files, book: Book, published: Published | None) -> None:
        """A page whose Markdown (after our expansion) and place did not change reuses
        its HTML from the last rebuild: a save then converts one page, not the whole book.
        Builds always convert every page."""
        render, cache, uri = page.render, self.rendered, page.file.src_uri
        site = "\0".join(sorted(f.src_uri for f in files.documentation_pages()))
        inputs = ""
        if published is not None:
            # The extension expands the page from its record and code, so they are part
            # of what the HTML depends on.
            rec = published.record
            inputs = _digest([rec.to_json() if rec else "", published.failure or "",
                              str(published.notebook_page)]
                             + [read_code(book, s.snippet) for s in published.chapter.steps])

        def render_or_reuse(config, files):
            key = _digest([page.url, site, inputs, page.markdown])
            hit = cache.get(uri)
            if hit and hit[0] == key:
                # Anchor links of a reused page were checked when it was converted.
                page.content, page.toc, page._title_from_render, page.present_anchor_ids = hit[1]
                return
            render(config, files)
            cache[uri] = (key, (page.content, page.toc, page._title_from_render,
                                page.present_anchor_ids))

        page.render = render_or_reuse

    def watch(self, server, book: Book):
        """Rebuild when a snippet (a .py file under snippets/) is saved, but not when a
        rebuild rewrites a record or figure there: that would start a second build.

        MkDocs can only watch whole paths, by polling (one thread per path), so one
        inotify watch on the snippets folder filters the events and touches a single
        file that MkDocs watches."""
        trigger = book.cache / "serve" / "snippet-saved"
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
        self.observer.schedule(handler, str(book.snippets_root), recursive=True)
        self.observer.start()
        server.watch(str(trigger))
        return server

    def close(self) -> None:
        if self.observer is not None:
            self.observer.stop()
            self.observer.join()
        if self.sessions.is_dir():
            for chapter in self.sessions.iterdir():
                checkpoint.release(chapter)
            shutil.rmtree(self.sessions, ignore_errors=True)


def stale(chapter, record: Record | None) -> Record | None:
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


def _digest(parts: list[str]) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def _patch(cls, name: str, make) -> None:
    """Wrap `cls.name` once; refuse when the upstream class no longer has it."""
    original = getattr(cls, name, None)
    if original is None:
        raise RuntimeError(f"bookrun.hosts.serve: {cls.__module__}.{cls.__name__}.{name} is gone "
                           "(an upstream change): update bookrun/hosts/serve.py")
    if getattr(original, "bookrun_patched", False):
        return
    wrapped = make(original)
    wrapped.bookrun_patched = True
    setattr(cls, name, wrapped)


class CompiledTemplates(BytecodeCache):
    """Jinja's compiled templates, in memory for the life of `mkdocs serve`."""

    def __init__(self):
        self.store: dict[str, bytes] = {}

    def load_bytecode(self, bucket):
        if bucket.key in self.store:
            bucket.bytecode_from_string(self.store[bucket.key])

    def dump_bytecode(self, bucket):
        self.store[bucket.key] = bucket.bytecode_to_string()


def reuse_notebook_templates(cache: CompiledTemplates) -> None:
    """Compile nbconvert's templates once: mkdocs-jupyter makes a new exporter, so a new
    Jinja environment, for every notebook page it converts (0.6 s each)."""
    try:
        from nbconvert.exporters.templateexporter import TemplateExporter
    except ImportError:
        return

    def make(create):
        def _create_environment(self):
            env = create(self)
            env.bytecode_cache = cache
            return env
        return _create_environment

    _patch(TemplateExporter, "_create_environment", make)


def reuse_search_entries() -> None:
    """Index a page for search only when it changed.

    Material's search plugin parses every page's HTML on every rebuild; the notebook
    pages inline their SVG figures, so this parse is most of a rebuild. Its entries
    depend only on the page's URL, title, metadata and HTML, so an unchanged page gets
    the same entries from the last rebuild and the index stays identical."""
    try:
        from material.plugins.search.plugin import SearchIndex
    except ImportError:
        return
    known: dict[str, list] = {}

    def make(original):
        def add_entry_from_context(self, page):
            key = hashlib.sha256("\0".join([page.url, str(page.title), repr(page.meta),
                                              page.content or ""]).encode()).hexdigest()
            if key not in known:
                before = len(self.entries)
                original(self, page)
                known[key] = self.entries[before:]
            else:
                self.entries.extend(known[key])
        return add_entry_from_context

    _patch(SearchIndex, "add_entry_from_context", make)
