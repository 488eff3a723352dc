"""Where a formula or diagram came from: lets the Markdown extensions name page:line."""
from __future__ import annotations

from markdown.preprocessors import Preprocessor

try:  # under MkDocs a BuildError stops the build with its message alone, no traceback
    from mkdocs.exceptions import BuildError as Failure
except ImportError:  # another host: a plain exception
    Failure = Exception

# The page being converted is `md.bookrun_page`: (its path, its Markdown as the author
# wrote it), set on the Markdown instance by bookrun's extension before it expands the
# `@run` lines, so that a line number refers to the file the author edits.


def line_of(needle: str, text: str) -> int | None:
    """The 1-based line of `text` on which `needle` starts (or its first line does)."""
    first = next((ln.strip() for ln in needle.splitlines() if ln.strip()), "")
    for probe in (needle, needle.strip(), first):
        at = text.find(probe) if probe else -1
        if at >= 0:
            return text.count("\n", 0, at) + 1
    return None


class _Keep(Preprocessor):
    """Keeps the Markdown as it reached the converter, for hosts that set no page."""

    def run(self, lines):
        self.md.bookrun_source = "\n".join(lines)
        return lines


def remember_source(md) -> None:
    if "bookrun-source" not in md.preprocessors:
        md.preprocessors.register(_Keep(md), "bookrun-source", 100)


def where(md, needle: str) -> str:
    """`page:line` of `needle` when the host named the page; otherwise what is known."""
    page = getattr(md, "bookrun_page", None)
    if page is not None:
        line = line_of(needle, page[1])
        if line is not None:
            return f"{page[0]}:{line}"
    line = line_of(needle, getattr(md, "bookrun_source", ""))
    known = f"line {line} of the Markdown converted" if line else "line unknown"
    return f"{page[0]}: {known}" if page else known
