"""The executor on small fixture chapters built in a temporary folder."""
import json
import os
import textwrap

import pytest

from bookrun.book import Book
from bookrun.page import PageError
from bookrun.record import load_record, record_path, stamp
from bookrun.render import render_page
from bookrun.session import ExecutionError


def make_book(tmp_path, page, snippets, timeout=60.0, logs=None):
    """A book with one page `docs/demo.md` and snippets under `snippets/demo/`."""
    (tmp_path / "docs").mkdir(exist_ok=True)
    (tmp_path / "docs" / "demo.md").write_text(textwrap.dedent(page))
    folder = tmp_path / "snippets" / "demo"
    folder.mkdir(parents=True, exist_ok=True)
    for name, code in snippets.items():
        (folder / name).write_text(textwrap.dedent(code))
    book = Book(root=tmp_path, timeout=timeout)
    book.log = (logs.append if logs is not None else (lambda msg: None))
    return book


PLOT = """\
import matplotlib.pyplot as plt

fig, ax = plt.subplots(figsize=(3, 2))
_ = ax.plot([0, 1, 2], [0, 1, 4])
plt.show()
print("drawn")
"""


def test_captures_prints_echo_and_figures(tmp_path):
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n@run demo/plot.py\n",
                     {"a.py": "print('hello')\n1 + 1\nNone\n", "plot.py": PLOT})
    rec = book.build()["demo"]
    assert rec.output("a.py") == "hello\n2\n"  # a bare expression echoes, as in a REPL
    assert rec.output("plot.py") == "drawn\n"
    [fig] = rec.snippets[1]["figures"]
    svg = (book.figure_dir("demo") / fig["name"]).read_text()
    assert fig["name"] == "plot-1.svg" and svg.startswith("<?xml") and "<svg" in svg
    assert json.loads(record_path("demo", book.snippets_root).read_text())["chapter"] == "demo"


def test_state_is_shared_across_a_chapters_snippets(tmp_path):
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n\nThe total is {{ total | .2f }}.\n"
                     "@run demo/b.py\n",
                     {"a.py": "total = 1.5\n", "b.py": "print(total * 2)\n"})
    rec = book.build()["demo"]
    assert rec.output("b.py") == "3.0\n"
    assert rec.value("total | .2f") == "1.50"


def test_exception_names_snippet_line_and_traceback(tmp_path):
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n@run demo/b.py\n", {
        "a.py": "def half(x):\n    return 1 / x\n",
        "b.py": "print('before')\ny = 2\nhalf(0)\n",
    })
    with pytest.raises(ExecutionError) as err:
        book.build()
    text = str(err.value)
    assert "snippets/demo/b.py:3: ZeroDivisionError: division by zero" in text
    assert 'File "snippets/demo/a.py", line 2, in half' in text  # the traceback
    assert "before" in text  # what it printed before failing
    assert not record_path("demo", book.snippets_root).exists()  # nothing half-written
    assert not any((book.cache / "scratch").iterdir())  # and no scratch left behind


def test_timeout_kills_the_chapter_and_names_the_snippet(tmp_path):
    book = make_book(tmp_path, "# Demo\n@run demo/fast.py\n@run demo/slow.py\n",
                     {"fast.py": "x = 1\n", "slow.py": "import time\ntime.sleep(30)\n"},
                     timeout=3)
    with pytest.raises(ExecutionError, match=r"timed out after 3 s while running "
                                             r"snippets/demo/slow.py"):
        book.build()


def test_missing_snippet_names_page_line_and_path(tmp_path):
    book = make_book(tmp_path, "# Demo\n\ntext\n@run demo/nope.py\n", {"a.py": "x = 1\n"})
    with pytest.raises(PageError, match=r"docs/demo.md:4: snippet not found: .*snippets/demo/nope.py"):
        book.chapters()


def test_figure_texts_are_read_under_their_directive(tmp_path):
    page = ("# Demo\n\n!!! note\n    @run demo/a.py\n    Figure: Two lines.\n"
            "    Alt: The solid line rises and the dashed line stays flat,\n"
            "        so only the first one learns.\n    Later prose.\n")
    book = make_book(tmp_path, page, {"a.py": "x = 1\n"})
    [chapter] = book.chapters()
    [fig] = chapter.steps[0].figures
    assert (fig.caption, fig.line) == ("Two lines.", 5)
    assert fig.alt == ("The solid line rises and the dashed line stays flat, "
                       "so only the first one learns.")


@pytest.mark.parametrize("texts, line, message", [
    ("Alt: a line that rises and then stays flat for ever after\n", 4, "found Alt"),
    ("Figure: A line.\nFigure: Another.\n", 4, "found Figure then Figure"),
    ("Figure: A line.\n", 4, "found Figure$"),
    ("Figure: A line.\nAlt: A line.\n", 5, "at least 8 words"),
    ("Figure:\nAlt: a line that rises and then stays flat for ever after\n", 4, "empty"),
])
def test_malformed_figure_texts_name_page_and_line(tmp_path, texts, line, message):
    book = make_book(tmp_path, "# Demo\n\n@run demo/a.py\n" + texts, {"a.py": "x = 1\n"})
    with pytest.raises(PageError, match=rf"docs/demo.md:{line}: .*{message}"):
        book.chapters()


def test_directive_inside_a_code_fence_is_left_alone(tmp_path):
    book = make_book(tmp_path, "# Demo\n```markdown\n@run demo/nope.py\n```\n@run demo/a.py\n",
                     {"a.py": "x = 1\n"})
    [chapter] = book.chapters()
    assert [s.snippet for s in chapter.steps] == ["demo/a.py"]


@pytest.mark.parametrize("code, line, message", [
    ("for i in range(2):\n    x = i\n\n    y = i\n", 3, "blank line inside an indented block"),
    ("for i in range(2):\n    x = i\nprint(x)\n", 3, "blank line after an indented block"),
    ("object()\n", None, "object address"),
])
def test_code_that_would_paste_differently_into_a_repl_is_refused(tmp_path, code, line, message):
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n", {"a.py": code})
    with pytest.raises(ExecutionError) as err:
        book.build()
    where = f"snippets/demo/a.py:{line}:" if line else "snippets/demo/a.py:"
    assert where in str(err.value) and message in str(err.value)


def test_bad_binding_names_the_page_line(tmp_path):
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n\nSee {{ missing_name }}.\n",
                     {"a.py": "x = 1\n"})
    with pytest.raises(ExecutionError, match=r"docs/demo.md:4: \{\{ missing_name \}\}.*NameError"):
        book.build()


def test_output_and_bound_values_are_escaped(tmp_path):
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n\nName: {{ name }}\n",
                     {"a.py": "name = '<b>*x*</b>'\nprint('<b>bold</b> ```')\n"})
    [chapter] = book.chapters()
    rec = book.build()["demo"]
    md = render_page(chapter.page.read_text(), chapter, rec,
                     lambda rel: (book.snippets_root / rel).read_text(), "demo.md")
    # The output sits in a fence longer than any backtick run it contains.
    assert "```` { .text .bookrun-output title=\"Output\" }\n<b>bold</b> ```\n````" in md
    assert "Name: &lt;b&gt;\\*x\\*&lt;/b&gt;" in md


def test_warm_build_reuses_and_edits_invalidate_the_whole_chapter(tmp_path):
    logs = []
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n@run demo/b.py\n",
                     {"a.py": "x = 2\n", "b.py": "print(x * 10)\n"}, logs=logs)
    book.build()
    book.build()
    assert "executed" in logs[0] and "reused record" in logs[1]
    [chapter] = book.chapters()
    before = stamp(chapter, book.snippets_root)
    # Editing an earlier snippet changes what later ones print: the stamp covers both.
    (book.snippets_root / "demo" / "a.py").write_text("x = 3\n")
    assert stamp(chapter, book.snippets_root) != before
    rec = book.build()["demo"]
    assert "executed" in logs[2] and rec.output("b.py") == "30\n"


def test_deleted_figure_cache_is_re_executed(tmp_path):
    logs = []
    book = make_book(tmp_path, "# Demo\n@run demo/plot.py\n", {"plot.py": PLOT}, logs=logs)
    book.build()
    for f in book.figure_dir("demo").iterdir():
        f.unlink()
    book.build()
    assert "executed" in logs[1]


def test_corrupt_record_is_re_executed_not_trusted(tmp_path):
    logs = []
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n", {"a.py": "print(7)\n"}, logs=logs)
    book.build()
    path = record_path("demo", book.snippets_root)
    path.write_text(path.read_text()[:40])  # truncated, as by a crash mid-write
    rec = book.build()["demo"]
    assert "executed" in logs[1] and rec.output("a.py") == "7\n"
    assert load_record("demo", book.snippets_root).output("a.py") == "7\n"


def test_interrupted_record_write_leaves_the_old_record(tmp_path, monkeypatch):
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n", {"a.py": "print(1)\n"})
    book.build()
    path = record_path("demo", book.snippets_root)
    old = path.read_text()
    (book.snippets_root / "demo" / "a.py").write_text("print(2)\n")

    def interrupted(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        book.build()
    monkeypatch.undo()
    assert path.read_text() == old
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []


def test_check_reports_a_readable_diff_and_update_fixes_it(tmp_path):
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n\nIt is {{ x }}.\n",
                     {"a.py": "x = 5\nprint('x is', x)\n"})
    book.build()
    assert book.check() == []
    (book.snippets_root / "demo" / "a.py").write_text("x = 6\nprint('x is', x)\n")
    problems = book.check()
    assert problems[0].startswith("snippets/demo/a.py: output differs")
    assert "-x is 5" in problems[0] and "+x is 6" in problems[0]
    assert "{{ x }} expected '5', got '6'" in problems[1]
    book.build(force=True)
    assert book.check() == []


def test_two_fresh_executions_are_byte_identical(tmp_path):
    code = ("import numpy as np\nrng = np.random.default_rng(3)\n"
            "print(rng.normal(size=3).round(4))\n" + PLOT)
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n", {"a.py": code})
    first = book.build(force=True)["demo"]
    svg1 = (book.figure_dir("demo") / "a-1.svg").read_bytes()
    second = book.build(force=True)["demo"]
    assert first.to_json() == second.to_json()
    assert (book.figure_dir("demo") / "a-1.svg").read_bytes() == svg1


def test_check_flags_a_typed_number_the_code_no_longer_produces(tmp_path):
    page = ("# Demo\n@run demo/a.py\n\nThe rate is 0.25 and the mean 0.33, the hand-made "
            "sum 1.5, see arXiv 1706.03741.\n<!-- bookrun: derived 1.5 -->\n")
    book = make_book(tmp_path, page, {"a.py": "rate = 0.25\nprint(f'{1/3:.4f}')\n"})
    book.build()
    assert book.check() == []  # 0.25 is in the code, 0.33 rounds a printed 0.3333
    (book.snippets_root / "demo" / "a.py").write_text("rate = 0.3\nprint(f'{1/3:.4f}')\n")
    book.build(force=True)
    [problem] = book.check()
    assert problem.startswith("docs/demo.md:4: 0.25 is typed in the prose")


def test_editing_one_chapter_re_executes_only_that_chapter(tmp_path):
    logs = []
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n", {"a.py": "print(1)\n"}, logs=logs)
    (tmp_path / "docs" / "other.md").write_text("# Other\n@run other/b.py\n")
    (book.snippets_root / "other").mkdir()
    (book.snippets_root / "other" / "b.py").write_text("print(2)\n")
    book.build()
    logs.clear()
    (book.snippets_root / "other" / "b.py").write_text("print(3)\n")
    records = book.build()
    assert records["other"].output("b.py") == "3\n"
    assert sorted(line.split()[1:3] for line in logs) == [["demo", "reused"],
                                                         ["other", "executed"]]
