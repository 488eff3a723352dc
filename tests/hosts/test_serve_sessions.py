"""The kept sessions' folders a killed `mkdocs serve` leaves behind (issue 33, item 7)."""
import os
import subprocess
import sys

from bookrun.hosts.serve import SESSIONS_PREFIX, remove_orphaned_sessions


def test_the_next_serve_removes_only_the_folders_of_serve_processes_that_are_gone(tmp_path):
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()  # its pid now names no process
    orphan = tmp_path / f"{SESSIONS_PREFIX}{ended.pid}"
    (orphan / "demo").mkdir(parents=True)
    (orphan / "demo" / "a.sock").write_text("")
    alive = tmp_path / f"{SESSIONS_PREFIX}{os.getpid()}"  # a serve still running
    (alive / "demo").mkdir(parents=True)
    other = tmp_path / "bookrun-serve-notes"  # not a pid: someone else's name
    other.mkdir()
    kept = tmp_path / "kept"
    (kept / "demo").mkdir(parents=True)
    link = tmp_path / f"{SESSIONS_PREFIX}{2**22 + 1}"  # above Linux's highest pid: none
    link.symlink_to(kept)  # a link is not a serve's folder: neither it nor its target goes
    assert remove_orphaned_sessions(tmp_path) == [orphan]
    assert not orphan.exists() and (alive / "demo").is_dir() and other.is_dir()
    assert link.is_symlink() and (kept / "demo").is_dir()
