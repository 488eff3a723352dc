"""Where a chapter's worker runs: inside bubblewrap, or, only when the book says so, as is.

Inside the sandbox (Linux, `bwrap` on the PATH, able to create namespaces) the worker
sees the system read-only: every path, the book included, except the session's own
scratch folder (and serve's folder of kept sessions). `/tmp`, `/var/tmp`, `/dev/shm` and
the home folder are fresh size-limited tmpfs mounts (`disk_mb` each), so a snippet can
neither read `~/.bashrc` nor fill the disk; what the interpreter needs from under the
home folder (a virtualenv, pyenv) is bound back read-only. It has a network namespace
of its own with only loopback (so `curl` in a child process and raw sockets fail, not
just Python's `socket`), and a PID namespace, so that no process of the machine can be
seen: in a build, when the worker ends, every process it started ends with it, detached
ones included. Under `mkdocs serve` the kept sessions (bookrun.execute.worker.checkpoint)
must outlive the worker: there pid 1 is a keeper (bookrun.execute.worker.keeper), which
ends the worker's leftovers but those, and stays until they or the serve process end.

The sandbox fails closed: where it cannot start, running a chapter is refused with the
reason and the fix, unless the book turns it off on purpose (`sandbox: off` in
mkdocs.yml, or BOOKRUN_SANDBOX=off), which the build then says on every run. Unconfined,
only the worker's Python-level guards hold (no `socket` connection off the machine,
`os._exit` refused); the memory and file-size limits are set by the worker itself, so
they hold in both cases.
"""
from __future__ import annotations

import functools
import shutil
import subprocess
import sys
from pathlib import Path

from bookrun.model.page import ExecutionError

PROBE_SECONDS = 10
OFF = "off"  # `sandbox: off` in mkdocs.yml, or BOOKRUN_SANDBOX=off: unconfined on purpose
DEFAULT_DISK_MB = 512  # each private tmpfs of a session (BookConfig.disk_mb)
# Fresh, size-limited and private to the session; the home folder is added when known.
PRIVATE = ("/tmp", "/var/tmp", "/dev/shm")
BUILD_PID = ("--unshare-pid", "--die-with-parent")  # pid 1 is bwrap's, ending with the worker
SERVE_PID = ("--unshare-pid", "--as-pid-1")  # pid 1 is the keeper, ending with serve
FIX = ("install bubblewrap (Debian and Ubuntu: apt-get install bubblewrap) and allow "
       "unprivileged user namespaces (Ubuntu 24.04: sysctl "
       "kernel.apparmor_restrict_unprivileged_userns=0, or an AppArmor profile for bwrap); "
       "or run snippets unconfined on purpose with `sandbox: off` under bookrun.extension "
       "in mkdocs.yml, or BOOKRUN_SANDBOX=off")


@functools.lru_cache(maxsize=None)
def probe() -> tuple[str | None, str]:
    """(the bwrap program, "") if it is there and works here (it needs namespaces, which
    a container may forbid); (None, why not) otherwise. Asked once per process."""
    if not sys.platform.startswith("linux"):
        return None, f"bubblewrap runs on Linux only, not on {sys.platform}"
    program = shutil.which("bwrap")
    if program is None:
        return None, "bubblewrap (bwrap) is not on the PATH"
    try:
        done = subprocess.run([program, *_base_args(), *BUILD_PID, "--", "true"],
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=PROBE_SECONDS)
    except (OSError, subprocess.SubprocessError) as exc:
        return None, f"{program} could not be run: {exc}"
    if done.returncode != 0:
        said = (done.stderr or "").strip().splitlines()
        return None, f"{program} cannot create its namespaces here: " + (
            said[-1] if said else f"exit {done.returncode}")
    return program, ""


def bubblewrap() -> str | None:
    """The bwrap program, if it works here; None otherwise."""
    return probe()[0]


def _base_args() -> list[str]:
    # The host's devices stay (a GPU), /proc is remounted so that, in a PID namespace, it
    # shows the sandbox's processes, and every other path is read-only.
    return ["--ro-bind", "/", "/", "--dev-bind", "/dev", "/dev", "--proc", "/proc",
            "--unshare-net"]


def requested_off(mode: str = "") -> bool:
    """Whether the book turned the sandbox off (BookConfig.sandbox, where BOOKRUN_SANDBOX
    was applied)."""
    return mode.strip().lower() == OFF


def require(mode: str = "") -> None:
    """Refuse to run any snippet when the sandbox cannot start and was not turned off."""
    if requested_off(mode):
        return
    program, why = probe()
    if program is None:
        raise ExecutionError(f"bookrun: the sandbox cannot start ({why}), so no snippet "
                             f"runs. To fix it, {FIX}.")


def describe(mode: str = "") -> str:
    """One line on the protection in force, for the author's terminal."""
    if requested_off(mode):
        return ("bookrun: SANDBOX OFF (sandbox: off or BOOKRUN_SANDBOX=off): snippets run "
                "unconfined, with Python-level guards only (network via `socket`, os._exit)")
    return ("bookrun: snippets run in a bubblewrap sandbox (the whole filesystem read-only "
            "but their scratch, private /tmp and home, no network, every process ended "
            "with the session)")


_told = False


def tell_once(log, mode: str = "") -> None:
    global _told
    if not _told:
        _told = True
        log(describe(mode))


ENGINE_HOME = Path(__file__).resolve().parents[2]  # the folder holding the bookrun package


def _under(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def interpreter_paths() -> list[Path]:
    """What the worker's interpreter reads: its prefixes and every import folder."""
    found = {Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).resolve().parent}
    # The folder bookrun itself is imported from: an editable install reaches it through
    # an import hook, not sys.path, and a checkout under /tmp would be hidden without it.
    found.add(ENGINE_HOME)
    found |= {Path(p) for p in sys.path if p and Path(p).is_absolute() and Path(p).exists()}
    return sorted(found)


def command(root: Path, writable: list[Path], keep_sessions: bool, mode: str = "",
            disk_mb: int = DEFAULT_DISK_MB, home: Path | None = None) -> list[str]:
    """The words to put before the worker's own command line ([] when the sandbox was
    turned off; ExecutionError when it cannot start)."""
    if requested_off(mode):
        return []
    require(mode)
    size = str(int(disk_mb) * 2**20)
    words = [bubblewrap(), *_base_args()]
    private = list(PRIVATE)
    home = home or Path.home()
    if str(home) not in ("/", ""):
        private.append(str(home))
    for folder in private:
        words += ["--size", size, "--tmpfs", folder]
    # Under a private folder (a virtualenv in the home folder, pyenv, the book itself),
    # what the session needs is bound back read-only, then its scratch writable on top.
    hidden = [Path(f) for f in private]
    needed = [p for p in [root, *interpreter_paths()] if any(_under(p, f) for f in hidden)]
    for path in sorted(set(needed)):
        if not any(_under(path, other) for other in needed if other != path):
            words += ["--ro-bind", str(path), str(path)]
    for path in writable:
        words += ["--bind", str(path), str(path)]
    # Its own PID namespace. In a build it ends with the worker (bwrap's pid 1 ends when
    # the worker does, and it and the worker die with the build). Under serve the keeper
    # is pid 1 (bookrun.execute.worker.keeper), which ends when the serve process does: a
    # session's parent is a thread of serve's that ends before its kept sessions.
    words += SERVE_PID if keep_sessions else BUILD_PID
    return words + ["--"]
