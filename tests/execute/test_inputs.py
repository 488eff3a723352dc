"""What a page, a snippet or a record may hand the engine (issue 25, the input half):
paths that stay in the book, the binding grammar, records that refuse a hand edit,
control characters shown rather than acted on, and limits checked before the cost."""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bookrun.hosts.cli import main
from bookrun.store.book import Book
from bookrun.model.page import Step
from bookrun.render.notebook import chapter_notebook
from bookrun.parse.chapter import PageError
from bookrun.store.records import Record, read_record, record_path
from bookrun.render.page import render_step
from helpers.pages import render_book_page
from bookrun.model.text import visible
from bookrun.execute.session import ExecutionError
from helpers.books import make_book
from helpers.builds import build_fixture as mkdocs_build

ROOT = Path(__file__).resolve().parents[2]


def files_under(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in folder.rglob("*") if p.is_file()}


def page_error(book) -> str:
    with pytest.raises(PageError) as err:
        book.build()
    return str(err.value)


# -- paths stay in the book (items 9, 10) -----------------------------------------------

@pytest.mark.parametrize("written", ["../../outside/evil.py", "/etc/passwd",
                                     "demo/../../outside/evil.py", "demo/.hidden.py",
                                     "demo/-x.py", "demo/a)b.py", 'demo/a"b.py', "evil.py"])
def test_a_path_out_of_the_book_or_an_odd_name_is_refused_at_parse_time(tmp_path, written):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "evil.py").write_text("print('ran outside the book')\n")
    book = make_book(tmp_path, f"# Demo\n\n@run {written}\n", {"a.py": "print(1)\n"})
    before = files_under(tmp_path)
    text = page_error(book)
    assert text.startswith("docs/demo.md:3: `@run` names a file as <chapter>/<file>.py")
    assert "no spaces, quotes, brackets, `..` or absolute paths" in text
    assert f"got {written!r}" in text
    assert files_under(tmp_path) == before  # nothing ran, nothing was recorded


def test_a_name_with_a_space_is_refused_with_the_rule(tmp_path):
    book = make_book(tmp_path, "# Demo\n\n@run demo/my file.py\n", {"a.py": "print(1)\n"})
    text = page_error(book)
    assert "docs/demo.md:3: `@run` names a file as" in text
    assert "a space in the name? the line reads '@run demo/my file.py'" in text


def test_a_symlink_out_of_the_snippets_folder_is_refused(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "evil.py").write_text("print('ran outside the book')\n")
    book = make_book(tmp_path, "# Demo\n\n@run demo/link.py\n", {"a.py": "print(1)\n"})
    (book.snippets_root / "demo" / "link.py").symlink_to(outside / "evil.py")
    text = page_error(book)
    assert text.startswith("docs/demo.md:3: demo/link.py leads outside the snippets folder")
    assert not record_path("demo", book.snippets_root).exists()


def test_the_code_block_title_escapes_the_name_it_shows():
    markdown = render_step('snippets/d/a"><b>x.py', "print(1)\n", None, None, "")
    assert 'title="snippets/d/a&quot;&gt;&lt;b&gt;x.py"' in markdown
    assert "<b>" not in markdown


# -- records you can trust (item 12) ----------------------------------------------------

def recorded_book(tmp_path, logs=None):
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n\nIt is {{ x }}.\n",
                     {"a.py": "x = 5\nprint('x is', x)\n"}, logs=logs)
    book.build()
    return book, record_path("demo", book.snippets_root)


@pytest.mark.parametrize("frozen", [False, True])
def test_a_hand_edited_output_is_refused_by_any_build(tmp_path, frozen):
    book, path = recorded_book(tmp_path)
    path.write_text(path.read_text().replace('"x is 5"', '"x is 6"'))  # stamp kept
    again = Book(root=tmp_path, frozen=frozen)
    again.log = lambda msg: None
    with pytest.raises(ExecutionError) as err:
        again.build()
    assert str(err.value) == ("snippets/demo/_record.json: edited by hand? its outputs do not "
                              "match its digest; run python -m bookrun update demo to execute "
                              "it afresh, and commit the result")
    assert '"x is 6"' in path.read_text()  # not silently replaced either
    book.build(force=True)  # `update`
    assert again.build()["demo"].output("a.py") == "x is 5\n"


def test_a_hand_edited_value_or_figure_hash_is_refused_too(tmp_path):
    book, path = recorded_book(tmp_path)
    data = json.loads(path.read_text())
    data["snippets"][0]["values"]["x"] = "6"
    path.write_text(json.dumps(data, indent=1))
    with pytest.raises(ExecutionError, match="edited by hand"):
        book.build()


def test_a_corrupt_record_says_corrupt_with_line_and_column(tmp_path):
    book, path = recorded_book(tmp_path)
    path.write_text(path.read_text().replace('"chapter": "demo",', '"chapter": "demo"'))
    with pytest.raises(ExecutionError, match=r"^snippets/demo/_record.json: corrupt: not JSON "
                                             r"at line 4, column 2 \(Expecting ','"):
        book.build()


def test_a_merge_conflict_in_a_record_is_named_as_such(tmp_path):
    book, path = recorded_book(tmp_path)
    lines = path.read_text().split("\n")
    lines[4:4] = ["<<<<<<< HEAD", lines[4], "=======", lines[4], ">>>>>>> other"]
    path.write_text("\n".join(lines))
    with pytest.raises(ExecutionError, match=r"_record.json: line 5: a merge conflict marker "
                                             r"\(<<<<<<<\): run python -m bookrun update demo"):
        book.build()
    assert book.check().problems[0].startswith("snippets/demo/_record.json: line 5: a merge")


def test_every_committed_record_carries_a_matching_digest():
    for path in sorted((ROOT / "snippets").glob("*/_record.json")):
        record = read_record(path)
        assert Record.from_json(record.to_json()) == record
        assert record.to_json() == path.read_text(encoding="utf-8")


# -- bindings (item 14) -----------------------------------------------------------------

@pytest.mark.parametrize("binding, says", [
    ("{{ 6 | 3 }}", "format '3' pads to a width with spaces"),
    ("{{ x | >8 }}", "format '>8' pads to a width with spaces"),
    ("{{ | .2f }}", "nothing before the `|`"),
    ("{{ x | }}", "nothing after the `|`"),
    ("{{ flags | mask }}", "'mask' after the `|` is not a format spec"),
    ("{{ x + }}", "'x +' is not a Python expression"),
])
def test_a_binding_outside_the_grammar_is_refused_naming_page_and_line(tmp_path, binding, says):
    book = make_book(tmp_path, f"# Demo\n@run demo/a.py\n\nSee {binding}.\n", {"a.py": "x = 5\n"})
    text = page_error(book)
    assert text.startswith(f"docs/demo.md:4: {binding}: {says}")


def test_zero_padding_and_ordinary_specs_are_accepted(tmp_path):
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n\n{{ x | 05d }} {{ x | ,d }} "
                     "{{ x | .1% }} {{ x | *>4 }}\n", {"a.py": "x = 5\n"})
    assert book.build()["demo"].snippet("a.py").values == {
        "x | 05d": "00005", "x | ,d": "5", "x | .1%": "500.0%", "x | *>4": "***5"}


def test_a_spec_format_rejects_fails_naming_page_and_line(tmp_path):
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n\nName {{ name | .2f }}.\n",
                     {"a.py": "name = 'bandit'\n"})
    with pytest.raises(ExecutionError, match=r"docs/demo.md:4: \{\{ name \| \.2f \}\} after "
                                             r"snippets/demo/a.py: ValueError: Unknown format"):
        book.build()


def test_a_value_showing_an_object_address_is_refused(tmp_path):
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n\nIt is {{ object() }}.\n",
                     {"a.py": "x = 5\n"})
    with pytest.raises(ExecutionError, match=r"docs/demo.md:4: \{\{ object\(\) \}\} after "
                                             r"snippets/demo/a.py shows an object address"):
        book.build()


def test_nothing_inside_inline_code_is_evaluated_or_replaced(tmp_path):
    page = ("# Demo\n@run demo/a.py\n\nWrite `{{ boom() }}` to bind; "
            "``a `{{ x }}` b`` and {{ x }} here.\n")
    book = make_book(tmp_path, page, {"a.py": "x = 5\n"})
    rec = book.build()["demo"]
    assert rec.snippet("a.py").values == {"x": "5"}
    html = render_book_page(book, rec)
    assert "Write `{{ boom() }}` to bind; ``a `{{ x }}` b`` and 5 here." in html


# -- text shown, not acted on (item 14) ----------------------------------------------

NOISY = "print('\\x00\\x07\\x1b[31mred\\x1b[0m\\rdone\\tok')\n"
SHOWN = "\\x00\\x07\\x1b[31mred\\x1b[0m\\rdone\tok\n"


def test_control_characters_are_written_out_on_the_page_and_in_the_notebook(tmp_path):
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n\nIt is {{ bell }}.\n",
                     {"a.py": NOISY + "bell = 'ding\\x07'\n"})
    rec = book.build()["demo"]
    assert rec.output("a.py") == "\x00\x07\x1b[31mred\x1b[0m\rdone\tok\n"  # the record is raw
    code = (book.snippets_root / "demo" / "a.py").read_text()
    page = render_book_page(book, rec)
    assert SHOWN in page and "It is ding\\\\x07." in page  # a value's `\` is escaped Markdown
    [doc] = book.documents()
    notebook = json.loads(chapter_notebook(doc, rec, lambda rel: code, tmp_path))
    [text] = [o["text"] for c in notebook["cells"] for o in c.get("outputs", [])]
    assert "".join(text) == SHOWN
    for shown in (page, json.dumps(notebook, ensure_ascii=False)):
        assert not any(ch in shown for ch in "\x00\x07\x1b\r")


def test_an_error_printed_to_the_terminal_cannot_drive_it(tmp_path, capsys):
    make_book(tmp_path, "# Demo\n@run demo/a.py\n",
              {"a.py": "raise ValueError('\\x1b[2J\\x1b[Hcleared')\n"})
    assert main(["update", "demo"], root=tmp_path) == 1
    err = capsys.readouterr().err
    assert "ValueError: \\x1b[2J\\x1b[Hcleared" in err and "\x1b" not in err


def test_visible_keeps_newlines_and_tabs_and_writes_out_the_rest():
    assert visible("a\tb\nc") == "a\tb\nc"
    assert visible("\x00\x7f\x9b\u202e\r") == "\\x00\\x7f\\x9b\\u202e\\r"


# -- limits before the cost (item 13) -------------------------------------------------

@pytest.mark.parametrize("code, says", [
    ("fig = plt.figure(figsize=(100, 100), dpi=100)\n",
     "figure 1 is 10000 x 10000 pixels (figure size x dpi), over the limit of 20 million"),
    ("import numpy as np\nfig = plt.figure(figsize=(2, 2))\n"
     "_ = plt.imshow(np.zeros((5000, 6000), dtype=np.uint8))\n",
     "figure 1 shows an image of 6000 x 5000 pixels, over the limit of 20 million"),
])
def test_a_figure_too_many_pixels_is_refused_before_it_is_drawn(tmp_path, code, says):
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n",
                     {"a.py": "import matplotlib.pyplot as plt\n" + code + "plt.show()\n"})
    t0 = time.perf_counter()
    with pytest.raises(ExecutionError) as err:
        book.build()
    assert time.perf_counter() - t0 < 30
    assert f"snippets/demo/a.py:" in str(err.value) and says in str(err.value)
    assert "refused before drawing" in str(err.value)
    assert "max-figure-megapixels=N" in str(err.value)


def test_the_pixel_limit_is_raised_on_the_directive(tmp_path):
    book = make_book(tmp_path, "# Demo\n@run demo/a.py max-figure-megapixels=30\n"
                     "Figure: A blank figure, only there to be large.\n"
                     "Alt: An empty white square with no axes, drawn only to test a limit.\n",
                     {"a.py": "import matplotlib.pyplot as plt\n"
                              "fig = plt.figure(figsize=(50, 50), dpi=100)\nplt.show()\n"})
    [snippet] = book.build()["demo"].snippets
    assert len(snippet.figures) == 1


@pytest.mark.parametrize("value", ["0", "-1"])
def test_the_plugin_refuses_a_time_limit_of_zero_or_less_naming_the_variable(tmp_path, value):
    result = mkdocs_build(tmp_path, "# Demo\n@run demo/a.py\n", {"a.py": "print(1)\n"},
                          {"BOOKRUN_TIMEOUT": value}, timeout="!ENV [BOOKRUN_TIMEOUT, 60]")
    assert result.returncode == 1
    assert (f"bookrun: BOOKRUN_TIMEOUT: not a positive number of seconds: "
            f"'{value}'") in result.stderr, result.stderr
    assert not (tmp_path / "snippets" / "demo" / "_record.json").exists()


def test_the_cli_takes_timeout_anywhere_and_refuses_zero(tmp_path, monkeypatch, capsys):
    make_book(tmp_path, "# Demo\n@run demo/a.py\n", {"a.py": "print(1)\n"})
    assert main(["update", "--timeout", "600", "demo"], root=tmp_path) == 0
    assert main(["check", "demo", "--timeout", "600"], root=tmp_path) == 0
    monkeypatch.setenv("BOOKRUN_TIMEOUT", "0")
    with pytest.raises(SystemExit):
        main(["check", "demo"], root=tmp_path)
    assert "BOOKRUN_TIMEOUT: not a positive number of seconds: '0'" in capsys.readouterr().err


def test_the_plugin_writes_out_control_characters_in_the_error_it_prints(tmp_path):
    result = mkdocs_build(tmp_path, "# Demo\n@run demo/a.py\n",
                          {"a.py": "print('\\x07bell')\nraise ValueError('\\x1b[2Jcleared')\n"})
    assert result.returncode == 1
    assert "ValueError: \\x1b[2Jcleared" in result.stderr and "\\x07bell" in result.stderr
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr


def test_the_serve_error_panel_writes_out_control_characters():
    from bookrun.render.extension import error_panel

    panel = error_panel("# Title", "ValueError: \x1b[2J<b>")
    assert "ValueError: \\x1b[2J&lt;b&gt;" in panel and "\x1b" not in panel
