"""bookrun: run a book's snippets at build time, record and render their outputs.

The public API is what `__all__` lists; every other module is internal. The names are
loaded on first use (PEP 562), so `import bookrun` loads no submodule: the worker's
child interpreter imports this package and must not pay for Markdown, YAML or MkDocs.

    import bookrun
    records = bookrun.build("path/to/book")        # execute what is stale, write records
    checked = bookrun.check("path/to/book")        # execute afresh, compare with records
    assert not checked.problems, checked.problems

A relative `root` is taken from the current folder. Every error bookrun raises on purpose
is a `bookrun.BookrunError` (bookrun/README.md, "The Python API").
"""
from __future__ import annotations

import importlib
from pathlib import Path

__version__ = "0.2.0"

# Public name -> the module that defines it.
_HOME = {
    "Book": "bookrun.store.book",
    "Checked": "bookrun.store.book",
    "BookConfig": "bookrun.config",
    "Chapter": "bookrun.model.page",
    "Step": "bookrun.model.page",
    "Binding": "bookrun.model.page",
    "Run": "bookrun.model.page",
    "SnippetRun": "bookrun.model.page",
    "SnippetRecord": "bookrun.model.page",
    "FigureFile": "bookrun.model.page",
    "Record": "bookrun.store.records",
    "read_chapter": "bookrun.parse.chapter",
    "main": "bookrun.hosts.cli",
    "EXECUTION_PROTOCOL": "bookrun.execute.worker.protocol_version",
    # The errors: each names the file (and line) it is about; BookrunError is their root.
    "BookrunError": "bookrun.errors",
    "UnknownChapter": "bookrun.errors",
    "PageError": "bookrun.model.page",
    "ExecutionError": "bookrun.model.page",
    "RecordError": "bookrun.model.page",
    "ConfigError": "bookrun.config",
}

__all__ = sorted([*_HOME, "build", "check"])


def __getattr__(name: str):
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'bookrun' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # found once; later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


def _book(root, timeout):
    return __getattr__("Book")(root=Path(root).absolute(), timeout=timeout)


def build(root: str | Path = ".", chapters: list[str] | None = None, *, force: bool = False,
          timeout: float | None = None) -> dict:
    """Execute the stale chapters of the book at `root` (all of them with `force`) and
    write their records; returns every chapter's Record by name. `chapters` names
    some (snippet folders or page names); None is the whole book."""
    book = _book(root, timeout)
    found = [book.chapter(n) for n in chapters] if chapters else None
    return book.build(found, force=force)


def check(root: str | Path = ".", chapters: list[str] | None = None, *,
          timeout: float | None = None):
    """Execute the chapters afresh and compare them with their committed records; the
    Checked result lists the problems (empty when every output matches) and notes."""
    book = _book(root, timeout)
    found = [book.chapter(n) for n in chapters] if chapters else None
    return book.check(found)
