"""Printed lines wider than the page's output block (the `max_output_width` option).

A page shows each snippet's output in a monospace block as wide as the content column;
a longer line scrolls sideways there, and a reader skimming the page sees it cut
mid-word. The engine cannot measure the page, so the book says how many characters its
column holds, and a line past that is named, with the snippet and its `@run` line, when
a chapter is built, updated or checked. It is a warning, not an error: the record is
still right, only the page shows it badly.
"""
from __future__ import annotations

import unicodedata
from pathlib import Path

from bookrun.store.frames_check import read_frames
from bookrun.model.page import Chapter, SnippetRecord
from bookrun.model.text import visible
from bookrun.store.records import Record

TAB = 8  # a browser's default tab stop in a <pre> (neither Material nor bookrun sets one)
SHOWN = 40  # characters of the widest line quoted in the warning, enough to find it


def columns(line: str) -> int:
    """Columns a printed line takes on the page: control characters written out as the
    page writes them, tabs to the next stop, wide (CJK) characters counted twice."""
    text = visible(line).expandtabs(TAB)
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def start(line: str) -> str:
    """The line's first characters, quoted, enough to find it in the output."""
    text = visible(line)
    return repr(text[:SHOWN]) + ("..." if len(text) > SHOWN else "")


def shown_lines(snippet: SnippetRecord, figures: Path) -> list[str]:
    """Every line the page may show under the snippet: its output, and the line each
    frame of its interactive figures shows in the output's place (from the frame files
    in `figures`; one not there yet has nothing to show)."""
    lines = snippet.output.splitlines()
    for f in snippet.frames:
        if (figures / f.name).is_file():
            lines += [text for text, _ in read_frames(figures / f.name).frames]
    return lines


def too_wide(chapter: Chapter, record: Record, limit: int, page: str,
             snippets: str, figures: Path) -> list[str]:
    """One warning per snippet of `record` that shows a line of more than `limit`
    columns (none when `limit` is 0): the snippet's file under `snippets` (the folder as
    the book names it), the page's `@run` line, and the widest line's start. `figures`
    holds the record's frame files."""
    if limit <= 0:
        return []
    found = []
    for step, snippet in zip(chapter.steps, record.snippets):
        wide = [line for line in shown_lines(snippet, figures) if columns(line) > limit]
        if wide:
            widest = max(wide, key=columns)
            found.append(f"{page}:{step.line}: {snippets}/{step.snippet} prints "
                         f"{len(wide)} line(s) wider than max_output_width ({limit}), the "
                         f"widest {columns(widest)}: {start(widest)}")
    return found
