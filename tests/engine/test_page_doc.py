"""One parse, spliced by the renderer: a page read and walked once, each `{{ }}` filled
from the snippet it follows, the book's policies as options, golden Markdown.

Everything here is in-process, on strings and a few small files. The golden files in
tests/engine/golden/ are what `render_page` gives for one fixture page; when the output
changes on purpose, rewrite them with `BOOKRUN_REGEN=1 python -m pytest tests/engine`
and read the diff before committing it (as MyST-NB's regression files are kept).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bookrun.config import BookConfig
from bookrun.model.page import FigureFile, PageError, RecordError, SnippetRecord
from bookrun.parse import chapter as chapter_module
from bookrun.parse.chapter import parse_chapter, read_page
from bookrun.render.links import PageLinks
from bookrun.render.page import render_page
from bookrun.store.records import FORMAT, Record
from helpers.pages import BOOK_POLICY

GOLDEN = Path(__file__).parent / "golden"
REGEN = os.environ.get("BOOKRUN_REGEN") == "1"

FRONT = """---
level: Beginner
before:
  - "[Setup](setup.md#the-loop)"
done_when:
  - text: You can say which x each sentence shows.
    anchor: check-x
  - text: You can read the figure.
    anchor: check-figure
---

"""

BODY = """# Demo chapter

Words before any code, and `{{ not a binding }}` in inline code.

@run demo/a.py

After a.py, x is {{ x }}.

```python
print("a code block in the page: {{ x }} stays as written")
```

@run demo/b.py
Figure: Ten times x is {{ x * 10 }}.
Alt: One bar of height {{ x * 10 }}, the only bar, rising from the axis.

After b.py, x is {{ x }}; [[fig:b]] shows it.

<a id="check-x"></a>

Which x? <a id="check-figure"></a>
"""

PAGE = FRONT + BODY
TYPED = PAGE.replace("[[fig:b]] shows", "Figure 4.1 shows")  # a number typed by hand
ALT = "Alt: One bar of height {{ x * 10 }}, the only bar, rising from the axis."
CODE = {"demo/a.py": "x = 1\n", "demo/b.py": "x = 2\n\nshow_bar(x * 10)\n"}
BUTTONS = '<a class="md-button" download href="../notebooks/demo/demo.ipynb">Download .ipynb</a>'
RECORD = Record("demo", "stamp", {}, (
    SnippetRecord("demo/a.py", "", (), (), {"x": "1"}),
    SnippetRecord("demo/b.py", "", (FigureFile("b-1.svg", "0" * 64),), (),
                  {"x * 10": "20", "x": "2"}),
))


def snippets(tmp_path: Path) -> Path:
    root = tmp_path / "snippets"
    for rel, code in CODE.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(code, encoding="utf-8")
    return root


def doc_of(tmp_path, text=PAGE, **kw):
    return parse_chapter(text, snippets(tmp_path), "docs/demo.md", tmp_path / "demo.md", **kw)


def render(doc, record=RECORD, config=BOOK_POLICY, number="4"):
    return render_page(doc, record, CODE.__getitem__,
                       PageLinks("demo.md", BUTTONS, "../", has_pdf=True),
                       config, chapter_number=number)


def golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if REGEN:
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.is_file(), f"{path} is missing: BOOKRUN_REGEN=1 writes it"
    assert text == path.read_text(encoding="utf-8"), \
        f"render_page's output changed from {path.name}: BOOKRUN_REGEN=1 rewrites it"


# -- the document ---------------------------------------------------------------------
def test_the_parse_holds_chapter_front_matter_facts_and_ranges(tmp_path):
    doc = doc_of(tmp_path)
    first = FRONT.count("\n")  # the body's first line is the file's line first + 1
    a, b = doc.chapter.steps
    assert (a.snippet, a.line, a.end) == ("demo/a.py", first + 5, first + 5)
    assert (b.snippet, b.line, b.end) == ("demo/b.py", first + 13, first + 15)  # + its figure
    assert doc.meta["level"] == "Beginner" and doc.body_line == first + 1
    assert doc.title_line == first + 1 and doc.title == "Demo chapter"
    # each prose line with a binding, and the step it follows (captions go with figures)
    assert doc.fills == {first + 7: 0, first + 17: 1}
    assert [(b.body, b.line) for b in b.bindings] == [
        ("x * 10", first + 14), ("x * 10", first + 15), ("x", first + 17)]
    assert doc.cited_at == {first + 17} and doc.figure_names == {"b": 1}  # [[fig:b]]
    assert doc.refs == ()  # no "Figure 4.1" typed by hand
    assert doc.facts.figures == 1 and doc.facts.interactive == 0
    assert doc.facts.code_lines == 1  # the page's own block; snippets count at render time
    # words: not the front matter, the @run lines, the code or the text alternative
    assert doc.facts.prose_words == 46  # [[fig:b]] counts as two words
    assert doc.body() == BODY


def test_a_page_is_read_once_and_walked_once_per_render(tmp_path, monkeypatch):
    page = tmp_path / "docs" / "demo.md"
    page.parent.mkdir()
    page.write_text(PAGE, encoding="utf-8")
    reads, walks = [], []
    read_text, walk = Path.read_text, chapter_module.iter_prose_lines

    def counted_read(self, *args, **kwargs):
        if Path(self) == page:
            reads.append(self)
        return read_text(self, *args, **kwargs)

    def counted_walk(text):
        walks.append(text)
        return walk(text)

    monkeypatch.setattr(Path, "read_text", counted_read)
    monkeypatch.setattr(chapter_module, "iter_prose_lines", counted_walk)
    doc = read_page(page, snippets(tmp_path), "docs/demo.md", 8)
    out = render(doc)
    assert "After b.py, x is 2" in out
    assert (len(reads), len(walks)) == (1, 1)


# -- values per snippet ---------------------------------------------------------------
def test_each_binding_shows_the_value_of_the_snippet_it_follows(tmp_path):
    out = render(doc_of(tmp_path))
    assert out.index("After a.py, x is 1.") < out.index("After b.py, x is 2;")
    assert "Figure: " not in out and "Ten times x is 20." in out
    assert "![One bar of height 20, the only bar" in out
    assert "{{ not a binding }}" in out and "{{ x }} stays as written" in out


def test_a_value_missing_from_the_record_names_page_line_and_snippet(tmp_path):
    bare = Record("demo", "stamp", {}, (RECORD.snippets[0],
                                        RECORD.snippets[1].__class__("demo/b.py", "", (
                                            FigureFile("b-1.svg", "0" * 64),), (),
                                            {"x * 10": "20"})))
    with pytest.raises(PageError) as err:
        render(doc_of(tmp_path), bare)
    assert err.value.line == FRONT.count("\n") + 17
    assert "{{ x }} has no value after snippets/demo/b.py" in err.value.message


def test_text_changed_before_the_extension_is_refused_not_misplaced(tmp_path):
    doc = doc_of(tmp_path)
    shifted = BODY.replace("Words before", "An added line.\n\nWords before")
    with pytest.raises(PageError, match="not the page as parsed"):
        render_page(doc, RECORD, CODE.__getitem__, PageLinks("demo.md"), BOOK_POLICY,
                    chapter_number="4", text=shifted, first_line=doc.body_line)


# -- records of format 2 --------------------------------------------------------------
def test_a_record_keeps_values_per_snippet_under_format_2():
    data = json.loads(RECORD.to_json())
    assert data["format"] == FORMAT == 2 and list(data)[0] == "format"
    assert "values" not in data
    assert [s.get("values") for s in data["snippets"]] == [{"x": "1"}, {"x * 10": "20", "x": "2"}]
    again = Record.from_json(RECORD.to_json(), "demo")
    assert again == RECORD and again.value("x * 10") == "20"
    assert again.value("x", "a.py") == "1" and again.value("x", "demo/b.py") == "2"
    with pytest.raises(KeyError, match="differs by place"):
        again.value("x")


def test_a_record_of_format_1_is_refused_with_the_way_out():
    data = json.loads(RECORD.to_json())
    del data["format"]
    data["values"] = {"x": "2"}
    with pytest.raises(RecordError, match=r"record format 1.*python -m bookrun update demo"):
        Record.from_json(json.dumps(data), "demo")


# -- the book's policies, as options ---------------------------------------------------
def test_with_the_policies_on_the_page_gets_header_numbers_and_rules(tmp_path):
    out = render(doc_of(tmp_path, min_alt_words=8))
    assert out.index("# Demo chapter") < out.index('<div class="chapter-header"')
    assert "Beginner · about 5 min · 1 figure" in out and BUTTONS in out
    assert '<a class="md-button" href="../book.pdf">PDF of the book</a>' in out
    assert "/// figure-caption | 4.1\n    attrs: {id: figure-4-1}" in out
    with pytest.raises(PageError, match="at least 8 words"):
        doc_of(tmp_path, PAGE.replace(ALT, "Alt: A short bar."), min_alt_words=8)
    assert "[Figure 4.1](#figure-4-1) shows it" in out
    with pytest.raises(PageError, match=r"Figure 4.1 is typed by hand: write \[\[fig:b\]\]"):
        render(doc_of(tmp_path, TYPED))
    with pytest.raises(PageError, match="numbered nav title"):
        render(doc_of(tmp_path), number=None)


def test_with_the_policies_off_the_page_has_no_header_numbers_or_alt_length(tmp_path):
    off = BookConfig()
    assert (off.chapter_headers, off.min_alt_words, off.number_figures) == (False, 0, False)
    short = TYPED.replace(ALT, "Alt: A short bar.").replace(
        "Figure 4.1 shows", "Figure 4.2 shows")
    out = render(doc_of(tmp_path, short), config=off, number=None)
    assert "chapter-header" not in out and "PDF of the book" not in out
    assert out.startswith(f"# Demo chapter\n\n{BUTTONS}\n")  # the buttons stay
    assert "/// caption\n    attrs: {id: figure-1}" in out and "figure-caption" not in out
    assert "Figure 4.2 shows it" in out  # not a number the book checks
    with pytest.raises(PageError, match="not empty, not the caption"):
        doc_of(tmp_path, PAGE.replace(ALT, "Alt:"))


# -- golden output --------------------------------------------------------------------
def test_render_page_golden_with_the_book_policies(tmp_path):
    golden("policies-on.md", render(doc_of(tmp_path, min_alt_words=8)))


def test_render_page_golden_with_the_neutral_defaults(tmp_path):
    # unnumbered figures have no number to show: the page types none
    golden("policies-off.md", render(doc_of(tmp_path, TYPED), config=BookConfig(), number=None))


def test_render_page_golden_with_execution_off(tmp_path):
    golden("execution-off.md", render(doc_of(tmp_path), record=None))
