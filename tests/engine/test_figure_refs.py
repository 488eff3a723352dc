"""Prose names a figure by its snippet, `[[fig:NAME]]`, and the engine writes its number
and link on the page and in the notebook; a number typed by hand ("Figure 4.7") fails
the build at its page and line. In-process, on a fixture page and a record made by hand.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import markdown
import pytest

from bookrun.config import BookConfig
from bookrun.model.page import FigureFile, PageError, SnippetRecord
from bookrun.parse.chapter import parse_chapter
from bookrun.render.links import PageLinks
from bookrun.render.notebook import chapter_notebook
from bookrun.render.notebook_prose import SiteLinks
from bookrun.render.page import render_page
from bookrun.store.audit import unexplained_numbers
from bookrun.store.book import Book
from helpers.pages import BOOK_POLICY

ALT = "a rising line drawn on plain axes, nothing else to see"
PAGE = f"""# Demo

@run demo/line.py
Figure: One line.
Alt: One line, {ALT}.

@run demo/pair.py
Figure: The left panel.
Alt: The left one, {ALT}.
Figure: The right panel.
Alt: The right one, {ALT}.

As [[fig:line]] shows, and [[fig:pair#2]] after it; `[[fig:line]]` is code.
"""
CODE = {"demo/line.py": "show_line()\n", "demo/pair.py": "show_two()\n"}
RECORD_FIGURES = {"demo/line.py": ("line-1.svg",), "demo/pair.py": ("pair-1.svg", "pair-2.svg")}


def record():
    from bookrun.store.records import Record
    return Record("demo", "stamp", {}, tuple(
        SnippetRecord(rel, "", tuple(FigureFile(n, "0" * 64) for n in names), ())
        for rel, names in RECORD_FIGURES.items()))


def parse(tmp_path, text=PAGE):
    root = tmp_path / "snippets"
    for rel, code in CODE.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(code, encoding="utf-8")
    return parse_chapter(text, root, "docs/demo.md", tmp_path / "demo.md", min_alt_words=8)


def render(doc, config=BOOK_POLICY, rec="default", number="4"):
    return render_page(doc, record() if rec == "default" else rec, CODE.__getitem__,
                       PageLinks("demo.md"), config, chapter_number=number)


def line_of(text: str, needle: str) -> int:
    return next(n for n, ln in enumerate(text.splitlines(), 1) if needle in ln)


def test_a_reference_renders_the_figures_number_and_a_link_that_lands(tmp_path):
    out = render(parse(tmp_path))
    assert ("As [Figure 4.1](#figure-4-1) shows, and [Figure 4.3](#figure-4-3) after it; "
            "`[[fig:line]]` is code.") in out
    # the link lands: the figure it names has that id, under its numbered caption
    html = markdown.markdown(out, extensions=["attr_list", "pymdownx.blocks.caption",
                                              "pymdownx.superfences"])
    for number in ("4-1", "4-3"):
        assert f'href="#figure-{number}"' in html and f'<figure id="figure-{number}">' in html
    assert re.search(r'<figure id="figure-4-3">.*?Figure 4\.3\..*?The right panel',
                     html, re.S)


def test_a_reference_in_a_caption_links_and_in_an_alt_text_is_plain(tmp_path):
    page = PAGE.replace("Figure: The right panel.", "Figure: The right panel, after [[fig:line]].")
    page = page.replace(f"Alt: The right one, {ALT}.", f"Alt: The right one, as [[fig:line]], {ALT}.")
    out = render(parse(tmp_path, page))
    assert "The right panel, after [Figure 4.1](#figure-4-1)." in out
    assert f"![The right one, as Figure 4.1, {ALT}.]" in out


def test_with_execution_off_a_reference_is_its_number_without_a_link(tmp_path):
    out = render(parse(tmp_path), rec=None)
    assert "As Figure 4.1 shows, and Figure 4.3 after it;" in out  # no figure to land on


@pytest.mark.parametrize("typed, says", [
    ("As Figure 4.1 shows.", "write [[fig:line]]"),
    ("As Figure 4.3 shows.", "write [[fig:pair#2]]"),
    ("As Figure 3.2 shows.", "write [[fig:NAME]]"),
])
def test_a_figure_number_typed_in_the_prose_fails_naming_page_and_line(tmp_path, typed, says):
    page = PAGE + f"\nSome words.\n\n{typed}\n"
    with pytest.raises(PageError) as err:
        render(parse(tmp_path, page))
    assert str(err.value).startswith(f"docs/demo.md:{line_of(page, typed)}: ")
    assert "typed by hand" in err.value.message and says in err.value.message


def test_a_typed_number_in_an_alt_text_fails_too(tmp_path):
    page = PAGE.replace(f"Alt: The right one, {ALT}.", f"Alt: The right one, like Figure 4.1, {ALT}.")
    with pytest.raises(PageError) as err:
        render(parse(tmp_path, page))
    assert err.value.line == line_of(page, "like Figure 4.1")


def test_without_numbered_figures_typed_text_is_left_and_a_reference_is_refused(tmp_path):
    off = BookConfig()
    assert "As Figure 4.1 shows." in render(parse(tmp_path, "# Demo\n\n@run demo/line.py\n"
                                                  f"Figure: One line.\nAlt: One line, {ALT}.\n"
                                                  "\nAs Figure 4.1 shows.\n"), off, number=None)
    with pytest.raises(PageError) as err:
        render(parse(tmp_path), off, number=None)
    assert err.value.line == line_of(PAGE, "As [[fig:line]]")
    assert "number_figures" in err.value.message


@pytest.mark.parametrize("ref, says", [
    ("[[fig:nothing]]", "names no figure of this page"),
    ("[[fig:pair]]", "shows 2 figures: write [[fig:pair#1]] or [[fig:pair#2]]"),
    ("[[fig:pair#3]]", "shows 2 figures: write [[fig:pair#1]] or [[fig:pair#2]]"),
    ("[[fig:line#2]]", "shows 1 figure: write [[fig:line]]"),
])
def test_a_reference_to_no_figure_fails_when_the_page_is_read(tmp_path, ref, says):
    page = PAGE + f"\nSee {ref}.\n"
    with pytest.raises(PageError) as err:
        parse(tmp_path, page)
    assert str(err.value).startswith(f"docs/demo.md:{line_of(page, ref)}: ")
    assert says in err.value.message


def notebook(doc, tmp_path, site_url=None):
    for names in RECORD_FIGURES.values():
        for name in names:
            (tmp_path / name).write_text("<svg/>", encoding="utf-8")
    cells = json.loads(chapter_notebook(doc, record(), CODE.__getitem__, tmp_path,
                                        SiteLinks("demo.md", site_url)))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def test_in_the_notebook_a_reference_is_numbered_and_links_to_its_figure(tmp_path):
    from dataclasses import replace
    doc = replace(parse(tmp_path), chapter_number="4")
    online = notebook(doc, tmp_path, "https://book.test/rl")
    assert ("As [Figure 4.1](https://book.test/rl/demo/#figure-4-1) shows, and "
            "[Figure 4.3](https://book.test/rl/demo/#figure-4-3) after it") in online
    # the notebook's own figures carry the same numbers, and the same anchors
    local = notebook(doc, tmp_path)
    assert "As [Figure 4.1](#figure-4-1) shows" in local
    for number, caption in (("4.1", "One line."), ("4.3", "The right panel.")):
        anchor = number.replace(".", "-")
        assert f'<a id="figure-{anchor}"></a>**Figure {number}.** {caption}' in local
    with pytest.raises(PageError) as err:
        notebook(parse(tmp_path / "unnumbered"), tmp_path)
    assert err.value.line == line_of(PAGE, "As [[fig:line]]")
    assert "number_figures" in err.value.message


def test_the_book_gives_each_document_its_chapter_number_from_the_nav(tmp_path):
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: T\nnav:\n  - Home: index.md\n  - Part:\n    - 4. Demo: demo.md\n"
        "markdown_extensions:\n  - bookrun.extension:\n      number_figures: true\n",
        encoding="utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "demo.md").write_text(PAGE, encoding="utf-8")
    parse(tmp_path)  # writes the snippets
    [doc] = Book(tmp_path).documents()
    assert doc.chapter_number == "4"
    (tmp_path / "docs" / "demo.md").write_text("---\nchapter: 9\n---\n" + PAGE, encoding="utf-8")
    assert Book(tmp_path).documents()[0].chapter_number == "9"  # the front matter wins
    plain = Book(tmp_path, config=BookConfig())
    assert plain.documents()[0].chapter_number is None  # figures not numbered


def test_a_reference_is_not_a_number_the_audit_asks_about(tmp_path):
    page = tmp_path / "demo.md"
    page.write_text(PAGE.replace("after it;", "after it, and [[fig:pair#1]];"), encoding="utf-8")
    doc = parse(tmp_path, page.read_text(encoding="utf-8"))
    assert unexplained_numbers(doc.chapter, record(), tmp_path / "snippets", "demo.md") == []

