"""The wire between the parent (bookrun.execute.session) and the chapter's session.

    parent ── Job(steps=StepJob(limits, bindings, figures), ...) ──▶ worker
    parent ◀── RunResult(steps=StepResult(...), error=RunError | None, platform) ── worker

Frozen stdlib dataclasses. JSON appears only at the edges, in `to_json`/`from_json`
(from `Wire`, which reads each class's fields and type hints):
job.json, the request a kept session (bookrun.execute.worker.checkpoint) receives, and
result.json. A message that lacks a field fails with a ValueError naming the type and
the field. This package imports nothing outside itself, so the parent imports these
types from here.
"""
from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path


# -- dataclasses to and from JSON, by their fields and type hints ----------------------
# bookrun.model.codec is the parent's copy, as this package imports nothing outside
# itself; tests/execute/test_protocol.py checks that the two copies are the same code.
AS_JSON = "bookrun.as_json"  # a field's metadata: (to JSON, from JSON), for its own form


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


def encode(value):
    """JSON values for `value`: a dataclass as an object of its fields in order (if its
    class sets OMIT_DEFAULTS, a field equal to its default is left out; a field whose
    metadata has AS_JSON is written through its first function), a tuple as a list, a
    Path as its text; dicts and lists are walked, anything else is kept."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        omit, out = getattr(value, "OMIT_DEFAULTS", False), {}
        for f in dataclasses.fields(value):
            v = getattr(value, f.name)
            if not (omit and _is_default(f, v)):
                out[f.name] = f.metadata[AS_JSON][0](v) if AS_JSON in f.metadata else encode(v)
        return out
    if isinstance(value, (tuple, list)):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {k: encode(v) for k, v in value.items()}
    return str(value) if isinstance(value, Path) else value


def _is_default(f: dataclasses.Field, value) -> bool:
    if f.default is not dataclasses.MISSING:
        return value == f.default
    return f.default_factory is not dataclasses.MISSING and value == f.default_factory()


_HINTS: dict[type, dict] = {}
# What each plain hint accepts: any JSON number for int and float, as before.
_PLAIN = {str: (str,), int: (int, float), float: (int, float), bool: (bool,)}


def decode(cls, data):
    """A `cls` from what `encode` made of one, by its fields' type hints. A missing
    field that has no default, or a value of the wrong kind, is a ValueError that
    names the class and the field."""
    data = _fields(data, cls)
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    values = {}
    for f in dataclasses.fields(cls):
        if f.name in data:
            raw = data[f.name]
            if AS_JSON in f.metadata:
                raw = f.metadata[AS_JSON][1](raw)
            values[f.name] = _value(_HINTS[cls][f.name], raw, f"{cls.__name__}.{f.name}")
    return cls(**values)


def _value(hint, data, where: str):
    """`data` as the type `hint` says: a dataclass, `X | None`, `tuple[X, ...]`, a
    fixed `tuple[X, Y]`, a bare `tuple`, `dict[K, V]`, `Path`, str, int, float, bool."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if dataclasses.is_dataclass(hint):
        return decode(hint, data)
    if origin in (typing.Union, types.UnionType):
        if data is None:
            return None
        return _value(next(a for a in args if a is not type(None)), data, where)
    kind = (list, tuple) if tuple in (hint, origin) else (dict,) if dict in (hint, origin) \
        else (str,) if hint is Path else _PLAIN.get(hint, (object,))
    if not isinstance(data, kind) or (isinstance(data, bool) and int in kind):
        raise ValueError(f"{where}: expected {getattr(hint, '__name__', hint)}, "
                         f"got {type(data).__name__}")
    if tuple in (hint, origin):
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_value(args[0], x, f"{where}[]") for x in data)
        return tuple(data) if not args else tuple(_value(a, x, f"{where}[]")
                                                  for a, x in zip(args, data))
    if dict in (hint, origin):
        return dict(data) if not args else {k: _value(args[1], v, f"{where}[]")
                                            for k, v in data.items()}
    return Path(data) if hint is Path else data


class Wire:
    """`to_json`/`from_json` for a dataclass of the wire, from its fields and hints."""

    OMIT_DEFAULTS = False  # True: a field equal to its default is left out of the JSON

    def to_json(self) -> dict:
        return encode(self)

    @classmethod
    def from_json(cls, data):
        return decode(cls, data)


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
class Limits(Wire):
    """One snippet's limits, as its `@run` line sets them (bookrun.execute.session.limits)."""

    snippet: str  # as the page names it, for the messages' `@run <snippet> ...` hints
    max_lines: int
    max_bytes: int
    max_figures: int
    max_figure_bytes: int
    max_figure_pixels: int


@dataclass(frozen=True)
class BindingJob(Wire):
    """A `{{ expr | spec }}` to evaluate after the snippet; `line` is the page's."""

    body: str
    expr: str
    spec: str
    line: int


@dataclass(frozen=True)
class ControlSpec(Wire):
    name: str  # the drawing function's parameter
    values: tuple  # the Python values passed, in order
    shown: tuple[str, ...]  # each value as the page writes it
    label: str
    line: int  # the `Control:` line


@dataclass(frozen=True)
class FigureSpec(Wire):
    """An interactive figure to record frame by frame (bookrun.execute.worker.frames)."""

    figure: int  # its index among the figures the snippet shows
    function: str  # the drawing function the snippet defines
    line: int  # the `Interactive:` line
    page: str  # the page, as errors name it
    max_frame_bytes: int  # what one frame may add to the default frame
    controls: tuple[ControlSpec, ...]


@dataclass(frozen=True)
class StepJob(Wire):
    """One snippet to run: its path (relative to the project root), its limits, the
    bindings evaluated after it, its interactive figures, and (serve only) the key of
    the session's state before it (bookrun.store.key.step_keys, shortened)."""

    path: str
    limits: Limits
    bindings: tuple[BindingJob, ...] = ()
    figures: tuple[FigureSpec, ...] = ()
    resume_key: str | None = None


@dataclass(frozen=True)
class Job(Wire):
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


# -- the result ------------------------------------------------------------------------
@dataclass(frozen=True)
class FramesEntry(Wire):
    """The frames file of one interactive figure, as the record lists it."""

    name: str  # <stem>-<n>.frames.json, in the figure folder
    sha256: str
    figure: str  # the figure it animates: its default frame
    default: tuple[int, ...]  # the default frame's position, one index per control
    text: str  # the default frame's line of text


@dataclass(frozen=True)
class StepResult(Wire):
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


@dataclass(frozen=True)
class RunError(Wire):
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


@dataclass(frozen=True)
class RunResult(Wire):
    """The session's result.json: the snippets run (all of them, unless `error`), and
    what decided its floating-point paths (read only when no snippet failed)."""

    steps: tuple[StepResult, ...]
    error: RunError | None  # None: every snippet ran
    platform: dict = field(default_factory=dict)


# -- a kept session's socket (serve) ---------------------------------------------------
@dataclass(frozen=True)
class Request(Wire):
    """To a kept session: run `job` from its snippet on; None: end."""

    job: Job | None = None
    OMIT_DEFAULTS = True


@dataclass(frozen=True)
class Reply(Wire):
    """From a kept session: first the resumed copy's pid, then its exit code."""

    pid: int | None = None
    code: int | None = None
    OMIT_DEFAULTS = True