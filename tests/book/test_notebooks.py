"""Each chapter's generated notebook, run top to bottom in a Jupyter kernel, prints what
its page shows: the REPL-paste promise, kept by the notebook a reader downloads."""
import ast
import contextlib
import inspect
import io
import json
import re
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from bookrun.execute.session import WORKER_ENV
from bookrun.execute.worker.loop import platform_fingerprint
from bookrun.hosts.publish import notebook_text
from bookrun.render.notebook import UNANSWERED
from bookrun.store.book import Book
from bookrun.store.records import load_record
from helpers.paths import ROOT

BOOK = Book(root=ROOT)
DOCS = {d.chapter.name: d for d in BOOK.documents() if BOOK.has_notebook(d.chapter)}
KERNEL = "bookrun-notebook-test"
PLATFORM_CELL = "test-platform"  # added by the test: what the kernel's kernels were


@pytest.fixture
def kernel(tmp_path, monkeypatch) -> str:
    """A kernel of this interpreter, with the sessions' environment (hash seed, one BLAS
    thread) but Jupyter's own figure backend: under Agg, `plt.show()` would warn."""
    spec = tmp_path / "jupyter" / "kernels" / KERNEL
    spec.mkdir(parents=True)
    env = {k: v for k, v in WORKER_ENV.items() if k != "MPLBACKEND"}
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "bookrun test", "language": "python", "env": env}))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    return KERNEL


def run_notebook(text: str, folder: Path, kernel: str):
    """The notebook executed in `folder`, as a reader's Jupyter would, cell by cell; a
    last cell added prints the platform the kernel ran on, as the worker reads it."""
    nb = nbformat.reads(text, as_version=4)
    probe = (f"import json\nimport sys\n\n\n{inspect.getsource(platform_fingerprint)}\n\n"
             f"print(json.dumps(platform_fingerprint({BOOK.config.fingerprint!r})))")
    nb.cells.append(nbformat.v4.new_code_cell(probe, id=PLATFORM_CELL))
    NotebookClient(nb, kernel_name=kernel, timeout=600, allow_errors=False,
                   resources={"metadata": {"path": str(folder)}}).execute()
    return nb


def printed(cell) -> str:
    """What a cell printed (stdout and stderr in order), as the worker records it."""
    return "".join(o["text"] for o in cell.outputs if o["output_type"] == "stream")


@pytest.mark.timeout(1500)
@pytest.mark.parametrize("name", sorted(DOCS))
def test_each_notebook_run_top_to_bottom_prints_the_recorded_outputs(name, tmp_path, kernel):
    doc, record = DOCS[name], load_record(name, BOOK.snippets_root)
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    nb = run_notebook(notebook_text(BOOK, doc, record), run_dir, kernel)
    cells = {c.id: c for c in nb.cells}
    # As `check` does: a platform-bound snippet (chaotic training) is compared exactly
    # only on the platform that recorded it; elsewhere the chapter's tests judge it.
    same_platform = json.loads(printed(cells[PLATFORM_CELL])) == record.platform
    mismatches = []
    for n, step in enumerate(doc.chapter.steps, start=1):
        shown = printed(cells[f"cell-{n:02d}"])
        if shown != record.output(step.snippet) and (same_platform or not step.platform_bound):
            mismatches.append(f"snippets/{step.snippet}:\n--- record\n"
                              f"{record.output(step.snippet)}\n--- notebook\n{shown}")
    assert not mismatches, "\n".join(mismatches)
    checks = [c for c in nb.cells if c.id.startswith("exercise-") and c.id.endswith("-check")]
    assert len(checks) == len({a.step for a in doc.answers})
    for cell in checks:  # the reader has not answered: each check says so, naming the value
        lines = printed(cell).splitlines()
        assert lines and all(UNANSWERED in line for line in lines), printed(cell)


@pytest.mark.parametrize("name", sorted(n for n, d in DOCS.items() if d.answers))
def test_each_check_cell_accepts_the_recorded_answer_and_refuses_another(name):
    """The hash in a check cell is the recorded solution's: the book's own value passes,
    the value next to it does not (run in this process: the cell is plain Python)."""
    doc, record = DOCS[name], load_record(name, BOOK.snippets_root)
    cells = {c.id: c for c in nbformat.reads(notebook_text(BOOK, doc, record), 4).cells}
    checks = [c.source for i, c in cells.items() if i.endswith("-check")]
    for answer in doc.answers:
        text = record.snippet(doc.chapter.steps[answer.step].snippet).values[answer.binding.body]
        [source] = [s for s in checks if repr(answer.name) in s]
        call = f"check_answer({answer.name!r}, {answer.binding.spec!r}, '"
        digest = source.split(call, 1)[1][:65]  # the call names the value only by its hash
        assert re.fullmatch(r"[0-9a-f]{64}'", digest) and repr(text) not in source
        for value, verdict in [(ast.literal_eval(text), "right"),
                               (ast.literal_eval(text) + 1, "not the book's answer")]:
            shown = io.StringIO()
            with contextlib.redirect_stdout(shown):
                exec(source, {answer.name: value})
            [line] = [ln for ln in shown.getvalue().splitlines() if ln.startswith(answer.name)]
            assert verdict in line, line
