"""The wire between parent and worker, in process: a job and a result survive JSON
unchanged, and a malformed message is refused with the missing field named."""
import json
from pathlib import Path

import pytest

from bookrun.errors import BookrunError, ExecutionError, PageError
from bookrun.execute import session
from bookrun.execute.worker.protocol import (BindingJob, ControlSpec, FigureSpec, FramesEntry,
                                             Job, Limits, Reply, Request, RunError, RunResult,
                                             SnippetError, StepJob, StepResult)
from bookrun.model.page import Binding, Chapter, Step


def a_job(tmp_path: Path, kept: bool) -> Job:
    limits = Limits("bandits/greedy.py", 200, 20_000, 4, 500_000, 20_000_000)
    wave = FigureSpec(0, "wave", 12, "docs/bandits.md", 40_000, (
        ControlSpec("freq", (1.0, 1.5, 2.0), ("1.0", "1.5", "2.0"), "frequency", 13),
        ControlSpec("label", ("plain", "wide"), ("plain", "wide"), "label", 14)))
    steps = (StepJob("snippets/bandits/greedy.py", limits,
                     (BindingJob("best | .3f", "best", ".3f", 9),), (wave,),
                     "ab" * 12 if kept else None),
             StepJob("snippets/bandits/plot.py", limits))
    extra = {"checkpoints": tmp_path / "kept" / "bandits", "owner": 4242} if kept else {}
    return Job("docs/bandits.md", tmp_path, tmp_path / "figures", tmp_path / "live",
               tmp_path / "result.json", 300.0, 4.0, steps,
               {"numpy": {"numpy_simd": "numpy.__version__"}}, 1234.5, **extra)


def a_result() -> RunResult:
    frames = FramesEntry("greedy-1.frames.json", "f" * 64, "greedy-1.svg", (0, 1), "freq 1.0")
    steps = (StepResult("snippets/bandits/greedy.py", "best arm 3\n", ("greedy-1.svg",),
                        {"best | .3f": "0.812"}, (frames,)),
             StepResult("snippets/bandits/plot.py", "", (), {}))
    return RunResult(steps, None, {"machine": "x86_64", "numpy_simd": "2.1.0"})


def through_json(x):
    """As the wire carries it: to text and back."""
    return type(x).from_json(json.loads(json.dumps(x.to_json())))


@pytest.mark.parametrize("kept", [False, True])
def test_a_job_survives_the_wire(tmp_path, kept):
    job = a_job(tmp_path, kept)
    assert through_json(job) == job
    assert through_json(Request(job)) == Request(job)
    assert Request.from_json({}).job is None  # the request to end a kept session


def test_a_result_and_an_error_survive_the_wire():
    result = a_result()
    assert through_json(result) == result
    assert through_json(result).steps[0].files == ["greedy-1.svg", "greedy-1.frames.json"]
    error = RunError("snippets/bandits/greedy.py", 7, "ZeroDivisionError: division by zero",
                     traceback='  File "snippets/bandits/greedy.py", line 7\n', output="3\n")
    failed = RunResult(result.steps[:1], error, {})
    assert through_json(failed) == failed
    assert through_json(Reply(pid=17)) == Reply(pid=17)
    assert Reply.from_json({"code": -9}) == Reply(code=-9)


@pytest.mark.parametrize("drop, field", [
    (lambda d: d.pop("error"), "RunResult: missing field 'error'"),
    (lambda d: d["steps"][1].pop("output"), "StepResult: missing field 'output'"),
    (lambda d: d["steps"][0]["frames"][0].pop("sha256"), "FramesEntry: missing field 'sha256'"),
])
def test_a_malformed_result_names_the_missing_field(drop, field):
    data = a_result().to_json()
    drop(data)
    with pytest.raises(ValueError) as err:
        RunResult.from_json(data)
    assert str(err.value) == field


def test_a_result_that_is_not_an_object_is_refused():
    with pytest.raises(ValueError, match="RunResult: expected a JSON object, got list"):
        RunResult.from_json([])


def test_a_located_worker_error_becomes_a_located_execution_error():
    """The worker's SnippetError is a RunError on the wire; the parent's ExecutionError
    keeps its text as the author reads it and locates it as a PageError."""
    error = SnippetError("docs/bandits.md", 9, "{{ best }} after greedy.py: NameError").to_error(
        output="best arm 3\n")
    chapter = Chapter(Path("docs/bandits.md"), "bandits", ())
    exc = session.failure(chapter, "docs/bandits.md", 300, through_json(error))
    assert isinstance(exc, ExecutionError) and isinstance(exc, BookrunError)
    assert str(exc).startswith("chapter 'bandits' failed in docs/bandits.md:9: {{ best }}")
    assert "--- output before the error ---\nbest arm 3" in str(exc)
    assert isinstance(exc.where, PageError)
    assert (exc.where.path, exc.where.line) == ("docs/bandits.md", 9)
    timeout = session.failure(chapter, "docs/bandits.md", 300,
                              RunError("snippets/bandits/plot.py", None, "timed out after 300 s",
                                       kind="timeout"))
    assert "timed out after 300 s while running snippets/bandits/plot.py;" in str(timeout)
    assert timeout.kind == "timeout"


def test_the_parent_builds_the_job_from_the_chapter(tmp_path):
    """Limits from the `@run` options, a binding's line (the last of a repeated body, as
    the worker has always reported it), and the resume keys only under serve."""
    step = Step("demo/a.py", 3, (Binding("x", 5), Binding("y | .2f", 6), Binding("x", 8)),
                {"max-output": 400, "max-figures": 2})
    chapter = Chapter(tmp_path / "docs" / "demo.md", "demo", (step,))
    job = session.chapter_job(chapter, tmp_path, tmp_path / "snippets", tmp_path / "w", 60.0,
                              2.0, None, None, [])
    (only,) = job.steps
    assert only.path == "snippets/demo/a.py" and job.page == "docs/demo.md"
    assert only.limits == Limits("demo/a.py", 400, 40_000, 2, 500_000, 20_000_000)
    assert [(b.expr, b.spec, b.line) for b in only.bindings] == [
        ("x", "", 8), ("y", ".2f", 6), ("x", "", 8)]
    assert only.resume_key is None and job.checkpoints is None and job.fingerprint == {}
    kept = session.chapter_job(chapter, tmp_path, tmp_path / "snippets", tmp_path / "w", 60.0,
                               2.0, None, tmp_path / "kept", ["k0", "k1"])
    assert kept.steps[0].resume_key == "k0" and kept.checkpoints == tmp_path / "kept" / "demo"
    assert through_json(kept) == kept
