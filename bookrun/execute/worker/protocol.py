"""The wire between the parent (bookrun.execute.session) and the chapter's session.

    parent ── Job(steps=StepJob(limits, bindings, figures), ...) ──▶ worker
    parent ◀── RunResult(steps=StepResult(...), error=RunError | None, platform) ── worker

Frozen stdlib dataclasses. JSON appears only at the edges, in `to_json`/`from_json`:
job.json, the request a kept session (bookrun.execute.worker.checkpoint) receives, and
result.json. A message that lacks a field fails with a ValueError naming the type and
the field. This package imports nothing outside itself, so the parent imports these
types from here.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path


def _fields(data, cls) -> dict:
    """`data` checked to hold every field of `cls` that has no default."""
    if not isinstance(data, dict):
        raise ValueError(f"{cls.__name__}: expected a JSON object, got "
                            f"{type(data).__name__}")
    missing = [f.name for f in dataclasses.fields(cls) if f.name not in data
               and f.default is dataclasses.MISSING
               and f.default_factory is dataclasses.MISSING]
    if missing:
        raise ValueError(f"{cls.__name__}: missing field {', '.join(map(repr, missing))}")
    return data


def _flat(cls, data):
    """A dataclass whose fields are all JSON values already."""
    data = _fields(data, cls)
    return cls(**{f.name: data[f.name] for f in dataclasses.fields(cls) if f.name in data})


class SnippetError(Exception):
    """A failure the session locates itself: `path` and `line` name the snippet's line,
    or the page's (a binding, an interactive figure); line None: the file alone."""

    def __init__(self, path, line, message):
        super().__init__(message)
        self.path, self.line = path, line

    def to_error(self, output: str = "", kind: str = "error") -> "RunError":
        return RunError(self.path, self.line, str(self), kind=kind, output=output)


# -- the job ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Limits:
    """One snippet's limits, as its `@run` line sets them (bookrun.execute.session.limits)."""

    snippet: str  # as the page names it, for the messages' `@run <snippet> ...` hints
    max_lines: int
    max_bytes: int
    max_figures: int
    max_figure_bytes: int
    max_figure_pixels: int

    def to_json(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data) -> "Limits":
        return _flat(cls, data)


@dataclass(frozen=True)
class BindingJob:
    """A `{{ expr | spec }}` to evaluate after the snippet; `line` is the page's."""

    body: str
    expr: str
    spec: str
    line: int

    def to_json(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data) -> "BindingJob":
        return _flat(cls, data)


@dataclass(frozen=True)
class ControlSpec:
    name: str  # the drawing function's parameter
    values: tuple  # the Python values passed, in order
    shown: tuple[str, ...]  # each value as the page writes it
    label: str
    line: int  # the `Control:` line

    def to_json(self) -> dict:
        return {"name": self.name, "values": list(self.values), "shown": list(self.shown),
                "label": self.label, "line": self.line}

    @classmethod
    def from_json(cls, data) -> "ControlSpec":
        data = _fields(data, cls)
        return cls(data["name"], tuple(data["values"]), tuple(data["shown"]), data["label"],
                   data["line"])


@dataclass(frozen=True)
class FigureSpec:
    """An interactive figure to record frame by frame (bookrun.execute.worker.frames)."""

    figure: int  # its index among the figures the snippet shows
    function: str  # the drawing function the snippet defines
    line: int  # the `Interactive:` line
    page: str  # the page, as errors name it
    max_frame_bytes: int  # what one frame may add to the default frame
    controls: tuple[ControlSpec, ...]

    def to_json(self) -> dict:
        return {"figure": self.figure, "function": self.function, "line": self.line,
                "page": self.page, "max_frame_bytes": self.max_frame_bytes,
                "controls": [c.to_json() for c in self.controls]}

    @classmethod
    def from_json(cls, data) -> "FigureSpec":
        data = _fields(data, cls)
        return cls(data["figure"], data["function"], data["line"], data["page"],
                   data["max_frame_bytes"],
                   tuple(ControlSpec.from_json(c) for c in data["controls"]))


@dataclass(frozen=True)
class StepJob:
    """One snippet to run: its path (relative to the project root), its limits, the
    bindings evaluated after it, its interactive figures, and (serve only) the key of
    the session's state before it (bookrun.store.key.step_keys, shortened)."""

    path: str
    limits: Limits
    bindings: tuple[BindingJob, ...] = ()
    figures: tuple[FigureSpec, ...] = ()
    resume_key: str | None = None

    def to_json(self) -> dict:
        return {"path": self.path, "limits": self.limits.to_json(),
                "bindings": [b.to_json() for b in self.bindings],
                "figures": [f.to_json() for f in self.figures], "resume_key": self.resume_key}

    @classmethod
    def from_json(cls, data) -> "StepJob":
        data = _fields(data, cls)
        return cls(data["path"], Limits.from_json(data["limits"]),
                   tuple(BindingJob.from_json(b) for b in data.get("bindings", ())),
                   tuple(FigureSpec.from_json(f) for f in data.get("figures", ())),
                   data.get("resume_key"))


@dataclass(frozen=True)
class Job:
    """A chapter's session: what to run, where to write, within which limits.

    `checkpoints` (serve only) is the folder of the chapter's kept sessions, which
    belong to the process `owner`; None in a build or a check, which keep nothing."""

    page: str  # relative to `cwd`, as errors name it
    cwd: Path  # the project root: snippet paths are relative to it
    figdir: Path  # where the figures are written
    live: Path  # what the running snippet has printed, for the parent if it dies
    result: Path  # result.json
    timeout: float
    memory_gb: float
    steps: tuple[StepJob, ...]
    fingerprint: dict = field(default_factory=dict)  # BookConfig.fingerprint
    disk_mb: int = 512  # the largest file the session may write (BookConfig.disk_mb)
    deadline: float = 0.0  # time.time() at which the session stops itself
    checkpoints: Path | None = None
    owner: int | None = None

    def to_json(self) -> dict:
        return {"page": self.page, "cwd": str(self.cwd), "figdir": str(self.figdir),
                "live": str(self.live), "result": str(self.result), "timeout": self.timeout,
                "memory_gb": self.memory_gb, "steps": [s.to_json() for s in self.steps],
                "fingerprint": self.fingerprint, "disk_mb": self.disk_mb,
                "deadline": self.deadline,
                "checkpoints": None if self.checkpoints is None else str(self.checkpoints),
                "owner": self.owner}

    @classmethod
    def from_json(cls, data) -> "Job":
        data = _fields(data, cls)
        kept = data.get("checkpoints")
        return cls(data["page"], Path(data["cwd"]), Path(data["figdir"]), Path(data["live"]),
                   Path(data["result"]), data["timeout"], data["memory_gb"],
                   tuple(StepJob.from_json(s) for s in data["steps"]),
                   data.get("fingerprint", {}), data.get("disk_mb", 512),
                   data.get("deadline", 0.0), None if kept is None else Path(kept),
                   data.get("owner"))


# -- the result ------------------------------------------------------------------------
@dataclass(frozen=True)
class FramesEntry:
    """The frames file of one interactive figure, as the record lists it."""

    name: str  # <stem>-<n>.frames.json, in the figure folder
    sha256: str
    figure: str  # the figure it animates: its default frame
    default: tuple[int, ...]  # the default frame's position, one index per control
    text: str  # the default frame's line of text

    def to_json(self) -> dict:
        return {"name": self.name, "sha256": self.sha256, "figure": self.figure,
                "default": list(self.default), "text": self.text}

    @classmethod
    def from_json(cls, data) -> "FramesEntry":
        data = _fields(data, cls)
        return cls(data["name"], data["sha256"], data["figure"], tuple(data["default"]),
                   data["text"])


@dataclass(frozen=True)
class StepResult:
    """One snippet's result: its output, the figure files it showed (in order), each
    binding's text (body -> formatted value) and its interactive figures' frames."""

    path: str
    output: str
    figures: tuple[str, ...]
    values: dict
    frames: tuple[FramesEntry, ...] = ()

    @property
    def files(self) -> list[str]:
        """Every file it wrote into the figure folder."""
        return list(self.figures) + [f.name for f in self.frames]

    def to_json(self) -> dict:
        return {"path": self.path, "output": self.output, "figures": list(self.figures),
                "values": self.values, "frames": [f.to_json() for f in self.frames]}

    @classmethod
    def from_json(cls, data) -> "StepResult":
        data = _fields(data, cls)
        return cls(data["path"], data["output"], tuple(data["figures"]), dict(data["values"]),
                   tuple(FramesEntry.from_json(f) for f in data.get("frames", ())))


@dataclass(frozen=True)
class RunError:
    """What the session ended with: where (a snippet's or the page's line; line None:
    the file alone), the message, the traceback without the worker's own frames, and
    the output before it. `kind` is "error" or "timeout"."""

    path: str
    line: int | None
    message: str
    kind: str = "error"
    traceback: str = ""
    output: str = ""

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}" if self.line else self.path

    def to_json(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data) -> "RunError":
        return _flat(cls, data)


@dataclass(frozen=True)
class RunResult:
    """The session's result.json: the snippets run (all of them, unless `error`), and
    what decided its floating-point paths (read only when no snippet failed)."""

    steps: tuple[StepResult, ...]
    error: RunError | None  # None: every snippet ran
    platform: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"steps": [s.to_json() for s in self.steps],
                "error": None if self.error is None else self.error.to_json(),
                "platform": self.platform}

    @classmethod
    def from_json(cls, data) -> "RunResult":
        data = _fields(data, cls)
        error = data["error"]
        return cls(tuple(StepResult.from_json(s) for s in data["steps"]),
                   None if error is None else RunError.from_json(error),
                   dict(data.get("platform", {})))


# -- a kept session's socket (serve) ---------------------------------------------------
@dataclass(frozen=True)
class Request:
    """To a kept session: run `job` from its snippet on; None: end."""

    job: Job | None = None

    def to_json(self) -> dict:
        return {} if self.job is None else {"job": self.job.to_json()}

    @classmethod
    def from_json(cls, data) -> "Request":
        data = _fields(data, cls)
        return cls(None if data.get("job") is None else Job.from_json(data.get("job")))


@dataclass(frozen=True)
class Reply:
    """From a kept session: first the resumed copy's pid, then its exit code."""

    pid: int | None = None
    code: int | None = None

    def to_json(self) -> dict:
        return {k: v for k, v in dataclasses.asdict(self).items() if v is not None}

    @classmethod
    def from_json(cls, data) -> "Reply":
        return _flat(cls, data)
