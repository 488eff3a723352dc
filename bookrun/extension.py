"""`bookrun.extension` in mkdocs.yml: the renderer's entry for both site generators.

Zensical loads it by this name and names the page through its own rendering context
(bookrun.hosts.zensical). Under MkDocs the bookrun plugin replaces this entry with an
instance it builds with its own page provider and the book's whole config
(BookrunPlugin.on_config). Its options are the book's settings (bookrun.config).
"""
from bookrun.render.extension import BookrunExtension
from bookrun.hosts.zensical import page_context


def makeExtension(**kwargs):
    return BookrunExtension(page_context, **kwargs)
