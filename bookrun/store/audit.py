"""Audit a page's prose: every number it states as a result must come from the chapter's code.

A number written by hand ("page C converts 0.155 of visitors", "the last 500
episodes lasted 34 moves") is allowed only if the chapter's snippets print it
(to the digits quoted) or contain it as a constant; otherwise a changed constant
would leave the sentence stale. Bound `{{ }}` values are exempt (they are
rendered from the session).

Decimals are audited everywhere in the prose. Integers are audited outside math,
inline code, headings and list markers, and not when they name something rather
than measure it: a year (1900 to 2099), a reference such as "chapter 5",
"Exercise 3" or "§5.4", or a citation id. A number the prose derives by hand, or
quotes from a source, or chooses as a hypothetical ("a buffer of 128 steps"), is
declared on the page, where reviewers see it: `<!-- bookrun: derived 0.625 2.5 -->`,
`<!-- bookrun: cited 37 -->` or `<!-- bookrun: given 128 -->`. Integers are not
audited in a reading list (a section headed "Papers", "Further reading" or
"References"), in link ids (doi:, arXiv:) or in compound words ("64-bit"), and no number
is audited on a `@run`, `Interactive:` or `Control:` line (options and a control's values).
"""
from __future__ import annotations

import re
from pathlib import Path

from bookrun.model.page import Chapter
from bookrun.parse.chapter import (ANSWER, BOUND, DIRECTIVE, FIGURE_FIELD, FIGURE_NAME,
                                   FIGURE_REF, iter_prose_lines)
from bookrun.parse.front_matter import split_front_matter

DECIMAL = re.compile(r"(?<![\w.])\d+\.\d+(?![\w.])")
# An integer, possibly with thousands separators ("20,000"), not part of a decimal,
# an identifier (k3, r_t), an exponent (3e-3) or a compound word ("64-bit", "10-action").
INTEGER = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)(?![\w]|[.,]\d|-[A-Za-z])")
# Numbers in code and output: 20_000, 20,000 and 1e-4 each count as one number.
ANY_NUMBER = re.compile(r"\d{1,3}(?:[,_]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?(?:e[-+]?\d+)?")
LINK_TARGET = re.compile(r"\]\([^)]*\)|<https?://[^>]*>|https?://\S+")
COMMENT = re.compile(r"<!--.*?-->")
INLINE_CODE = re.compile(r"`[^`]*`")
HEADING = re.compile(r"^\s*#+\s")
# A bibliography: its volumes, pages and ids are not results.
READING_LIST = re.compile(r"^\s*#+\s.*(papers|further reading|references|bibliography)",
                          re.IGNORECASE)
# Ids in link text ("doi:10.1016/0196-8858(85)90002-8") and numbered titles ("[1. Setup]").
LINK_ID = re.compile(r"\b(?:doi|arxiv):\S+|\[\d+\.\s", re.IGNORECASE)
LIST_MARKER = re.compile(r"^\s*\d+\.\s")
# Reference numbers, not results: arXiv ids (1706.03741) and DOI prefixes (10.1023).
CITATION = re.compile(r"^(\d{4}\.\d{4,5}|10\.\d{4,})$")
# A number right after one of these words names a part of a text, not a measurement.
REFERENCE_WORD = re.compile(
    r"(?:\b(?:chapter|chapters|section|sections|exercise|exercises|example|figure|table|"
    r"question|item|items|part|page|theorem|thm|lemma|eq|equation|appendix|issue|"
    r"version|release|step|steps|line|lines|rule)|§)\s*$", re.IGNORECASE)
DERIVED = re.compile(r"<!--\s*bookrun:\s*(?:derived|cited|given)\s+([^>]*?)\s*-->")


def known_numbers(chapter: Chapter, record, snippets_root: Path) -> set[float]:
    texts = [text for s in record.snippets for text in (s.output, *s.values.values())]
    texts += [(snippets_root / s.snippet).read_text(encoding="utf-8") for s in chapter.steps]
    found = set()
    for text in texts:
        for m in ANY_NUMBER.finditer(text):
            found.add(float(re.sub(r"[,_]", "", m.group())))
    return found


def quoted(number: str, known: set[float]) -> bool:
    """Printed exactly, or (two or more decimals) a rounding of a printed value."""
    value, places = float(number), len(number.split(".")[1])
    return value in known or (places >= 2 and any(round(k, places) == value for k in known))


def integer_quoted(number: str, after: str, known: set[float]) -> bool:
    """An integer printed or in the code; a percentage also as the fraction it shows."""
    value = float(number.replace(",", ""))
    if value in known:
        return True
    return after.lstrip().startswith("%") and any(round(k * 100) == value for k in known
                                                  if 0 <= k <= 1)


def names_something(line: str, start: int, number: str) -> bool:
    """A year, or a number that a reference word introduces ("Exercise 3", "§5.4")."""
    if REFERENCE_WORD.search(line[:start]):
        return True
    return "," not in number and "." not in number and 1900 <= int(number) <= 2099


def blank(pattern: re.Pattern, line: str) -> str:
    """Replace each match by spaces, so positions (and line context) survive."""
    return pattern.sub(lambda m: " " * len(m.group()), line)


def blank_math(line: str, open_: bool) -> tuple[str, bool]:
    """Blank inline `$...$` math; `open_` says a span began on an earlier line."""
    parts, out = line.split("$"), []
    for i, part in enumerate(parts):
        inside = open_ != (i % 2 == 1)
        out.append(" " * len(part) if inside else part)
    return " ".join(out), open_ != (len(parts) % 2 == 0)


def unexplained_numbers(chapter: Chapter, record, snippets_root: Path, shown: str) -> list[str]:
    # The front matter (the chapter header's fields) is not prose: blanked, lines kept.
    _, text = split_front_matter(chapter.page.read_text(encoding="utf-8"), shown)
    derived = {n for m in DERIVED.finditer(text) for n in m.group(1).split()}
    known = known_numbers(chapter, record, snippets_root)
    problems = []

    def flag(number, line_number, value):
        problems.append(f"{shown}:{line_number}: {value} is typed in the prose but "
                        "no snippet of the chapter prints or contains it; bind it with "
                        "{{ }} or declare it <!-- bookrun: derived ... -->")

    in_display_math = in_inline_math = in_reading_list = False
    for number, line, in_code in iter_prose_lines(text):
        if in_code or ANSWER.match(line):  # an exercise's answer names a bound value
            continue
        # Not prose: a `@run` line's options (max-frame-kb=120) and an interactive
        # figure's `Interactive:` and `Control:` lines (the values a reader may pick).
        field = FIGURE_FIELD.match(line)
        if DIRECTIVE.match(line) or (field and field.group("key") in ("Interactive", "Control")):
            continue
        # A figure's number ("Figure 3.2", rendering refuses it) or name (`[[fig:a#2]]`)
        # is not a result.
        line = blank(FIGURE_NAME, blank(FIGURE_REF, blank(COMMENT, blank(LINK_TARGET,
                                                                        blank(BOUND, line)))))
        for m in DECIMAL.finditer(line):
            if CITATION.match(m.group()) or m.group() in derived:
                continue
            if names_something(line, m.start(), m.group()):
                continue
            if not quoted(m.group(), known):
                flag(m.group(), number, m.group())
        # Integers: only in running text, so not inside display math (between `$$`).
        stripped = line.strip()
        if in_display_math or stripped.startswith("$$"):
            opens = stripped.startswith("$$") and not in_display_math
            closes = stripped.endswith("$$") and (in_display_math or len(stripped) > 2)
            in_display_math = (in_display_math or opens) and not closes
            continue
        if not stripped:
            in_inline_math = False  # a paragraph ends any math span
        if HEADING.match(line):
            in_reading_list = bool(READING_LIST.match(line))
            continue
        if in_reading_list:
            continue
        prose, in_inline_math = blank_math(blank(INLINE_CODE, blank(LINK_ID, line)),
                                           in_inline_math)
        prose = blank(LIST_MARKER, prose)
        for m in INTEGER.finditer(prose):
            value = m.group(1)
            if value in derived or names_something(prose, m.start(), value):
                continue
            if not integer_quoted(value, prose[m.end():], known):
                flag(value, number, value)
    return problems
