"""Where a page's links lead: computed once by the host's side, handed to the renderer.

The renderer never recovers an address from HTML it was given: the extension knows
where the page is served from (bookrun.render.extension.site_root), and says it here.
"""
from __future__ import annotations

import html
import posixpath
import re
from dataclasses import dataclass

PDF = "book.pdf"  # at the site root; another step of the build writes it


@dataclass(frozen=True)
class PageLinks:
    page_uri: str  # the page's path in the docs folder, e.g. "bandits.md"
    buttons: str = ""  # the notebook buttons under the title ("" for none)
    # The site root as the page's raw-HTML links reach it ("../", "" at the top); None:
    # from page_uri, as MkDocs' directory URLs serve it.
    root: str | None = None
    script: str | None = None  # the frames script's address: loaded if a figure is interactive
    has_pdf: bool = False  # the build prints the PDF of the book (BookConfig.pdf)

    def site_root(self) -> str:
        if self.root is not None:
            return self.root
        stem = posixpath.splitext(self.page_uri)[0]
        depth = 0 if posixpath.basename(stem) == "index" else stem.count("/") + 1
        return "../" * depth

    @property
    def pdf(self) -> str | None:
        """The PDF of the book, from this page; None when this build has none."""
        return self.site_root() + PDF if self.has_pdf else None


# -- links derived from where the book is published -------------------------------------
# The repository is MkDocs' own `repo_url` (None: the book names none); Colab opens a
# GitHub repository's notebooks from the gh-pages branch, where publishing puts them.
GITHUB = re.compile(r"^https?://(?:www\.)?github\.com/(?P<owner>[\w.-]+)/(?P<repo>[\w.-]+?)"
                    r"(?:\.git)?/?$")
COLAB = "https://colab.research.google.com/github/{owner}/{repo}/blob/gh-pages/{path}"


def colab_url(repo_url: str | None, path: str) -> str | None:
    """Where Colab opens the site's file `path` (published on gh-pages), or None when
    the book's repository is not on GitHub or unknown."""
    m = GITHUB.match((repo_url or "").strip())
    return COLAB.format(**m.groupdict(), path=path) if m else None


def clone_command(repo_url: str | None) -> str | None:
    """`git clone URL && cd FOLDER` for the book's repository, or None when it is unknown."""
    url = (repo_url or "").strip().rstrip("/")
    if not url:
        return None
    folder = posixpath.basename(url).removesuffix(".git")
    return f"git clone {url} && cd {folder}"


# A line that is one of these alone (indented or not) is a link the page cannot write
# itself, because it depends on the build: the clone command (dropped when the book names
# no repository) and the PDF of the book (dropped when the build has no PDF).
BOOK_LINE = re.compile(r"^(?P<indent>[ \t]*)@(?P<what>clone|pdf)[ \t]*$")


def expand_book_lines(text: str, repo_url: str | None, pdf: str | None) -> str:
    """`@clone` and `@pdf` lines replaced by what this build knows (see BOOK_LINE)."""
    if "@" not in text:
        return text
    out = []
    for line in text.split("\n"):
        m = BOOK_LINE.match(line)
        if m is None:
            out.append(line)
            continue
        indent, what = m.groups()
        shown = (clone_command(repo_url) if what == "clone"
                 else pdf and f'<a class="md-button" download href="{pdf}">PDF of the book</a>')
        if shown:
            out.append(indent + shown)
    return "\n".join(out)


# Hosts reserved for examples (RFC 2606) and the placeholder repository a template ships
# with: a published link to one of them leads nowhere.
PLACEHOLDER = re.compile(
    r"""^(?:https?:)?//(?:[^/?#]*\.)?(?:example\.(?:com|org|net)|example|example\.github\.io)"""
    r"""(?:[:/?#]|$)"""
    r"""|^(?:https?:)?//(?:www\.)?github\.com/example(?:[/?#]|$)"""
    r"""|^(?:https?:)?//colab\.research\.google\.com/github/example(?:[/?#]|$)""",
    re.IGNORECASE)
LINK_ATTR = re.compile(r"""\b(?:href|src|action|content)\s*=\s*(?:"([^"]*)"|'([^']*)')""",
                       re.IGNORECASE)


def placeholder_links(page_html: str) -> list[str]:
    """The addresses in a built page's links (href, src, ...) that point at a placeholder
    host, in order, each once."""
    found = []
    for m in LINK_ATTR.finditer(page_html):
        url = html.unescape(m.group(1) if m.group(1) is not None else m.group(2)).strip()
        if PLACEHOLDER.match(url) and url not in found:
            found.append(url)
    return found
