"""The chapter session: runs snippets in one fresh interpreter, as a REPL would.

Started by `bookrun.execute.session` as `python -m bookrun.execute.worker JOB.json`.
Each top-level statement is compiled in "single" mode, like a line typed at a
REPL, so a bare expression echoes its value exactly as it would for a reader.
Output (what file descriptors 1 and 2 receive, bookrun.execute.worker.capture) and figures
passed to `plt.show()` are captured per snippet; the snippets themselves contain
nothing build-specific.

The session also enforces the limits a page must live within: output and
figures per snippet, the chapter's time and memory, no network, no `os._exit`,
no process or thread left behind. A breach stops the snippet where it happened,
so the error has its line and traceback.
"""
import ast
import dataclasses
import faulthandler
import importlib.abc
import importlib.util
import ipaddress
import json
import linecache
import os
import re
import resource
import signal
import sys
import time
import traceback
from pathlib import Path

from bookrun.execute.worker import checkpoint
from bookrun.execute.worker import frames
from bookrun.execute.worker import processes
from bookrun.execute.worker.capture import (Capture, Output, Refused, TimedOut,
                                            check_running_threads, check_stray_threads,
                                            refuse, track_threads)
from bookrun.execute.worker.protocol import (Job, RunError, RunResult, SnippetError, StepJob,
                                             StepResult)
from bookrun.execute.worker.state import SessionState

ADDRESS = re.compile(r" at 0x[0-9a-fA-F]{4,}")
COMPOUND = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.For, ast.AsyncFor,
            ast.While, ast.If, ast.With, ast.AsyncWith, ast.Try, ast.Match)
HERE = str(Path(__file__).resolve().parent)  # the executor's own frames are hidden
PYPLOT = "matplotlib.pyplot"  # its figures are captured from the moment it is imported


def lint(path, source, tree):
    """Refuse what would paste differently into a REPL."""
    lines = source.splitlines()
    for node in tree.body:
        if not isinstance(node, COMPOUND):
            continue
        first, last = node.lineno, node.end_lineno
        for n in range(first, last):
            if not lines[n - 1].strip():
                raise SnippetError(path, n, "blank line inside an indented block: "
                                   "a REPL ends the block there")
        after = last + 1
        while after <= len(lines) and lines[after - 1].strip().startswith("#"):
            after += 1
        if after <= len(lines) and lines[after - 1].strip():
            raise SnippetError(path, after, "a REPL needs a blank line after an indented "
                               "block before the next statement")


def note_children(state: SessionState, live: Path):
    """Remember which snippet started each child process still running (a command read
    empty, mid-exec, is read again at the next look)."""
    for pid in processes.descendants(state.session, processes.kept(live)):
        path, command = state.children.get(pid, (state.path, ""))
        state.children[pid] = (path, command or processes.command_line(pid))


def _started(state: SessionState, pid: int) -> tuple[str, str] | None:
    """(snippet, command) of a child noted after a snippet, or None. A command noted
    empty was read mid-exec (the new program's arguments not yet in place): it is read
    again now, waiting up to a second for the exec to finish."""
    noted = state.children.get(pid)
    if noted and not noted[1]:
        noted = (noted[0], processes.command_line(pid, settle=1.0))
    return noted


def end_children(state: SessionState, live: Path) -> RunError | None:
    """End what the snippets started and left running; the first one found is an error
    (a REPL would leave it running, a build must not)."""
    left = processes.descendants(state.session, processes.kept(live))
    named = [(pid, _started(state, pid)) for pid in left]
    processes.end_all(left)
    processes.reap()
    for pid, (path, command) in (p for p in named if p[1]):
        return SnippetError(path, None, f"a child process started by {Path(path).name} "
                            f"({command}) was still running when the chapter ended; it was "
                            "ended. Wait for it (`proc.wait()`, `proc.communicate()`) in the "
                            "snippet that needs it").to_error()
    return None


class _PyplotHook(importlib.abc.MetaPathFinder):
    """Installs the figure capture the moment a snippet imports matplotlib.pyplot, so a
    session that draws nothing never pays for importing matplotlib (about a second),
    and a book without matplotlib runs at all."""

    def __init__(self, state):
        self.state = state

    def find_spec(self, name, path, target=None):
        if name != PYPLOT:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is None:
            return None
        load = spec.loader.exec_module

        def exec_module(module):
            load(module)
            install_figure_capture(self.state, module)

        spec.loader.exec_module = exec_module
        return spec


def install_figure_capture(state: SessionState, plt):
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "bookrun"

    def show(*args, **kwargs):
        limits = state.limits
        for num in plt.get_fignums():
            if state.count >= limits.max_figures:
                plt.close("all")
                refuse(state, f"more than {limits.max_figures} figures in one snippet: "
                       "split it, or raise the limit on the page with "
                       f"`@run {limits.snippet} max-figures=N`")
            fig = plt.figure(num)
            state.count += 1
            too_big = oversized(fig, limits.max_figure_pixels)
            if too_big:
                plt.close("all")
                refuse(state, f"figure {state.count} {too_big}, over the limit of "
                       f"{limits.max_figure_pixels // 1_000_000} million pixels, refused "
                       "before drawing: make it smaller, or raise the limit with "
                       f"`@run {limits.snippet} max-figure-megapixels=N`")
            name = f"{state.stem}-{state.count}.svg"
            path = state.figdir / name  # a resumed session draws into a new folder
            fig.savefig(path, format="svg", metadata={"Date": None})
            size = path.stat().st_size
            if size > limits.max_figure_bytes:
                path.unlink()
                plt.close("all")
                refuse(state, f"figure {state.count} is {size / 1000:.0f} kB, over the "
                       f"limit of {limits.max_figure_bytes // 1000} kB: plot fewer points, "
                       f"or raise the limit with `@run {limits.snippet} max-figure-kb=N`")
            state.figures.append(name)
        plt.close("all")

    plt.show = show


def oversized(fig, limit: int) -> str | None:
    """What makes a figure more than `limit` pixels, before anything is drawn: its size
    at the dpi it is saved with, or an image array it shows (a vector file embeds the
    array at full size)."""
    import matplotlib

    dpi = matplotlib.rcParams["savefig.dpi"]
    dpi = fig.dpi if dpi == "figure" else float(dpi)
    width, height = fig.get_size_inches() * dpi
    if width * height > limit:
        return f"is {width:.0f} x {height:.0f} pixels (figure size x dpi)"
    for image in fig.images + [im for ax in fig.axes for im in ax.get_images()]:
        shape = getattr(image.get_array(), "shape", ())
        if len(shape) >= 2 and shape[0] * shape[1] > limit:
            return f"shows an image of {shape[1]} x {shape[0]} pixels"
    return None


def platform_fingerprint(probes: dict) -> dict:
    """What decides this session's floating-point paths, for the libraries it used.

    `probes` is the book's `fingerprint` option: {module: {name: expression}}. Read
    after the last snippet, and only for modules the snippets imported, so a chapter
    that never imported a library is not tied to that library's kernels. Environment
    variables that make a library take other kernels change these, as another CPU would.
    """
    import platform

    found = {"machine": platform.machine()}
    for module, reads in probes.items():
        if module in sys.modules:
            for name, expression in reads.items():
                found[name] = eval(expression, {module: sys.modules[module]})
    return found


def is_local(host) -> bool:
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    if host in (None, "", "localhost"):
        return True
    try:
        return ipaddress.ip_address(str(host).split("%")[0]).is_loopback
    except ValueError:
        return False


def install_network_guard(state: SessionState):
    """Refuse every non-local connection and name lookup: a page must build offline,
    and a number fetched from the network could change between two builds."""
    import socket

    def check(host):
        if not is_local(host):
            refuse(state, f"network access refused (to {host!r}): pages must build offline "
                   "and reproducibly, so snippets may not use the network; ship the data "
                   "with the book or generate it")

    def address_host(address):
        return address[0] if isinstance(address, tuple) else None  # a str is AF_UNIX

    def guard_address(method, position):
        def guarded(self, *args):
            check(address_host(args[position] if position < len(args) else args[-1]))
            return method(self, *args)
        return guarded

    socket.socket.connect = guard_address(socket.socket.connect, 0)
    socket.socket.connect_ex = guard_address(socket.socket.connect_ex, 0)
    socket.socket.sendto = guard_address(socket.socket.sendto, -1)

    def guard_lookup(function):
        def guarded(host, *args, **kwargs):
            check(host)
            return function(host, *args, **kwargs)
        return guarded

    for name in ("getaddrinfo", "gethostbyname", "gethostbyname_ex"):
        setattr(socket, name, guard_lookup(getattr(socket, name)))


def install_exit_guard(state: SessionState):
    """`os._exit` would end the session with no result; report it as an error instead
    (in forked children, which must exit that way, it keeps its meaning)."""
    real_exit = os._exit

    def guarded(code):
        if os.getpid() != state.session:
            real_exit(code)
        refuse(state, f"os._exit({code}) would end the chapter's session before the "
               "snippets after it run: remove it")

    os._exit = guarded


def install_time_limit(state: SessionState, deadline: float, timeout: float):
    def expired(signum, frame):
        refuse(state, f"timed out after {timeout:g} s", TimedOut)

    signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, max(deadline - time.time(), 0.001))


def _lower_limit(kind: int, size: int) -> None:
    """Lower a resource's soft limit to `size` (never above its hard limit)."""
    soft, hard = resource.getrlimit(kind)
    if hard != resource.RLIM_INFINITY:
        size = min(size, hard)
    try:
        resource.setrlimit(kind, (size, hard))
    except (ValueError, OSError):
        pass  # e.g. macOS refuses most address-space limits: the machine's own limits hold


def limit_memory(gigabytes: float):
    """The session's address space, children included: past it an allocation fails as
    a MemoryError at the snippet's line instead of the machine swapping."""
    _lower_limit(resource.RLIMIT_AS, int(gigabytes * 2**30))


def limit_file_size(megabytes: float):
    """No file the session writes (its output files included, and what its child
    processes write) grows past the disk limit: past it a write fails (EFBIG), at the
    snippet's line, and a child process is stopped by SIGXFSZ. (Where it cannot be set,
    the sandbox's tmpfs sizes still bound /tmp and the home folder.)"""
    _lower_limit(resource.RLIMIT_FSIZE, int(megabytes * 2**20))


def run_snippet(path, source, namespace, capture, state):
    tree = ast.parse(source, filename=path)
    lint(path, source, tree)
    for node in tree.body:
        code = compile(ast.Interactive(body=[node]), path, "single")
        exec(code, namespace)
        capture.check(node.lineno)  # what C code and child processes wrote
        check_stray_threads(state)


# Frames kept from each end of a traceback: a recursion a million calls deep took
# minutes to extract and format whole (its middle is one line repeated).
EDGE_FRAMES = 100


def bounded_frames(tb) -> traceback.StackSummary:
    """The traceback's first and last EDGE_FRAMES entries (walking the chain is cheap;
    reading each frame's source line is not), the middle replaced by nothing."""
    head, tail, count = [], [], 0
    while tb is not None:
        (head if count < EDGE_FRAMES else tail).append((tb.tb_frame, tb.tb_lineno))
        if len(tail) > EDGE_FRAMES:
            del tail[:EDGE_FRAMES // 2]  # amortised: the list stays short
        tb, count = tb.tb_next, count + 1
    return traceback.StackSummary.extract(iter(head + tail[-EDGE_FRAMES:]))


def describe(exc, path, snippet_paths, output) -> RunError:
    """The error of a snippet that raised: its line, and a traceback without our frames."""
    tb = bounded_frames(exc.__traceback__)
    start = next((i for i, f in enumerate(tb) if f.filename in snippet_paths), len(tb))
    frames = [f for f in tb[start:] if not f.filename.startswith(HERE)]
    here = next((f for f in reversed(tb) if f.filename == path), None)
    line = here.lineno if here else None
    if isinstance(exc, SyntaxError) and exc.filename == path and here is None:
        line = exc.lineno  # the parser's own frames say nothing about the snippet
    if isinstance(exc, Refused):  # the library calls that led to the refusal are noise
        message = str(exc)
        text = "".join(traceback.format_list([f for f in frames if f.filename in snippet_paths]))
    elif isinstance(exc, SyntaxError):
        message = f"{type(exc).__name__}: {exc.msg}"
        text = "".join(traceback.format_exception_only(type(exc), exc))
    else:
        message = f"{type(exc).__name__}: {exc}"
        text = "".join(traceback.format_list(frames)) + "".join(
            traceback.format_exception_only(type(exc), exc))
    kind = "timeout" if isinstance(exc, TimedOut) else "error"
    return RunError(path, line, message, kind=kind, traceback=text, output=output)


def run_step(step: StepJob, job: Job, namespace, state: SessionState,
             live: Path) -> tuple[StepResult | None, RunError | None]:
    """Run one snippet and its bindings; return (result, error)."""
    state.start(step.path, step.limits)
    (live / "running").write_text(step.path)
    capture = state.capture = Capture(live / "output", step.limits, state)
    try:
        result = _run_step(step, job, namespace, state, live, capture)
    except SnippetError as exc:  # located by the session itself (frames' errors too)
        return None, exc.to_error(capture.getvalue())
    except BaseException as exc:  # noqa: BLE001 - every failure is reported, then fatal
        error = describe(exc, step.path, {s.path for s in job.steps}, capture.getvalue())
        if isinstance(exc, MemoryError):
            error = dataclasses.replace(error, message=error.message + (
                f" (a chapter's session may use {job.memory_gb:g} GB; "
                "the book's `memory_gb` option raises it)"))
        return None, error
    finally:
        state.capture = None
        capture.close()
    return result, None


def _run_step(step: StepJob, job: Job, namespace, state: SessionState, live: Path,
              capture: Capture) -> StepResult:
    path = step.path
    # By absolute path: a snippet may change the current folder.
    source = (job.cwd / path).read_text(encoding="utf-8")
    linecache.cache[path] = (len(source), None, source.splitlines(True), path)
    sys.displayhook = sys.__displayhook__
    run_snippet(path, source, namespace, capture, state)
    state.capture = None
    capture.finish()
    check_stray_threads(state)
    check_running_threads(state, path)
    note_children(state, live)
    if state.refused is not None:  # caught by the snippet itself, still a failure
        message, line = state.refused
        raise SnippetError(path, line, message)
    drawn = frames.capture(step.figures, namespace, state.figdir, state.figures)
    output = capture.getvalue()
    m = ADDRESS.search(output)
    if m:
        row = output[:m.start()].count("\n")
        raise SnippetError(path, None, "output shows an object address (differs every "
                           f"run): {output.splitlines()[row]!r}; assign the value "
                           "(`_ = ...`) or print what you mean")
    values = evaluate_bindings(step, job.page, namespace)
    return StepResult(path, output, tuple(state.figures), values, drawn)


def evaluate_bindings(step: StepJob, page: str, namespace) -> dict[str, str]:
    """Each `{{ }}` after the snippet, formatted; errors name the page's line."""
    values = {}
    for b in step.bindings:
        try:
            value = eval(b.expr, namespace)
            values[b.body] = format(value, b.spec)
        except Exception as exc:
            raise SnippetError(page, b.line, f"{{{{ {b.body} }}}} after {step.path}: "
                               f"{type(exc).__name__}: {exc}") from None
        if ADDRESS.search(values[b.body]):  # would differ in every run, and in `check`
            raise SnippetError(page, b.line, f"{{{{ {b.body} }}}} after {step.path} shows an "
                               f"object address (differs every run): {values[b.body]!r}; "
                               "bind a value that prints the same each time")
    return values


def run_from(start: int, job: Job, namespace, state: SessionState,
             results: list[StepResult]) -> RunError | None:
    """Run the job's snippets from index `start`; return the first error, or None.

    Under `mkdocs serve` (job.checkpoints set) the session is kept, forked, before
    each later snippet, so that a save re-runs the chapter from the edited snippet on
    (bookrun.execute.worker.checkpoint); a build or a check never keeps anything."""
    for k in range(start, len(job.steps)):
        if job.checkpoints is not None and k > start:
            checkpoint.keep(job.checkpoints, job.steps[k].resume_key, job.owner,
                            lambda new_job, k=k: resume(new_job, k, namespace, state, results),
                            job.live)
        result, error = run_step(job.steps[k], job, namespace, state, job.live)
        if error:
            return error
        results.append(result)
        if job.checkpoints is not None:  # a resumed copy writes them into its own folder
            state.drawn.update((n, (state.figdir / n).read_bytes()) for n in result.files)
    return None


def start_session(state: SessionState) -> dict:
    """A fresh session: its guards, its output, and the namespace snippets run in."""
    if PYPLOT in sys.modules:
        install_figure_capture(state, sys.modules[PYPLOT])
    else:
        sys.meta_path.insert(0, _PyplotHook(state))
    install_network_guard(state)
    install_exit_guard(state)
    track_threads(state)
    sys.stdout, sys.stderr = Output(state, 1), Output(state, 2)
    return {"__name__": "__main__", "__builtins__": __builtins__}


def finish(job: Job, start: int, namespace, state: SessionState, results: list[StepResult]):
    """Run to the end (or the first error) and write the result file."""
    error = None
    try:
        install_time_limit(state, job.deadline, job.timeout)
        if namespace is None:  # a fresh session
            namespace = start_session(state)
        error = run_from(start, job, namespace, state, results)
        signal.setitimer(signal.ITIMER_REAL, 0)
    except TimedOut as exc:  # between snippets, or while the session starts
        where = state.path or f"{job.page} (the session was still starting)"
        error = SnippetError(where, None, str(exc)).to_error(kind="timeout")
    signal.setitimer(signal.ITIMER_REAL, 0)
    left = end_children(state, job.live)
    try:
        check_stray_threads(state)
    except SnippetError as exc:
        left = left or exc.to_error()
    error = error or left
    fingerprint = platform_fingerprint(job.fingerprint) if error is None else {}
    result = RunResult(tuple(results), error, fingerprint)
    job.result.write_text(json.dumps(result.to_json()))


def resume(job: Job, start: int, namespace, state: SessionState, results):
    """In a fresh copy of a kept session: the chapter from snippet `start` on, for a new
    job, with the earlier snippets' results and figures as the kept session had them."""
    job.live.mkdir(parents=True, exist_ok=True)
    err = os.open(job.live / "stderr", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
    os.dup2(err, 1)  # what the interpreter itself says, for the parent's crash report
    os.dup2(err, 2)
    state.figdir, state.session, state.children = job.figdir, os.getpid(), {}
    processes.die_with_parent(os.getppid())
    processes.become_reaper()
    state.figdir.mkdir(parents=True, exist_ok=True)
    for name, data in state.drawn.items():
        (state.figdir / name).write_bytes(data)
    finish(job, start, namespace, state, list(results))


def main(job_path):
    job = Job.from_json(json.loads(Path(job_path).read_text()))
    processes.die_with_parent(os.getppid())
    processes.become_reaper()  # so that detached grandchildren can still be ended
    limit_memory(job.memory_gb)
    limit_file_size(job.disk_mb)
    # A crash in C code still prints the snippet's line, to the worker's own stderr (not
    # to the snippet's output, which fd 2 is while a snippet runs).
    faulthandler.enable(os.fdopen(os.dup(2), "w"))
    job.figdir.mkdir(parents=True, exist_ok=True)
    job.live.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(job.cwd))
    finish(job, 0, None, SessionState(figdir=job.figdir, session=os.getpid()), [])
    # The result is written: a thread a snippet left running (already reported) must
    # not hold the session open, as interpreter shutdown would while it joins it.
    sys.stdout.flush()
    sys.stderr.flush()
    checkpoint.exit_now(0)
