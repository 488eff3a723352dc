"""A chapter's prose as notebook Markdown: what the site's extensions draw, written in
what Jupyter and Colab render.

Math stays TeX (`$…$`, `$$…$$`), which both typeset. An admonition becomes a bold
title over its body, or a `<details>` box when it is collapsed on the page; links to
the book's other pages become absolute on the published site, since a notebook opened
in Colab has no neighbouring pages. The page's own markup (`<!-- bookrun: … -->`,
`@pdf`, `@clone`) is dropped: it speaks to the build, not the reader.
"""
from __future__ import annotations

import html
import posixpath
import re
from dataclasses import dataclass

from bookrun.parse.bindings import sub_outside_code
from bookrun.render.links import BOOK_LINE  # `@clone`, `@pdf`: the build's, not the reader's

# `!!! note "Title"`, `??? question "Title"`, `???+ info`: pymdownx.details and admonition.
ADMONITION = re.compile(r'^(?P<indent>[ \t]*)(?P<mark>\?\?\?\+?|!!!)[ \t]+(?P<kind>[\w-]+)'
                        r'(?:[ \t]+"(?P<title>[^"]*)")?[ \t]*$')
BOOK_COMMENT = re.compile(r"<!--\s*bookrun:.*?-->")
# A link's end, `](target)`: its text may have begun on an earlier line. An image's
# source is rewritten too, since a notebook in Colab has no neighbouring files either.
LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")
HEADING = re.compile(r"^(?P<marks>#{1,6})[ \t]")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def indent_of(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def page_url(src_uri: str) -> str:
    """A page's address under MkDocs' directory URLs: `ppo.md` is `ppo/`."""
    stem = posixpath.splitext(src_uri)[0]
    if posixpath.basename(stem) == "index":
        stem = posixpath.dirname(stem)
    return f"{stem}/" if stem else ""


@dataclass(frozen=True)
class SiteLinks:
    """Where the page's relative links lead once the notebook has left the site."""

    src_uri: str  # the page in the docs folder, e.g. "ppo.md"
    site_url: str | None = None  # the published book; None: links stay relative

    def absolute(self, target: str) -> str:
        """A link's target as the site publishes it; unchanged without a site_url, and
        for addresses that are already absolute."""
        if not self.site_url or SCHEME.match(target) or target.startswith("/"):
            return target
        path, hash_, anchor = target.partition("#")
        if not path:
            url = page_url(self.src_uri)
        else:
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(self.src_uri), path))
            url = page_url(resolved) if resolved.endswith(".md") else resolved
        return self.site_url.rstrip("/") + "/" + url + hash_ + anchor

    def rewrite(self, line: str) -> str:
        """Every Markdown link of a prose line, outside inline code, made absolute."""
        return sub_outside_code(LINK, lambda m: f"]({self.absolute(m.group('target'))})", line)


def prose_line(line: str, links: SiteLinks) -> str | None:
    """A prose line as notebook Markdown; None for a line that only spoke to the build."""
    if BOOK_LINE.match(line):
        return None
    kept = BOOK_COMMENT.sub("", line)
    if line.strip() and not kept.strip():
        return None  # a comment alone on its line: dropped, not left as a blank line
    return links.rewrite(kept.rstrip() if kept != line else kept)


@dataclass
class Box:
    """An admonition open in the walk: its indent, and the lines that close it."""

    indent: int
    closing: tuple[str, ...]

    @property
    def body(self) -> int:
        return self.indent + 4


def admonition_lines(m: re.Match, has_cells: bool, level: int) -> tuple[list[str], Box]:
    """An admonition's title in notebook Markdown, and the box its body fills.

    One holding a code cell cannot be a `<details>` (a cell cannot open inside another),
    so it becomes a heading one level under the section; a collapsed one without becomes
    a `<details>` (Jupyter and Colab typeset math inside it), any other a bold title."""
    kind, title = m.group("kind"), m.group("title")
    title = kind.replace("-", " ").capitalize() if title is None else title
    indent = indent_of(m.group())
    if has_cells:
        return ([f"{'#' * min(level + 1, 6)} {title}", ""] if title else []), Box(indent, ())
    if m.group("mark").startswith("???"):
        opened = " open" if m.group("mark") == "???+" else ""
        summary = html.escape(title or kind.capitalize(), quote=False)
        return ([f"<details{opened}><summary><b>{summary}</b></summary>", ""],
                Box(indent, ("", "</details>", "")))
    return ([f"**{title}**", ""] if title else []), Box(indent, ("",))


def box_end(lines: list[str], start: int, indent: int) -> int:
    """The index of the first line after the admonition opened at lines[start]: the next
    line that is not blank and not indented deeper than its title."""
    at = start + 1
    while at < len(lines) and (not lines[at].strip() or indent_of(lines[at]) > indent):
        at += 1
    return at


def dedent(line: str, width: int) -> str:
    """The line without the first `width` columns of its indentation (a box's body)."""
    return line[min(width, indent_of(line)):]
