"""What the chapter's session knows between snippets, in one object: the loop
(bookrun.execute.worker.loop), the output capture and the guards all read and update it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from bookrun.execute.worker.protocol import Limits


@dataclass
class SessionState:
    figdir: Path  # where figures are written (a resumed session draws into a new folder)
    session: int  # the session's pid: the processes under it are the snippets'
    path: str | None = None  # the running snippet (None before the first)
    stem: str = ""  # its file name without .py: its figures' names start with it
    count: int = 0  # figures it has shown
    figures: list[str] = field(default_factory=list)  # their file names, in order
    limits: Limits | None = None  # its limits
    capture: object | None = None  # its Capture (bookrun.execute.worker.capture) while it runs
    # Serve: every figure file written so far, so a resumed copy can write them again.
    drawn: dict[str, bytes] = field(default_factory=dict)
    children: dict[int, tuple[str, str]] = field(default_factory=dict)  # pid: (snippet, command)
    # The first limit a snippet hit: (message, line). Kept even if the snippet catches it.
    refused: tuple[str, int | None] | None = None
    # A thread that wrote after its snippet ended: (snippet, line, thread name).
    stray: tuple[str, int | None, str] | None = None

    def start(self, path: str, limits: Limits) -> None:
        """A new snippet begins: nothing shown yet."""
        self.path, self.stem, self.limits = path, Path(path).stem, limits
        self.count, self.figures = 0, []

    def refuse(self, message: str, line: int | None) -> tuple[str, int | None]:
        """Remember the first refusal; return the one remembered."""
        if self.refused is None:
            self.refused = (message, line)
        return self.refused

    def note_stray(self, path: str, line: int | None, thread: str) -> None:
        if self.stray is None:
            self.stray = (path, line, thread)

    def take_stray(self) -> tuple[str, int | None, str] | None:
        stray, self.stray = self.stray, None
        return stray
