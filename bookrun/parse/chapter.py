"""Read a chapter page: its `@run` directives and `{{ }}` bound values, in order."""
from __future__ import annotations

import os
import re
from pathlib import Path

from bookrun.parse.bindings import binding_problem, outside_code
from bookrun.parse import controls as interactive_figures
from bookrun.model.page import Binding, Chapter, FigureText, PageError, Step
from bookrun.parse.names import unsafe_name

# `@run <chapter>/<file>.py [word ...]`: trailing words are options (FLAGS, LIMITS).
DIRECTIVE = re.compile(
    r"^(?P<indent>[ \t]*)@run[ \t]+(?P<path>\S+)(?P<words>(?:[ \t]+\S+)*)[ \t]*$")
# `{{ expr }}` or `{{ expr | format-spec }}`; the spec is whatever follows the last `|`
# (the grammar, checked as the page is read, is in bindings.py).
BOUND = re.compile(r"\{\{ (?P<body>.+?) \}\}")
FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
# Under a directive, one `Figure:` caption and one `Alt:` text per figure the snippet
# shows, in order; a line indented deeper than the directive continues the field above.
# An interactive figure adds `Interactive:` and `Control:` lines (bookrun.parse.controls).
FIGURE_FIELD = re.compile(
    r"^(?P<indent>[ \t]*)(?P<key>Figure|Alt|Interactive|Control):[ \t]*(?P<text>.*)$")
# Prose names a figure by its number, "Figure 3.2": checked when the page renders.
FIGURE_REF = re.compile(r"\bFigure (\d+)\.(\d+)\b")
MIN_ALT_WORDS = 8  # fewer words cannot say both what a figure shows and what to notice


# Options a directive may carry: flags (no value) and limits (`key=positive integer`).
# platform-bound: a chaotic experiment (RL training), exact on the platform that
# recorded it; on another CPU the chapter's tests judge its findings instead.
FLAGS = {"platform-bound"}
LIMITS = {
    "max-output": "lines the snippet may print (and 100 bytes per line)",
    "max-figures": "figures the snippet may show",
    "max-figure-kb": "kilobytes per figure",
    "max-frames": "frames per interactive figure",
    "max-frame-kb": "kilobytes one frame of an interactive figure adds to its default frame",
    "max-figure-megapixels": "millions of pixels per figure (width x height x dpi squared, "
                             "and each image array it shows), checked before drawing",
}


def figure_texts(lines: list[str], start: int, indent: str, shown: str,
                 first_line: int) -> tuple[list[FigureText], int]:
    """Read the `Figure:`/`Alt:` block starting at lines[start] (the line after a directive).

    Returns the figures' texts and the index of the first line after the block. Line
    numbers in errors are `first_line` + offset, so the caller says where lines[start] is.
    """
    fields: list[list] = []  # [key, text, line]
    i = start
    while i < len(lines):
        line = lines[i]
        m = FIGURE_FIELD.match(line)
        if m and m.group("indent") == indent:
            fields.append([m.group("key"), m.group("text").strip(), first_line + i - start])
        elif fields and line.strip() and len(line) - len(line.lstrip()) > len(indent):
            fields[-1][1] = f"{fields[-1][1]} {line.strip()}".strip()
        else:
            break
        i += 1
    texts = []
    n = 0
    while n < len(fields):
        pair = fields[n:n + 2]
        keys = [f[0] for f in pair]
        if keys != ["Figure", "Alt"]:
            raise PageError(shown, pair[0][2], "write each figure's text as a `Figure:` caption "
                            f"followed by an `Alt:` text, found {' then '.join(keys)}")
        (_, caption, line), (_, alt, alt_line) = pair
        if not caption:
            raise PageError(shown, line, "empty `Figure:` caption")
        if len(alt.split()) < MIN_ALT_WORDS or alt == caption:
            raise PageError(shown, alt_line, "an `Alt:` text must say what the figure shows and "
                            f"what to notice (at least {MIN_ALT_WORDS} words, not the caption)")
        end = n + 2
        if end < len(fields) and fields[end][0] == "Interactive":
            end += 1
            while end < len(fields) and fields[end][0] in ("Control", "Interactive"):
                end += 1
        inter = (interactive_figures.parse(fields[n + 2:end], shown, PageError)
                 if end > n + 2 else None)
        texts.append(FigureText(caption, alt, line, inter))
        n = end
    return texts, i


def iter_prose_lines(text: str):
    """Yield (line number, line, in_code) for each line, tracking fenced code."""
    fence = None
    for number, line in enumerate(text.splitlines(), start=1):
        m = FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)
            yield number, line, True
        elif fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            yield number, line, True
        else:
            yield number, line, False


def parse_options(words: str, shown: str, number: int) -> dict[str, int | bool]:
    """The directive's trailing words as options; an unknown or malformed one is an error."""
    options: dict[str, int | bool] = {}
    for word in words.split():
        key, eq, value = word.partition("=")
        if key in options:
            raise PageError(shown, number, f"option {key!r} is given twice")
        if not eq and key in FLAGS:
            options[key] = True
        elif eq and key in LIMITS and value.isdigit() and int(value) > 0:
            options[key] = int(value)
        elif key in LIMITS:
            raise PageError(shown, number, f"{key} needs a positive whole number, as in "
                            f"{key}=400; got {word!r}")
        else:
            known = sorted(FLAGS) + [f"{k}=N" for k in LIMITS]
            raise PageError(shown, number, f"unknown option {word!r} after @run; "
                            f"known: {', '.join(known)}")
    return options


def read_chapter(page: Path, snippets_root: Path, shown_as: str | None = None) -> Chapter | None:
    """Parse a page; None when it runs no snippet. Errors name page and line."""
    return parse_chapter(page.read_text(encoding="utf-8"), snippets_root, shown_as or str(page),
                         page)


def parse_chapter(text: str, snippets_root: Path, shown: str,
                  page: Path | None = None) -> Chapter | None:
    """Parse a page's text (`shown` names it in errors); None when it runs no snippet."""
    page = Path(shown) if page is None else page
    project = snippets_root.parent  # errors show paths from the project root
    found: list[tuple[str, int, dict, tuple, int, list]] = []
    lines = text.splitlines()
    for number, line, in_code in iter_prose_lines(text):
        if in_code:
            continue
        m = DIRECTIVE.match(line)
        if m:
            rel = m.group("path")
            unsafe = unsafe_name(rel, snippets_root)  # before the file system is asked
            if unsafe and m.group("words") and not rel.endswith(".py"):
                unsafe += f" (a space in the name? the line reads {line.strip()!r})"
            if unsafe:
                raise PageError(shown, number, unsafe)
            if not (snippets_root / rel).is_file():
                missing = os.path.relpath(snippets_root / rel, project)
                raise PageError(shown, number, f"snippet not found: {missing}")
            figures, end = figure_texts(lines, number, m.group("indent"), shown, number + 1)
            found.append((rel, number, parse_options(m.group("words"), shown, number),
                          tuple(figures), end, []))
            continue
        for b in outside_code(BOUND, line):  # inline code is shown as written
            if not found:
                raise PageError(shown, number, f"{{{{ {b.group('body')} }}}} comes before any @run")
            problem = binding_problem(b.group("body"))
            if problem:
                raise PageError(shown, number, f"{{{{ {b.group('body')} }}}}: {problem}")
            found[-1][5].append(Binding(b.group("body").strip(), number))
    if not found:
        return None
    steps = tuple(Step(rel, number, tuple(bindings), options, figures, end)
                  for rel, number, options, figures, end, bindings in found)
    for step in steps:
        interactive_figures.check_limits(step, shown, PageError)
    folders = {Path(s.snippet).parent.as_posix() for s in steps}
    if len(folders) != 1 or folders == {"."}:
        raise PageError(shown, steps[0].line,
                        "all snippets of a page must live in one folder snippets/<chapter>/, "
                        f"found: {', '.join(sorted(folders))}")
    return Chapter(page, folders.pop(), steps, shown)
