"""What a snippet writes, captured as a terminal would show it, and the errors it ends
with. Used by the chapter session (bookrun.execute.worker).

Output is what file descriptors 1 and 2 receive, so prints, C code and child processes
keep their order; `sys.stdout` and `sys.stderr` write straight to those descriptors.
Each thread remembers the snippet that started it, so a thread that writes after its
snippet has ended is caught, instead of its text landing in a later snippet.
"""
import codecs
import io
import os
import sys
import threading
from pathlib import Path

from bookrun.execute.worker.protocol import Limits, SnippetError  # noqa: F401 - named here too
from bookrun.execute.worker.state import SessionState


class Refused(BaseException):
    """A limit was hit. A BaseException, so a snippet's `except Exception` cannot hide it."""


class TimedOut(Refused):
    pass


def refuse(state: SessionState, message, kind=Refused):
    # Remembered with the snippet's line: a snippet that catches even this still fails.
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename != state.path:
        frame = frame.f_back
    state.refuse(message, frame.f_lineno if frame else None)
    raise kind(message)


class Capture:
    """One snippet's output as file descriptors 1 and 2 receive it, as a terminal would:
    Python's prints, C code's writes and child processes' output, in the order they
    happened. Both descriptors point at one file for the snippet (the parent reads it if
    the session dies); it is read after every write from Python and after every
    top-level statement, so the snippet's output limit stops it near its line.

    Output must be UTF-8 text: other bytes fail the snippet, shown escaped, since a
    page (and a record) holds text."""

    def __init__(self, path: Path, limits: Limits, state: SessionState):
        self.limits, self.state = limits, state
        sys.__stdout__.flush()
        sys.__stderr__.flush()
        self.fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o666)
        self.saved = (os.dup(1), os.dup(2))
        os.dup2(self.fd, 1)
        os.dup2(self.fd, 2)
        self.read_at, self.lines, self.parts = 0, 0, []
        self.decoder = codecs.getincrementaldecoder("utf-8")()
        self.lock = threading.RLock()  # a snippet's threads write too

    def write(self, data: bytes):
        view = memoryview(data)
        while view:
            view = view[os.write(1, view):]
        self.check()

    def check(self, line=None):
        """Take what reached the file since the last look. `line`: the top-level
        statement just run (else the snippet's frame that wrote is found)."""
        with self.lock:
            self._check(line)

    def _check(self, line):
        for stream in (sys.__stdout__, sys.__stderr__):
            try:
                stream.flush()  # a library holding the original streams
            except (OSError, ValueError):
                pass
        size = os.fstat(self.fd).st_size
        if size > self.limits.max_bytes:
            self._refuse(self._limit_message(), line)
        data = os.pread(self.fd, size - self.read_at, self.read_at)
        self.read_at += len(data)
        self.lines += data.count(b"\n")
        if self.lines > self.limits.max_lines:
            self._refuse(self._limit_message(), line)
        try:
            self.parts.append(self.decoder.decode(data))
        except UnicodeDecodeError as exc:
            self._refuse(_not_text(exc), line)

    def _limit_message(self):
        return (f"output exceeds the limit of {self.limits.max_lines} lines or "
                f"{self.limits.max_bytes // 1000} kB per snippet: print less, or raise it "
                f"on the page with `@run {self.limits.snippet} max-output=LINES`")

    def _refuse(self, message, line):
        if line is None:
            refuse(self.state, message)
        message, line = self.state.refuse(message, line)
        raise SnippetError(self.state.path, line, message)

    def getvalue(self):
        return "".join(self.parts)

    def finish(self, line=None):
        """The last look, then the descriptors back as they were."""
        try:
            self.check(line)
            try:
                self.parts.append(self.decoder.decode(b"", final=True))
            except UnicodeDecodeError as exc:
                self._refuse(_not_text(exc), line)
        finally:
            self.close()

    def close(self):
        if self.fd is None:
            return
        sys.__stdout__.flush()
        sys.__stderr__.flush()
        os.dup2(self.saved[0], 1)
        os.dup2(self.saved[1], 2)
        for fd in (*self.saved, self.fd):
            os.close(fd)
        self.fd = None


def _not_text(exc: UnicodeDecodeError) -> str:
    bad = exc.object[exc.start:exc.end + 8]
    before = exc.object[max(0, exc.start - 20):exc.start]
    return (f"output is not UTF-8 text: bytes {bad!r} (shown escaped)"
            + (f" after {before!r}" if before else "")
            + "; a page holds text: decode them, or print their repr()")


class Output(io.TextIOBase):
    """sys.stdout and sys.stderr for the whole session: writes go to the running
    snippet's Capture. A thread that writes after the snippet that started it has ended
    is an error named after that snippet; its text is dropped, never shown later."""

    encoding, errors = "utf-8", "strict"

    def __init__(self, state: SessionState, fd: int):
        self.state, self.fd = state, fd
        self.buffer = _BinaryOutput(self)

    def writable(self):
        return True

    def fileno(self):
        return self.fd

    def isatty(self):
        return False

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self.write_bytes(text.encode("utf-8"))
        return len(text)

    def write_bytes(self, data):
        capture = self.state.capture
        started = getattr(threading.current_thread(), "bookrun_started", None)
        if capture is None or (started is not None and started[0] != self.state.path):
            if started is not None:
                self.state.note_stray(*started, threading.current_thread().name)
            return  # not the running snippet's: kept out of every record
        if threading.current_thread() is not threading.main_thread():
            try:
                capture.write(data)
            except BaseException:  # noqa: BLE001 - remembered; the snippet fails on it
                pass
            return
        capture.write(data)


class _BinaryOutput(io.RawIOBase):
    """sys.stdout.buffer: bytes, as a REPL's would take them."""

    def __init__(self, text: Output):
        self.text = text

    def writable(self):
        return True

    def fileno(self):
        return self.text.fd

    def write(self, data):
        data = bytes(data)
        self.text.write_bytes(data)
        return len(data)


def track_threads(state: SessionState):
    """Remember which snippet (and line) started each thread."""
    start = threading.Thread.start

    def started_here(self, *args, **kwargs):
        frame = sys._getframe(1)
        while frame is not None and frame.f_code.co_filename != state.path:
            frame = frame.f_back
        if state.path:
            self.bookrun_started = (state.path, frame.f_lineno if frame else None)
        return start(self, *args, **kwargs)

    threading.Thread.start = started_here


def check_stray_threads(state: SessionState):
    stray = state.take_stray()
    if stray:
        path, line, name = stray
        raise SnippetError(path, line, f"a thread started here ({name}) wrote output after "
                           f"{Path(path).name} ended, so its output would land in another "
                           "snippet: join it (`thread.join()`) before the snippet ends")


def check_running_threads(state: SessionState, path: str):
    """A thread the snippet started that still runs when its last statement is done
    would race the snippets after it, and in a REPL print into them: an error, at the
    line that started it, as for a child process left running."""
    for thread in threading.enumerate():
        started = getattr(thread, "bookrun_started", None)
        if started and started[0] == path and thread.is_alive():
            raise SnippetError(path, started[1], f"a thread started here ({thread.name}) "
                               f"was still running when {Path(path).name} ended: join it "
                               "(`thread.join()`) before the snippet ends")
