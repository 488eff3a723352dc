"""The engine's vocabulary: what a page asks for, what a session gives back, what a
record keeps. Frozen dataclasses, so a parse or a result cannot change after it is made;
every other module speaks in these types (no dicts read by string key).

    page (parse.py)      Chapter -> Step -> Binding, FigureText
    session (run)        Run -> SnippetRun
    record               Record -> SnippetRecord -> FigureFile
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

# The errors live in bookrun.errors; importable from here too, as they were.
from bookrun.errors import ExecutionError, PageError, RecordError  # noqa: F401


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
class FigureText:
    """The author's words for one figure: a caption and a text alternative."""

    caption: str
    alt: str
    line: int  # the `Figure:` line in the page
    interactive: object | None = None  # bookrun.parse.controls.Interactive: its controls


@dataclass(frozen=True)
class Step:
    """One snippet to run, with what the page says around it."""

    snippet: str  # path relative to the snippets root, e.g. "setup/corridor.py"
    line: int  # the directive's line in the page
    bindings: tuple[Binding, ...] = ()  # the prose's `{{ }}` after it, before the next step
    options: dict = field(default_factory=dict)  # from the directive's words
    figures: tuple[FigureText, ...] = ()  # the author's words, in order
    end: int = 0  # the page's last line (1-based) of the directive and its `Figure:`/`Alt:` block

    @property
    def platform_bound(self) -> bool:
        return bool(self.options.get("platform-bound"))


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
        return cls(data["name"], data["sha256"], data["figure"], tuple(data["default"]),
                   data["text"])

    def to_json(self) -> dict:
        return {"name": self.name, "sha256": self.sha256, "figure": self.figure,
                "default": list(self.default), "text": self.text}


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
        return cls(data["path"], data["output"], tuple(data["figures"]), dict(data["values"]),
                   tuple(FramesFile.from_json(f) for f in data.get("frames", ())))


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


@dataclass(frozen=True)
class SnippetRecord:
    snippet: str  # path under the snippets root
    output: str
    figures: tuple[FigureFile, ...]
    frames: tuple[FramesFile, ...] = ()
    # The `{{ }}` bound after this snippet (before the next one): body -> formatted
    # text. Kept per snippet, so a body written after two snippets keeps both values.
    values: dict = field(default_factory=dict)

    @property
    def files(self) -> tuple:
        """What it committed to the figure folder: figures, then frames files."""
        return self.figures + self.frames

    @classmethod
    def from_json(cls, data: dict) -> "SnippetRecord":
        if not isinstance(data["snippet"], str) or not isinstance(data["figures"], list):
            raise RecordError("malformed snippet entry")
        values = data.get("values", {})
        if not isinstance(values, dict) or not all(isinstance(v, str) for v in values.values()):
            raise RecordError("malformed values of a snippet entry")
        return cls(data["snippet"], "\n".join(data["output"]),
                   tuple(FigureFile(f["name"], f["sha256"]) for f in data["figures"]),
                   tuple(FramesFile.from_json(f) for f in data.get("frames", ())),
                   dict(values))

    def to_json(self) -> dict:
        # Lists of lines keep a changed output readable in a diff.
        data = {"snippet": self.snippet, "output": self.output.split("\n"),
                "figures": [{"name": f.name, "sha256": f.sha256} for f in self.figures]}
        if self.frames:  # only interactive figures have any: other records keep their bytes
            data["frames"] = [f.to_json() for f in self.frames]
        if self.values:  # only a snippet that prose binds values after has any
            data["values"] = self.values
        return data
