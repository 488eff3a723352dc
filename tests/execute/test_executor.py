"""The executor on small fixture chapters built in a temporary folder."""
import hashlib
import json
import os
import re
import stat
import sys
import textwrap
import time

import pytest

from bookrun.hosts.cli import main
from bookrun.execute import sandbox
from bookrun.execute.worker import checkpoint
from bookrun.store.book import Book
from bookrun.store.check import same_drawing
from bookrun.config import ConfigError
from bookrun.parse.chapter import PageError
from bookrun.model.page import SnippetRecord
from bookrun.store.records import Record, load_record, record_path
from helpers.pages import render_book_page
from bookrun.execute.session import ExecutionError
from helpers.books import PLOT, RESUME_CODE, make_book


def test_captures_prints_echo_and_figures(tmp_path):
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n@run demo/plot.py\n",
                     {"a.py": "print('hello')\n1 + 1\nNone\n", "plot.py": PLOT})
    rec = book.build()["demo"]
    assert rec.output("a.py") == "hello\n2\n"  # a bare expression echoes, as in a REPL
    assert rec.output("plot.py") == "drawn\n"
    [fig] = rec.snippets[1].figures
    svg = (book.figure_dir("demo") / fig.name).read_text()
    assert fig.name == "plot-1.svg" and svg.startswith("<?xml") and "<svg" in svg
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
                     timeout=8)  # room for the session to start on a busy machine
    with pytest.raises(ExecutionError, match=r"timed out after 8 s while running "
                                             r"snippets/demo/slow.py"):
        book.build()


def test_missing_snippet_names_page_line_and_path(tmp_path):
    book = make_book(tmp_path, "# Demo\n\ntext\n@run demo/nope.py\n", {"a.py": "x = 1\n"})
    with pytest.raises(PageError,
                       match=r"^docs/demo.md:4: snippet not found: snippets/demo/nope.py$"):
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
    ("Figure: A line.\nAlt: A line.\n", 5, "not the caption"),
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
    rec = book.build()["demo"]
    md = render_book_page(book, rec)
    # The output sits in a fence longer than any backtick run it contains.
    assert "```` { .text .bookrun-output title=\"Output\" data-search-exclude=\"\" }\n<b>bold</b> ```\n````" in md
    assert "Name: &lt;b&gt;\\*x\\*&lt;/b&gt;" in md


def test_warm_build_reuses_and_edits_invalidate_the_whole_chapter(tmp_path):
    logs = []
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n@run demo/b.py\n",
                     {"a.py": "x = 2\n", "b.py": "print(x * 10)\n"}, logs=logs)
    book.build()
    book.build()
    assert "executed" in logs[0] and "reused record" in logs[1]
    [chapter] = book.chapters()
    before = book.key(chapter)
    # Editing an earlier snippet changes what later ones print: the stamp covers both.
    (book.snippets_root / "demo" / "a.py").write_text("x = 3\n")
    assert book.key(chapter) != before
    rec = book.build()["demo"]
    assert "executed" in logs[2] and rec.output("b.py") == "30\n"


def test_deleted_committed_figure_is_re_executed(tmp_path):
    logs = []
    book = make_book(tmp_path, "# Demo\n@run demo/plot.py\n", {"plot.py": PLOT}, logs=logs)
    book.build()
    for f in book.figure_dir("demo").iterdir():
        f.unlink()
    book.build()
    assert "executed" in logs[1]


def test_corrupt_record_fails_the_build_until_updated(tmp_path):
    # Records are written atomically, so a corrupt one was damaged by someone: a build
    # says so (tests/test_inputs.py has the cases) rather than silently replacing it.
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n", {"a.py": "print(7)\n"})
    book.build()
    path = record_path("demo", book.snippets_root)
    path.write_text(path.read_text()[:40])  # truncated
    with pytest.raises(ExecutionError, match=r"_record.json: corrupt: not JSON at line \d+"):
        book.build()
    book.build(force=True)  # what `python -m bookrun update` does
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
    assert book.check().problems == []
    (book.snippets_root / "demo" / "a.py").write_text("x = 6\nprint('x is', x)\n")
    stale, output, value = book.check().problems
    assert stale.startswith("snippets/demo/_record.json: stale")
    assert output.startswith("snippets/demo/a.py: output differs")
    assert "-x is 5" in output and "+x is 6" in output
    assert value.startswith("docs/demo.md:4: {{ x }} expected '5', got '6'")
    book.build(force=True)
    assert book.check().problems == []


def test_check_compares_each_place_a_value_is_bound(tmp_path):
    """The same `{{ x }}` after two snippets is judged at each place: a change to the
    second snippet's x is reported at the second place only."""
    page = "# Demo\n@run demo/a.py\n\nFirst {{ x }}.\n\n@run demo/b.py\n\nThen {{ x }}.\n"
    book = make_book(tmp_path, page, {"a.py": "x = 1\n", "b.py": "x = 2\n"})
    rec = book.build()["demo"]
    assert [s.values for s in rec.snippets] == [{"x": "1"}, {"x": "2"}]
    assert rec.value("x", "a.py") == "1" and rec.value("x", "b.py") == "2"
    with pytest.raises(KeyError, match="differs by place"):
        rec.value("x")
    assert book.check().problems == []
    (book.snippets_root / "demo" / "b.py").write_text("x = 3\n")
    stale, value = book.check().problems
    assert stale.startswith("snippets/demo/_record.json: stale")
    assert value.startswith("docs/demo.md:8: {{ x }} expected '2', got '3' after "
                            "snippets/demo/b.py")


def test_two_fresh_executions_are_byte_identical(tmp_path):
    code = ("import numpy as np\nrng = np.random.default_rng(3)\n"
            "print(rng.normal(size=3).round(4))\n" + PLOT)
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n", {"a.py": code})
    first = book.build(force=True)["demo"]
    svg1 = (book.figure_dir("demo") / "a-1.svg").read_bytes()
    second = book.build(force=True)["demo"]
    assert first.to_json() == second.to_json()
    assert (book.figure_dir("demo") / "a-1.svg").read_bytes() == svg1


AUDIT_ON = "markdown_extensions:\n  - bookrun.extension:\n      number_audit: true\n"


def test_check_flags_a_typed_number_the_code_no_longer_produces(tmp_path):
    page = ("# Demo\n@run demo/a.py\n\nThe rate is 0.25 and the mean 0.33, the hand-made "
            "sum 1.5, see arXiv 1706.03741.\n<!-- bookrun: derived 1.5 -->\n")
    (tmp_path / "mkdocs.yml").write_text(AUDIT_ON)  # the audit is off by default
    book = make_book(tmp_path, page, {"a.py": "rate = 0.25\nprint(f'{1/3:.4f}')\n"})
    book.build()
    assert book.check().problems == []  # 0.25 is in the code, 0.33 rounds a printed 0.3333
    (book.snippets_root / "demo" / "a.py").write_text("rate = 0.3\nprint(f'{1/3:.4f}')\n")
    book.build(force=True)
    [problem] = book.check().problems
    assert problem.startswith("docs/demo.md:4: 0.25 is typed in the prose")


def test_prose_audit_flags_a_typed_integer_result_but_not_references(tmp_path):
    page = textwrap.dedent("""\
        # Demo
        @run demo/a.py

        The last 500 episodes lasted 34 moves; 12 % of 20,000 runs failed.
        See chapter 3, Exercise 2 and §5.4 (Sutton and Barto 2018), a 64-bit float,
        the rule $x_{17} = 2^{9}$ and `lr=77`, and a buffer of 128 steps.
        <!-- bookrun: given 128 -->

        $$
        G = \\sum_{k=0}^{41} \\gamma^k
        $$

        1. a list item
        ## Papers and further reading
        - Nature 518, 529-533.
        """)
    (tmp_path / "mkdocs.yml").write_text(AUDIT_ON)
    book = make_book(tmp_path, page, {"a.py": "N = 500\nprint(f'{0.12:.2f}', 20_000)\n"})
    book.build()
    problems = book.check().problems
    assert [p.split(" is typed")[0] for p in problems] == ["docs/demo.md:4: 34"]
    # Bound, the same sentence passes.
    (tmp_path / "docs" / "demo.md").write_text(page.replace("34", "{{ N // 15 }}"))
    book.build(force=True)
    assert book.check().problems == []


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


# -- records on other machines: platform, versions, committed figures -------------------
BOUND_PAGE = "# Demo\n@run demo/a.py\n@run demo/b.py platform-bound\n\nIt got {{ y }}.\n"
BOUND_CODE = {"a.py": "import numpy as np\nprint(np.arange(3) * 2)\n",
              "b.py": "y = 41 + 1\nprint('trained to', y)\n"}


def edit_record(book, **changes):
    """Change a record as another machine's run would have written it (digest and all)."""
    path = record_path("demo", book.snippets_root)
    data = json.loads(path.read_text())
    for key, change in changes.items():
        data[key] = change(data[key])
    data["digest"] = Record(data["chapter"], data["stamp"], data["versions"],
                            tuple(SnippetRecord.from_json(s) for s in data["snippets"]),
                            data.get("platform", {})).digest()
    path.write_text(json.dumps(data))


FINGERPRINT = """\
markdown_extensions:
  - bookrun.extension:
      libraries: [numpy]
      fingerprint:
        numpy: {numpy_version: numpy.__version__, doubled: "len(numpy.arange(2)) * 2"}
        wave: {wave_probe: wave.WAVE_FORMAT_PCM}
"""


def test_record_says_what_it_ran_on_as_the_book_configures(tmp_path):
    (tmp_path / "mkdocs.yml").write_text(FINGERPRINT)
    book = make_book(tmp_path, BOUND_PAGE, BOUND_CODE)
    rec = book.build()["demo"]
    # numpy was imported, so its probes ran in the session; the wave probe did not,
    # since no snippet imported wave (a chapter is not tied to a library it never used).
    assert rec.platform["machine"] and rec.platform["doubled"] == 4
    assert rec.platform["numpy_version"] == rec.versions["numpy"]
    assert "wave_probe" not in rec.platform
    assert set(rec.versions) == {"python", "numpy"}


def test_a_wrong_book_option_is_named(tmp_path):
    (tmp_path / "mkdocs.yml").write_text("markdown_extensions:\n  - bookrun.extension:\n"
                                         "      colour: red\n")
    with pytest.raises(ConfigError, match=r"mkdocs\.yml:3: bookrun\.extension: unknown option "
                       r"'colour'"):
        make_book(tmp_path, BOUND_PAGE, BOUND_CODE)
    (tmp_path / "mkdocs.yml").write_text("markdown_extensions:\n  - bookrun.extension:\n"
                                         "      timeout: 0\n")
    with pytest.raises(ConfigError, match="timeout must be a positive number"):
        make_book(tmp_path, BOUND_PAGE, BOUND_CODE)


def test_platform_bound_output_is_exact_on_its_platform_only(tmp_path):
    book = make_book(tmp_path, BOUND_PAGE, BOUND_CODE)
    book.build()
    # a chaotic run that came out differently on the recording machine
    edit_record(book, snippets=lambda ss: [
        dict(s, output=["trained to 40", ""], values={"y": "40"})
        if s["snippet"] == "demo/b.py" else s for s in ss])
    problems = book.check().problems
    assert any(p.startswith("snippets/demo/b.py: output differs") for p in problems)
    assert any("{{ y }} expected '40', got '42'" in p for p in problems)
    # recorded elsewhere: the platform-bound snippet is left to the chapter's tests
    edit_record(book, platform=lambda p: dict(p, machine="another-cpu"))
    checked = book.check()
    assert checked.problems == []
    assert "1 platform-bound snippet(s) judged by their findings" in checked.notes[0]
    assert checked.fresh["demo"].output("b.py") == "trained to 42\n"


def test_exact_snippet_differing_on_another_platform_fails_with_a_hint(tmp_path):
    book = make_book(tmp_path, BOUND_PAGE, BOUND_CODE)
    book.build()
    edit_record(book, platform=lambda p: dict(p, machine="another-cpu"),
                snippets=lambda ss: [dict(s, output=["[0 2 5]", ""])
                                     if s["snippet"] == "demo/a.py" else s for s in ss])
    [problem] = book.check().problems
    assert problem.startswith("snippets/demo/a.py: output differs (recorded on another "
                              "platform, machine another-cpu -> x86_64: this machine's digits "
                              "may be right too, so `update` here is no fix; round what it "
                              "prints")


def test_a_changed_constant_fails_the_check_on_any_platform(tmp_path):
    book = make_book(tmp_path, BOUND_PAGE, BOUND_CODE)
    book.build()
    edit_record(book, platform=lambda p: dict(p, machine="another-cpu"))
    (book.snippets_root / "demo" / "b.py").write_text("y = 41 + 2\nprint('trained to', y)\n")
    [problem] = book.check().problems  # its output is not compared here, its code is
    assert problem == ("snippets/demo/_record.json: stale: the chapter's snippets or bindings "
                       "changed since it was recorded")


def test_version_strings_alone_never_fail(tmp_path):
    (tmp_path / "mkdocs.yml").write_text("markdown_extensions:\n  - bookrun.extension:\n"
                                         "      libraries: [numpy, torch]\n")
    book = make_book(tmp_path, BOUND_PAGE, BOUND_CODE)
    book.build()
    # another micro release of Python and a wheel without the local `+cpu` tag: same release
    edit_record(book, versions=lambda v: dict(v, python=v["python"].rsplit(".", 1)[0] + ".99",
                                              torch="2.13.0+cpu"))
    checked = book.check()
    assert checked.problems == [] and checked.notes == []
    assert book.build()["demo"].versions["python"].endswith(".99")  # reused, not re-executed
    edit_record(book, versions=lambda v: dict(v, numpy="1.0.0"))
    checked = book.check()
    assert checked.problems == []
    assert "'numpy': '1.0.0'" in checked.notes[0] and "the outputs decide" in checked.notes[0]


def nudge_committed_figure(book, by: float):
    """Move the first coordinate of the committed figure, and record the new bytes."""
    svg = book.snippets_root / "demo" / "_figures" / "plot-1.svg"
    text = svg.read_text()
    start = re.search(r'd="M (-?[0-9.]+)', text)
    moved = f"{float(start.group(1)) + by:.6f}"
    svg.write_text(text[:start.start(1)] + moved + text[start.end(1):])
    digest = hashlib.sha256(svg.read_bytes()).hexdigest()
    edit_record(book, snippets=lambda ss: [dict(s, figures=[dict(s["figures"][0], sha256=digest)])
                                           for s in ss])


def test_a_figure_may_differ_by_its_last_printed_digit_on_another_platform_only(tmp_path):
    book = make_book(tmp_path, "# Demo\n@run demo/plot.py\n", {"plot.py": PLOT})
    book.build()
    nudge_committed_figure(book, 1e-6)  # a rounding tie that fell the other way
    [problem] = book.check().problems
    assert problem.startswith("snippets/demo/plot.py: figures differ")
    edit_record(book, platform=lambda p: dict(p, machine="another-cpu"))
    checked = book.check()
    assert checked.problems == []
    assert any("equal to the record up to the last printed digit" in n for n in checked.notes)
    nudge_committed_figure(book, 2e-6)  # 3e-6 off now: a drawing that really moved
    [problem] = book.check().problems
    assert problem.startswith("snippets/demo/plot.py: figures differ (recorded on another")


@pytest.mark.parametrize("got, same", [
    (b'<path d="M 52.762813 204.797187"/>', True),  # the tie, rounded the other way
    (b'<path d="M 52.762813 204.797186"/>', False),  # two units: the drawing moved
    (b'<path d="M 52.762813 204.797188" class="x"/>', False),  # other text
    (b'<path d="M 52.762813 204.797188 L 1 2"/>', False),  # another point
])
def test_same_drawing_allows_one_unit_in_the_last_printed_digit(got, same):
    assert same_drawing(b'<path d="M 52.762813 204.797188"/>', got) is same


def test_figures_are_committed_beside_the_record(tmp_path):
    book = make_book(tmp_path, "# Demo\n@run demo/plot.py\n", {"plot.py": PLOT})
    book.build()
    assert [p.name for p in (book.snippets_root / "demo" / "_figures").iterdir()] == [
        "plot-1.svg"]
    (book.snippets_root / "demo" / "plot.py").write_text("print('no figure now')\n")
    book.build()
    assert not (book.snippets_root / "demo" / "_figures").exists()  # no stale figure left


def test_frozen_build_reuses_records_and_refuses_stale_ones(tmp_path):
    logs = []
    book = make_book(tmp_path, BOUND_PAGE, BOUND_CODE, logs=logs)
    book.build()
    frozen = Book(root=tmp_path, frozen=True)
    frozen.log = logs.append
    assert frozen.build()["demo"].output("b.py") == "trained to 42\n"
    assert "reused record" in logs[-1]
    (book.snippets_root / "demo" / "a.py").write_text("print(1)\n")
    with pytest.raises(ExecutionError, match=r"snippets/demo/_record.json: stale or missing "
                                             r"\(frozen build"):
        frozen.build()


# -- limits and messages ---------------------------------------------------------------

def failure(book) -> str:
    """The error text of a build that must fail, checked for what every error shares."""
    with pytest.raises(ExecutionError) as err:
        book.build()
    text = str(err.value)
    assert str(book.root) not in text  # paths from the project root, never absolute
    assert "bookrun: start" not in text and "loop.py" not in text  # no executor internals
    assert not record_path("demo", book.snippets_root).exists()  # nothing half-written
    return text


def test_output_past_the_limit_stops_the_snippet_at_its_line(tmp_path):
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n", {
        "a.py": "print('start')\nfor i in range(10_000_000):\n    print(i)\n"})
    t0 = time.perf_counter()
    text = failure(book)
    assert time.perf_counter() - t0 < 30  # stopped at the limit, not after ten million lines
    assert text.startswith("chapter 'demo' failed in snippets/demo/a.py:3: output exceeds the "
                           "limit of 200 lines or 20 kB per snippet")
    assert "@run demo/a.py max-output=LINES" in text  # how to raise it
    assert text.endswith("\n198\n199")  # the output before the limit is kept


def test_output_limit_counts_bytes_and_survives_a_caught_refusal(tmp_path):
    code = "try:\n    print('x' * 30_000)\nexcept BaseException:\n    pass\n\nprint('after')\n"
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n", {"a.py": code})
    assert "snippets/demo/a.py:2: output exceeds the limit" in failure(book)


def test_a_page_raises_the_output_limit_for_one_snippet(tmp_path):
    book = make_book(tmp_path, "# Demo\n@run demo/a.py max-output=300\n",
                     {"a.py": "for i in range(250):\n    print(i)\n"})
    rec = book.build()["demo"]
    assert rec.output("a.py").count("\n") == 250


def test_too_many_figures_are_refused_at_the_show(tmp_path):
    code = ("import matplotlib.pyplot as plt\n\nfor i in range(6):\n    _ = plt.figure()\n\n"
            "plt.show()\n")
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n", {"a.py": code})
    assert failure(book).startswith("chapter 'demo' failed in snippets/demo/a.py:6: more than 4 "
                                    "figures in one snippet")
    (tmp_path / "docs" / "demo.md").write_text("# Demo\n@run demo/a.py max-figures=6\n")
    assert len(book.build()["demo"].snippets[0].figures) == 6


def test_a_figure_over_the_size_limit_is_refused(tmp_path):
    code = ("import matplotlib.pyplot as plt\nimport numpy as np\n\n"
            "_ = plt.plot(np.random.default_rng(0).normal(size=3000))\nplt.show()\n")
    book = make_book(tmp_path, "# Demo\n@run demo/a.py max-figure-kb=20\n", {"a.py": code})
    text = failure(book)
    assert "snippets/demo/a.py:5: figure 1 is" in text and "over the limit of 20 kB" in text
    (tmp_path / "docs" / "demo.md").write_text("# Demo\n@run demo/a.py\n")
    assert book.build()["demo"].snippets[0].figures[0].name == "a-1.svg"


@pytest.mark.parametrize("words, message", [
    ("fast", "docs/demo.md:2: unknown option 'fast' after @run; known: platform-bound, "
             "max-output=N, max-figures=N, max-figure-kb=N"),
    ("max-output=0", "docs/demo.md:2: max-output needs a positive whole number"),
    ("max-output=lots", "docs/demo.md:2: max-output needs a positive whole number"),
    ("max-figures=2 max-figures=3", "docs/demo.md:2: option 'max-figures' is given twice"),
])
def test_bad_directive_words_name_the_page_line(tmp_path, words, message):
    book = make_book(tmp_path, f"# Demo\n@run demo/a.py {words}\n", {"a.py": "x = 1\n"})
    with pytest.raises(PageError) as err:
        book.chapters()
    assert str(err.value).startswith(message)


def test_directive_words_become_step_options(tmp_path):
    book = make_book(tmp_path, "# Demo\n@run demo/a.py platform-bound max-output=400\n",
                     {"a.py": "x = 1\n"})
    [chapter] = book.chapters()
    assert chapter.steps[0].options == {"platform-bound": True, "max-output": 400}


SLOW = {"fast.py": "x = 1\n", "slow.py": "print('slow start')\nimport time\ntime.sleep(60)\n"}


def test_check_honours_bookrun_timeout_and_keeps_the_output(tmp_path, monkeypatch, capsys):
    make_book(tmp_path, "# Demo\n@run demo/fast.py\n@run demo/slow.py\n", SLOW)
    monkeypatch.setenv("BOOKRUN_TIMEOUT", "8")  # room for the session to start when busy
    t0 = time.perf_counter()
    assert main(["check"], root=tmp_path) == 1
    assert time.perf_counter() - t0 < 40  # not the 60 s the snippet sleeps
    err = capsys.readouterr().err
    assert ("chapter 'demo' (docs/demo.md) timed out after 8 s while running "
            "snippets/demo/slow.py:3; raise the limit with BOOKRUN_TIMEOUT") in err
    assert 'File "snippets/demo/slow.py", line 3' in err
    assert err.rstrip().endswith("--- output before the timeout ---\nslow start")


def test_the_timeout_flag_wins_over_the_variable(tmp_path, monkeypatch, capsys):
    make_book(tmp_path, "# Demo\n@run demo/fast.py\n@run demo/slow.py\n", SLOW)
    monkeypatch.setenv("BOOKRUN_TIMEOUT", "600")
    assert main(["update", "--timeout", "2"], root=tmp_path) == 1
    assert "timed out after 2 s" in capsys.readouterr().err
    monkeypatch.setenv("BOOKRUN_TIMEOUT", "soon")
    with pytest.raises(SystemExit):
        main(["check"], root=tmp_path)
    assert "BOOKRUN_TIMEOUT: not a positive number of seconds: 'soon'" in capsys.readouterr().err


def test_network_access_is_refused_and_in_the_sandbox_loopback_too(tmp_path):
    # The Python-level guard names the host (sandboxed or not); a connection to the
    # session's own server is refused too in the sandbox (the next test).
    local = ("import socket\n\nserver = socket.create_server(('127.0.0.1', 0))\n"
             "try:\n    socket.create_connection(server.getsockname())\n"
             "except OSError as exc:\n    print('local:', exc.strerror)\n")
    remote = ("print('before')\nimport urllib.request\n"
              "urllib.request.urlopen('http://example.com')\n")
    book = make_book(tmp_path, "# Demo\n@run demo/local.py\n@run demo/remote.py\n",
                     {"local.py": local, "remote.py": remote})
    text = failure(book)
    assert text.startswith("chapter 'demo' failed in snippets/demo/remote.py:3: network access "
                           "refused (to 'example.com'): pages must build offline and "
                           "reproducibly")
    assert "urllib" not in text.split("\n", 1)[1].replace("urllib.request.urlopen", "")
    assert text.endswith("--- output before the error ---\nbefore")


@pytest.mark.skipif(sandbox.bubblewrap() is None, reason="no working bubblewrap here")
def test_in_the_sandbox_even_a_connection_to_its_own_server_is_refused(tmp_path):
    book = make_book(tmp_path, "# Demo\n@run demo/local.py\n", {"local.py": (
        "import socket\n\nserver = socket.create_server(('127.0.0.1', 0))\n"
        "try:\n    socket.create_connection(server.getsockname())\n"
        "except OSError as exc:\n    print('local:', exc.strerror)\n")})
    assert book.build()["demo"].output("local.py") == "local: Permission denied\n"


def test_os_exit_names_the_line_and_keeps_the_output(tmp_path):
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n@run demo/b.py\n", {
        "a.py": "x = 1\n", "b.py": "print('before exit')\nimport os\nos._exit(3)\n"})
    text = failure(book)
    assert text.startswith("chapter 'demo' failed in snippets/demo/b.py:3: os._exit(3) would "
                           "end the chapter's session")
    assert text.endswith("--- output before the error ---\nbefore exit")


def test_a_crashed_session_names_the_snippet_line_and_keeps_the_output(tmp_path):
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n", {
        "a.py": "print('before crash')\nimport ctypes\nctypes.string_at(0)\n"})
    text = failure(book)
    assert text.startswith("chapter 'demo' (docs/demo.md): the session died (signal SIGSEGV) "
                           "while running snippets/demo/a.py:3")
    assert text.endswith("--- output before the crash ---\nbefore crash")


def test_syntax_error_names_the_line_without_the_parser_frames(tmp_path):
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n", {"a.py": "x = 1\ny = (\n"})
    text = failure(book)
    assert text.startswith("chapter 'demo' failed in snippets/demo/a.py:2: SyntaxError: "
                           "'(' was never closed\n")
    assert "ast.py" not in text


def test_a_folder_used_by_two_pages_names_both(tmp_path):
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n", {"a.py": "x = 1\n"})
    (tmp_path / "docs" / "again.md").write_text("# Again\n@run demo/a.py\n")
    with pytest.raises(ExecutionError, match=r"^snippets/demo/ is used by more than one page: "
                                             r"docs/again.md, docs/demo.md$"):
        book.chapters()


def test_run_command_prints_and_leaves_no_scratch(tmp_path, capsys):
    make_book(tmp_path, "# Demo\n@run demo/plot.py\n", {"plot.py": PLOT})
    assert main(["run", str(tmp_path / "docs" / "demo.md")], root=tmp_path) == 0
    out = capsys.readouterr().out
    assert out.startswith("==> snippets/demo/plot.py\ndrawn\n[figure plot-1.svg ")
    assert not (tmp_path / ".cache" / "bookrun" / "scratch").exists()
    assert not record_path("demo", tmp_path / "snippets").exists()  # a look, not an update


@pytest.mark.parametrize("umask", [0o022, 0o002])
def test_written_files_follow_the_umask(tmp_path, umask):
    old = os.umask(umask)
    try:
        book = make_book(tmp_path, "# Demo\n@run demo/plot.py\n", {"plot.py": PLOT})
        book.build()
    finally:
        os.umask(old)
    expected = 0o666 & ~umask
    written = [record_path("demo", book.snippets_root), book.figure_dir("demo") / "plot-1.svg"]
    assert [stat.S_IMODE(p.stat().st_mode) for p in written] == [expected, expected]


# -- serve: a save re-runs the chapter from the edited snippet (the `kept` book) ----

def starts(book) -> int:
    return len((book.checkpoints / "starts.txt").read_text())


def test_a_save_re_runs_from_the_edited_snippet_as_a_fresh_run_would(kept, monkeypatch):
    first = kept.build()["demo"]
    assert starts(kept) == 1 and len(list((kept.checkpoints / "demo").glob("*.sock"))) == 2
    c = kept.snippets_root / "demo" / "c.py"
    c.write_text(c.read_text() + "print('edited')\n")
    resumed = kept.build()["demo"]
    assert starts(kept) == 1  # a.py and b.py were not run again
    assert resumed.output("c.py").endswith("edited\n")
    assert [s.values for s in resumed.snippets] == [s.values for s in first.snippets]
    assert resumed.snippets[:2] == first.snippets[:2]
    # A fresh session from the first snippet prints, draws and binds the same bytes.
    # (Unconfined, so that it can count its start where a build's sandbox allows no write.)
    with monkeypatch.context() as m:
        m.setenv("BOOKRUN_SANDBOX", "off")
        fresh = Book(root=kept.root).check()
    assert fresh.problems == [] and starts(kept) == 2

    c.write_text("z = rng.normal()\nraise ValueError('broken')\n")
    with pytest.raises(ExecutionError, match=r"failed in snippets/demo/c.py:2: ValueError"):
        kept.build()
    c.write_text(RESUME_CODE["c.py"])
    assert kept.build()["demo"].to_json() == first.to_json()  # the kept session, again
    assert starts(kept) == 2

    a = kept.snippets_root / "demo" / "a.py"
    a.write_text(a.read_text() + "print('edited')\n")
    kept.build()
    assert starts(kept) == 3  # every kept session depended on a.py: run from the start
    # The sessions kept for the old a.py have ended.
    assert len(list((kept.checkpoints / "demo").glob("*.sock"))) == 2
    (kept.checkpoints / "starts.txt").unlink()  # the test's own count
    checkpoint.release(kept.checkpoints / "demo")
    assert not kept.checkpoints.exists(), sorted(kept.checkpoints.rglob("*"))  # no folder left


def test_a_resumed_run_still_stops_at_the_time_limit(kept):
    kept.build()
    kept.timeout = 2.0
    c = kept.snippets_root / "demo" / "c.py"
    c.write_text("import time\ntime.sleep(30)\n")
    with pytest.raises(ExecutionError, match=r"timed out after 2 s while running "
                                              r"snippets/demo/c.py:2"):
        kept.build()
    assert starts(kept) == 1


def test_a_readers_matplotlib_settings_do_not_reach_the_figures(tmp_path, monkeypatch):
    """Matplotlib's settings and font cache are private to the book's sessions: a
    reader's own config folder (here one that thickens every line) changes nothing."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = make_book(tmp_path / "a", "# Demo\n@run demo/plot.py\n", {"plot.py": PLOT})
    plain = first.build()["demo"].snippets[0].figures[0].sha256
    mine = tmp_path / "readers-config"
    mine.mkdir()
    (mine / "matplotlibrc").write_text("lines.linewidth: 9\n")
    monkeypatch.setenv("MPLCONFIGDIR", str(mine))
    second = make_book(tmp_path / "b", "# Demo\n@run demo/plot.py\n", {"plot.py": PLOT})
    assert second.build()["demo"].snippets[0].figures[0].sha256 == plain
