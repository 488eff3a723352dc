"""Where a chapter's worker runs: inside bubblewrap, or, only when the book says so, as is.

Inside the sandbox (Linux, `bwrap` on the PATH, able to create namespaces) the worker
sees only what it needs, each part bound read-only: the system's programs and libraries
(`/usr`), a few files of `/etc` (the loader's cache, the time zone), the CPU's
description under `/sys` (a BLAS reads its caches there), the interpreter and every
folder it imports from, and the book. Nothing else of the machine exists there: no
home folder, no `/run` (so no host socket), no other project, no `/etc/shadow`. `/dev`
is a minimal one of its own; `/tmp`, `/var/tmp` and `/dev/shm` are fresh tmpfs mounts of
`disk_mb` each; its scratch folder is the one writable path. It has a network namespace
with only loopback (so `curl` in a child process and raw sockets fail, not just Python's
`socket`), its own IPC namespace, and a PID namespace, so that no process of the machine
can be seen: in a build, when the worker ends, every process it started ends with it,
detached ones included. Under `mkdocs serve` the kept sessions
(bookrun.execute.worker.checkpoint) must outlive the worker: there pid 1 is a keeper
(bookrun.execute.worker.keeper), which ends the worker's leftovers but those, and stays
until they or the serve process end.

No capability, as root as for a user. Run by an ordinary user, bwrap puts the session
in a user namespace of its own and drops every capability. Run by root (CI, most
containers), bwrap builds the namespaces with root's rights, then util-linux's
`setpriv` makes the session an unprivileged user of its own (SANDBOX_UID_BASE and up:
no file of the machine is its own, and RLIMIT_NPROC, which the kernel never applies to
root, holds) with an empty bounding set and no_new_privs, before the interpreter starts.
Either way a seccomp filter (libseccomp, through pyseccomp) refuses every `connect`
(a Unix socket in a bound folder would otherwise answer; loopback has nothing to reach),
Unix datagram sockets (which send to a path without connecting) and new user
namespaces. Mounts are the sandbox's own and cannot be undone without a capability.

The sandbox fails closed: where it cannot start, running a chapter is refused with the
reason and the fix, unless the book turns it off on purpose (`sandbox: off` in
mkdocs.yml, or BOOKRUN_SANDBOX=off), which the build then says on every run. Unconfined,
only the worker's Python-level guards hold (no `socket` connection off the machine,
`os._exit` refused); the memory, process and file-size limits are set by the worker
itself, so they hold in both cases.
"""
from __future__ import annotations

import errno
import functools
import os
import shutil
import socket
import subprocess
import sys
import zlib
from pathlib import Path

from bookrun.model.page import ExecutionError

PROBE_SECONDS = 10
OFF = "off"  # `sandbox: off` in mkdocs.yml, or BOOKRUN_SANDBOX=off: unconfined on purpose
DEFAULT_DISK_MB = 512  # each private tmpfs of a session (BookConfig.disk_mb)
PRIVATE = ("/tmp", "/var/tmp", "/dev/shm")  # fresh, size-limited, private to the session
BUILD_PID = ("--unshare-pid", "--die-with-parent")  # pid 1 is bwrap's, ending with the worker
SERVE_PID = ("--unshare-pid", "--as-pid-1")  # pid 1 is the keeper, ending with serve
NAMESPACES = ("--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try")
# What of the machine a session sees, read-only, besides the interpreter and the book.
SYSTEM = ("/usr",)
TOP_LINKS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")  # /bin -> usr/bin and so on
ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "timezone",
       "nsswitch.conf", "alternatives", "fonts", "os-release", "mime.types")
SYS = ("/sys/devices/system/cpu", "/sys/devices/system/node")
# Under root, each session is a user of its own from here up: a number no account has,
# so it owns no file of the machine, and its process limit counts only its processes.
SANDBOX_UID_BASE = 1_000_000_000
SANDBOX_UID_SPAN = 1_000_000
# Processes and threads a session may have at once (RLIMIT_NPROC, set by util-linux's
# prlimit inside the sandbox, where it counts only the session's own): a fork bomb stops
# there with EAGAIN at the snippet's line. A chapter's session needs a few dozen.
MAX_PROCESSES = 512
FIX = ("install bubblewrap (Debian and Ubuntu: apt-get install bubblewrap) and allow "
       "unprivileged user namespaces (Ubuntu 24.04: sysctl "
       "kernel.apparmor_restrict_unprivileged_userns=0, or an AppArmor profile for bwrap); "
       "or run snippets unconfined on purpose with `sandbox: off` under bookrun.extension "
       "in mkdocs.yml, or BOOKRUN_SANDBOX=off")


class Command(list):
    """The words to put before the worker's command line, and the descriptors bwrap
    reads at its start (the seccomp filter, the generated /etc files), which the
    process that runs them must inherit (`pass_fds`) and the caller then closes."""

    def __init__(self, words=(), fds=()):
        super().__init__(words)
        self.fds = tuple(fds)

    def close(self) -> None:
        for fd in self.fds:
            os.close(fd)
        self.fds = ()


def as_root() -> bool:
    return os.geteuid() == 0


@functools.lru_cache(maxsize=None)
def seccomp_filter() -> bytes:
    """The filter as BPF: refuse `connect`, Unix datagram sockets and new user
    namespaces (clone3 reports ENOSYS, so the C library falls back to clone, whose flags
    the filter can read)."""
    import pyseccomp as seccomp  # host side only: libseccomp compiles the filter

    refuse = seccomp.ERRNO(errno.EACCES)
    f = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    f.add_rule(refuse, "connect")
    f.add_rule(refuse, "socket", seccomp.Arg(0, seccomp.EQ, socket.AF_UNIX),
               seccomp.Arg(1, seccomp.MASKED_EQ, 0xF, socket.SOCK_DGRAM))
    f.add_rule(refuse, "socketpair", seccomp.Arg(0, seccomp.EQ, socket.AF_UNIX),
               seccomp.Arg(1, seccomp.MASKED_EQ, 0xF, socket.SOCK_DGRAM))
    newuser = 0x10000000  # CLONE_NEWUSER
    f.add_rule(seccomp.ERRNO(errno.EPERM), "unshare",
               seccomp.Arg(0, seccomp.MASKED_EQ, newuser, newuser))
    f.add_rule(seccomp.ERRNO(errno.EPERM), "clone",
               seccomp.Arg(0, seccomp.MASKED_EQ, newuser, newuser))
    f.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    r, w = os.pipe()
    try:
        with os.fdopen(w, "wb") as out:
            f.export_bpf(out)
        with os.fdopen(r, "rb") as inp:
            r = -1
            return inp.read()
    finally:
        if r != -1:
            os.close(r)


def _memfd(name: str, data: bytes) -> int:
    fd = os.memfd_create(name, 0)  # not inheritable until pass_fds makes it so
    os.write(fd, data)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


@functools.lru_cache(maxsize=None)
def probe() -> tuple[str | None, str]:
    """(the bwrap program, "") if it is there and works here (it needs namespaces, which
    a container may forbid, and libseccomp); (None, why not) otherwise. Asked once per
    process, with the very confinement a session gets."""
    if not sys.platform.startswith("linux"):
        return None, f"bubblewrap runs on Linux only, not on {sys.platform}"
    program = shutil.which("bwrap")
    if program is None:
        return None, "bubblewrap (bwrap) is not on the PATH"
    for tool, why in (("setpriv", "it drops root's rights"), ("prlimit", "it caps processes")):
        if (tool == "prlimit" or as_root()) and shutil.which(tool) is None:
            return None, f"util-linux's {tool} is not on the PATH ({why})"
    try:
        seccomp_filter()
    except Exception as exc:  # noqa: BLE001 - pyseccomp missing, or libseccomp
        return None, f"the seccomp filter cannot be built ({type(exc).__name__}: {exc}); " \
                     "pip install pyseccomp, and libseccomp2 from the system"
    words = _confine(program, Path("/"), [], keep_sessions=False, disk_mb=1,
                     uid=session_uid("probe") if as_root() else None)
    try:
        done = subprocess.run([*words, "--", *words.tail, "true"], pass_fds=words.fds,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=PROBE_SECONDS)
    except (OSError, subprocess.SubprocessError) as exc:
        return None, f"{program} could not be run: {exc}"
    finally:
        words.close()
    if done.returncode != 0:
        said = (done.stderr or "").strip().splitlines()
        return None, f"{program} cannot create its namespaces here: " + (
            said[-1] if said else f"exit {done.returncode}")
    return program, ""


def bubblewrap() -> str | None:
    """The bwrap program, if it works here; None otherwise."""
    return probe()[0]


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
                "unconfined, as you, with Python-level guards only (network via `socket`, "
                "os._exit): they can read every file you can, your whole environment "
                "through /proc/<parent pid>/environ, and reach your sockets")
    who = "an unprivileged user of its own" if as_root() else "you, without capabilities"
    return ("bookrun: snippets run in a bubblewrap sandbox as " + who + " (the interpreter "
            "and the book read-only, nothing else of the machine; their scratch and "
            "private /tmp the only writable paths; no network, no socket connection, "
            "every process ended with the session)")


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


def session_uid(name: str) -> int:
    """Under root, the user a chapter's sessions run as: one of its own per chapter and
    build process, so that parallel chapters have a process limit each."""
    key = zlib.crc32(f"{os.getpid()}\0{name}".encode())
    return SANDBOX_UID_BASE + key % SANDBOX_UID_SPAN


def hand_over(paths, uid: int | None) -> None:
    """Make the session's writable folders its own (under root, where it runs as `uid`):
    each folder and what the host put in it beforehand."""
    if uid is None:
        return
    for top in paths:
        top = Path(top)
        os.chown(top, uid, uid, follow_symlinks=False)
        for folder, dirs, files in os.walk(top):
            for name in dirs + files:
                os.chown(os.path.join(folder, name), uid, uid, follow_symlinks=False)


def _dirs_above(path: Path, made: set[str]) -> list[str]:
    """`--dir` for each folder above `path` not made yet, traversable by the session
    (bwrap would copy a host folder's mode, and root's home is 0700)."""
    words = []
    for parent in reversed(path.parents):
        p = str(parent)
        if p != "/" and p not in made:
            made.add(p)
            words += ["--perms", "0755", "--dir", p]
    return words


def _readable_by_others(folders) -> None:
    """Under root the session is another user: a bound folder it cannot enter (a book
    kept in a 0700 folder) would fail later with a bare 'Permission denied'."""
    for folder in folders:
        mode = os.stat(folder).st_mode
        if mode & 0o005 != 0o005:
            raise ExecutionError(
                f"bookrun: {folder} is not readable by other users (mode "
                f"{mode & 0o777:04o}), and under root the sandbox runs snippets as an "
                f"unprivileged user of their own: `chmod o+rx {folder}` (its files need "
                "o+r too), or build as an ordinary user")


def _confine(program: str, root: Path, writable: list[Path], keep_sessions: bool,
             disk_mb: int, uid: int | None) -> Command:
    """bwrap's words for a session (before its `--`), `tail` the words after it that
    drop root's rights (empty for a user)."""
    # A user's bwrap makes a user namespace and drops every capability; root's keeps
    # them until setpriv (below) gives them up with root, since a uid outside a user
    # namespace's map cannot be taken in it (new namespaces are refused by the filter).
    words = [program, *NAMESPACES]
    if uid is None:
        words += ["--unshare-user", "--disable-userns", "--cap-drop", "ALL"]
    for top in SYSTEM:
        words += ["--ro-bind", top, top]
    for name in TOP_LINKS:
        link = Path("/") / name
        if link.is_symlink():
            words += ["--symlink", os.readlink(link), str(link)]
        elif link.is_dir():
            words += ["--ro-bind", str(link), str(link)]
    for name in ETC:
        if os.path.exists(f"/etc/{name}"):
            words += ["--ro-bind", f"/etc/{name}", f"/etc/{name}"]
    for path in SYS:
        if os.path.isdir(path):
            words += ["--ro-bind", path, path]
    words += ["--dev", "/dev", "--proc", "/proc"]
    size = str(int(disk_mb) * 2**20)
    for folder in PRIVATE:
        words += ["--perms", "1777", "--size", size, "--tmpfs", folder]  # as /tmp is
    fds = [_memfd("bookrun-seccomp", seccomp_filter())]
    words += ["--seccomp", str(fds[0])]
    inside = os.getuid() if uid is None else uid
    for name, text in (("passwd", f"root:x:0:0::/:/usr/sbin/nologin\nbookrun:x:{inside}:"
                                  f"{inside}::/nonexistent:/usr/sbin/nologin\n"),
                       ("group", f"root:x:0:\nbookrun:x:{inside}:\n"),
                       ("hosts", "127.0.0.1 localhost\n::1 localhost\n")):
        fds.append(_memfd(f"bookrun-{name}", text.encode()))
        words += ["--ro-bind-data", str(fds[-1]), f"/etc/{name}"]
    # The interpreter, its imports and the book, read-only; the scratch writable on top.
    needed = [p for p in {root, *interpreter_paths()}
              if p.exists() and not any(_under(p, Path(s)) for s in SYSTEM)]
    outer = sorted(p for p in needed if not any(_under(p, o) for o in needed if o != p))
    made = set(PRIVATE) | {"/usr", "/etc", "/sys", "/dev", "/proc"}
    if uid is not None:
        _readable_by_others(outer)
    for path in outer:
        words += _dirs_above(path, made) + ["--ro-bind", str(path), str(path)]
    for path in writable:
        words += _dirs_above(path, made) + ["--bind", str(path), str(path)]
    words += SERVE_PID if keep_sessions else BUILD_PID
    command = Command(words, fds)
    command.tail = [] if uid is None else [
        shutil.which("setpriv") or "setpriv", f"--reuid={uid}", f"--regid={uid}",
        "--clear-groups", "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
    command.tail += [shutil.which("prlimit") or "prlimit", f"--nproc={MAX_PROCESSES}", "--"]
    return command


def command(root: Path, writable: list[Path], keep_sessions: bool, mode: str = "",
            disk_mb: int = DEFAULT_DISK_MB, uid: int | None = None) -> Command:
    """The words to put before the worker's own command line (empty when the sandbox was
    turned off; ExecutionError when it cannot start). Under root, `uid` is the user the
    session becomes (session_uid); its writable folders must be handed over to it."""
    if requested_off(mode):
        return Command()
    require(mode)
    if as_root() and uid is None:
        uid = session_uid(str(root))
    confined = _confine(bubblewrap(), Path(root), [Path(p) for p in writable],
                        keep_sessions, disk_mb, uid if as_root() else None)
    return Command([*confined, "--", *confined.tail], confined.fds)
