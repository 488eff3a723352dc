"""Under `mkdocs serve`: a chapter session kept at a snippet boundary, resumed from there.

A save usually edits one snippet, and every snippet before it would compute the same
state again. So while serve runs a chapter, the session forks before each snippet; the
copy (a checkpoint) sleeps on a Unix socket named by a hash of everything that led to
its state (bookrun.store.key.step_keys). When the author saves snippet k, serve asks the
newest checkpoint whose key still holds to fork once more and run from k on. Fork
copies memory exactly (objects, random generators, figure numbers), so the outputs are
those of a fresh run; `python -m bookrun check` still runs chapters from the start.

Checkpoints belong to the serve process (`owner`): each ends within a second of it. In
the sandbox they live in the session's PID namespace (pids differ from the serve
process's), so the serve process never signals one by pid: it asks through the socket.
"""
from __future__ import annotations

import json
import os
import select
import signal
import socket
import sys
import time
from pathlib import Path

from bookrun.execute.worker import processes
from bookrun.execute.worker.protocol import Job, Reply, Request

POLL = 1.0  # seconds between checks that the serve process is still there
_exit = os._exit  # taken before the session guards os._exit (the worker imports us first)


def exit_now(code: int) -> None:
    """End this process at once (the session's own end; snippets' os._exit is guarded)."""
    _exit(code)


def keep(directory: Path, key: str, owner: int, resume, live: Path) -> None:
    """Fork a checkpoint of this session; the session itself returns at once, having
    noted the checkpoint's pid in `live` so that ending the session spares it.
    `resume(job)` runs a new Job in a copy of the checkpoint."""
    path = directory / f"{key}.sock"
    if path.exists():
        return  # this very state is kept already
    # Bound before the session goes on: the folder is never seen empty (and removed) by
    # the serve process once the session has ended.
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        server.bind(str(path))
    except OSError:  # another copy of the same state got there first, or (another
        server.close()  # chapter's last checkpoint was removing the folder) none kept
        return
    server.listen(1)
    sys.stdout.flush()
    sys.stderr.flush()
    child = os.fork()
    if child:
        server.close()
        processes.note_kept(live, child)
        return
    try:
        os.setsid()  # out of the session's process group, which is ended as one
        processes.become_reaper()  # a resumed copy's orphans stay ours, to be ended
        # Let go of the pipes the serve process reads the session's output from, or it
        # would wait for the checkpoint to end before it saw the session end.
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        _serve(server, path, owner, resume)
    finally:
        _exit(0)


def _serve(server, path: Path, owner: int, resume) -> None:
    server.settimeout(POLL)
    try:
        while processes.alive(owner):
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            with conn:
                conn.settimeout(None)
                request = Request.from_json(json.loads(conn.makefile("r").readline() or "{}"))
                if request.job is None:
                    break  # asked to end
                _resume(server, conn, request.job, owner, resume)
    finally:
        path.unlink(missing_ok=True)
        _remove_if_empty(path.parent)


def _resume(server, conn, job: Job, owner: int, resume) -> None:
    """Run `job` in a fresh copy of this checkpoint; reply its pid, then its exit code."""
    child = os.fork()
    if child == 0:
        server.close()
        conn.close()
        try:
            resume(job)
        finally:
            _exit(0)
    _reply(conn, Reply(pid=child))
    status = _wait(child, owner, conn)
    # What the copy started and left (it may have been killed at the limit), except the
    # sessions it kept in turn.
    processes.end_all(processes.descendants(os.getpid(), processes.kept(job.live)))
    processes.reap()
    _reply(conn, Reply(code=os.waitstatus_to_exitcode(status)))


def _wait(child: int, owner: int, conn) -> int:
    """The resumed copy's exit status; it is killed when serve shuts its end of the
    connection (its time limit), or if serve itself ends meanwhile."""
    while True:
        pid, status = os.waitpid(child, os.WNOHANG)
        if pid:
            return status
        if not processes.alive(owner) or (select.select([conn], [], [], 0.05)[0]
                                          and not received(conn)):
            os.kill(child, signal.SIGKILL)
            return os.waitpid(child, 0)[1]


def received(conn) -> bytes:
    """What came on the connection; b"" once the other end shut it (or reset it)."""
    try:
        return conn.recv(64)
    except OSError:
        return b""


def _remove_if_empty(chapter_dir: Path) -> None:
    """The last checkpoint of a chapter, and of the serve process, leaves no folder.

    A session in the sandbox can remove its chapter's folder but never the one above:
    that is a mount point where it runs. So whoever comes after it (release) must still
    try the folder above when the chapter's is gone already."""
    for folder in (chapter_dir, chapter_dir.parent):
        try:
            folder.rmdir()
        except FileNotFoundError:
            continue  # removed already, by a session that ended first
        except OSError:
            return  # not empty: other checkpoints still use it


def _reply(conn, message: Reply) -> None:
    try:
        conn.sendall(json.dumps(message.to_json()).encode() + b"\n")
    except OSError:
        pass  # serve gave up waiting (a timeout); the next request starts afresh


def request(path: Path, job: Job, timeout: float, grace: float) -> tuple[int, bool] | None:
    """Ask the checkpoint at `path` to run `job` from its snippet on.

    (exit code of the resumed copy, whether it was killed at the time limit), or None
    when there is no live checkpoint there (the caller then starts a fresh session)."""
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.settimeout(5)
        conn.connect(str(path))
        conn.sendall(json.dumps(Request(job).to_json()).encode() + b"\n")
        first, rest = read_line(conn, b"", time.monotonic() + 5)
        started = json.loads(first or b"{}")
    except (OSError, ValueError):
        conn.close()
        path.unlink(missing_ok=True)  # a checkpoint that died left its socket file
        return None
    try:
        pid = Reply.from_json(started).pid
    except ValueError:
        pid = None
    if pid is None:
        conn.close()
        return None
    killed = False
    line, _ = read_line(conn, rest, time.monotonic() + timeout + grace)
    if line is None:  # it never came back to Python to stop itself: the checkpoint kills it
        conn.shutdown(socket.SHUT_WR)
        killed = True
        line, _ = read_line(conn, b"", time.monotonic() + 30)
    conn.close()
    try:
        code = Reply.from_json(json.loads(line or b"{}")).code
        return (-9 if code is None else int(code)), killed
    except (ValueError, TypeError):
        return -9, killed


def read_line(conn, pending: bytes, deadline: float) -> tuple[bytes | None, bytes]:
    """One reply line and what came after it, read with a deadline (None past it). A
    socket file object that timed out once cannot be read again, so the socket is read
    directly; a closed connection gives what it sent ('' for nothing)."""
    data = pending
    while b"\n" not in data:
        left = deadline - time.monotonic()
        if left <= 0:
            return None, b""
        conn.settimeout(left)
        try:
            chunk = conn.recv(4096)
        except TimeoutError:
            return None, b""
        except OSError:
            return b"", b""
        if not chunk:
            return data, b""
        data += chunk
    line, rest = data.split(b"\n", 1)
    return line, rest


def release(directory: Path, keep_keys: set[str] | None = None) -> None:
    """End the checkpoints in `directory` whose keys are not in `keep_keys` (all if None)."""
    for path in directory.glob("*.sock") if directory.is_dir() else []:
        if keep_keys is not None and path.stem in keep_keys:
            continue
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            conn.settimeout(5)
            conn.connect(str(path))
            conn.sendall(json.dumps(Request().to_json()).encode() + b"\n")  # end
        except OSError:
            pass  # ended already
        finally:
            conn.close()
        path.unlink(missing_ok=True)
    _remove_if_empty(directory)
