"""A snippet that prints a line wider than the page's output block is named, with its
`@run` line, when the chapter is built or checked (issue 32, item 6): the
`max_output_width` option, off unless the book sets it."""
import dataclasses

from bookrun.hosts.cli import main
from bookrun.store.width import SHOWN, columns, start
from helpers.books import make_book

# The limit is 10 columns: "x" * 10 fits, "y" * 11 does not.
PAGE = "# Demo\n\nText.\n\n@run demo/fits.py\n\n@run demo/wide.py\n"
CODE = {"fits.py": "print('x' * 10)\n", "wide.py": "print('short')\nprint('y' * 11)\n"}
OPTION = "markdown_extensions:\n  - bookrun.extension:\n      max_output_width: {}\n"


def warnings_of(book, limit: int | None = 10) -> list[str]:
    """What a build of `book` warns, with `max_output_width` at `limit` (None: as given)."""
    warnings = []
    if limit is not None:
        book.config = dataclasses.replace(book.config, max_output_width=limit)
    book.warn = warnings.append
    book.build()
    return warnings


def test_columns_count_what_the_page_shows():
    assert columns("abc") == 3
    assert columns("a\tb") == 9  # the tab reaches column 8
    assert columns("\x1b") == 4  # shown written out, `\x1b`
    assert columns("表") == 2  # a wide character takes two


def test_a_long_line_is_quoted_by_its_start():
    assert start("z" * SHOWN) == repr("z" * SHOWN)
    assert start("z" * (SHOWN + 1)) == repr("z" * SHOWN) + "..."


def test_a_build_warns_of_the_wide_snippet_only(tmp_path):
    warnings = warnings_of(make_book(tmp_path, PAGE, CODE))
    assert len(warnings) == 1
    assert warnings[0] == ("docs/demo.md:7: snippets/demo/wide.py prints 1 line(s) "
                           "wider than max_output_width (10), the widest 11: 'yyyyyyyyyyy'")


def test_a_reused_record_warns_again(tmp_path):
    book = make_book(tmp_path, PAGE, CODE)
    book.build()  # recorded with the limit off: no warning then
    warnings = warnings_of(book)
    assert [w.split(" prints")[0] for w in warnings] == ["docs/demo.md:7: snippets/demo/wide.py"]


def test_off_by_default(tmp_path):
    book = make_book(tmp_path, PAGE, CODE)
    warnings = warnings_of(book, limit=None)
    assert book.config.max_output_width == 0 and warnings == []


def test_check_reports_it_and_still_passes(tmp_path, capsys):
    (tmp_path / "mkdocs.yml").write_text(OPTION.format(10))
    make_book(tmp_path, PAGE, CODE)
    assert main(["update"], root=tmp_path) == 0
    capsys.readouterr()
    assert main(["check"], root=tmp_path) == 0
    err = capsys.readouterr().err
    assert ("bookrun: warning: docs/demo.md:7: snippets/demo/wide.py prints 1 line(s) wider "
            "than max_output_width (10)") in err
    assert "fits.py" not in err


# An interactive figure: its default frame prints 5 columns, the frame at n = 2 prints 12,
# which the page shows in the output's place when the slider moves there.
FRAMES_PAGE = ("# Demo\n\n@run demo/bars.py\n"
               "Figure: One bar whose height the control sets, from one to two.\n"
               "Alt: A single bar on fixed axes, one unit high or two units high.\n"
               "Interactive: bars\n"
               "Control: n = 1, 2 | height\n")
FRAMES_CODE = {"bars.py": """\
import matplotlib.pyplot as plt


def bars(n=1):
    fig, ax = plt.subplots(figsize=(2, 2))
    _ = ax.bar([0], [n])
    ax.set_ylim(0, 3)
    print("n" * 5 if n == 1 else "n" * 12)
    plt.show()


bars()
"""}


def test_a_frame_wider_than_the_limit_is_named(tmp_path):
    warnings = warnings_of(make_book(tmp_path, FRAMES_PAGE, FRAMES_CODE))
    assert warnings == ["docs/demo.md:3: snippets/demo/bars.py prints 1 line(s) wider than "
                        "max_output_width (10), the widest 12: 'nnnnnnnnnnnn'"]


def test_check_reads_the_fresh_runs_frames(tmp_path, capsys):
    (tmp_path / "mkdocs.yml").write_text(OPTION.format(10))
    make_book(tmp_path, FRAMES_PAGE, FRAMES_CODE)
    assert main(["update"], root=tmp_path) == 0
    capsys.readouterr()
    assert main(["check"], root=tmp_path) == 0
    assert "snippets/demo/bars.py prints 1 line(s) wider" in capsys.readouterr().err
