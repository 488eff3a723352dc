"""A chapter as a Jupyter notebook: the page in page order. Its prose becomes Markdown
cells (bound values filled from the record, as the page shows them), each snippet a
code cell with its recorded outputs, each exercise with an `Answer:` line a cell the
reader fills in and a cell that checks it against the recorded solution."""
from __future__ import annotations

import hashlib
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from bookrun.model.page import PageError
from bookrun.model.text import visible
from bookrun.parse.chapter import BOUND, ChapterDoc
from bookrun.parse.bindings import sub_outside_code
from bookrun.parse.controls import notebook_cell
from bookrun.render.notebook_prose import (ADMONITION, HEADING, SiteLinks, admonition_lines,
                                           box_end, dedent, indent_of, prose_line)
from bookrun.render.page import bound_text, cite_figures, figure_anchor, fill_prose, step_value

ABOUT = ("*The chapter as a notebook: its text, and its code with the outputs the book "
         "was built with. Run the cells from the top, since later cells use names that "
         "earlier ones define.*")
UNANSWERED = "not answered yet"  # what a check cell prints while its reader cell is untouched
# The check cell defines this and calls it once per answer. Only a SHA-256 of the book's
# formatted value is in the notebook, so the answer cannot be read before it is solved.
CHECK_ANSWER = f'''# Checks your answer against the book's solution without showing it: your value,
# formatted as the book prints it, is compared by its SHA-256 with the book's.
import hashlib


def check_answer(name, spec, digest):
    value = globals().get(name, ...)
    if value is ...:
        print(f"{{name}}: {UNANSWERED}; set it in the cell above and run this cell again")
        return
    try:
        shown = format(value, spec)
    except (TypeError, ValueError) as exc:
        print(f"{{name}}: cannot format {{value!r}} as {{spec!r}} ({{exc}})")
        return
    right = hashlib.sha256(f"{{name}}={{shown}}".encode()).hexdigest() == digest
    print(f"{{name}} = {{shown}}: " + ("right" if right else "not the book's answer, try again"))
'''


def answer_digest(name: str, shown: str) -> str:
    """What a check cell compares: the hash of the name and the formatted value, so two
    answers with the same value do not share a hash."""
    return hashlib.sha256(f"{name}={shown}".encode()).hexdigest()


def chapter_notebook(doc: ChapterDoc, record, read_code, figure_dir: Path,
                     links: SiteLinks | None = None) -> str:
    """Deterministic .ipynb text (fixed cell ids, no execution timestamps)."""
    links = links or SiteLinks(Path(doc.chapter.page).name)
    cells = _Walk(doc, record, read_code, figure_dir, links).cells()
    nb = new_notebook(cells=cells, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"},
    })
    nbformat.validate(nb)
    return nbformat.writes(nb)


class _Walk:
    """One pass over the page's lines, as the parse numbered them, emitting cells."""

    def __init__(self, doc: ChapterDoc, record, read_code, figure_dir: Path, links: SiteLinks):
        self.doc, self.record, self.read_code = doc, record, read_code
        self.figure_dir, self.links = figure_dir, links
        self.out: list = []
        self.markdown: list[str] = []
        self.exercises = 0
        self.steps = {step.line: n for n, step in enumerate(doc.chapter.steps)}
        self.answers = {a.line: a for a in doc.answers}
        self.boxes: list = []  # the admonitions open at this line, outermost first
        self.level = 1  # of the last heading outside a box
        self.skip_to = 0  # the last line of a step's `Figure:`/`Alt:` block
        self.figures = 0  # the page's figures above this line
        self.lines = doc.text.splitlines()  # where an admonition's box ends is read here

    def cells(self) -> list:
        if not self.doc.title_line:
            self.about()
        # The parse's reading of the page (which lines are code), not a second walk.
        for number, line in enumerate(self.lines, start=1):
            if number >= self.doc.body_line and number > self.skip_to:
                self.line(number, line, number in self.doc.code_at)
        self.close_boxes(-1)
        self.flush()
        return self.out

    def line(self, number: int, line: str, in_code: bool) -> None:
        if line.strip():
            self.close_boxes(indent_of(line))
        m = None if in_code else ADMONITION.match(line)
        if number in self.steps:
            self.flush()
            self.step(self.steps[number])
            self.skip_to = self.doc.chapter.steps[self.steps[number]].end
        elif number in self.answers:
            self.exercise(self.answers[number])
        elif m:
            self.open_box(m, number)
        else:
            text = dedent(line, self.boxes[-1].body if self.boxes else 0)
            if in_code:
                self.markdown.append(text)
            else:
                self.prose(text, number)

    def open_box(self, m, number: int) -> None:
        """An admonition's title; one holding a code cell starts a cell of its own."""
        end = box_end(self.lines, number - 1, indent_of(m.group())) + 1  # its first line after
        holds_cells = any(number < at < end for at in [*self.steps, *self.answers])
        if holds_cells:
            self.flush()
        title, box = admonition_lines(m, holds_cells, self.level)
        self.markdown += title
        self.boxes.append(box)

    def close_boxes(self, indent: int) -> None:
        """Close the admonitions a line indented `indent` is not inside (-1: all)."""
        while self.boxes and indent <= self.boxes[-1].indent:
            self.markdown += self.boxes.pop().closing

    def prose(self, text: str, number: int) -> None:
        """One line of prose; a heading outside a box starts a cell."""
        if number in self.doc.fills:
            text = self.fill(text, number)
        if number in self.doc.cited_at:  # "Figure 4.7", linked as on the page
            text = cite_figures(self.doc, text, number, self.doc.chapter_number)
        shown = prose_line(text, self.links)
        if shown is None:
            return
        heading = None if self.boxes else HEADING.match(shown)
        if heading:
            self.flush()
            self.level = len(heading.group("marks"))
        self.markdown.append(shown)
        if number == self.doc.title_line:
            self.flush()
            self.about()

    def fill(self, text: str, number: int) -> str:
        """The line's `{{ }}` filled as the page fills them, from the step they follow."""
        chapter = self.doc.chapter
        step = chapter.steps[self.doc.fills[number]]
        snippet = self.record.snippet(step.snippet)
        return sub_outside_code(BOUND, lambda b: bound_text(step_value(
            chapter, step, snippet, b.group("body").strip(), number)), text)

    def flush(self) -> None:
        """The Markdown gathered so far as one cell, if it holds any text."""
        text = "\n".join(self.markdown).strip("\n")
        self.markdown = []
        if text.strip():
            self.out.append(new_markdown_cell(text, id=f"md-{len(self.out) + 1:03d}"))

    def about(self) -> None:
        self.out.append(new_markdown_cell(header_markdown(self.doc.meta, self.links),
                                          id="about"))

    def step(self, n: int) -> None:
        """The snippet's code cell with its outputs, its figures' words, its live controls."""
        step = self.doc.chapter.steps[n]
        snippet = self.record.snippet(step.snippet)
        outputs = []
        if snippet.output:
            # Control characters written out, as on the page (safe_text): a raw `\r`
            # would rewind the line in Jupyter but break it on the page.
            outputs.append(new_output("stream", name="stdout", text=visible(snippet.output)))
        for fig in snippet.figures:
            svg = (self.figure_dir / fig.name).read_text(encoding="utf-8")
            outputs.append(new_output("display_data", data={"image/svg+xml": svg}))
        ident = f"cell-{n + 1:02d}"
        self.out.append(new_code_cell(self.read_code(step.snippet).rstrip("\n"), id=ident,
                                      execution_count=n + 1, outputs=outputs))
        if step.figures and len(step.figures) == len(snippet.figures):
            self.out.append(new_markdown_cell(
                figure_texts(step, self.record, self.doc, self.figures, self.links),
                id=f"{ident}-figures"))
        self.figures += len(step.figures)
        for k, fig in enumerate(f for f in step.figures if f.interactive):
            self.out.append(new_code_cell(notebook_cell(fig.interactive), id=f"{ident}-live-{k}"))

    def exercise(self, first) -> None:
        """At an exercise's first `Answer:` line: the cell the reader fills in with every
        answer its solution checks, then the cell that checks them."""
        group = [a for a in self.doc.answers if a.step == first.step]
        if first is not group[0]:
            return
        self.flush()
        self.exercises += 1
        ident = f"exercise-{self.exercises}"
        reader = ["# Your answer: replace each ... with your value, then run the next cell."]
        reader += [f"{a.name} = ...  # checked as {shown_as(a)}" for a in group]
        self.out.append(new_code_cell("\n".join(reader), id=ident))
        calls = [f"check_answer({a.name!r}, {a.binding.spec!r}, "
                 f"{answer_digest(a.name, self.recorded(a))!r})" for a in group]
        self.out.append(new_code_cell(CHECK_ANSWER + "\n\n" + "\n".join(calls),
                                      id=f"{ident}-check"))

    def recorded(self, answer) -> str:
        """The text the page shows for the answer's binding after its solution."""
        step = self.doc.chapter.steps[answer.step]
        values = self.record.snippet(step.snippet).values
        if answer.binding.body not in values:
            raise PageError(self.doc.chapter.shown, answer.line,
                            f"{{{{ {answer.binding.body} }}}} has no value after "
                            f"snippets/{step.snippet} in the record: run python -m bookrun update")
        return values[answer.binding.body]


def shown_as(answer) -> str:
    """How the check formats the reader's value: as the page formats the book's."""
    spec = answer.binding.spec
    return f"format({answer.name}, {spec!r})" if spec else f"str({answer.name})"


def header_markdown(meta: dict, links: SiteLinks) -> str:
    """The cell under the title: what the notebook is, and the chapter header's fields
    (level, what to read first, when you are done) where the front matter gives them."""
    parts = [ABOUT]
    if meta.get("level"):
        parts.append(f"**Level:** {meta['level']}")
    before = [links.rewrite(str(b)) for b in meta.get("before") or []]
    if before:
        parts.append("**Before this chapter:** " + "; ".join(before))
    done = [d for d in meta.get("done_when") or [] if isinstance(d, dict) and "text" in d]
    if done:
        items = [f"- {d['text']}" + self_test_link(d.get("anchor"), links) for d in done]
        parts.append("**You are done when:**\n\n" + "\n".join(items))
    return "\n\n".join(parts)


def self_test_link(anchor: str | None, links: SiteLinks) -> str:
    """` (self-test)`, linking the question an outcome is tied to; "" without one."""
    return f" ({links.rewrite(f'[self-test](#{anchor})')})" if anchor else ""


def figure_texts(step, record, doc: ChapterDoc | None = None, above: int = 0,
                 links: SiteLinks | None = None) -> str:
    """The page's caption and text alternative of each figure above, as Markdown: a
    notebook has no alt attribute for an SVG output, so the words go under it. When the
    chapter's figures are numbered (`doc.chapter_number`), each is "Figure 4.7", with
    the page's anchor for it; `above` counts the page's figures before these."""
    values = record.snippet(step.snippet).values  # those bound after this snippet
    number = doc.chapter_number if doc is not None else None
    texts = []
    for k, fig in enumerate(step.figures, start=above + 1):
        caption, alt = fill_prose(fig.caption, values), fill_prose(fig.alt, values)
        title = "**Figure:**"
        if doc is not None:  # what the texts name, numbered (an error where nothing is)
            caption = cite_figures(doc, caption, fig.line, number)
            alt = cite_figures(doc, alt, fig.line, number, link=False)
        if number is not None:
            title = f'<a id="{figure_anchor(f"{number}.{k}")}"></a>**Figure {number}.{k}.**'
        if links is not None:
            caption = links.rewrite(caption)
        texts.append(f"{title} {caption}\n\n*What it shows:* {alt}")
    return "\n\n".join(texts)

