"""Run one chapter's snippets in a fresh worker process, with a time limit."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .page import Chapter

DEFAULT_TIMEOUT = 300.0
# Same bytes on every run: fixed hash seed, no dates in SVGs, one BLAS/torch thread
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


class ExecutionError(Exception):
    """A snippet raised, or the chapter ran out of time."""


@dataclass
class Executed:
    steps: list[dict]  # {"path", "output", "figures": [file names], "values"}
    figdir: Path  # where the figures were written (a fresh temporary folder)
    workdir: Path  # the session's scratch folder, removed once the run is recorded
    platform: dict  # worker.platform_fingerprint() of the session


def execute(chapter: Chapter, root: Path, snippets_root: Path, scratch: Path,
            timeout: float = DEFAULT_TIMEOUT) -> Executed:
    scratch.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(dir=scratch, prefix=f"{chapter.name}-"))
    figdir = work / "figures"
    rel = os.path.relpath(snippets_root, root)
    job = {
        "page": os.path.relpath(chapter.page, root),
        "cwd": str(root),
        "figdir": str(figdir),
        "steps": [{
            "path": f"{rel}/{s.snippet}",
            "bindings": [[b.body, b.expr, b.spec] for b in s.bindings],
            "binding_lines": {b.body: b.line for b in s.bindings},
        } for s in chapter.steps],
    }
    try:
        result = _run_worker(chapter, root, work, job, timeout)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)  # a failed run leaves no scratch behind
        raise
    return Executed(result["steps"], figdir, work, result["platform"])


def _run_worker(chapter: Chapter, root: Path, work: Path, job: dict, timeout: float) -> dict:
    (work / "job.json").write_text(json.dumps(job))
    env = dict(os.environ, **WORKER_ENV)
    proc = subprocess.Popen(
        [sys.executable, "-m", "bookrun.worker", str(work / "job.json"), str(work / "result.json")],
        cwd=root, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
        started = [ln.split(" ", 2)[2] for ln in err.splitlines() if ln.startswith("bookrun: start ")]
        where = f" while running {started[-1]}" if started else ""
        raise ExecutionError(f"chapter {chapter.name!r} ({chapter.page}) timed out after "
                             f"{timeout:g} s{where}") from None
    result_file = work / "result.json"
    if proc.returncode != 0 or not result_file.exists():
        raise ExecutionError(f"chapter {chapter.name!r} ({chapter.page}): the session died "
                             f"(exit {proc.returncode})\n{err[-3000:]}")
    result = json.loads(result_file.read_text())
    if result["error"]:
        e = result["error"]
        where = f"{e['path']}:{e['line']}" if e["line"] else e["path"]
        text = f"{where}: {e['message']}"
        if e["traceback"]:
            text += "\n" + e["traceback"].rstrip()
        if e["output"].strip():
            text += "\n--- output before the error ---\n" + e["output"].rstrip()[-2000:]
        raise ExecutionError(f"chapter {chapter.name!r} failed in {text}")
    return result
