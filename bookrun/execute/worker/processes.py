"""The processes a chapter session starts: found, named and ended, whatever they did.

A snippet may start child processes, and those may start their own or detach into a new
session (`start_new_session=True`). None of them may outlive the session: a leftover
server would hold the machine, and one still writing would make outputs differ between
builds. On Linux the session's worker makes itself a child subreaper, so an orphan is
re-parented to the worker instead of to init and stays in its tree; the tree is read
from /proc. Elsewhere only the worker's process group can be found and ended.

The worker also ends within a second of its parent's death: the kernel kills it
(PR_SET_PDEATHSIG) on Linux, and a watch thread notices the new parent elsewhere.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time
from pathlib import Path

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
PROC = Path("/proc")
WATCH_EVERY = 0.25  # seconds between two looks at the parent, where the kernel cannot


def _prctl(option: int, value: int) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return libc.prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def become_reaper() -> bool:
    """Orphans of this process's descendants become its children (Linux only).
    Not inherited across fork: a forked copy that runs snippets calls it again."""
    return _prctl(PR_SET_CHILD_SUBREAPER, 1)


def die_with_parent(parent: int) -> None:
    """End this process when `parent` ends, even while it runs C code."""
    if _prctl(PR_SET_PDEATHSIG, signal.SIGKILL) and os.getppid() == parent:
        return
    if os.getppid() != parent:  # the parent died before the kernel was told
        os._exit(1)

    def watch():
        while os.getppid() == parent:
            time.sleep(WATCH_EVERY)
        os.killpg(0, signal.SIGKILL) if os.getpgrp() == os.getpid() else os.kill(
            os.getpid(), signal.SIGKILL)

    threading.Thread(target=watch, name="bookrun-parent-watch", daemon=True).start()


def _table() -> dict[int, tuple[int, str]]:
    """{pid: (parent pid, state)} of every process, from /proc ({} without /proc)."""
    table = {}
    for entry in PROC.iterdir() if PROC.is_dir() else []:
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # ended while we looked
        # The command name, in parentheses, may itself hold spaces and parentheses.
        fields = stat[stat.rfind(")") + 2:].split()
        table[int(entry.name)] = (int(fields[1]), fields[0])
    return table


def descendants(root: int, spare: set[int] = frozenset()) -> list[int]:
    """Living descendants of `root`, parents before children, without the processes in
    `spare` and theirs (serve's kept sessions). Zombies are left out: they run nothing."""
    table = _table()
    children: dict[int, list[int]] = {}
    for pid, (ppid, _) in table.items():
        children.setdefault(ppid, []).append(pid)
    found, todo = [], list(children.get(root, []))
    while todo:
        pid = todo.pop(0)
        if pid in spare:
            continue
        if table[pid][1] != "Z":
            found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def marked(word: str) -> list[int]:
    """Processes whose environment holds `word` (`NAME=value`): a session's processes
    carry their session's marker, even after their worker and its tree are gone."""
    needle = word.encode() + b"\0"
    found = []
    for entry in PROC.iterdir() if PROC.is_dir() else []:
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if needle in (entry / "environ").read_bytes() + b"\0":
                found.append(int(entry.name))
        except OSError:
            continue  # ended, or not ours to read
    return found


def command_line(pid: int, settle: float = 0.0) -> str:
    """What the process runs, as a person would type it (short), or '' once it ended.

    A process caught mid-exec shows no arguments yet: the kernel fills them in only after
    loading the new program, a window that a busy machine widens to many milliseconds.
    With `settle`, it is read again for up to that many seconds, then named by its
    program name (/proc/PID/comm) if the arguments still are not there.
    """
    deadline = time.monotonic() + settle
    while True:
        try:
            words = (PROC / str(pid) / "cmdline").read_bytes().split(b"\0")
        except OSError:
            return ""
        text = " ".join(w.decode(errors="replace") for w in words if w)
        if text or time.monotonic() >= deadline:
            break
        time.sleep(0.01)
    if not text and settle:
        try:
            text = (PROC / str(pid) / "comm").read_text().strip()
        except OSError:
            return ""
    return text if len(text) <= 80 else text[:77] + "..."


def end_all(pids) -> None:
    """Kill each process (stopped first, so none starts another while we go)."""
    for sig in (signal.SIGSTOP, signal.SIGKILL):
        for pid in pids:
            try:
                os.kill(pid, sig)
            except OSError:
                pass  # already gone


def reap() -> None:
    """Collect ended children, so that a reaper is not left holding zombies."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def end_group(leader: int, spare: set[int] = frozenset()) -> None:
    """End a process started with its own process group, everything it started (found
    on Linux even when detached), but not the processes in `spare` nor theirs."""
    found = descendants(leader, spare)
    try:
        os.killpg(leader, signal.SIGKILL)
    except OSError:
        pass  # the group is empty already
    end_all(found)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's: alive
    return True


KEPT = "kept.pids"  # in a session's live folder: serve's kept sessions, never ended


def note_kept(live: Path, pid: int) -> None:
    """Written by the session the moment it forks a kept session, before it goes on, so
    that whoever ends the session's leftovers (its parent, itself) spares that one."""
    with (live / KEPT).open("a") as f:
        f.write(f"{pid}\n")


def kept(live: Path) -> set[int]:
    try:
        return {int(w) for w in (live / KEPT).read_text().split()}
    except (OSError, ValueError):
        return set()
