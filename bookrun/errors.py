"""Every error bookrun raises on purpose, under one root: `except BookrunError` catches
them all, and nothing else (a bug in the engine stays a traceback).

    BookrunError
        PageError       the one located error: `path:line: message`, a page's line or
                        a snippet's (bookrun.parse.controls.ControlError is its message
                        before the parse adds the page and line)
        ExecutionError  a chapter's session failed; `where` (a PageError) locates it
        RecordError     a record file missing, corrupt or malformed
        ConfigError     a wrong option in mkdocs.yml
        UnknownChapter  a chapter name (a snippet folder or a page's name) the book lacks

The worker (bookrun.execute.worker) imports nothing of the engine, so its own located
error is execute/worker/protocol.SnippetError (frames.FrameError is the same); the parent
turns what the worker reports (protocol.RunError) into an ExecutionError whose `where`
is a PageError. This module imports nothing and sits under every layer.
"""
from __future__ import annotations


class BookrunError(Exception):
    """The root of bookrun's errors."""


class PageError(BookrunError):
    """A problem in a page or snippet, reported as `file:line: message`."""

    def __init__(self, path, line: int | None, message: str):
        super().__init__(f"{path}:{line}: {message}")
        self.path, self.line, self.message = str(path), line, message


class ExecutionError(BookrunError):
    """A snippet raised, or the chapter ran out of time, or its session died.

    The text says all of it (the traceback, the output before the failure); `where` is
    the snippet's or page's line when the session named one (None: it died unlocated)."""

    def __init__(self, text: str, where: PageError | None = None, kind: str = "error"):
        super().__init__(text)
        self.where, self.kind = where, kind


class RecordError(BookrunError, ValueError):
    """A record file that is missing, corrupt or malformed."""


class ConfigError(BookrunError):
    """A wrong option in mkdocs.yml, named."""


class UnknownChapter(BookrunError, LookupError):
    """A chapter asked for by name (a snippet folder or a page's name) that the book lacks."""
