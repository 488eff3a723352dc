"""Under `mkdocs serve` only: what is kept across rebuilds, patched in one place.

MkDocs rebuilds the whole site on every save. These keep work whose inputs did not
change: Material's compiled templates, nbconvert's compiled templates, and each
unchanged page's search entries. Two of them patch a third-party class; each checks
that the method it wraps is still there (`_patch`), so an upstream change fails
loudly (tests/test_plugin.py) instead of silently doing nothing.
"""
from __future__ import annotations

import hashlib

from jinja2 import BytecodeCache


def _patch(cls, name: str, make) -> None:
    """Wrap `cls.name` once; refuse when the upstream class no longer has it."""
    original = getattr(cls, name, None)
    if original is None:
        raise RuntimeError(f"bookrun.hosts.serve: {cls.__module__}.{cls.__name__}.{name} is gone "
                           "(an upstream change): update bookrun/serve.py")
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
