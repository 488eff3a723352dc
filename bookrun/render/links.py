"""Where a page's links lead: computed once by the host's side, handed to the renderer.

The renderer never recovers an address from HTML it was given: the extension knows
where the page is served from (bookrun.render.extension.site_root), and says it here.
"""
from __future__ import annotations

import posixpath
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

    def site_root(self) -> str:
        if self.root is not None:
            return self.root
        stem = posixpath.splitext(self.page_uri)[0]
        depth = 0 if posixpath.basename(stem) == "index" else stem.count("/") + 1
        return "../" * depth

    @property
    def pdf(self) -> str:
        """The PDF of the book, from this page."""
        return self.site_root() + PDF
