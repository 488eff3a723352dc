"""The files a session wrote, as the host reads them: data, never a door (issue 42).

A snippet is untrusted code. Its session writes each figure (SVG) and each interactive
figure's frames file into its scratch folder, and names them in its answer; the snippet
can change that folder while it runs, and under serve even after (a kept session may
write into the scratch of the runs after it). So every file the host takes from a
session, and every committed file it publishes, is read here and nowhere else:

- by name, a plain file name the answer gives for that snippet (no `/`, no `..`);
- through file descriptors: the folder opened part by part and the file itself with
  O_NOFOLLOW, so no symbolic link is followed (a link swapped in for a figure would
  have published a host file), and O_NONBLOCK, so a FIFO cannot hang the build;
- only a regular file with one link (not a directory, a FIFO, a device, nor a hard link
  to a file elsewhere), at most its limit (the snippet's `max-figure-kb` for a figure;
  for a frames file that figure's size plus, per frame, the snippet's `max-frame-kb`
  and a printed output's allowance), read once;
- an SVG must pass the allow-list of bookrun.store.safe_svg, and so must every SVG
  fragment of a frames file.

What passes is written, from the bytes read, into a fresh folder of the host's own
(outside every folder a session may write), and the run continues from there: its
hashes, the figures installed in `_figures/`, what `check` compares and `run` prints.
A refusal is an ExecutionError naming the snippet; nothing is written then.
"""
from __future__ import annotations

import dataclasses
import errno
import hashlib
import json
import math
import os
import shutil
import stat
import tempfile
from pathlib import Path

from bookrun.errors import ExecutionError, PageError, RecordError
from bookrun.execute.session import figure_specs, limits
from bookrun.execute.worker.frames import FramesData, frames_name
from bookrun.model.page import Chapter, FramesFile, Run, SnippetRun, Step
from bookrun.parse.names import PART
from bookrun.store.safe_svg import UnsafeSvg, check_fragment, check_svg

FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY
KINDS = [(stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
         (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device")]


class Refused(Exception):
    """Why a file is not taken, as a phrase after its name: `is a symbolic link`."""


# -- reading ----------------------------------------------------------------------------
def open_folder(folder: Path, trusted: Path | None = None) -> int:
    """A descriptor of `folder`, opened part by part below `trusted` (a folder no session
    can replace; by default `folder`'s parent), with no symbolic link followed."""
    trusted = folder.parent if trusted is None else trusted
    parts = folder.relative_to(trusted).parts
    fd = os.open(trusted, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for part in parts:
            if part in ("", ".", ".."):
                raise Refused(f"{folder} lies outside {trusted}")
            try:
                inner = os.open(part, FLAGS | os.O_DIRECTORY, dir_fd=fd)
            except OSError as exc:
                raise Refused(f"{part} in {trusted} is {_why(exc, part, fd)}") from None
            trusted = trusted / part
            os.close(fd)
            fd = inner
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_file(folder: int, name: str, limit: int, one_link: bool = True) -> bytes:
    """The bytes of the regular file `name` in the folder opened as `folder`, at most
    `limit`; Refused otherwise. `one_link`: refused as a hard link when it has other
    names (a session's own file has none; a committed one may, in a copy made by links)."""
    if not PART.fullmatch(name):
        raise Refused("is not a plain file name (a path, or a hidden or odd name)")
    try:
        fd = os.open(name, FLAGS, dir_fd=folder)
    except OSError as exc:
        raise Refused(f"is {_why(exc, name, folder)}") from None
    try:
        st = os.fstat(fd)
        for test, kind in KINDS:
            if test(st.st_mode):
                raise Refused(f"is {kind}, not a file the session wrote")
        if not stat.S_ISREG(st.st_mode):
            raise Refused("is not a regular file")
        if one_link and st.st_nlink != 1:
            raise Refused("is a hard link (another name of a file elsewhere)")
        if st.st_size > limit:
            raise Refused(f"is {st.st_size / 1000:.0f} kB, over its limit of "
                          f"{limit // 1000} kB")
        chunks, size = [], 0
        while size <= limit:  # to the end, or one byte past the limit (it grew)
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise Refused(f"grew past its limit of {limit // 1000} kB while read")
        return b"".join(chunks)
    finally:
        os.close(fd)


def _why(exc: OSError, name: str, folder: int) -> str:
    """What `name` in `folder` is that it could not be opened (a link to a folder opened
    as one fails as not a folder)."""
    try:
        link = stat.S_ISLNK(os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode)
    except OSError:
        link = False
    if link or exc.errno == errno.ELOOP:
        return "a symbolic link, which the host never follows"
    if exc.errno == errno.ENOENT:
        return "missing"
    if exc.errno == errno.ENOTDIR:
        return "not a folder"
    return f"unreadable ({os.strerror(exc.errno or 0)})"


# -- what each file may be ----------------------------------------------------------------
def figure_limit(step: Step) -> int:
    """A figure's bytes: the worker's own limit (`max-figure-kb`)."""
    return limits(step).max_figure_bytes


def frames_limit(step: Step, figure: int) -> tuple[int, int]:
    """(bytes, frames) of the frames file of the step's `figure` (its index among the
    page's figures for the step): the figure's limit for the shared definitions, and per
    frame `max-frame-kb` for its groups and a printed output's allowance for its line."""
    [spec] = [s for s in figure_specs(step, "") if s.figure == figure]
    count = math.prod(len(c.values) for c in spec.controls)
    return (figure_limit(step) + count * (spec.max_frame_bytes + limits(step).max_bytes),
            count)


def check_figure(data: bytes) -> None:
    try:
        check_svg(data)
    except UnsafeSvg as exc:
        raise Refused(f"is not a figure the book publishes: it {exc}") from None


def check_frames(data: bytes, figure: str, count: int) -> None:
    """A frames file of `count` frames for `figure`, every SVG fragment in it a drawing."""
    try:
        frames = FramesData.from_json(json.loads(data.decode("utf-8")))
        pieces, texts = list(frames.pieces), list(frames.frames)
        fits = (frames.figure == figure and len(texts) == count
                and all(isinstance(t, str) and isinstance(g, dict)
                        and all(isinstance(k, str) and isinstance(v, int)
                                and 0 <= v < len(pieces) for k, v in g.items())
                        for t, g in texts)
                and all(isinstance(p, str) for p in pieces + list(frames.defs.values())))
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise Refused(f"is not a frames file ({type(exc).__name__}: {exc})") from None
    if not fits:
        raise Refused(f"is not the frames file of {figure} ({count} frames)")
    try:
        for xml in [*frames.defs.values(), *pieces]:
            check_fragment(xml)
    except UnsafeSvg as exc:
        raise Refused(f"holds SVG the page may not swap in: it {exc}") from None


def expected(step: Step, run: SnippetRun) -> list[tuple[str, int, object]]:
    """(name, limit, check) of every file the snippet's answer names, or Refused for a
    name the snippet cannot have written."""
    names = list(run.figures)
    if len(names) > limits(step).max_figures:
        raise Refused(f"shows {len(names)} figures, over its limit of {limits(step).max_figures}")
    found = []
    for name in names:
        if not (PART.fullmatch(name) and name.endswith(".svg")) or names.count(name) > 1:
            raise Refused(f"names the figure {name!r}, not a plain, single .svg name")
        found.append((name, figure_limit(step), check_figure))
    interactive = {names[k]: k for k, fig in enumerate(step.figures)
                   if fig.interactive and k < len(names)}
    seen = set()
    for f in run.frames:
        if f.figure not in interactive or f.figure in seen or f.name != frames_name(f.figure):
            raise Refused(f"names the frames file {f.name!r} of {f.figure!r}, which is not "
                          "one of its interactive figures")
        seen.add(f.figure)
        size, count = frames_limit(step, interactive[f.figure])
        found.append((f.name, size,
                      lambda data, figure=f.figure, count=count: check_frames(data, figure, count)))
    return found


# -- a session's run, taken -------------------------------------------------------------
def take(chapter: Chapter, run: Run, into: Path, snippets: str, page: str) -> Run:
    """The run as the host holds it: every file the session's answer names, read from
    its figure folder and checked, written into a fresh folder under `into`, and every
    hash computed from the bytes read. `snippets` is the snippets folder as the book
    names it, `page` the page. Refused files raise ExecutionError naming the snippet;
    nothing is written then (the caller removes the session's folder)."""
    if len(run.steps) != len(chapter.steps):
        raise ExecutionError(f"chapter {chapter.name!r} ({page}): the session answered for "
                             f"{len(run.steps)} snippet(s), the page runs {len(chapter.steps)}")
    taken: dict[str, bytes] = {}
    steps = []
    folder = None
    try:
        for step, res in zip(chapter.steps, run.steps):
            shown = f"{snippets}/{step.snippet}"
            try:
                files = expected(step, res)
                if files and folder is None:
                    try:
                        folder = open_folder(run.figdir, _trusted(run))
                    except Refused as exc:
                        raise Refused(f"wrote its figures where the host reads none: {exc}") \
                            from None
                for name, limit, check in files:
                    try:
                        data = read_file(folder, name, limit)
                        check(data)
                    except Refused as exc:
                        raise Refused(f"its file {name} in the session's folder {exc}") from None
                    if name in taken:
                        raise Refused(f"names {name}, which another snippet wrote")
                    taken[name] = data
            except Refused as exc:
                message = (f"{exc}; nothing of the chapter was recorded (a figure is data: "
                           "a regular SVG or frames file the session wrote, within its limits)")
                raise ExecutionError(f"{shown}: {message}",
                                     where=PageError(page, step.line, message)) from None
            frames = tuple(dataclasses.replace(f, sha256=_sha256(taken[f.name]))
                           for f in res.frames)
            steps.append(dataclasses.replace(res, frames=frames))
    finally:
        if folder is not None:
            os.close(folder)
    into.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(dir=into, prefix=f"{chapter.name}-"))
    figdir = work / "figures"
    figdir.mkdir()
    try:
        for name, data in taken.items():
            fd = os.open(figdir / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC,
                         0o666)
            with os.fdopen(fd, "wb") as out:
                out.write(data)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return Run(tuple(steps), figdir, work, run.platform)


def _trusted(run: Run) -> Path:
    """Where to start opening the figure folder: the session's folder's parent (made by
    the host) when the figures are inside the session's folder."""
    return run.workdir.parent if run.figdir.is_relative_to(run.workdir) else run.figdir.parent


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# -- committed files ----------------------------------------------------------------------
def committed(chapter: Chapter, record, folder: Path, shown: str) -> bool:
    """Whether every file `record` lists (the chapter's record, stamp equal) is in
    `folder`, its bytes those the record hashed. A file there that is not data (a
    symbolic link, not a regular file, over its limit, an SVG more than a drawing)
    raises RecordError, `shown` naming the folder: only `update` replaces it."""
    def refused(what: str, exc: Refused) -> RecordError:
        return RecordError(f"{what} {exc}; run python -m bookrun update {chapter.name} and "
                           "commit the result")

    if not any(s.files for s in record.snippets):
        return True
    try:
        fd = open_folder(folder)
    except Refused as exc:
        if not folder.exists() and not folder.is_symlink():
            return False
        raise refused(f"{shown}:", exc) from None
    try:
        for step, snippet in zip(chapter.steps, record.snippets):
            for name, limit, check in expected(step, _as_run(snippet)):
                try:
                    data = read_file(fd, name, limit, one_link=False)
                except Refused as exc:
                    if not os.path.lexists(folder / name):
                        return False  # deleted: the chapter runs again
                    raise refused(f"{shown}/{name}", exc) from None
                if [f.sha256 for f in snippet.files if f.name == name] != [_sha256(data)]:
                    return False  # changed: the chapter runs again
                try:
                    check(data)
                except Refused as exc:
                    raise refused(f"{shown}/{name}", exc) from None
    except Refused as exc:
        raise refused(f"{shown}: the record", exc) from None
    finally:
        os.close(fd)
    return True


def _as_run(snippet) -> SnippetRun:
    return SnippetRun(snippet.snippet, snippet.output, tuple(f.name for f in snippet.figures),
                      {}, tuple(FramesFile(f.name, f.sha256, f.figure, f.default, f.text)
                                for f in snippet.frames))
