"""Audit a page's prose: every decimal it types must come from the chapter's code.

A number written by hand ("page C converts 0.155 of visitors") is allowed only
if the chapter's snippets print it (to the digits quoted) or contain it as a
constant; otherwise a changed constant would leave the sentence stale. Bound
`{{ }}` values are exempt (they are rendered from the session). A number the
prose derives by hand can be declared on the page, where reviewers see it:
`<!-- bookrun: derived 0.625 2.5 -->`.
"""
from __future__ import annotations

import re
from pathlib import Path

from .page import BOUND, FIGURE_REF, Chapter, iter_prose_lines

DECIMAL = re.compile(r"(?<![\w.])\d+\.\d+(?![\w.])")
ANY_NUMBER = re.compile(r"\d+(?:\.\d+)?(?:e[-+]?\d+)?")
LINK_TARGET = re.compile(r"\]\([^)]*\)|<https?://[^>]*>|https?://\S+")
# Reference numbers, not results: arXiv ids (1706.03741) and DOI prefixes (10.1023).
CITATION = re.compile(r"^(\d{4}\.\d{4,5}|10\.\d{4,})$")
DERIVED = re.compile(r"<!--\s*bookrun:\s*derived\s+([^>]*?)\s*-->")


def known_numbers(chapter: Chapter, record, snippets_root: Path) -> set[float]:
    texts = [s["output"] for s in record.snippets] + list(record.values.values())
    texts += [(snippets_root / s.snippet).read_text(encoding="utf-8") for s in chapter.steps]
    found = set()
    for text in texts:
        for m in ANY_NUMBER.finditer(text):
            found.add(float(m.group()))
    return found


def quoted(number: str, known: set[float]) -> bool:
    """Printed exactly, or (two or more decimals) a rounding of a printed value."""
    value, places = float(number), len(number.split(".")[1])
    return value in known or (places >= 2 and any(round(k, places) == value for k in known))


def unexplained_numbers(chapter: Chapter, record, snippets_root: Path, shown: str) -> list[str]:
    text = chapter.page.read_text(encoding="utf-8")
    derived = {n for m in DERIVED.finditer(text) for n in m.group(1).split()}
    known = known_numbers(chapter, record, snippets_root)
    problems = []
    for number, line, in_code in iter_prose_lines(text):
        if in_code:
            continue
        # A figure's number ("Figure 3.2") is not a result; rendering checks it exists.
        line = FIGURE_REF.sub("", LINK_TARGET.sub("", BOUND.sub("", line)))
        for m in DECIMAL.finditer(line):
            if CITATION.match(m.group()) or m.group() in derived:
                continue
            if not quoted(m.group(), known):
                problems.append(f"{shown}:{number}: {m.group()} is typed in the prose but "
                                "no snippet of the chapter prints or contains it; bind it with "
                                "{{ }} or declare it <!-- bookrun: derived ... -->")
    return problems
