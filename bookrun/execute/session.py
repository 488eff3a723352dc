"""Run one chapter's snippets in a fresh worker process, with a time limit."""
from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from bookrun.errors import ExecutionError, PageError
from bookrun.execute import environment, sandbox
from bookrun.execute.worker import checkpoint, keeper, processes
from bookrun.execute.worker.protocol import (BindingJob, ControlSpec, FigureSpec, Job, Limits,
                                             RunError, RunResult, StepJob, StepResult)
from bookrun.model.page import Chapter, FramesFile, Run, SnippetRun, Step
from bookrun.parse import controls as interactive

DEFAULT_TIMEOUT = 300.0
DEFAULT_MEMORY_GB = 4.0  # address space per chapter session (BookConfig.memory_gb)
# Per snippet, unless its directive raises them (`@run x/y.py max-output=400`): a page
# shows a few to twenty lines and one or two figures; far more is a mistake that would
# otherwise be committed in the record and published on the page.
MAX_OUTPUT_LINES = 200
BYTES_PER_LINE = 100  # so 200 lines allow 20 kB
MAX_FIGURES = 4
MAX_FIGURE_KB = 500
# Checked before a figure is drawn: a 20000 x 20000 image took minutes and gigabytes to
# write before the kilobyte limit could see it. 20 million pixels is a 4000 x 5000 screen.
MAX_FIGURE_MEGAPIXELS = 20
# The worker stops itself at the deadline (keeping the snippet's line and output);
# this much later the parent kills it, for code that never returns to Python.
KILL_GRACE = 5.0
# Same bytes on every run: fixed hash seed, no dates in SVGs, one thread per math library
# (chapters already run in parallel, and thread counts can change float sums).
WORKER_ENV = {
    "MPLBACKEND": "Agg",
    "SOURCE_DATE_EPOCH": "0",
    "PYTHONHASHSEED": "0",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "PYTHONWARNINGS": "default",
}
SHOWN_LINES = 30  # of the output before a failure, in the error message
MARKER = "BOOKRUN_SESSION"  # in the environment of a session's every process
OWNER = "owner.pid"  # in a session's scratch folder: the process that made it
TIMEOUT_HINT = "raise the limit with BOOKRUN_TIMEOUT=SECONDS or --timeout SECONDS"


DEFAULT_DISK_MB = sandbox.DEFAULT_DISK_MB
# The workers of this process's running sessions (leader pid -> its live folder), so
# that a Ctrl-C can end them all at once (stop_all).
_running: dict[int, Path] = {}
_running_lock = threading.Lock()
# Under serve, in the sandbox: the bwrap of each session whose keeper still holds kept
# sessions (reaped once ended), and the pipe whose end tells every keeper that this
# process is gone (bookrun.execute.worker.keeper).
_keepers: list[subprocess.Popen] = []
_serve_pipe: tuple[int, int] | None = None


@dataclass(frozen=True)
class SessionPolicy:
    """How confined a session is: the book's `sandbox`, `disk_mb` and `pass_env`."""
    sandbox: str = ""  # "off": unconfined on purpose; anything else: bubblewrap or refuse
    disk_mb: int = DEFAULT_DISK_MB
    pass_env: tuple[str, ...] = ()


def limits(step: Step) -> Limits:
    given = step.run_options
    lines = given.max_output or MAX_OUTPUT_LINES
    return Limits(snippet=step.snippet, max_lines=lines,
                  max_bytes=max(lines, MAX_OUTPUT_LINES) * BYTES_PER_LINE,
                  max_figures=given.max_figures or MAX_FIGURES,
                  max_figure_bytes=(given.max_figure_kb or MAX_FIGURE_KB) * 1000,
                  max_figure_pixels=(given.max_figure_megapixels
                                     or MAX_FIGURE_MEGAPIXELS) * 1_000_000)


def figure_specs(step: Step, page: str) -> tuple[FigureSpec, ...]:
    """The step's interactive figures, for the worker to record frame by frame."""
    frame_bytes = (step.run_options.max_frame_kb or interactive.MAX_FRAME_KB) * 1000
    return tuple(
        FigureSpec(k, fig.interactive.function, fig.interactive.line, page, frame_bytes,
                   tuple(ControlSpec(c.name, tuple(c.values), tuple(c.shown), c.label, c.line)
                         for c in fig.interactive.controls))
        for k, fig in enumerate(step.figures) if fig.interactive)


def step_job(step: Step, rel: str, page: str, resume_key: str | None = None) -> StepJob:
    line = {b.body: b.line for b in step.bindings}  # a body given twice: its last line
    return StepJob(f"{rel}/{step.snippet}", limits(step),
                   tuple(BindingJob(b.body, b.expr, b.spec, line[b.body]) for b in step.bindings),
                   figure_specs(step, page), resume_key)


def chapter_job(chapter: Chapter, root: Path, snippets_root: Path, work: Path, timeout: float,
                memory_gb: float, fingerprint: dict | None, checkpoints: Path | None,
                keys: list[str], disk_mb: int = DEFAULT_DISK_MB, owner: int = 0) -> Job:
    page = os.path.relpath(chapter.page, root)
    rel = os.path.relpath(snippets_root, root)
    steps = tuple(step_job(s, rel, page, keys[k] if keys else None)
                  for k, s in enumerate(chapter.steps))
    kept = {} if checkpoints is None else {"checkpoints": checkpoints / chapter.name,
                                           "owner": owner or os.getpid()}
    return Job(page=page, cwd=Path(root), figdir=work / "figures", live=work / "live",
               result=work / "result.json", timeout=timeout, memory_gb=memory_gb,
               disk_mb=disk_mb, steps=steps, fingerprint=fingerprint or {}, **kept)


def execute(chapter: Chapter, root: Path, snippets_root: Path, scratch: Path,
            timeout: float = DEFAULT_TIMEOUT, checkpoints: Path | None = None,
            resume_keys: list[str] | None = None, fingerprint: dict | None = None,
            memory_gb: float = DEFAULT_MEMORY_GB,
            policy: SessionPolicy = SessionPolicy()) -> Run:
    """Run the chapter in a fresh session; with `checkpoints` (serve only), from the
    newest kept session whose earlier snippets are unchanged, keeping new ones.
    `resume_keys[k]` names the session's state before step k (bookrun.store.key).

    `fingerprint` (BookConfig.fingerprint) says what to read of the libraries the
    session imported, as the run's platform."""
    sandbox.require(policy.sandbox)  # refused before anything is made (fail closed)
    sandbox.tell_once(lambda message: print(message, file=sys.stderr, flush=True),
                      policy.sandbox)
    scratch.mkdir(parents=True, exist_ok=True)
    remove_stale_scratch(scratch, chapter.name)
    work = Path(tempfile.mkdtemp(dir=scratch, prefix=f"{chapter.name}-")).resolve()
    (work / OWNER).write_text(str(os.getpid()))
    # 96 bits: short, as a Unix socket's name must be.
    keys = [k[:24] for k in resume_keys] if checkpoints is not None else []
    # Kept sessions end with their owner: in the sandbox, the keeper that is their pid 1.
    owner = 0 if sandbox.requested_off(policy.sandbox) else keeper.PID
    job = chapter_job(chapter, root, snippets_root, work, timeout, memory_gb, fingerprint,
                      checkpoints, keys, policy.disk_mb, owner)
    try:
        try:
            result = _run(chapter, root, work, job, timeout, keys, policy)
        except ExecutionError:
            raise
        except Exception as exc:  # noqa: BLE001 - under serve, it must reach the page
            raise ExecutionError(f"chapter {chapter.name!r} ({job.page}): the session "
                                 f"could not be run: {type(exc).__name__}: {exc}") from exc
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)  # a failed run leaves no scratch behind
        raise
    finally:
        if keys:  # the sessions of snippets since edited can never be resumed
            checkpoint.release(checkpoints / chapter.name, set(keys))
    return Run(tuple(snippet_run(r) for r in result.steps), job.figdir, work, result.platform)


def snippet_run(r: StepResult) -> SnippetRun:
    return SnippetRun(r.path, r.output, r.figures, dict(r.values),
                      tuple(FramesFile(f.name, f.sha256, f.figure, f.default, f.text)
                            for f in r.frames))


def _session_uid(chapter: Chapter, policy: SessionPolicy) -> int | None:
    """Under root, the unprivileged user the chapter's sessions run as (a fresh one and
    a resumed kept one alike); None when the session runs as we do."""
    if sandbox.as_root() and not sandbox.requested_off(policy.sandbox):
        return sandbox.session_uid(chapter.name)
    return None


def _run(chapter, root, work, job: Job, timeout, keys, policy) -> RunResult:
    job = dataclasses.replace(job, deadline=time.time() + timeout)
    if keys:  # a kept session resumes into this run's folder: it must be able to write it
        sandbox.hand_over([work], _session_uid(chapter, policy))
    for key in reversed(keys[1:]):  # the newest kept session that still holds
        path = job.checkpoints / f"{key}.sock"
        if not path.exists():
            continue
        answer = checkpoint.request(path, job, timeout, KILL_GRACE)
        if answer is not None:
            code, killed = answer
            return _outcome(chapter, work, job, timeout, None if killed else code,
                            read_inside(work, "live/stderr") or "")
    return _run_worker(chapter, root, work, job, timeout, policy)


def _worker_env(work: Path, policy: SessionPolicy) -> dict:
    # Nothing of the machine's environment but the allow-list (bookrun.execute.environment).
    env = environment.session_env(work, {**WORKER_ENV, MARKER: str(work)}, policy.pass_env)
    # Matplotlib's settings and font list, the session's own copy of the engine's: a
    # reader's ~/.config/matplotlib cannot restyle a figure, and no snippet can change
    # another chapter's figures through it (bookrun.execute.environment).
    env["MPLCONFIGDIR"] = str(environment.private_matplotlib(work))
    return env


def _run_worker(chapter: Chapter, root: Path, work: Path, job: Job, timeout: float,
                policy: SessionPolicy) -> RunResult:
    (work / "job.json").write_text(json.dumps(job.to_json()))
    env = _worker_env(work, policy)
    # Writable: the session's own scratch; under serve the whole scratch folder (a kept
    # session resumes into a later run's folder) and the kept sessions' folder.
    keeps = job.checkpoints is not None
    writable = [work] + ([work.parent, job.checkpoints.parent] if keeps else [])
    if keeps:
        job.checkpoints.mkdir(parents=True, exist_ok=True)
    # Under root the session is a user of its own (bookrun.execute.sandbox): what it may
    # write becomes its own; the shared folders above stay root's, so no chapter's
    # session writes into another's.
    uid = _session_uid(chapter, policy)
    if keeps and uid is not None:  # the engine's own folder: the session user enters it
        os.chmod(job.checkpoints.parent, 0o755)
    sandbox.hand_over([work] + ([job.checkpoints] if keeps else []), uid)
    prefix = sandbox.command(root, writable, keep_sessions=keeps, mode=policy.sandbox,
                             disk_mb=policy.disk_mb, uid=uid)
    try:
        if keeps and prefix:
            return _run_kept(chapter, work, job, timeout, prefix, root, env, policy)
        return _run_plain(chapter, root, work, job, timeout, prefix, env, policy)
    finally:
        prefix.close()


def _run_plain(chapter: Chapter, root: Path, work: Path, job: Job, timeout: float,
               prefix: sandbox.Command, env: dict, policy: SessionPolicy) -> RunResult:
    # The worker's own messages go to a file, not a pipe: a child process that inherits
    # a pipe keeps it open, and a read waiting for its end would wait as long as it lives.
    log = work / "worker.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            prefix + [sys.executable, "-m", "bookrun.execute.worker", str(work / "job.json")],
            cwd=root, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=out,
            pass_fds=prefix.fds, start_new_session=True)  # its own group, ended below
    with _running_lock:
        _running[proc.pid] = job.live
    watch = DiskWatch(work, policy.disk_mb, lambda: processes.end_group(proc.pid))
    try:
        code = proc.wait(timeout=timeout + KILL_GRACE)
        if prefix and code > 128:  # bwrap reports a signal as a shell does
            code = 128 - code
    except subprocess.TimeoutExpired:
        code = None
    finally:
        watch.stop()
        processes.end_group(proc.pid, processes.kept(job.live))
        proc.wait()
        with _running_lock:
            _running.pop(proc.pid, None)
    watch.raise_if_full(chapter, job)
    return _outcome(chapter, work, job, timeout, code, read_inside(work, log.name) or "")


class DiskWatch:
    """The session's scratch folder (on the host's disk, unlike its tmpfs mounts) held
    to `disk_mb` in total: each file is capped by RLIMIT_FSIZE in the worker, and this
    thread adds up the folder every POLL seconds and ends the session past the total."""
    POLL = 0.2

    def __init__(self, folder: Path, disk_mb: int, end):
        self.folder, self.limit, self.end = folder, int(disk_mb) * 2**20, end
        self.full = 0
        self.before = self.used()  # what the host put there (the font cache, the job)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True,
                                        name=f"bookrun-disk-{folder.name}")
        self._thread.start()

    def used(self) -> int:
        total = 0
        for folder, _, files in os.walk(self.folder):
            for name in files:
                try:
                    total += os.lstat(os.path.join(folder, name)).st_blocks * 512
                except OSError:
                    pass  # removed meanwhile
        return total

    def _watch(self) -> None:
        while not self._stop.wait(self.POLL):
            used = self.used() - self.before
            if used > self.limit:
                self.full = used
                self.end()
                return

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def raise_if_full(self, chapter: Chapter, job: Job) -> None:
        if self.full:
            where, _ = _last_seen(self.folder, "")
            raise ExecutionError(
                f"chapter {chapter.name!r} ({job.page}): the session wrote "
                f"{self.full / 2**20:.0f} MB into its scratch folder{where}, past the "
                f"{self.limit // 2**20} MB the book allows (`disk_mb`)", kind="crash")


def _run_kept(chapter, work: Path, job: Job, timeout: float, prefix: sandbox.Command,
              root: Path, env: dict, policy: SessionPolicy) -> RunResult:
    """Under serve, in the sandbox: the worker started by a keeper, pid 1 of the session's
    PID namespace, which reports the worker's exit code and stays for its kept sessions
    (bookrun.execute.worker.keeper). Pids inside differ from ours, so nothing here ends
    a process by pid: the keeper kills the worker when our end of the socket shuts."""
    log = work / "worker.log"
    proc, ours = _start_keeper(prefix, root, env, work / "job.json", log)
    with _running_lock:
        _running[proc.pid] = job.live
    # Past the disk limit, our end of the socket shuts: the keeper then kills the worker.
    watch = DiskWatch(work, policy.disk_mb, lambda: ours.shutdown(socket.SHUT_RDWR))
    try:
        line, _ = checkpoint.read_line(ours, b"", time.monotonic() + timeout + KILL_GRACE)
        killed = line is None
        if killed:  # the worker never came back to Python to stop itself
            ours.shutdown(socket.SHUT_WR)
            line, _ = checkpoint.read_line(ours, b"", time.monotonic() + 30)
        try:
            code = None if killed else int(json.loads(line)["code"])
        except (ValueError, TypeError, KeyError):  # no keeper (bwrap failed), or it died
            processes.end_group(proc.pid)
            code = proc.wait()
            code = 128 - code if code > 128 else code
        if proc.poll() is None:
            with _running_lock:
                _keepers.append(proc)
    finally:
        watch.stop()
        ours.close()
        with _running_lock:
            _running.pop(proc.pid, None)
    watch.raise_if_full(chapter, job)
    return _outcome(chapter, work, job, timeout, code, read_inside(work, log.name) or "")


def _start_keeper(prefix: sandbox.Command, root: Path, env: dict, job_file: Path,
                  log: Path) -> tuple[subprocess.Popen, socket.socket]:
    """The keeper, started under `prefix` (bwrap), and our end of its socket."""
    global _serve_pipe
    with _running_lock:
        _keepers[:] = [p for p in _keepers if p.poll() is None]  # reaped once ended
        if _serve_pipe is None:  # never closed, nor inherited: its end is ours
            _serve_pipe = os.pipe()
    ours, theirs = socket.socketpair()
    try:
        with log.open("wb") as out:
            proc = subprocess.Popen(
                prefix + [sys.executable, "-m", "bookrun.execute.worker.keeper",
                          str(theirs.fileno()), str(_serve_pipe[0]), str(job_file)],
                cwd=root, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                pass_fds=(theirs.fileno(), _serve_pipe[0], *prefix.fds),
                start_new_session=True)
    except BaseException:
        ours.close()
        raise
    finally:
        theirs.close()
    return proc, ours


def stop_all() -> None:
    """End every running session's worker and what it started (Ctrl-C): each waiting
    thread then sees its session die, and removes its scratch folder."""
    with _running_lock:
        running = dict(_running)
    for leader, live in running.items():
        processes.end_group(leader, processes.kept(live))


# What the host reads of a session's own files (its result, its output, its log), at most.
READ_LIMIT = 256 * 2**20


def read_inside(work: Path, relative: str, limit: int = READ_LIMIT) -> str | None:
    """A file the session wrote in its folder, as text; None when it is absent or is not
    a regular file reached without a link (the session may have swapped a file or a
    folder of its scratch for a link to a host file, which is never read)."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    *folders, name = relative.split("/")
    fds = []
    try:
        fds.append(os.open(work, flags | os.O_DIRECTORY))
        for part in folders:
            fds.append(os.open(part, flags | os.O_DIRECTORY, dir_fd=fds[-1]))
        fds.append(os.open(name, flags, dir_fd=fds[-1]))
        st = os.fstat(fds[-1])
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
            return None
        return os.read(fds[-1], limit + 1)[:limit].decode("utf-8", errors="replace")
    except OSError:
        return None
    finally:
        for fd in fds:
            os.close(fd)


def remove_stale_scratch(scratch: Path, name: str) -> None:
    """Scratch folders of this chapter left by a process that was killed (kill -9)."""
    for folder in scratch.glob(f"{name}-*"):
        try:
            owner = int((folder / OWNER).read_text())
        except (OSError, ValueError):
            continue  # being created right now, or not ours
        if not processes.alive(owner):
            # Without a sandbox, what its session started may still run.
            processes.end_all(processes.marked(f"{MARKER}={folder.resolve()}"))
            shutil.rmtree(folder, ignore_errors=True)


def _outcome(chapter, work, job: Job, timeout, code, err) -> RunResult:
    """The session's result, or the error it ended with; `code` None: killed at the limit."""
    page = job.page
    if code is None:
        where, output = _last_seen(work, "")
        raise ExecutionError(f"chapter {chapter.name!r} ({page}) timed out after {timeout:g} s"
                             f"{where}; {TIMEOUT_HINT}"
                             + _output_block(output, "timeout"), kind="timeout") from None
    if code != 0 or not job.result.exists():
        where, output = _last_seen(work, err)
        how = f"signal {signal.Signals(-code).name}" if code < 0 else f"exit {code}"
        raise ExecutionError(f"chapter {chapter.name!r} ({page}): the session died ({how})"
                             f"{where}" + _crash_report(err) + _output_block(output, "crash"),
                             kind="crash")
    text = read_inside(work, os.path.relpath(job.result, work))
    if text is None:
        raise ExecutionError(f"chapter {chapter.name!r} ({page}): the session's result "
                             f"({job.result.name}) is not a file it wrote (a link, or "
                             "replaced): not read", kind="crash")
    result = RunResult.from_json(json.loads(text))
    if result.error:
        raise failure(chapter, page, timeout, result.error)
    return result


def failure(chapter: Chapter, page: str, timeout: float, e: RunError) -> ExecutionError:
    """The error a session reported, as the author reads it, located at its line."""
    if e.kind == "timeout":
        text = (f"chapter {chapter.name!r} ({page}) timed out after {timeout:g} s while "
                f"running {e.where}; {TIMEOUT_HINT}")
    else:
        text = f"chapter {chapter.name!r} failed in {e.where}: {e.message}"
    if e.traceback:
        text += "\n" + e.traceback.rstrip()
    return ExecutionError(text + _output_block(e.output, e.kind),
                          where=PageError(e.path, e.line, e.message), kind=e.kind)


def _last_seen(work: Path, err: str) -> tuple[str, str]:
    """Which snippet (and line, from faulthandler's dump) a dead session was running,
    and what it had printed."""
    try:
        path = read_inside(work, "live/running")
        output = read_inside(work, "live/output")
        if path is None or output is None:
            raise OSError("not the session's own files")
    except OSError:
        return "", ""
    lines = re.findall(rf'File "{re.escape(path)}", line (\d+)', err)
    return f" while running {path}" + (f":{lines[0]}" if lines else ""), output


def _crash_report(err: str) -> str:
    """What the interpreter itself said, without faulthandler's thread dump."""
    dump = ("  File ", "Current thread", "Thread 0x", "Extension modules")
    said = [ln for ln in err.splitlines() if ln.strip() and not ln.startswith(dump)]
    return ("\n" + "\n".join(said[-20:])) if said else ""


def _output_block(output: str, kind: str) -> str:
    if not output.strip():
        return ""
    before = {"timeout": "the timeout", "crash": "the crash"}.get(kind, "the error")
    lines = output.rstrip().split("\n")
    shown = "\n".join(line[:300] for line in lines[-SHOWN_LINES:])
    if len(lines) > SHOWN_LINES:
        shown = f"[{len(lines) - SHOWN_LINES} earlier lines not shown]\n" + shown
    return f"\n--- output before {before} ---\n{shown}"
