"""Turn a page's directives and bound values into Markdown: code, output, figures.

The page was parsed once (bookrun.parse.chapter.ChapterDoc): rendering replaces the
line ranges the parse names and fills each `{{ }}` from the snippet it follows, without
reading or scanning the page again."""
from __future__ import annotations

import html
import os
import posixpath
import re

from bookrun.config import BookConfig
from bookrun.render import copy_above, zoom
from bookrun.parse.bindings import sub_outside_code
from bookrun.model.page import PageError, SnippetRecord, Step
from bookrun.parse.chapter import BOUND, FIGURE_NAME, ChapterDoc
from bookrun.render.header import chapter_header
from bookrun.render.links import PageLinks
from bookrun.parse.controls import controls_html, script_tag
from bookrun.model.text import visible

MARKDOWN_SPECIALS = re.compile(r"([\\`*_\[\]#])")
ALT_SPECIALS = re.compile(r"([\\\[\]])")  # what could end an image's [alt] early


# On a code or output block: Material's search leaves it out of the index, so a result's
# preview is the prose around it, not a whole listing (and a search for a word in the
# code still finds the prose that names it).
NOT_SEARCHED = 'data-search-exclude=""'


def fence_for(text: str) -> str:
    """A backtick fence longer than any backtick run inside the text."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    return "`" * max(3, longest + 1)


def fenced(text: str, info: str, indent: str) -> list[str]:
    fence = fence_for(text)
    body = text[:-1] if text.endswith("\n") else text
    lines = [f"{fence} {info}"] + body.split("\n") + [fence]
    return [indent + ln if ln else ln for ln in lines]


PLATFORM_NOTE = ("*Platform-bound output: these digits are exact on the machine that recorded "
                 "the book. Training is chaotic, so another CPU prints other digits; the "
                 "tests check the findings the text states on every platform.*"
                 "{ .bookrun-platform }")


def figure_anchor(number: str) -> str:
    """The figure's id: `figure-3-2` for Figure 3.2, `figure-2` for a page's second
    figure when the book does not number figures."""
    return "figure-" + number.replace(".", "-")


def figure_markdown(url: str, number: str, caption: str, alt: str, indent: str,
                    numbered: bool = True, layout: str = "") -> list[str]:
    """A <figure>: the image with its text alternative, then the caption (numbered
    `Figure <number>.` when the book numbers figures; `number` then also names its id).

    pymdownx.blocks.caption wraps the image and the caption (Markdown, so it may hold
    math or emphasis) in <figure> and <figcaption>; the alt text is plain text, read
    aloud in place of the image. `layout`: its panels and least width (render.zoom).
    """
    anchor = figure_anchor(number)
    alt = ALT_SPECIALS.sub(r"\\\1", alt)
    lines = [f"![{alt}]({url}){{ .bookrun-figure{' ' + layout if layout else ''} }}", "",
             f"/// figure-caption | {number}" if numbered else "/// caption",
             f"    attrs: {{id: {anchor}}}",
             caption,
             "///"]
    return [indent + ln if ln else ln for ln in lines]


# A snippet line, at the start of a line, after which the code only draws its figure:
# the page folds the rest under the code block (the snippet, the notebook and every
# REPL copy keep all of it, and the page still runs top to bottom).
FOLD = "# -- drawing the figure --"


def split_drawing(code: str) -> tuple[str, str]:
    """(what the code block shows, the drawing code folded under it: "" if none)."""
    lines = code.split("\n")
    if FOLD not in lines:
        return code, ""
    at = lines.index(FOLD)
    return "\n".join(lines[:at]).rstrip("\n") + "\n", "\n".join(lines[at + 1:]).strip("\n") + "\n"


def folded_drawing(code: str, indent: str) -> list[str]:
    """A collapsed box under the code block, one click to open (pymdownx.details)."""
    count = sum(1 for ln in code.split("\n") if ln.strip())
    title = f"The code that draws the figure ({count} lines)"
    return ([f'{indent}??? example "{title}"', ""]
            + fenced(code, f"{{ .python {NOT_SEARCHED} }}", indent + "    "))


def render_step(snippet_path: str, code: str, snippet: SnippetRecord | None, figure_url,
                indent: str, figures=(), platform_bound: bool = False,
                index: int = 0, numbered: bool = True, read_figure=None) -> str:
    """The code block, then (when executed) the output block and the figures.

    `figures` holds (number, caption, alt, interactive) for each figure the snippet
    shows, in order (an interactive one gets its controls under it); `index` counts the
    page's code blocks above this one (for "Copy with the N above"); `numbered`: the
    captions show their numbers; `read_figure(name)`: a figure's SVG, for its panels.
    """
    # The parse allows only safe names (bookrun.parse.names); escaped all the same, since a
    # quote would end the title and the rest would become markup.
    shown, drawing = split_drawing(code)
    out = fenced(shown, f'{{ .python title="{html.escape(snippet_path)}" {NOT_SEARCHED} }}',
                 indent)
    if drawing:
        out += [""] + folded_drawing(drawing, indent)
    out += copy_above.placeholder(index, code, indent, platform_bound)
    if snippet is not None:
        if snippet.output:
            # A code block escapes its content, so a printed <b> shows as text; control
            # characters are written out (safe_text), as in the notebook.
            out += [""] + fenced(visible(snippet.output),
                                 f'{{ .text .bookrun-output title="Output" {NOT_SEARCHED} }}',
                                 indent)
        frames = {f.figure: f for f in snippet.frames}
        for fig, (number, caption, alt, inter) in zip(snippet.figures, figures, strict=True):
            layout = zoom.figure_attributes(read_figure(fig.name)) if read_figure else ""
            out += [""] + figure_markdown(figure_url(fig.name), number, caption, alt, indent,
                                          numbered, layout)
            if inter is not None and fig.name in frames:
                out += [""] + controls_html(inter, frames[fig.name], figure_anchor(number),
                                            indent)
        if platform_bound:
            out += ["", indent + PLATFORM_NOTE]
    return "\n".join(out)


def bound_text(value: str) -> str:
    """A bound value as literal prose: never read as Markdown or HTML."""
    return MARKDOWN_SPECIALS.sub(r"\\\1", html.escape(visible(value), quote=False))


def shown_path(page) -> str:
    """The page as errors name it: relative to the working folder when under it."""
    rel = os.path.relpath(page)
    return str(page) if rel.startswith("..") else rel


def numbered_figures(chapter, step: Step, snippet: SnippetRecord | None, chapter_number,
                     counter, numbered: bool = True, cite=lambda text, line, link: text):
    """(number, caption, alt, interactive) for each figure a snippet showed, its values
    taken from the snippet's record; errors name page and line. Without `numbered`, a
    figure's number is its place on the page, for its id only. `cite(text, line, link)`
    writes the figures a caption or alt names (`[[fig:NAME]]`)."""
    shown, page = len(snippet.figures) if snippet else 0, chapter.shown or shown_path(chapter.page)
    if len(step.figures) != shown:
        where = step.figures[0].line if step.figures and not shown else step.line
        raise PageError(page, where, f"{step.snippet} shows {shown} figure(s) but the "
                        f"page gives {len(step.figures)} `Figure:`/`Alt:` pair(s) under it")
    if shown and numbered and chapter_number is None:
        raise PageError(page, step.line, "figures are numbered per chapter: give the "
                        "page a numbered nav title (`3. Bandits`) or `chapter: 3` in its front "
                        "matter")
    texts = []
    for fig in step.figures:
        counter.append(fig)
        value = lambda b, line=fig.line: step_value(chapter, step, snippet,  # noqa: E731
                                                    b.group("body").strip(), line)
        # The caption is Markdown, so its values are escaped; the alt is an attribute.
        number = f"{chapter_number}.{len(counter)}" if numbered else str(len(counter))
        caption = sub_outside_code(BOUND, lambda b: bound_text(value(b)), fig.caption)
        alt = sub_outside_code(BOUND, lambda b: visible(value(b)), fig.alt)
        texts.append((number, cite(caption, fig.line, True), cite(alt, fig.line, False),
                      fig.interactive))
    return texts


def cite_figures(doc: ChapterDoc, text: str, line: int, chapter_number: str | None,
                 link: bool = True) -> str:
    """Each `[[fig:NAME]]` of `text` (outside inline code) as "Figure 4.7", a link to
    the figure's id unless `link` is off (an alt text, a page whose figures are not
    drawn). `chapter_number`: None when the book does not number figures, an error."""
    def one(m) -> str:
        if chapter_number is None:
            raise PageError(doc.chapter.shown or shown_path(doc.chapter.page), line,
                            f"{m.group()} shows its figure's number: it needs the book's "
                            "number_figures option and the page's chapter number (a nav "
                            "title `3. Bandits` or `chapter: 3` in its front matter)")
        number = f"{chapter_number}.{doc.figure_at(m)}"
        return f"[Figure {number}](#{figure_anchor(number)})" if link else f"Figure {number}"
    return sub_outside_code(FIGURE_NAME, one, text)


def step_value(chapter, step: Step, snippet: SnippetRecord | None, body: str, line: int) -> str:
    """The text `{{ body }}` bound after `step` rendered to, from its snippet's record."""
    if snippet is None or body not in snippet.values:
        raise PageError(chapter.shown or shown_path(chapter.page), line,
                        f"{{{{ {body} }}}} has no value after snippets/{step.snippet} in the "
                        "record: run python -m bookrun update")
    return snippet.values[body]


def render_page(doc: ChapterDoc, record, read_code, links: PageLinks,
                config: BookConfig | None = None, chapter_number: str | None = None,
                text: str | None = None, first_line: int | None = None,
                read_figure=None) -> str:
    """Replace every `@run` line and every `{{ }}` in the prose of one page.

    `doc` is the parse of the page's file; `text` is the text the host converts (by
    default the file without its front matter, as MkDocs cuts it), whose line 1 is the
    file's line `first_line`. The steps' line ranges are replaced by their blocks, and
    the lines the parse found bindings on are filled from the record of the step they
    follow. With the book's `number_figures`, figures are numbered
    `<chapter_number>.<n>` in page order; with `chapter_headers`, the header goes under
    the title (with the buttons in it), else the buttons alone.
    """
    config = config or BookConfig()
    if text is None:
        text, first_line = doc.body(), doc.body_line
    codes = [read_code(step.snippet) for step in doc.chapter.steps]  # each read once
    page = _Splice(doc, record, codes, links, config.number_figures, chapter_number)
    page.read_figure = read_figure
    buttons = (chapter_header(doc, codes, links) if config.chapter_headers
               else links.buttons)
    if config.number_figures:
        check_typed_numbers(doc, chapter_number)
    out = page.lines(text.splitlines(), first_line or 1, buttons)
    if record and links.script and any(f.interactive for f in page.counter):
        out += ["", script_tag(links.script)]
    return "\n".join(out) + "\n"


class _Splice:
    """One page's text with its steps' ranges replaced and its bindings filled."""

    def __init__(self, doc: ChapterDoc, record, codes: list[str], links: PageLinks,
                 numbered: bool, chapter_number: str | None):
        self.doc, self.record, self.codes, self.numbered = doc, record, codes, numbered
        self.chapter_number, self.counter = chapter_number, []
        self.read_figure = None  # a figure's SVG by name, for its panels (render.zoom)
        self.by_snippet = {s.snippet: s for s in record.snippets} if record else {}
        self.page_dir = posixpath.dirname(links.page_uri) or "."

    def figure_url(self, name: str) -> str:
        return posixpath.relpath(f"figures/{self.doc.chapter.name}/{name}", self.page_dir)

    def lines(self, text: list[str], first_line: int, buttons: str) -> list[str]:
        doc, steps = self.doc, self.doc.chapter.steps
        starts = {step.line: n for n, step in enumerate(steps)}
        file_lines = doc.text.splitlines()
        out, skip_to = [], 0
        answers = {a.line for a in doc.answers}  # for the notebook's exercise checks only
        for at, line in enumerate(text):
            number = at + first_line  # the file's line, as the parse and errors count
            if number <= skip_to or number in answers:  # a `Figure:`/`Alt:` line, placed
                continue  # with its figure, or an `Answer:` line, which the page hides
            if number in starts:
                if line != file_lines[number - 1]:
                    raise PageError(doc.chapter.shown, number, "the text to convert is not "
                                    f"the page as parsed (this line reads {line!r}): "
                                    "something changed it before bookrun's extension ran")
                out.append(self.step(starts[number], line))
                skip_to = steps[starts[number]].end  # where its `Figure:`/`Alt:` block ends
                continue
            if number in doc.fills:
                line = self.fill(line, steps[doc.fills[number]], number)
            if number in doc.cited_at:
                line = self.cite(line, number, True)
            out.append(line)
            if number == doc.title_line and buttons:
                out += ["", buttons]
        return out

    def step(self, n: int, line: str) -> str:
        step = self.doc.chapter.steps[n]
        snippet = self.by_snippet.get(step.snippet)
        figures = (numbered_figures(self.doc.chapter, step, snippet, self.chapter_number,
                                    self.counter, self.numbered, self.cite)
                   if self.record else ())
        indent = line[:len(line) - len(line.lstrip())]
        return render_step(f"snippets/{step.snippet}", self.codes[n], snippet, self.figure_url,
                           indent, figures, step.platform_bound, index=n,
                           numbered=self.numbered, read_figure=self.read_figure)

    def cite(self, text: str, line: int, link: bool) -> str:
        """The figures `text` names, numbered; linked only where they are drawn."""
        return cite_figures(self.doc, text, line, self.chapter_number if self.numbered
                            else None, link and self.record is not None)

    def fill(self, line: str, step: Step, number: int) -> str:
        if self.record is None:  # execution switched off: show what would be computed
            return sub_outside_code(BOUND, lambda b: f"`{b.group('body').strip()}`", line)
        snippet = self.by_snippet.get(step.snippet)
        return sub_outside_code(BOUND, lambda b: bound_text(step_value(
            self.doc.chapter, step, snippet, b.group("body").strip(), number)), line)


def check_typed_numbers(doc: ChapterDoc, chapter_number: str | None) -> None:
    """No "Figure 3.4" typed by hand: prose names a figure by its snippet, and the
    engine writes the number, which then cannot be wrong or go stale."""
    for number, chapter_ref, figure, text in doc.refs:
        named = [n for n, at in doc.figure_names.items()
                 if at == figure and chapter_ref == chapter_number]
        fix = (f"write [[fig:{named[0]}]]" if named else "write [[fig:NAME]], NAME being "
               "the snippet of this page that shows it, without `.py`")
        raise PageError(doc.chapter.shown or shown_path(doc.chapter.page), number,
                        f"{text} is typed by hand: {fix}, and the build writes the "
                        "figure's number and its link")


def fill_prose(text: str, values: dict[str, str]) -> str:
    """Every `{{ }}` in Markdown prose replaced by its value in `values` (those bound
    after one snippet), as literal text."""
    return sub_outside_code(BOUND, lambda b: bound_text(values[b.group("body").strip()]), text)
