"""Turn a page's directives and bound values into Markdown: code, output, figures."""
from __future__ import annotations

import html
import os
import posixpath
import re

from bookrun.render import copy_above
from bookrun.parse.bindings import sub_outside_code
from bookrun.model.page import PageError, SnippetRecord
from bookrun.parse.chapter import BOUND, DIRECTIVE, FIGURE_REF, iter_prose_lines
from bookrun.render.header import chapter_header
from bookrun.parse.controls import controls_html, script_tag
from bookrun.model.text import visible

MARKDOWN_SPECIALS = re.compile(r"([\\`*_\[\]#])")
ALT_SPECIALS = re.compile(r"([\\\[\]])")  # what could end an image's [alt] early


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


def figure_markdown(url: str, number: str, caption: str, alt: str, indent: str) -> list[str]:
    """A numbered <figure>: the image with its text alternative, then the caption.

    pymdownx.blocks.caption wraps the image and the caption (Markdown, so it may hold
    math or emphasis) in <figure> and <figcaption>; the alt text is plain text, read
    aloud in place of the image.
    """
    anchor = "figure-" + number.replace(".", "-")
    alt = ALT_SPECIALS.sub(r"\\\1", alt)
    lines = [f"![{alt}]({url}){{ .bookrun-figure }}", "",
             f"/// figure-caption | {number}",
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
            + fenced(code, "python", indent + "    "))


def render_step(snippet_path: str, code: str, snippet: SnippetRecord | None, figure_url,
                indent: str, figures=(), platform_bound: bool = False,
                index: int = 0) -> str:
    """The code block, then (when executed) the output block and the figures.

    `figures` holds (number, caption, alt, interactive) for each figure the snippet
    shows, in order (an interactive one gets its controls under it); `index` counts the page's code blocks above this one (for "Copy with the N above").
    """
    # The parse allows only safe names (bookrun.parse.names); escaped all the same, since a
    # quote would end the title and the rest would become markup.
    shown, drawing = split_drawing(code)
    out = fenced(shown, f'python title="{html.escape(snippet_path)}"', indent)
    if drawing:
        out += [""] + folded_drawing(drawing, indent)
    out += copy_above.placeholder(index, code, indent)
    if snippet is not None:
        if snippet.output:
            # A code block escapes its content, so a printed <b> shows as text; control
            # characters are written out (safe_text), as in the notebook.
            out += [""] + fenced(visible(snippet.output),
                                 '{ .text .bookrun-output title="Output" }', indent)
        frames = {f.figure: f for f in snippet.frames}
        for fig, (number, caption, alt, inter) in zip(snippet.figures, figures, strict=True):
            out += [""] + figure_markdown(figure_url(fig.name), number, caption, alt, indent)
            if inter is not None and fig.name in frames:
                anchor = "figure-" + number.replace(".", "-")
                out += [""] + controls_html(inter, frames[fig.name], anchor, indent)
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


def numbered_figures(chapter, step, snippet: SnippetRecord | None, record, chapter_number,
                     counter):
    """(number, caption, alt) for each figure a snippet showed; errors name page and line."""
    shown, page = len(snippet.figures) if snippet else 0, chapter.shown or shown_path(chapter.page)
    if len(step.figures) != shown:
        where = step.figures[0].line if step.figures and not shown else step.line
        raise PageError(page, where, f"{step.snippet} shows {shown} figure(s) but the "
                        f"page gives {len(step.figures)} `Figure:`/`Alt:` pair(s) under it")
    if shown and chapter_number is None:
        raise PageError(page, step.line, "figures are numbered per chapter: give the "
                        "page a numbered nav title (`3. Bandits`) or `chapter: 3` in its front "
                        "matter")
    def value(b):
        return record.values[b.group("body").strip()]

    texts = []
    for fig in step.figures:
        counter.append(fig)
        # The caption is Markdown, so its values are escaped; the alt is an attribute.
        texts.append((f"{chapter_number}.{len(counter)}", fill_prose(fig.caption, record),
                      sub_outside_code(BOUND, lambda b: visible(value(b)), fig.alt),
                      fig.interactive))
    return texts


def render_page(markdown: str, chapter, record, read_code, page_uri: str, notebook_links: str = "",
                chapter_number=None, first_line: int = 1, script: str | None = None) -> str:
    """Replace every `@run` line and every `{{ }}` in the prose of one page.

    `chapter` is the parse of the page's file; `markdown` is the text the host converts,
    whose line 1 is the file's line `first_line` (a host strips the front matter).
    Figures are numbered `<chapter_number>.<n>` in page order, under their captions.
    `script` is the frames script's address: loaded only if a figure is interactive.
    """
    notebook_links = chapter_header(chapter, markdown, read_code, page_uri, notebook_links)
    by_snippet = {s.snippet: s for s in record.snippets} if record else {}
    page_dir = posixpath.dirname(page_uri)

    def figure_url(name):
        return posixpath.relpath(f"figures/{chapter.name}/{name}", page_dir or ".")

    lines, title_done = [], not notebook_links
    steps, counter, skip_to, refs, placed = iter(chapter.steps), [], 0, [], []
    for number, line, in_code in iter_prose_lines(markdown):
        number += first_line - 1  # the file's line, as the parse and errors count
        if number <= skip_to:  # a `Figure:`/`Alt:` line, already placed with its figure
            continue
        m = None if in_code else DIRECTIVE.match(line)
        if m:
            rel, step = m.group("path"), next(steps)
            snippet = by_snippet.get(rel)
            figures = (numbered_figures(chapter, step, snippet, record, chapter_number, counter)
                       if record else ())
            skip_to = step.end  # the parse knows where its `Figure:`/`Alt:` block ends
            lines.append(render_step(f"snippets/{rel}", read_code(rel), snippet,
                                     figure_url, m.group("indent"), figures,
                                     step.platform_bound, index=len(placed)))
            placed.append(rel)
            continue
        if not in_code:
            refs += [(number, r) for r in FIGURE_REF.finditer(line)]
            line = fill_prose(line, record)
        lines.append(line)
        if not title_done and line.startswith("# "):
            lines += ["", notebook_links]
            title_done = True
    if record:
        check_references(refs, chapter, chapter_number, len(counter))
        if script and any(f.interactive for f in counter):
            lines += ["", script_tag(script)]
    return "\n".join(lines) + "\n"


def check_references(refs, chapter, chapter_number, count: int) -> None:
    """A "Figure 3.4" in this chapter's prose must name one of its figures."""
    for number, ref in refs:
        if ref.group(1) == chapter_number and not 1 <= int(ref.group(2)) <= count:
            raise PageError(chapter.shown or shown_path(chapter.page), number,
                            f"{ref.group()} does not exist: "
                            f"this chapter has {count} figure(s)")


def fill_prose(text: str, record) -> str:
    """Every `{{ }}` in Markdown prose replaced by its value, as literal text."""
    return sub_outside_code(BOUND, lambda b: render_value(b.group("body").strip(), record), text)


def render_value(body: str, record) -> str:
    if record is None:  # execution switched off: show what would be computed
        return f"`{body}`"
    return bound_text(record.values[body])
