"""The engine layer is in-process: a test here that starts a process (a worker, a build,
a browser) fails, naming the layer it belongs to."""
import _posixsubprocess
import os
import subprocess

import pytest


def _refuse(*args, **kwargs):
    raise AssertionError("tests/engine runs in-process: a test that starts a process belongs "
                         "in tests/execute (the worker) or tests/hosts (builds, browsers)")


@pytest.fixture(autouse=True)
def in_process(monkeypatch):
    # subprocess (its own name for it) and multiprocessing's spawn start a child through
    # fork_exec; the rest through os.
    monkeypatch.setattr(subprocess, "_fork_exec", _refuse)
    monkeypatch.setattr(_posixsubprocess, "fork_exec", _refuse)
    for name in ("fork", "forkpty", "posix_spawn", "posix_spawnp", "system"):
        if hasattr(os, name):
            monkeypatch.setattr(os, name, _refuse)
