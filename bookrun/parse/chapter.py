"""Read a chapter page once: its `@run` directives and `{{ }}` bound values, in order,
its front matter, the facts its header shows, and where the renderer splices.

`parse_chapter` walks the page's lines a single time and returns a `ChapterDoc`; the
renderer (bookrun.render.page) replaces the line ranges it names and never scans the
page again.
"""
from __future__ import annotations

import keyword
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from bookrun.parse.bindings import binding_problem, outside_code
from bookrun.parse import controls as interactive_figures
from bookrun.model.page import Answer, Binding, Chapter, FigureText, PageError, Step
from bookrun.parse.front_matter import front_matter_end, split_front_matter
from bookrun.parse.names import unsafe_name

# `@run <chapter>/<file>.py [word ...]`: trailing words are options (FLAGS, LIMITS).
DIRECTIVE = re.compile(
    r"^(?P<indent>[ \t]*)@run[ \t]+(?P<path>\S+)(?P<words>(?:[ \t]+\S+)*)[ \t]*$")
# `{{ expr }}` or `{{ expr | format-spec }}`; the spec is whatever follows the last `|`
# (the grammar, checked as the page is read, is in bindings.py).
BOUND = re.compile(r"\{\{ (?P<body>.+?) \}\}")
# The same without a space inside a brace pair (`{{pi_hat|.4f}}`), which is no binding and
# would be shown as typed: refused, naming the fix. Not after a word character, `^`, `_`,
# `{`, `\` or `$`, where TeX puts braces in braces (`x^{{2}}`, `\frac{{a}}{b}`).
UNSPACED = re.compile(r"(?<![\w^_{}\\$])\{\{(?P<body>[^{}\n]+?)\}\}")
FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
# Under a directive, one `Figure:` caption and one `Alt:` text per figure the snippet
# shows, in order; a line indented deeper than the directive continues the field above.
# An interactive figure adds `Interactive:` and `Control:` lines (bookrun.parse.controls).
FIGURE_FIELD = re.compile(
    r"^(?P<indent>[ \t]*)(?P<key>Figure|Alt|Interactive|Control):[ \t]*(?P<text>.*)$")
# An exercise's `Answer: NAME = EXPR | SPEC` (on its own line, in the exercise above its
# solution): the notebook asks the reader for NAME and checks it against the value
# `{{ EXPR | SPEC }}` recorded after the solution's snippet; the page does not show it.
ANSWER = re.compile(r"^[ \t]*Answer:(?P<text>.*)$")
ANSWER_TEXT = re.compile(r"(?P<name>[A-Za-z_]\w*)[ \t]*=(?!=)[ \t]*(?P<body>.+)")
# Prose names a figure by its snippet: `[[fig:NAME]]` is the figure that
# snippets/<chapter>/NAME.py shows, `[[fig:NAME#2]]` the second of those it shows; the
# renderer writes its number and link ("Figure 4.7"). A number typed by hand, "Figure
# 3.2" (FIGURE_REF), fails the build when the book numbers figures (render.page).
FIGURE_NAME = re.compile(r"\[\[fig:(?P<name>[^\]\s#]+)(?:#(?P<index>\d+))?\]\]")
FIGURE_REF = re.compile(r"\bFigure (\d+)\.(\d+)\b")
# What the reading time counts (bookrun.render.header): words of prose, not of HTML
# comments, `@run` lines or text alternatives; code lines, not fences.
COMMENT_OPEN, COMMENT_CLOSE = "<!--", "-->"
WORD = re.compile(r"[^\W_][\w'’-]*")
ALT = re.compile(r"^(?P<indent>\s*)Alt:")


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
                 first_line: int, min_alt_words: int = 0) -> tuple[list[FigureText], int]:
    """Read the `Figure:`/`Alt:` block starting at lines[start] (the line after a directive).

    Returns the figures' texts and the index of the first line after the block. Line
    numbers in errors are `first_line` + offset, so the caller says where lines[start] is.
    `min_alt_words`: the book's rule for `Alt:` texts (check_alt)."""
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
    texts, n = [], 0
    while n < len(fields):
        pair = fields[n:n + 2]
        keys = [f[0] for f in pair]
        if keys != ["Figure", "Alt"]:
            raise PageError(shown, pair[0][2], "write each figure's text as a `Figure:` caption "
                            f"followed by an `Alt:` text, found {' then '.join(keys)}")
        (_, caption, line), (_, alt, alt_line) = pair
        if not caption:
            raise PageError(shown, line, "empty `Figure:` caption")
        check_alt(alt, caption, min_alt_words, shown, alt_line)
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


def check_alt(alt: str, caption: str, min_alt_words: int, shown: str, line: int) -> None:
    """An `Alt:` text is not empty, does not repeat the caption, and has the book's
    `min_alt_words` words at least."""
    if not alt or len(alt.split()) < min_alt_words or alt == caption:
        rule = (f"at least {min_alt_words} words, not the caption" if min_alt_words
                else "not empty, not the caption")
        raise PageError(shown, line, "an `Alt:` text must say what the figure shows and "
                        f"what to notice ({rule})")


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


@dataclass(frozen=True)
class PageFacts:
    """What the chapter header shows, counted as the page is parsed."""

    prose_words: int  # not code, comments, `@run` lines or text alternatives
    code_lines: int  # non-blank lines of the code blocks written in the page (not fences)
    figures: int  # `Figure:` captions under the page's `@run` lines
    interactive: int  # of those, figures with `Interactive:` controls


@dataclass(frozen=True)
class ChapterDoc:
    """One page, parsed once: what the store runs and the renderer splices.

    The renderer replaces each step's lines `step.line`..`step.end` (the directive and its
    `Figure:`/`Alt:` block) and fills the `{{ }}` of each line in `fills` from the record
    of the step it follows. Line numbers are the file's, 1-based.
    """

    chapter: Chapter
    text: str  # the page's file as read (front matter and all)
    meta: dict  # its front matter
    facts: PageFacts
    fills: dict[int, int] = field(default_factory=dict)  # prose line -> index of its step
    refs: tuple[tuple[int, str, int, str], ...] = ()  # "Figure 3.2" typed: line, 3, 2, text
    title_line: int = 0  # the prose's first `# ` heading (0: none); the header goes under it
    body_line: int = 1  # the first line after the front matter and the blank lines after it
    answers: tuple[Answer, ...] = ()  # the exercises' `Answer:` lines, in page order
    code_at: frozenset[int] = frozenset()  # lines inside fenced code, fences included
    # `[[fig:NAME]]`: each target ("line", "pair#2") and the figure's place on the page
    # (1-based), and the prose lines that name one (captions and alts are not lines here).
    figure_names: dict[str, int] = field(default_factory=dict)
    cited_at: frozenset[int] = frozenset()
    # The number of the chapter whose figures are numbered (4: 4.1, 4.2, ...), given by
    # the book (store.book) from the front matter or the nav; None: not numbered.
    chapter_number: str | None = None

    def figure_at(self, m: re.Match) -> int:
        """The place on the page of the figure a `[[fig:NAME]]` match names."""
        return self.figure_names[figure_target(m)]

    @property
    def title(self) -> str:
        """The page's first `# ` heading, or its file name's stem."""
        if not self.title_line:
            return Path(self.chapter.page).stem
        return self.text.splitlines()[self.title_line - 1][2:].strip()

    def body(self) -> str:
        """The text a host converts: the file without its front matter (as MkDocs cuts it)."""
        return "\n".join(self.text.split("\n")[self.body_line - 1:])


def read_chapter(page: Path, snippets_root: Path, shown_as: str | None = None,
                 min_alt_words: int = 0) -> Chapter | None:
    """Parse a page; None when it runs no snippet. Errors name page and line."""
    doc = read_page(page, snippets_root, shown_as, min_alt_words)
    return doc.chapter if doc else None


def read_page(page: Path, snippets_root: Path, shown_as: str | None = None,
              min_alt_words: int = 0) -> ChapterDoc | None:
    """Read and parse a page file (its only read); None when it runs no snippet."""
    return parse_chapter(page.read_text(encoding="utf-8"), snippets_root, shown_as or str(page),
                         page, min_alt_words)


class _Facts:
    """The reading-time counts, line by line, as the parse walks the page."""

    def __init__(self):
        self.words = self.code = 0
        self.code_at: set[int] = set()  # lines inside fenced code, fences included
        self.alt_indent: int | None = None
        self.in_comment = False

    def code_line(self, number: int, line: str, counted: bool) -> None:
        self.code_at.add(number)
        if counted and line.strip() and not line.lstrip().startswith(("```", "~~~")):
            self.code += 1

    def prose_line(self, line: str, directive: bool) -> None:
        line = self._outside_comments(line)
        if directive:
            return
        m = ALT.match(line)
        indent = len(line) - len(line.lstrip())
        if m:
            self.alt_indent = len(m.group("indent"))
            return
        if self.alt_indent is not None and line.strip() and indent > self.alt_indent:
            return  # a continuation line of the text alternative
        self.alt_indent = None
        self.words += len(WORD.findall(line))

    def _outside_comments(self, line: str) -> str:
        """The line without its HTML comments (a comment may span lines)."""
        kept, at = [], 0
        while True:
            if self.in_comment:
                end = line.find(COMMENT_CLOSE, at)
                if end < 0:
                    return "".join(kept)
                self.in_comment, at = False, end + len(COMMENT_CLOSE)
            start = line.find(COMMENT_OPEN, at)
            if start < 0:
                return "".join(kept) + line[at:]
            kept.append(line[at:start])
            self.in_comment, at = True, start + len(COMMENT_OPEN)


def parse_chapter(text: str, snippets_root: Path, shown: str,
                  page: Path | None = None, min_alt_words: int = 0) -> ChapterDoc | None:
    """A page's text parsed in one walk (`shown` names it in errors; None: no snippet):
    directives, bindings, what the header counts; front matter as fields, not prose."""
    lines = text.splitlines()
    front = front_matter_end(lines)  # its last line (0: none)
    found, facts, fills, refs, title_line, block_end = [], _Facts(), {}, [], 0, 0
    answer_lines = []  # (line number, text after `Answer:`), read once the steps are known
    unspaced: list[PageError] = []  # `{{x}}` above the first @run: refused if one follows
    for number, line, in_code in iter_prose_lines(text):
        if in_code:  # the front matter's lines are read, not counted
            facts.code_line(number, line, counted=number > front)
            continue
        if number <= front:
            continue
        m = DIRECTIVE.match(line)
        answer = ANSWER.match(line) if not m else None
        facts.prose_line(line, bool(m or answer))  # neither is read as prose
        if answer:
            answer_lines.append((number, answer.group("text")))
            continue
        if m:
            found.append(_directive(m, line, number, lines, snippets_root, shown,
                                    min_alt_words))
            block_end = found[-1][4]
            continue
        in_block = number <= block_end  # a `Figure:`/`Alt:` line: placed with its figure
        if "Figure " in line or "[[fig:" in line:  # read once the figures are known
            refs.append((number, line, in_block))
        if not in_block:
            title_line = title_line or (number if line.startswith("# ") else 0)
        bindings = _bindings(line, number, shown, bool(found), unspaced)
        if bindings:
            found[-1][5].extend(bindings)
            if not in_block:
                fills[number] = len(found) - 1
    if not found:
        return None
    if unspaced:
        raise unspaced[0]
    chapter = _chapter(found, Path(shown) if page is None else page, shown)
    return _document(chapter, text, shown, facts, fills, refs, title_line,
                     _body_line(lines, front), answer_lines, frozenset(facts.code_at))


def _document(chapter, text: str, shown: str, facts, fills, refs, title_line: int,
              body_line: int, answer_lines, code_at: frozenset[int]) -> ChapterDoc:
    """The parse's result, once the walk has found the chapter and what it counts."""
    meta = split_front_matter(text, shown)[0]  # an unclosed or broken one is an error
    figures = [f for s in chapter.steps for f in s.figures]
    page_facts = PageFacts(facts.words, facts.code, len(figures),
                           sum(1 for f in figures if f.interactive is not None))
    answers = _answers(answer_lines, chapter.steps, shown)
    names = figure_names(chapter)
    typed, cited = _figure_mentions(refs, names, shown)
    return ChapterDoc(chapter, text, meta, page_facts, fills, typed, title_line,
                      body_line, answers, code_at, names, cited)


def figure_target(m: re.Match) -> str:
    """`[[fig:NAME#2]]`'s key in `figure_names`: "NAME#2" (or "NAME" without a #)."""
    return m.group("name") + (f"#{m.group('index')}" if m.group("index") else "")


def figure_names(chapter: Chapter) -> dict[str, int]:
    """What `[[fig:...]]` may name: a snippet's name in its folder, without `.py`, for
    the one figure it shows, or NAME#k for each of several; and the figure's place."""
    names, place = {}, 0
    for step in chapter.steps:
        name = step.snippet[len(chapter.name) + 1:].removesuffix(".py")
        for k in range(1, len(step.figures) + 1):
            place += 1
            names[name if len(step.figures) == 1 else f"{name}#{k}"] = place
    return names


def _figure_mentions(lines, names: dict[str, int], shown: str):
    """The figure numbers typed in the prose (line, chapter, figure, text), outside
    inline code, and the prose lines with a `[[fig:...]]`, each checked against `names`."""
    typed, cited = [], set()
    for number, line, in_block in lines:
        typed += [(number, r.group(1), int(r.group(2)), r.group())
                  for r in outside_code(FIGURE_REF, line)]
        for r in outside_code(FIGURE_NAME, line):
            if figure_target(r) not in names:
                raise PageError(shown, number, f"{r.group()} {_no_such_figure(r, names)}")
            if not in_block:
                cited.add(number)
    return tuple(typed), frozenset(cited)


def _no_such_figure(m: re.Match, names: dict[str, int]) -> str:
    """Why a `[[fig:...]]` names nothing, and what it could name instead."""
    name = m.group("name")
    own = [n for n in names if n == name or n.startswith(name + "#")]
    if not own:
        return ("names no figure of this page: NAME is a snippet of this page that shows "
                f"a figure, without `.py` ({', '.join(names) or 'it has none'})")
    if len(own) == 1:
        return f"names {name}.py, which shows 1 figure: write [[fig:{name}]]"
    choices = (" or " if len(own) == 2 else " to ").join(f"[[fig:{n}]]" for n in (own[0], own[-1]))
    return f"names {name}.py, which shows {len(own)} figures: write {choices}"


def _answers(found: list[tuple[int, str]], steps, shown: str) -> tuple[Answer, ...]:
    """Each `Answer:` line, checked: its grammar, a solution below it, a name given once."""
    answers: list[Answer] = []
    for number, text in found:
        answer = _answer(text.strip(), number, steps, shown)
        twice = [a.line for a in answers if a.name == answer.name]
        if twice:
            raise PageError(shown, number, f"{answer.name} is already the answer at line "
                            f"{twice[0]}: give each answer its own name")
        answers.append(answer)
    return tuple(answers)


def _answer(text: str, number: int, steps, shown: str) -> Answer:
    """`NAME = EXPR | SPEC`, where `EXPR | SPEC` is bound in the prose after the first
    `@run` below the line (the solution), so that the record holds its value."""
    m = ANSWER_TEXT.fullmatch(text)
    if m is None or keyword.iskeyword(m.group("name")):
        raise PageError(shown, number, "write an exercise's answer as `Answer: NAME = "
                        "EXPRESSION | FORMAT`, NAME being the variable the reader sets; "
                        f"the line reads {text!r}")
    body = m.group("body").strip()
    problem = binding_problem(body)
    if problem:
        raise PageError(shown, number, f"Answer: {problem}")
    below = [n for n, step in enumerate(steps) if step.line > number]
    if not below:
        raise PageError(shown, number, "an `Answer:` line goes above its solution's @run "
                        "line, and this page has none below it")
    step, wanted = steps[below[0]], Binding(body, number)
    same = [b for b in step.bindings if (b.expr, b.spec) == (wanted.expr, wanted.spec)]
    if not same:
        raise PageError(shown, number, f"Answer: {{{{ {body} }}}} is not in the prose after "
                        f"snippets/{step.snippet}, the solution: bind it there, so the record "
                        "holds the value the reader's answer is checked against")
    return Answer(m.group("name"), Binding(same[0].body, number), below[0])


def _body_line(lines: list[str], front: int) -> int:
    """The first line after the front matter: MkDocs drops the empty lines after it."""
    number = front + 1
    while front and number <= len(lines) and lines[number - 1] == "":
        number += 1
    return number


def _directive(m: re.Match, line: str, number: int, lines: list[str], snippets_root: Path,
               shown: str, min_alt_words: int) -> tuple:
    """One `@run` line: the snippet it names (a safe name, and there), its options, and
    the `Figure:`/`Alt:` block under it, as (rel, line, options, figures, end, [])."""
    rel = m.group("path")
    unsafe = unsafe_name(rel, snippets_root)  # before the file system is asked
    if unsafe and m.group("words") and not rel.endswith(".py"):
        unsafe += f" (a space in the name? the line reads {line.strip()!r})"
    if unsafe:
        raise PageError(shown, number, unsafe)
    if not (snippets_root / rel).is_file():  # errors show paths from the project root
        missing = os.path.relpath(snippets_root / rel, snippets_root.parent)
        raise PageError(shown, number, f"snippet not found: {missing}")
    figures, end = figure_texts(lines, number, m.group("indent"), shown, number + 1,
                                min_alt_words)
    return rel, number, parse_options(m.group("words"), shown, number), tuple(figures), end, []


def _bindings(line: str, number: int, shown: str, after_a_step: bool,
              unspaced: list[PageError] | None = None) -> list[Binding]:
    """The `{{ }}` of one prose line (not those in inline code), each checked. A pair
    written without its spaces is an error, raised at once after a `@run` line, else
    kept in `unspaced` (a page that runs nothing may show braces as text)."""
    found, spans = [], []
    for b in outside_code(BOUND, line):  # inline code is shown as written
        if not after_a_step:
            raise PageError(shown, number, f"{{{{ {b.group('body')} }}}} comes before any @run")
        problem = binding_problem(b.group("body"))
        if problem:
            raise PageError(shown, number, f"{{{{ {b.group('body')} }}}}: {problem}")
        found.append(Binding(b.group("body").strip(), number))
        spans.append(b.span())
    for u in outside_code(UNSPACED, line):
        if any(s < u.end() and u.start() < e for s, e in spans) or not u.group("body").strip():
            continue
        expr, bar, spec = u.group("body").rpartition("|")
        meant = (f"{{{{ {expr.strip()} | {spec.strip()} }}}}" if bar
                 else f"{{{{ {u.group('body').strip()} }}}}")
        error = PageError(shown, number, f"{u.group()} would be shown as typed: write "
                          f"{meant}, with a space inside each brace pair")
        if after_a_step:
            raise error
        if unspaced is not None:
            unspaced.append(error)
    return found


def _chapter(found: list[tuple], page: Path, shown: str) -> Chapter:
    """The steps, checked together: limits, and one snippet folder per page."""
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
