"""The header under a chapter's title: what a reader decides by before starting.

It shows the level, a reading time, the number of figures (and of interactive ones),
the notebook buttons, a link to the PDF of the book, "Before this chapter" (links to
the sections the chapter builds on) and "You are done when" (two to four outcomes,
each linking to a self-test question on the page).

The author writes three fields in the page's YAML front matter:

    ---
    level: Intermediate
    before:
      - "[Bandits: Thompson sampling](bandits.md#strategy-4-thompson-sampling)"
    done_when:
      - text: You can say why the clip removes an incentive rather than a move.
        anchor: check-clip
    ---

`level` is one of LEVELS; each `before` entry is one Markdown link (MkDocs checks
its target like any other link); each `done_when` anchor is an `id` on the page,
written as `<a id="check-clip"></a>` on its own line (then a blank line) above the
self-test question. The rest is computed when the page is rendered:

- reading time = prose words / WORDS_PER_MINUTE + code lines / CODE_LINES_PER_MINUTE,
  rounded up to a multiple of ROUND_TO minutes. Prose words exclude code, HTML
  comments, `@run` lines and figures' text alternatives (read aloud instead of the
  image, not in addition to it); code lines are the non-blank lines of every snippet
  the page runs and of the code blocks written in the page.
- figures: the `Figure:` captions under the page's `@run` lines; interactive
  figures: those of them with `Interactive:` controls.

The parse counts all of it (bookrun.parse.chapter.PageFacts) as it reads the page;
this module only writes the HTML. A book turns headers on with the `chapter_headers`
option. A page without any of the three fields gets no header (the home page, test
fixtures); a page with some but not all, or with a malformed one, is an error that
names the page and the line.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from bookrun.model.page import PageError
from bookrun.parse.chapter import ChapterDoc
from bookrun.parse.front_matter import split_front_matter  # noqa: F401 - tests read it here
from bookrun.render.links import PDF, PageLinks  # noqa: F401 - PDF named here before

LEVELS = ("Beginner", "Intermediate", "Advanced")
FIELDS = ("level", "before", "done_when")
OUTCOME_FIELDS = ("text", "anchor")
WORDS_PER_MINUTE = 200
CODE_LINES_PER_MINUTE = 10
ROUND_TO = 5
MIN_OUTCOMES, MAX_OUTCOMES = 2, 4

ONE_LINK = re.compile(r"^\[[^\]]+\]\([^)\s]+\)$")
ANCHOR = re.compile(r"^[A-Za-z][\w-]*$")


def field_line(text: str, key: str) -> int:
    """The line of `key:` in the front matter, for errors (1 if it is not there)."""
    for number, line in enumerate(text.split("\n"), 1):
        if line.startswith(f"{key}:"):
            return number
    return 1


@dataclass(frozen=True)
class Outcome:
    """One "You are done when" line and the id of its self-test question."""
    text: str
    anchor: str


@dataclass(frozen=True)
class ChapterHeader:
    """The three front-matter fields, checked once; the renderer reads only these."""
    level: str
    before: tuple[str, ...]
    done_when: tuple[Outcome, ...]


def check_fields(meta: dict, text: str, shown: str) -> ChapterHeader:
    """Every header field present and well formed; anchors exist on the page."""
    missing = [k for k in FIELDS if k not in meta]
    if missing:
        raise PageError(shown, 1, f"the chapter header needs {', '.join(FIELDS)} in the "
                        f"front matter; missing: {', '.join(missing)}")
    level, before, done = (meta[k] for k in FIELDS)
    if level not in LEVELS:
        raise PageError(shown, field_line(text, "level"),
                        f"level must be one of {', '.join(LEVELS)}, not {level!r}")
    if (not isinstance(before, list) or not before
            or not all(isinstance(b, str) and ONE_LINK.match(b.strip()) for b in before)):
        raise PageError(shown, field_line(text, "before"), "before must be a list of "
                        "Markdown links, one per entry: - \"[Section](page.md#anchor)\"")
    if (not isinstance(done, list) or not MIN_OUTCOMES <= len(done) <= MAX_OUTCOMES
            or not all(isinstance(d, dict) and set(d) == set(OUTCOME_FIELDS)
                       and all(isinstance(v, str) for v in d.values()) for d in done)):
        raise PageError(shown, field_line(text, "done_when"),
                        f"done_when must list {MIN_OUTCOMES} to {MAX_OUTCOMES} outcomes, "
                        "each with `text:` and `anchor:` (the id of a self-test question)")
    outcomes = tuple(Outcome(**d) for d in done)
    for o in outcomes:
        if not ANCHOR.match(o.anchor) or f'id="{o.anchor}"' not in text:
            raise PageError(shown, field_line(text, "done_when"),
                            f"done_when anchor {o.anchor!r} is not an id on this page; "
                            f"put <a id=\"{o.anchor}\"></a> above its self-test question")
    return ChapterHeader(level, tuple(b.strip() for b in before), outcomes)


def reading_minutes(words: int, lines: int) -> int:
    minutes = words / WORDS_PER_MINUTE + lines / CODE_LINES_PER_MINUTE
    return max(ROUND_TO, ROUND_TO * math.ceil(minutes / ROUND_TO))


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def render_header(header: ChapterHeader, minutes: int, figures: int, interactive: int,
                  notebook_links: str, pdf: str | None) -> str:
    """The header as Markdown inside one HTML block (md_in_html parses its content)."""
    facts = [header.level, f"about {minutes} min", plural(figures, "figure")]
    if interactive:
        facts.append(f"{interactive} interactive")
    # The PDF's button only where the build prints the PDF (a link to none is a dead end).
    pdf_button = pdf and f'<a class="md-button" href="{pdf}">PDF of the book</a>'
    buttons = " ".join(b for b in (notebook_links, pdf_button) if b)
    done = "\n".join(f"- {d.text.strip()} [Check yourself](#{d.anchor})"
                     for d in header.done_when)
    return "\n".join([
        '<div class="chapter-header" markdown>',
        "",
        f'<p class="chapter-facts">{" · ".join(facts)}</p>',
        "",
        buttons,
        "",
        "**Before this chapter:** " + "; ".join(header.before),
        "",
        "**You are done when:**",
        "",
        done,
        "",
        "</div>",
    ])


def chapter_header(doc: ChapterDoc, snippets: list[str], links: PageLinks) -> str:
    """What goes under the chapter's title: the header with the notebook buttons in it,
    or the buttons alone when the page's front matter asks for no header. `snippets`
    are the texts of the snippets the page runs, in order."""
    meta = doc.meta
    if not any(k in meta for k in FIELDS):
        return links.buttons
    header = check_fields(meta, doc.text, doc.chapter.shown or str(doc.chapter.page))
    snippet_lines = sum(1 for text in snippets for ln in text.splitlines() if ln.strip())
    minutes = reading_minutes(doc.facts.prose_words, doc.facts.code_lines + snippet_lines)
    return render_header(header, minutes, doc.facts.figures, doc.facts.interactive,
                         links.buttons, links.pdf)
