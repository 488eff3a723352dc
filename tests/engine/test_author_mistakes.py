"""What a new author of another book met first (issue 43), in-process: a binding typed
without its spaces, the audit reading `@run` options and controls, the CLI's help and
errors, the public API's errors, and the schema's `sandbox: off`."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import bookrun
from bookrun.config import BookConfig
from bookrun.hosts.cli import main
from bookrun.model.page import ExecutionError, PageError, SnippetRecord
from bookrun.parse.chapter import parse_chapter
from bookrun.store.audit import unexplained_numbers
from bookrun.store.book import Book
from bookrun.store.records import Record

ROOT = Path(__file__).resolve().parents[2]


def snippets(tmp_path: Path) -> Path:
    (tmp_path / "snippets" / "pi").mkdir(parents=True, exist_ok=True)
    (tmp_path / "snippets" / "pi" / "estimate.py").write_text("pi_hat = 3.1416\n")
    return tmp_path / "snippets"


@pytest.mark.parametrize("typed, line, meant", [
    ("The estimate is {{pi_hat|.4f}}.", 5, "{{ pi_hat | .4f }}"),
    ("The estimate is {{ pi_hat}}.", 5, "{{ pi_hat }}"),
])
def test_a_binding_without_its_spaces_fails_naming_page_line_and_the_fix(tmp_path, typed,
                                                                         line, meant):
    """It used to be published as the literal text `{{pi_hat|.4f}}`, silently."""
    page = f"# Pi\n\n@run pi/estimate.py\n\n{typed}\n"
    with pytest.raises(PageError) as err:
        parse_chapter(page, snippets(tmp_path), "docs/pi.md")
    assert str(err.value).startswith(f"docs/pi.md:{line}: ")
    assert f"write {meant}, with a space inside each brace pair" in str(err.value)


def test_a_binding_above_the_first_run_line_without_its_spaces_fails_too(tmp_path):
    with pytest.raises(PageError, match=r"^docs/pi\.md:3: \{\{n\}\} would be shown as typed"):
        parse_chapter("# Pi\n\n{{n}} darts.\n\n@run pi/estimate.py\n", snippets(tmp_path),
                      "docs/pi.md")


def test_braces_in_tex_and_code_and_pages_that_run_nothing_stay_as_written(tmp_path):
    page = ("# Pi\n\n@run pi/estimate.py\n\n$x^{{2}}$, $\\frac{{a}}{b}$, `{{x}}` and "
            "{{ pi_hat | .2f }}.\n")
    doc = parse_chapter(page, snippets(tmp_path), "docs/pi.md")
    assert [b.body for b in doc.chapter.steps[0].bindings] == ["pi_hat | .2f"]
    assert parse_chapter("# Templates\n\nJinja writes {{x}}.\n", snippets(tmp_path),
                         "docs/t.md") is None


INTERACTIVE = """\
# Sorting

We sorted 77 lists.

@run pi/estimate.py max-frame-kb=120 max-output=250
Figure: Comparisons against the list's length.
Alt: A rising curve of comparisons as the list grows longer, steeper for bubble sort.
Interactive: draw
Control: n = 100, 300, 1000 | list length
"""


def test_the_audit_reads_no_run_option_and_no_control_value(tmp_path):
    """`max-frame-kb=120` and `Control: n = 100, 300, 1000` are no claims of the prose;
    77, typed in a sentence and printed by no snippet, is."""
    root = snippets(tmp_path)
    (tmp_path / "docs").mkdir()
    page = tmp_path / "docs" / "sorting.md"
    page.write_text(INTERACTIVE)
    doc = parse_chapter(INTERACTIVE, root, "docs/sorting.md", page)
    record = Record("pi", "stamp", {}, (SnippetRecord("pi/estimate.py", "sorted\n", (), (),
                                                      {}),))
    problems = unexplained_numbers(doc.chapter, record, root, "docs/sorting.md")
    assert len(problems) == 1 and problems[0].startswith("docs/sorting.md:3: 77 is typed"), \
        problems


def book(tmp_path: Path, config: str | None = None) -> Book:
    (tmp_path / "docs").mkdir(exist_ok=True)
    root = snippets(tmp_path)
    (root / "sorting").mkdir()
    (root / "sorting" / "bubble.py").write_text("comparisons = 10\n")
    (tmp_path / "docs" / "pi.md").write_text("# Pi\n\n@run pi/estimate.py\n")
    (tmp_path / "docs" / "sorting.md").write_text("# Sorting\n\n@run sorting/bubble.py\n")
    if config is not None:
        (tmp_path / "mkdocs.yml").write_text(config)
    return Book(root=tmp_path)


def test_an_unknown_chapter_is_a_bookrun_error_naming_the_chapters(tmp_path):
    """It was SystemExit, which `except BookrunError` (or Exception) does not catch."""
    with pytest.raises(bookrun.UnknownChapter) as err:
        book(tmp_path).chapter("sort")
    assert isinstance(err.value, bookrun.BookrunError)
    assert str(err.value) == ("no chapter named 'sort'; the book's chapters (snippet "
                              "folders): pi, sorting")


def test_the_root_error_class_is_public():
    from bookrun.errors import BookrunError
    assert bookrun.BookrunError is BookrunError and "BookrunError" in bookrun.__all__
    for name in ("PageError", "ExecutionError", "RecordError", "ConfigError", "UnknownChapter"):
        assert issubclass(getattr(bookrun, name), BookrunError), name


def test_each_command_has_its_own_help(capsys):
    with pytest.raises(SystemExit) as done:
        main(["check", "--help"])
    assert done.value.code == 0
    shown = " ".join(capsys.readouterr().out.split())  # argparse wraps the lines
    assert shown.startswith("usage: python -m bookrun check ")
    assert "compare it with its committed record" in shown
    assert "Command line: run one page" not in shown  # the top-level help, repeated before
    with pytest.raises(SystemExit):
        main(["update", "-h"])
    assert "rewrite its record and figures" in " ".join(capsys.readouterr().out.split())


def test_an_error_every_chapter_meets_is_printed_once_and_prefixed_once(tmp_path, monkeypatch,
                                                                      capsys):
    """As when the sandbox cannot start: each chapter raised the same `bookrun: ...`."""
    book(tmp_path)
    why = "bookrun: the sandbox cannot start (bwrap is not on the PATH), so no snippet runs."

    def refuse(self, chapter):
        raise ExecutionError(why)

    monkeypatch.setattr(Book, "run", refuse)
    assert main(["check"], root=tmp_path) == 1
    err = capsys.readouterr().err
    assert "bookrun: error: the sandbox cannot start" in err
    assert "bookrun: bookrun:" not in err and "error: bookrun:" not in err
    assert err.count("the sandbox cannot start") == 1, err


def test_a_mkdocs_yml_naming_no_bookrun_is_refused_naming_its_line(tmp_path, monkeypatch,
                                                                 capsys):
    """`check` and `prepare` used to run with the defaults while MkDocs published every
    @run line as text; now nothing runs and nothing is written."""
    monkeypatch.chdir(tmp_path)
    book(tmp_path, "site_name: Small\nplugins:\n  - search\nmarkdown_extensions:\n"
                   "  - attr_list\n")
    neither = ("mkdocs.yml:2: this file names neither the `bookrun` plugin nor "
               "`bookrun.extension`, so MkDocs would show every @run line and {{ }} as text: "
               "add `- bookrun` under `plugins:`")
    zensical = ("mkdocs.yml:4: Zensical runs no plugin: list `- bookrun.extension` under "
                "`markdown_extensions:`")
    for command, says in (("check", neither), ("update", neither), ("prepare", zensical)):
        with pytest.raises(SystemExit) as done:
            main([command], root=tmp_path)
        assert done.value.code == 2
        assert f"python -m bookrun {command}: error: {says}" in capsys.readouterr().err
    assert not list(tmp_path.rglob("_record.json")) and not (tmp_path / "docs" / "assets").exists()


@pytest.mark.parametrize("plugins, says", [
    # The README's options, their plugin's line deleted: under the plugin above them ...
    ("  - search:\n      snippets_dir: snippets\n      timeout: 300\n",
     "mkdocs.yml:3: snippets_dir, timeout: bookrun's options, under `search` in `plugins:`; "
     "the `- bookrun:` line above them is missing"),
    # ... or an entry of their own (MkDocs then says only "Invalid Plugins configuration").
    ("  - search\n  -   snippets_dir: snippets\n      timeout: 300\n",
     "mkdocs.yml:4: snippets_dir, timeout: bookrun's options, as an entry of their own"),
])
def test_options_whose_plugin_line_is_missing_are_named(tmp_path, monkeypatch, capsys,
                                                        plugins, says):
    monkeypatch.chdir(tmp_path)
    book(tmp_path, "site_name: Small\nplugins:\n" + plugins)
    with pytest.raises(SystemExit):
        main(["check"], root=tmp_path)
    assert says in capsys.readouterr().err


def test_the_schema_takes_sandbox_off_as_yaml_reads_it():
    """`sandbox: off` is YAML's false: the documented spelling was refused by editors."""
    import jsonschema
    import yaml

    schema = json.loads((ROOT / "docs" / "schema.json").read_text(encoding="utf-8"))
    for text in ("sandbox: off", "sandbox: on", "sandbox: 'off'"):
        jsonschema.validate({"bookrun.extension": yaml.safe_load(text)}, schema)
        assert BookConfig.from_options(yaml.safe_load(text)).sandbox in ("on", "off")
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"bookrun.extension": {"sandbox": "maybe"}}, schema)
