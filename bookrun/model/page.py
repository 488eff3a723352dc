"""The engine's vocabulary: what a page asks for, what a session gives back, what a
record keeps. Frozen dataclasses, so a parse or a result cannot change after it is made;
every other module speaks in these types (no dicts read by string key).

    page (parse.py)      Chapter -> Step -> Binding, FigureText; Answer
    session (run)        Run -> SnippetRun
    record               Record -> SnippetRecord -> FigureFile
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

# The errors live in bookrun.errors; importable from here too, as they were.
from bookrun.errors import ExecutionError, PageError, RecordError  # noqa: F401
from bookrun.model.codec import AS_JSON, decode, encode


# -- what a page asks for --------------------------------------------------------------
@dataclass(frozen=True)
class Binding:
    """A `{{ expr | spec }}` in the prose, evaluated after the step it follows."""

    body: str  # the text between the braces, stripped: also the record's key
    line: int

    @property
    def expr(self) -> str:
        return self.body.rsplit("|", 1)[0].strip() if "|" in self.body else self.body

    @property
    def spec(self) -> str:
        return self.body.rsplit("|", 1)[1].strip() if "|" in self.body else ""


@dataclass(frozen=True)
class Answer:
    """An exercise's `Answer: NAME = EXPR | SPEC` line: the reader sets NAME, and the
    notebook checks `format(NAME, SPEC)` against the text `{{ EXPR | SPEC }}` recorded
    after the solution's snippet. Page text, not execution: no part of the key."""

    name: str  # the variable the reader sets
    binding: Binding  # its body is a binding of the solution step, so the record has it
    step: int  # the index of the solution's step: the first `@run` below the line

    @property
    def line(self) -> int:
        return self.binding.line


@dataclass(frozen=True)
class FigureText:
    """The author's words for one figure: a caption and a text alternative."""

    caption: str
    alt: str
    line: int  # the `Figure:` line in the page
    interactive: object | None = None  # bookrun.parse.controls.Interactive: its controls


@dataclass(frozen=True)
class RunOptions:
    """The `@run` line's words, typed (bookrun.parse.chapter's FLAGS and LIMITS): each
    limit the line gives, None where it gives none (the engine's default then)."""

    max_output: int | None = None
    max_figures: int | None = None
    max_figure_kb: int | None = None
    max_frames: int | None = None
    max_frame_kb: int | None = None
    max_figure_megapixels: int | None = None
    platform_bound: bool = False

    @classmethod
    def of(cls, words: dict) -> "RunOptions":
        return cls(**{key.replace("-", "_"): value for key, value in words.items()})


@dataclass(frozen=True)
class Step:
    """One snippet to run, with what the page says around it."""

    snippet: str  # path relative to the snippets root, e.g. "setup/corridor.py"
    line: int  # the directive's line in the page
    bindings: tuple[Binding, ...] = ()  # the prose's `{{ }}` after it, before the next step
    options: dict = field(default_factory=dict)  # the directive's words (typed: run_options)
    figures: tuple[FigureText, ...] = ()  # the author's words, in order
    end: int = 0  # the page's last line (1-based) of the directive and its `Figure:`/`Alt:` block

    @property
    def run_options(self) -> RunOptions:
        return RunOptions.of(self.options)

    @property
    def platform_bound(self) -> bool:
        return self.run_options.platform_bound


@dataclass(frozen=True)
class Chapter:
    """A page that runs snippets: all of them live in `snippets/<name>/`."""

    page: Path  # the Markdown source
    name: str  # the snippet folder
    steps: tuple[Step, ...]
    shown: str = ""  # the page as errors name it (relative to the project root)

    @property
    def bindings(self) -> list[Binding]:
        return [b for s in self.steps for b in s.bindings]


# -- what a session gives back -----------------------------------------------------------
@dataclass(frozen=True)
class FramesFile:
    """Every frame of one interactive figure (bookrun.execute.worker.frames), committed beside it."""

    name: str  # e.g. clip_explorer-1.frames.json, in the figure folder
    sha256: str
    figure: str  # the figure it animates: its default frame
    default: tuple[int, ...]  # the default frame's position, one index per control
    text: str  # the default frame's line of text

    @classmethod
    def from_json(cls, data: dict) -> "FramesFile":
        return decode(cls, data)

    def to_json(self) -> dict:
        return encode(self)


@dataclass(frozen=True)
class SnippetRun:
    """One snippet's result in a session."""

    path: str  # as the session ran it, relative to the project root
    output: str  # stdout and stderr, interleaved as printed
    figures: tuple[str, ...]  # file names in the run's figure folder, in order shown
    values: dict  # binding body -> formatted text
    frames: tuple[FramesFile, ...] = ()  # the interactive figures' frames, if any

    @classmethod
    def from_json(cls, data: dict) -> "SnippetRun":
        return decode(cls, data)


@dataclass(frozen=True)
class Run:
    """A chapter's session, run to its end."""

    steps: tuple[SnippetRun, ...]
    figdir: Path  # where the figures were written (a fresh temporary folder)
    workdir: Path  # the session's scratch folder, removed once the run is recorded
    platform: dict  # what decided the floating-point paths (BookConfig.fingerprint)


# -- what a record keeps --------------------------------------------------------------
@dataclass(frozen=True)
class FigureFile:
    name: str  # in snippets/<chapter>/_figures/
    sha256: str


def _lines(data) -> str:
    if not isinstance(data, list):
        raise ValueError(f"an output is kept as a list of lines, not {type(data).__name__}")
    return "\n".join(data)


# Lists of lines keep a changed output readable in a diff.
LINES = {AS_JSON: (lambda text: text.split("\n"), _lines)}


@dataclass(frozen=True)
class SnippetRecord:
    snippet: str  # path under the snippets root
    output: str = field(metadata=LINES)
    figures: tuple[FigureFile, ...]
    frames: tuple[FramesFile, ...] = ()
    # The `{{ }}` bound after this snippet (before the next one): body -> formatted
    # text. Kept per snippet, so a body written after two snippets keeps both values.
    values: dict[str, str] = field(default_factory=dict)
    # Only interactive figures have frames, and only a snippet that prose binds values
    # after has values: both are left out when empty, so other records keep their bytes.
    OMIT_DEFAULTS = True

    @property
    def files(self) -> tuple:
        """What it committed to the figure folder: figures, then frames files."""
        return self.figures + self.frames

    @classmethod
    def from_json(cls, data: dict) -> "SnippetRecord":
        return decode(cls, data)

    def to_json(self) -> dict:
        return encode(self)
