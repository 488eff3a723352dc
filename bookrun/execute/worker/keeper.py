"""Under `mkdocs serve`, in the sandbox: pid 1 of the session's PID namespace.

A PID namespace ends (the kernel kills everything in it) when its pid 1 ends. bwrap's
own pid 1 reaps until nothing is left, but bwrap returns when the worker ends, and
under --die-with-parent its pid 1 dies with it; without that flag nothing would end
the namespace with serve (whose thread that started bwrap ends first, which is what
--die-with-parent watches). The sessions the worker keeps
(bookrun.execute.worker.checkpoint) must outlive it. So under serve bwrap runs this
keeper as pid 1 (`--as-pid-1`): it starts the worker exactly as a build does, reports
the worker's exit code to the serve process, ends what the worker left running but its
kept sessions, and then stays, reaping, until the last kept session has ended, or at
once when the serve process has.

    python -m bookrun.execute.worker.keeper CONTROL SERVE JOB.json

CONTROL is one end of a socket pair: the serve process reads `{"code": N}` on it, and
shuts its own end to have the worker killed (its time limit). SERVE is the read end of
a pipe that only the serve process can write to: its end means the serve process is gone.
"""
import json
import os
import select
import signal
import socket
import sys
from pathlib import Path

from bookrun.execute.worker import checkpoint, processes
from bookrun.execute.worker.protocol import Job

PID = 1  # the keeper, as the sessions inside the namespace see it (their `owner`)


def start_worker(job_path: str) -> int:
    """The worker, with the very command line of a build's."""
    child = os.fork()
    if child == 0:
        try:
            os.execv(sys.executable, [sys.executable, "-m", "bookrun.execute.worker", job_path])
        finally:
            os._exit(127)
    return child


def main(control_fd: int, serve_fd: int, job_path: str) -> None:
    for fd in (control_fd, serve_fd):
        os.set_inheritable(fd, False)  # the worker and the snippets do not get them
    control = socket.socket(fileno=control_fd)
    live = Job.from_json(json.loads(Path(job_path).read_text())).live
    wake_r, wake_w = os.pipe()  # a child's end wakes the select below
    os.set_blocking(wake_w, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(wake_w)
    worker = start_worker(job_path)
    while True:
        while True:  # collect every ended child; the worker's end is reported
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return  # nothing left in the namespace: the last kept session ended
            if pid == 0:
                break
            if pid == worker:
                worker = None
                # What the worker left running, except the sessions it kept.
                processes.end_all(processes.descendants(os.getpid(), processes.kept(live)))
                try:
                    control.sendall(json.dumps(
                        {"code": os.waitstatus_to_exitcode(status)}).encode() + b"\n")
                except OSError:
                    pass  # the serve process stopped waiting
                control.close()
        watched = [wake_r, serve_fd] + ([control] if worker else [])
        ready, _, _ = select.select(watched, [], [])
        if serve_fd in ready:
            return  # the serve process ended: so does everything here, with pid 1
        if worker and control in ready and not checkpoint.received(control):
            os.kill(worker, signal.SIGKILL)  # the serve process's time limit
        if wake_r in ready:
            os.read(wake_r, 512)


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3])
