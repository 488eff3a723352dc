"""The chapter tests' view of a chapter: this machine's fresh run, plus number helpers.

A chapter test asserts the chapter's findings on what this machine computes now,
not only on the committed record. On the machine that recorded the book the two
are identical (the check proves it); on another CPU the platform-bound snippets
print other digits, and their findings must still hold there.
"""
import os
import re

from bookrun.store.book import Book, Checked
from bookrun.store.records import load_record
from helpers.paths import ROOT

NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?")
CHAPTER_LIMIT = 1200  # seconds; under the book layer's 1800 s per test
DECIMAL = re.compile(r"[-+]?\d+\.\d+(?:e[-+]?\d+)?")


class FreshRuns:
    """Runs chapters fresh at most once per test session, in parallel batches."""

    def __init__(self):
        # A chapter's limit here guards against a hang, not a slow machine: ppo runs in
        # 25 s alone but took over 300 s (the book's own limit) beside the browser tests
        # of a full `-n auto` run on two cores. Each test still has its layer's limit.
        self.book = Book(root=ROOT, timeout=float(os.environ.get("BOOKRUN_TIMEOUT")
                                                  or CHAPTER_LIMIT))
        self.wanted: list[str] = []  # chapters whose test modules were imported
        self.checked = Checked([], [], {})

    def run(self, names) -> None:
        missing = [n for n in names if n not in self.checked.fresh]
        if missing:
            got = self.book.check([self.book.chapter(n) for n in missing])
            self.checked.problems += got.problems
            self.checked.notes += got.notes
            self.checked.fresh.update(got.fresh)

    def record(self, name):
        self.run(self.wanted if name in self.wanted else [name])
        return self.checked.fresh[name]

    def everything(self) -> Checked:
        self.run([c.name for c in self.book.chapters()])
        return self.checked


FRESH = FreshRuns()


class fresh:  # noqa: N801 - used like a record: `rec = fresh("ppo")`
    """A chapter's record as this machine's fresh run gives it (executed on first use)."""

    def __init__(self, name):
        self.name = name
        FRESH.wanted.append(name)

    def __getattr__(self, attr):
        # pytest inspects every module attribute while it collects (fixture markers,
        # `__test__`): those private names must not start a chapter run.
        if attr.startswith("_"):
            raise AttributeError(attr)
        return getattr(FRESH.record(self.name), attr)


def shown(name):
    """The chapter's committed record: the run its page shows. A sentence that describes
    that run ("in this run", an Alt text) is asserted on it; a finding that must hold on
    any CPU is asserted on `fresh(name)`. On another CPU the platform-bound snippets
    print another run, of which the page says nothing."""
    return load_record(name, ROOT / "snippets")


def numbers(text, decimals_only=False):
    """Every number printed in `text`, in order (with `decimals_only`, skip integers)."""
    return [float(x) for x in (DECIMAL if decimals_only else NUMBER).findall(text)]


def first_line(record, snippet, prefix):
    """The first line `snippet` printed that starts with `prefix` (ignoring indentation)."""
    for ln in record.output(snippet).splitlines():
        if ln.strip().startswith(prefix):
            return ln.strip()
    raise AssertionError(f"{snippet}: no printed line starts with {prefix!r}")
