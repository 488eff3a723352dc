"""The suite's order and, under `-n`, its units of work (tests/conftest.py's hooks use
them; tests/hosts/test_layout.py checks them)."""
from pathlib import Path

from bookrun.store.book import Book
from helpers.paths import ROOT

# The modules that cost most, costliest first (CONTRIBUTING.md, "Tests"), so that the last
# to start is short and the workers end together: the audits of every page in a browser,
# the reader's path, the real book's run (its chapter tests share it), Lighthouse, the
# book on portable kernels, the chapters' notebooks in kernels, the PDF prints and the
# page loads; then those that mostly wait (time limits, killed sessions, serve's
# rebuilds), which overlap well with the others. The quick modules come last and fill
# the end. The small book goes first: it waits on pip most of its time. With the reader's
# path ninth it started after the audits, on the same worker, and ended 30 s after the
# other two workers (2026-12-03).
FIRST = ["test_small_book", "test_accessibility", "test_reader_path", "book", "test_lighthouse",
         "test_platforms", "test_notebooks", "test_pdf", "test_browser",
         "test_executor", "test_isolation", "test_interactive_browser", "test_interactive",
         "test_copy_above", "test_plugin", "test_layout", "test_syntax"]


# Modules run whole on one worker under -n: their module fixtures are the cost (split,
# each worker would set them up again each time it came back to the module; a browser
# is launched per module, hence test_copy_above).
WHOLE = {"book", "test_accessibility", "test_browser", "test_copy_above",
         "test_interactive_browser", "test_lighthouse", "test_pdf", "test_reader_path"}

CHAPTER_MODULES = {c.name for c in Book(root=ROOT).chapters()}


def group_of(module: str) -> str:
    """The chapter tests and test_book share one run of the real book: one group, so that
    with `-n` the book runs on one worker only (recorded.py runs it once per process)."""
    return "book" if module == "test_book" or module[len("test_"):] in CHAPTER_MODULES else module


def first_rank(module: str) -> int:
    group = group_of(module)
    return FIRST.index(group) if group in FIRST else len(FIRST)


try:
    from xdist.scheduler import LoadScopeScheduling
except ImportError:  # pytest-xdist is in requirements.txt; without it, no -n and no hook
    LoadScopeScheduling = None

if LoadScopeScheduling is not None:
    class ByGroup(LoadScopeScheduling):
        """`-n`: units of work handed out in the collection's order (costliest first) to
        whichever worker is nearly done. A module whose fixtures cost much (an audit of
        every page, the prints, Lighthouse) is one unit, so they run once, and so is the
        book's group; any other test is a unit of its own, so that a module of short
        tests spreads over every worker."""

        def _split_scope(self, nodeid: str) -> str:
            group = group_of(Path(nodeid.split("::", 1)[0]).stem)
            return group if group in WHOLE else nodeid
else:
    ByGroup = None
