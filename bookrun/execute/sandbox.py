"""Where a chapter's worker runs: inside bubblewrap when the system has it, else as is.

Inside the sandbox (Linux, with `bwrap` on the PATH and able to create namespaces) the
worker sees the whole system, with the book's folder read-only except the session's own
scratch folder (and serve's folder of kept sessions), a network namespace of its own
with only loopback (so `curl` in a child process and raw sockets fail, not just
Python's `socket`), and, in a build, a PID namespace: when the worker ends, every process
it started ends with it, detached ones included. Under `mkdocs serve` the kept sessions
(bookrun.execute.worker.checkpoint) must outlive the worker, so there is no PID namespace; the worker
then ends its own leftovers (bookrun.execute.worker.processes).

Without bwrap the worker runs unconfined, and only its Python-level guards hold (no
`socket` connection off the machine, `os._exit` refused). The memory limit
(`memory_gb`) is set by the worker itself, so it holds in both cases. Which protection is
in force is printed once per process.
"""
from __future__ import annotations

import functools
import shutil
import subprocess
import sys
from pathlib import Path

PROBE_SECONDS = 10


@functools.lru_cache(maxsize=None)
def bubblewrap() -> str | None:
    """The bwrap program, if it is there and works here (it needs namespaces, which a
    container may forbid); None otherwise. Asked once per process."""
    if not sys.platform.startswith("linux"):
        return None
    program = shutil.which("bwrap")
    if program is None:
        return None
    try:
        done = subprocess.run([program, *_base_args(), "--unshare-pid", "--", "true"],
                              stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=PROBE_SECONDS)
    except (OSError, subprocess.SubprocessError):
        return None
    return program if done.returncode == 0 else None


def _base_args() -> list[str]:
    # The host's devices stay (a GPU, /dev/shm for multiprocessing); /proc is remounted
    # so that, in a PID namespace, it shows the sandbox's processes.
    return ["--bind", "/", "/", "--dev-bind", "/dev", "/dev", "--proc", "/proc",
            "--unshare-net", "--die-with-parent"]


def describe() -> str:
    """One line on the protection in force, for the author's terminal."""
    if bubblewrap():
        return ("bookrun: snippets run in a bubblewrap sandbox (book folder read-only, no "
                "network, every process ended with the session)")
    return ("bookrun: no sandbox (bubblewrap missing or not permitted here): snippets run "
            "unconfined, with Python-level guards only (network via `socket`, os._exit)")


_told = False


def tell_once(log) -> None:
    global _told
    if not _told:
        _told = True
        log(describe())


def command(root: Path, writable: list[Path], keep_sessions: bool) -> list[str]:
    """The words to put before the worker's own command line ([] without a sandbox)."""
    program = bubblewrap()
    if program is None:
        return []
    words = [program, *_base_args(), "--ro-bind", str(root), str(root)]
    for path in writable:  # mounted after the read-only book, so they stay writable
        words += ["--bind", str(path), str(path)]
    if not keep_sessions:
        words.append("--unshare-pid")
    return words + ["--"]
