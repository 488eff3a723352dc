"""The notebook is the chapter: a page on a string, its record made by hand, and the
notebook built from them in-process (no kernel: tests/book/test_notebooks.py runs the
real chapters' notebooks)."""
from __future__ import annotations

import contextlib
import io
import json
import re

import pytest

from bookrun.execute.session import WORKER_ENV
from bookrun.model.page import PageError, SnippetRecord
from bookrun.parse.chapter import parse_chapter
from bookrun.render.links import PageLinks
from bookrun.render.notebook import UNANSWERED, answer_digest, chapter_notebook
from bookrun.render.notebook_prose import SiteLinks
from bookrun.render.page import render_page
from bookrun.store.key import step_keys
from bookrun.store.records import Record

PAGE = """---
level: Beginner
---
# Demo chapter

@run demo/a.py

The loss is $\\ell(x) = x^2$ and {{ x }} is where we start.
<!-- bookrun: derived 3 --> See [the setup](setup.md#the-loop) and [the
exercises below](#exercises).

$$
\\ell'(x) = 2x
$$

??? question "Why $2x$?"
    The slope of $x^2$ doubles *x*, here {{ x }}.

!!! note "A remark"
    Plain words under a title.

## Exercises

**Exercise 1.** Find the minimum of $\\ell$ on the grid.

Answer: lowest = best | .3f

??? success "Solution"
    @run demo/b.py

    The grid's lowest loss is {{ best | .3f }}.
"""
CODE = {"demo/a.py": "x = 3\nprint(x)\n", "demo/b.py": "best = 0.125\nprint('done')\n"}
RECORD = Record("demo", "stamp", {}, (
    SnippetRecord("demo/a.py", "3\n", (), (), {"x": "3"}),
    SnippetRecord("demo/b.py", "done\n", (), (), {"best | .3f": "0.125"}),
))
DIRECTIVES = re.compile(r"^\s*(@run|Answer:|Figure:|Alt:|Interactive:|Control:|\?\?\?|!!!)"
                        r"|<!--\s*bookrun", re.MULTILINE)


def parse(tmp_path, text=PAGE):
    for rel, code in CODE.items():
        (tmp_path / "snippets" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "snippets" / rel).write_text(code, encoding="utf-8")
    return parse_chapter(text, tmp_path / "snippets", "docs/demo.md", tmp_path / "demo.md")


def cells(tmp_path, site_url=None, text=PAGE) -> list[dict]:
    doc = parse(tmp_path, text)
    notebook = chapter_notebook(doc, RECORD, CODE.__getitem__, tmp_path,
                                SiteLinks("demo.md", site_url))
    return json.loads(notebook)["cells"]


def source(cell) -> str:
    """A cell's source, or a stream output's text (nbformat keeps both as lines)."""
    return "".join(cell.get("source", cell.get("text", "")))


def test_prose_becomes_markdown_cells_in_page_order_without_directives(tmp_path):
    got = cells(tmp_path)
    markdown = "\n".join(source(c) for c in got if c["cell_type"] == "markdown")
    assert "The loss is $\\ell(x) = x^2$ and 3 is where we start." in markdown  # filled
    assert "$$\n\\ell'(x) = 2x\n$$" in markdown  # math kept for Jupyter to typeset
    assert "{{" not in markdown and not DIRECTIVES.search(markdown), markdown
    assert "**Level:** Beginner" in markdown
    # the self-test collapses; its body, un-indented, is still Markdown with its value
    assert ('<details><summary><b>Why $2x$?</b></summary>\n\n'
            'The slope of $x^2$ doubles *x*, here 3.') in markdown
    assert "**A remark**\n\nPlain words under a title." in markdown
    order = [c["id"] for c in got]
    assert order[:3] == ["md-001", "about", "cell-01"] and order.index("cell-02") > 3
    code = [c for c in got if c["id"] == "cell-01"][0]
    assert source(code) == "x = 3\nprint(x)" and source(code["outputs"][0]) == "3\n"


def test_links_to_other_pages_lead_to_the_site_when_it_has_an_address(tmp_path):
    relative = "\n".join(source(c) for c in cells(tmp_path / "a"))
    assert "[the setup](setup.md#the-loop)" in relative and "below](#exercises)" in relative
    absolute = "\n".join(source(c) for c in cells(tmp_path / "b", "https://book.test/rl"))
    assert "[the setup](https://book.test/rl/setup/#the-loop)" in absolute
    assert "below](https://book.test/rl/demo/#exercises)" in absolute  # text over two lines


def test_an_exercise_gets_a_cell_to_fill_in_and_a_check_that_hides_the_answer(tmp_path):
    got = cells(tmp_path)
    order = [c["id"] for c in got]
    at = order.index("exercise-1")
    assert order[at + 1] == "exercise-1-check"
    assert source(got[at + 2]) == "### Solution" and order[at + 3] == "cell-02"
    assert source(got[at]).endswith("lowest = ...  # checked as format(lowest, '.3f')")
    check = source(got[at + 1])
    assert "0.125" not in check and answer_digest("lowest", "0.125") in check
    for value, said in [(..., UNANSWERED), (0.125, "lowest = 0.125: right"),
                        (0.1251, "lowest = 0.125: right"), (0.2, "not the book's answer")]:
        shown = io.StringIO()
        with contextlib.redirect_stdout(shown):
            exec(check, {"lowest": value})
        assert said in shown.getvalue()


def test_the_page_hides_the_answer_line_and_the_key_ignores_it(tmp_path):
    doc = parse(tmp_path)
    page = render_page(doc, RECORD, CODE.__getitem__, PageLinks("demo.md"))
    assert "Answer:" not in page and "lowest =" not in page
    [answer] = doc.answers
    assert (answer.name, answer.binding.body, answer.step) == ("lowest", "best | .3f", 1)
    without = parse(tmp_path, PAGE.replace("Answer: lowest = best | .3f\n", "\n"))
    style = tmp_path / "matplotlibrc"
    style.write_text("", encoding="utf-8")
    keys = [step_keys(d.chapter, tmp_path / "snippets", style, WORKER_ENV)
            for d in (doc, without)]
    assert keys[0] == keys[1]  # page text, not execution: the record stays fresh


@pytest.mark.parametrize("line, says", [
    ("Answer: best | .3f", "Answer: NAME = EXPRESSION | FORMAT"),
    ("Answer: lowest = best | 3", "pads to a width"),
    ("Answer: lowest = best | .2f", "is not in the prose after snippets/demo/b.py"),
    ("Answer: x = x", "is not in the prose after snippets/demo/b.py"),
])
def test_bad_answer_markup_names_the_page_and_line(tmp_path, line, says):
    text = PAGE.replace("Answer: lowest = best | .3f", line)
    with pytest.raises(PageError) as err:
        parse(tmp_path, text)
    assert str(err.value).startswith(f"docs/demo.md:{text.splitlines().index(line) + 1}:")
    assert says in str(err.value)


def test_an_answer_below_every_solution_is_refused(tmp_path):
    text = PAGE + "\nAnswer: late = best | .3f\n"
    with pytest.raises(PageError, match=r"docs/demo.md:\d+: an `Answer:` line goes above"):
        parse(tmp_path, text)


def test_the_notebook_is_the_same_bytes_every_time(tmp_path):
    doc = parse(tmp_path)
    make = lambda: chapter_notebook(doc, RECORD, CODE.__getitem__, tmp_path)  # noqa: E731
    assert make() == make()
