"""Zensical hands `bookrun.extension` only its own options (issue 43, item 4): the pages
must still follow the book's whole config, the plugin's options and the environment's
BOOKRUN_* included, as `prepare` and MkDocs do; and `prepare` refuses a mkdocs.yml whose
options sit on the plugin alone, which Zensical would publish as raw `@run` lines."""
import pytest
from helpers.builds import zensical_build

from bookrun.hosts.cli import main
from bookrun.hosts.prepare import prepare
from bookrun.store.book import Book

CONFIG = """\
site_name: Fixture
strict: true
nav:
  - "1. Demo": demo.md
plugins:
  - bookrun:
      number_figures: true
markdown_extensions:
  - bookrun.extension
  - attr_list
  - pymdownx.highlight
  - pymdownx.superfences
  - pymdownx.blocks.caption
"""
PAGE = """\
# Demo

@run demo/a.py
Figure: A rising line.
Alt: One straight line that rises from one to two across the plot.

@pdf
"""
PLOT = "import matplotlib.pyplot as plt\n\nfig, ax = plt.subplots()\n_ = ax.plot([1, 2])\nplt.show()\n"


def write(root, config):
    (root / "mkdocs.yml").write_text(config)
    (root / "docs").mkdir()
    (root / "docs" / "demo.md").write_text(PAGE)
    (root / "snippets" / "demo").mkdir(parents=True)
    (root / "snippets" / "demo" / "a.py").write_text(PLOT)


def test_zensical_pages_follow_the_plugins_options_and_the_environment(tmp_path, monkeypatch):
    write(tmp_path, CONFIG)
    Book(root=tmp_path, timeout=60).build()  # the record, as `bookrun update` writes it
    monkeypatch.setenv("BOOKRUN_PDF", "true")
    monkeypatch.setenv("BOOKRUN_FROZEN", "true")
    book = Book(root=tmp_path)
    assert (book.config.pdf, book.config.frozen, book.config.number_figures) == (True,) * 3
    prepare(book)
    built = zensical_build(tmp_path)
    assert built.returncode == 0, built.stderr
    page = (tmp_path / "site" / "demo" / "index.html").read_text()
    assert 'id="figure-1-1"' in page  # number_figures, given on the plugin only
    assert 'href="../book.pdf"' in page  # BOOKRUN_PDF, which the extension never read


def test_prepare_refuses_options_on_the_plugin_without_the_extension(tmp_path, monkeypatch,
                                                                   capsys):
    write(tmp_path, CONFIG.replace("  - bookrun.extension\n", ""))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit):
        main(["prepare"], root=tmp_path)
    assert ("mkdocs.yml:8: Zensical runs no plugin: list `- bookrun.extension` under "
            "`markdown_extensions:`") in capsys.readouterr().err
    assert not (tmp_path / "docs" / "assets").exists()  # nothing written
