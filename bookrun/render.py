"""Turn a page's directives and bound values into Markdown: code, output, figures."""
from __future__ import annotations

import html
import posixpath
import re

from .page import BOUND, DIRECTIVE, iter_prose_lines

MARKDOWN_SPECIALS = re.compile(r"([\\`*_\[\]#])")


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


def render_step(snippet_path: str, code: str, snippet: dict | None, figure_url, indent: str,
                platform_bound: bool = False) -> str:
    """The code block, then (when executed) the output block and the figures."""
    out = fenced(code, f'python title="{snippet_path}"', indent)
    if snippet is not None:
        if snippet["output"]:
            # A code block escapes its content, so a printed <b> shows as text.
            out += [""] + fenced(snippet["output"], '{ .text .bookrun-output title="Output" }',
                                 indent)
        for n, fig in enumerate(snippet["figures"], start=1):
            alt = f"Figure {n} shown by {posixpath.basename(snippet_path)}"
            out += ["", f'{indent}![{alt}]({figure_url(fig["name"])}){{ .bookrun-figure }}']
        if platform_bound:
            out += ["", indent + PLATFORM_NOTE]
    return "\n".join(out)


def bound_text(value: str) -> str:
    """A bound value as literal prose: never read as Markdown or HTML."""
    return MARKDOWN_SPECIALS.sub(r"\\\1", html.escape(value, quote=False))


def render_page(markdown: str, chapter, record, read_code, page_uri: str, notebook_links: str = "") -> str:
    """Replace every `@run` line and every `{{ }}` in the prose of one page."""
    by_snippet = {s["snippet"]: s for s in record.snippets} if record else {}
    page_dir = posixpath.dirname(page_uri)

    def figure_url(name):
        return posixpath.relpath(f"figures/{chapter.name}/{name}", page_dir or ".")

    lines, title_done = [], not notebook_links
    for _, line, in_code in iter_prose_lines(markdown):
        m = None if in_code else DIRECTIVE.match(line)
        if m:
            rel = m.group("path")
            lines.append(render_step(f"snippets/{rel}", read_code(rel), by_snippet.get(rel),
                                     figure_url, m.group("indent"),
                                     "platform-bound" in m.group("words").split()))
            continue
        if not in_code:
            line = BOUND.sub(lambda b: render_value(b.group("body").strip(), record), line)
        lines.append(line)
        if not title_done and line.startswith("# "):
            lines += ["", notebook_links]
            title_done = True
    return "\n".join(lines) + "\n"


def render_value(body: str, record) -> str:
    if record is None:  # execution switched off: show what would be computed
        return f"`{body}`"
    return bound_text(record.values[body])
