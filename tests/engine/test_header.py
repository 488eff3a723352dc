"""The chapter header under a page's title, rendered in-process from a small fixture page."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from bookrun.render.header import (CODE_LINES_PER_MINUTE, WORDS_PER_MINUTE, check_fields,
                            split_front_matter)
from bookrun.parse.chapter import PageError, parse_chapter
from bookrun.render.links import PageLinks
from bookrun.render.page import render_page
from helpers.pages import BOOK_POLICY

ROOT = Path(__file__).resolve().parents[2]

FRONT = """---
level: Intermediate
before:
  - "[Bandits: Thompson sampling](bandits.md#strategy-4-thompson-sampling)"
  - "[Setup: the loop](setup.md#the-loop)"
done_when:
  - text: You can say why the sum is 3.
    anchor: check-sum
  - text: You can name the figure's axes.
    anchor: check-axes
---
"""

BODY = """# Demo chapter

Some words to read before the code.

@run demo/add.py

<!-- interactive
Interactive: a slider for the sum
-->

## Self-test

<a id="check-sum"></a>

??? question "Why is the sum 3?"
    Because one plus two is three.

<a id="check-axes"></a>

??? question "What are the axes?"
    None: this page draws nothing.
"""

SNIPPET = "a = 1\nb = 2\n\nprint(a + b)\n"  # three non-blank lines


def render(tmp_path: Path, front: str = FRONT, body: str = BODY,
           links: str = '<a class="md-button" download '
                        'href="../notebooks/demo/demo.ipynb">Download .ipynb</a>',
           pdf: bool = True) -> str:
    """Render the page as the extension does: parsed from its file, and the text MkDocs
    converts (the front matter stripped) spliced."""
    docs, snippets = tmp_path / "docs", tmp_path / "snippets"
    (snippets / "demo").mkdir(parents=True, exist_ok=True)
    (snippets / "demo" / "add.py").write_text(SNIPPET, encoding="utf-8")
    docs.mkdir(exist_ok=True)
    page = docs / "demo.md"
    page.write_text(front + body, encoding="utf-8")
    doc = parse_chapter(front + body, snippets, str(page), page)
    code = lambda rel: (snippets / rel).read_text(encoding="utf-8")  # noqa: E731
    return render_page(doc, None, code, PageLinks("demo.md", links, has_pdf=pdf), BOOK_POLICY,
                       text=body,
                       first_line=front.count("\n") + 1)


def header(out: str) -> str:
    start = out.index('<div class="chapter-header" markdown>')
    return out[start:out.index("</div>", start)]


def facts(out: str) -> str:
    return re.search(r'<p class="chapter-facts">(.*?)</p>', out).group(1)


def test_header_sits_under_the_title_with_every_part(tmp_path):
    out = render(tmp_path)
    lines = out.splitlines()
    assert lines[0] == "# Demo chapter"
    assert out.index("# Demo chapter") < out.index("chapter-header") < out.index("Some words")
    head = header(out)
    # 13 words and 3 code lines: under a minute, so the floor of 5
    assert facts(out) == "Intermediate · about 5 min · 0 figures"
    assert 'download href="../notebooks/demo/demo.ipynb"' in head       # buttons as before
    assert '<a class="md-button" href="../book.pdf">PDF of the book</a>' in head
    assert ("**Before this chapter:** [Bandits: Thompson sampling]"
            "(bandits.md#strategy-4-thompson-sampling); [Setup: the loop](setup.md#the-loop)"
            in head)
    assert "- You can say why the sum is 3. [Check yourself](#check-sum)" in head
    assert "- You can name the figure's axes. [Check yourself](#check-axes)" in head


def test_figures_counted_from_captions(tmp_path):
    body = BODY.replace("@run demo/add.py\n", "@run demo/add.py\nFigure: The sum.\n"
                        "Alt: A single bar of height three, the sum of one and two.\n")
    assert facts(render(tmp_path, body=body)) == "Intermediate · about 5 min · 1 figure"
    assert "0 figures" in facts(render(tmp_path))
    # an interactive figure is one with controls (a commented-out line is none)
    live = body.replace("the sum of one and two.\n", "the sum of one and two.\n"
                        "Interactive: draw\nControl: n = 1, 2 | terms\n")
    assert facts(render(tmp_path, body=live)) == ("Intermediate · about 5 min · 1 figure · "
                                                  "1 interactive")


def test_reading_time_grows_with_words_and_code(tmp_path):
    base = facts(render(tmp_path))
    assert "about 5 min" in base
    # 1,200 more words are 6 more minutes at 200 a minute: 10 min after rounding up to 5
    more_words = BODY.replace("Some words to read", "Some words to read " + "word " * 1200)
    assert "about 10 min" in facts(render(tmp_path, body=more_words))
    assert WORDS_PER_MINUTE == 200 and CODE_LINES_PER_MINUTE == 10
    # code in the page counts too: 120 lines are 12 minutes, so 15 after rounding
    block = "```python\n" + "x = 1\n" * 120 + "```\n"
    more_code = BODY.replace("## Self-test", block + "\n## Self-test")
    assert "about 15 min" in facts(render(tmp_path, body=more_code))


def test_text_alternatives_and_comments_are_not_read_time(tmp_path):
    alt = ("@run demo/add.py\nFigure: The sum.\nAlt: " + "word " * 1200 + "\n    " +
           "word " * 600 + "\n")
    body = BODY.replace("@run demo/add.py\n", alt).replace(
        "<!-- interactive", "<!-- interactive " + "word " * 1200)
    assert "about 5 min" in facts(render(tmp_path, body=body))


def test_pdf_link_without_notebook_buttons_follows_directory_urls(tmp_path):
    out = render(tmp_path, links="")
    assert 'href="../book.pdf"' in header(out)


def test_no_pdf_link_in_a_build_without_the_pdf(tmp_path):
    head = header(render(tmp_path, pdf=False))
    assert "book.pdf" not in head and "PDF of the book" not in head
    assert 'download href="../notebooks/demo/demo.ipynb"' in head  # the other buttons stay


def test_page_without_header_fields_is_unchanged(tmp_path):
    out = render(tmp_path, front="", links="")
    assert "chapter-header" not in out
    assert out.splitlines()[0] == "# Demo chapter"


@pytest.mark.parametrize("bad, line, words", [
    ("level: Intermediate", "level: Expert", (2, "level must be one of")),
    ('  - "[Setup: the loop](setup.md#the-loop)"', "  - setup.md", (3, "before must be")),
    ("    anchor: check-axes", "    anchor: check-nowhere", (6, "'check-nowhere' is not")),
    ("  - text: You can name the figure's axes.\n    anchor: check-axes\n", "",
     (6, "2 to 4 outcomes")),
])
def test_bad_front_matter_names_page_and_line(tmp_path, bad, line, words):
    number, message = words
    with pytest.raises(PageError) as err:
        render(tmp_path, front=FRONT.replace(bad, line))
    assert err.value.path.endswith("demo.md") and message in err.value.message
    assert err.value.line == number


def test_missing_field_and_broken_yaml_are_errors(tmp_path):
    with pytest.raises(PageError, match="missing: done_when"):
        render(tmp_path, front=FRONT[:FRONT.index("done_when")] + "---\n")
    with pytest.raises(PageError, match="not valid YAML") as err:
        render(tmp_path, front="---\nlevel: [Intermediate\n---\n")
    assert err.value.path.endswith("demo.md")


def test_front_matter_blanked_keeps_line_numbers():
    meta, text = split_front_matter(FRONT + BODY, "demo.md")
    assert meta["level"] == "Intermediate"
    assert text.splitlines()[FRONT.count("\n")] == "# Demo chapter"
    assert not any(text.splitlines()[:FRONT.count("\n")])


def test_every_chapter_page_has_a_valid_header():
    pages = sorted(p for p in (ROOT / "docs").glob("*.md") if p.name != "index.md")
    assert len(pages) >= 7
    for page in pages:
        text = page.read_text(encoding="utf-8")
        meta, _ = split_front_matter(text, str(page))
        check_fields(meta, text, str(page))


def test_rendering_errors_name_the_file_line_despite_the_front_matter(tmp_path):
    """MkDocs strips the front matter before the renderer sees the page: the renderer is
    told on which of the file's lines the text starts, so a bad figure reference names
    the file's line."""
    from bookrun.model.page import SnippetRecord
    from bookrun.render.extension import first_line
    from bookrun.store.records import Record
    page = tmp_path / "demo.md"
    bad = BODY.replace("Some words to read", "Figure 1.9 says words to read")
    page.write_text(FRONT + bad, encoding="utf-8")
    assert first_line(FRONT + bad, bad) == FRONT.count("\n") + 1
    assert first_line(FRONT + bad, "# Other text\n") == 1
    snippets = tmp_path / "snippets"
    (snippets / "demo").mkdir(parents=True)
    (snippets / "demo" / "add.py").write_text(SNIPPET, encoding="utf-8")
    doc = parse_chapter(FRONT + bad, snippets, str(page), page)  # the file, parsed once
    record = Record("demo", "", {}, (SnippetRecord("demo/add.py", "3\n", ()),))
    with pytest.raises(PageError) as err:
        render_page(doc, record, lambda rel: SNIPPET, PageLinks("demo.md"), BOOK_POLICY,
                    chapter_number="1", text=bad, first_line=first_line(FRONT + bad, bad))
    assert err.value.line == FRONT.count("\n") + 3           # "Figure 1.9" in the file
