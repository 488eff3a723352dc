"""The book built by Zensical: every chapter shows its record; stale input fails the build."""
import hashlib
import html
import os
import posixpath
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.builds import zensical_build
from helpers.paths import ROOT

from bookrun.store.book import Book
from bookrun.hosts.prepare import prepare
from bookrun.store.records import load_record

TAG = re.compile(r"<[^>]+>")
OUTPUT = re.compile(r'<div class="bookrun-output highlight">.*?<code[^>]*>(.*?)</code>', re.S)
# Code, and the snippets copy_above.py keeps as data for its copy buttons, are not prose.
CODE = re.compile(r"<pre\b.*?</pre>|<code\b.*?</code>|<script\b.*?</script>", re.S)
# A figure's image (its stacked panels, render/zoom.py, show the same file again).
IMG = re.compile(r'<img\b(?=[^>]*\bclass="bookrun-figure")[^>]*\bsrc="([^"]+)"')
ALT = re.compile(r'<img\b[^>]*\balt="([^"]*)"')
CHAPTERS = Book(root=ROOT).chapters()


def text_of(fragment: str) -> str:
    return html.unescape(TAG.sub("", fragment))


def html_page(site: Path, src: Path) -> tuple[Path, str]:
    """docs/x.md is x/index.html (directory URLs); docs/index.md is index.html."""
    rel = src.relative_to(ROOT / "docs").with_suffix("")
    path = site / ("" if rel.name == "index" else rel) / "index.html"
    assert path.is_file(), f"{src.name}: no page in the Zensical site"
    return path, path.read_text(encoding="utf-8")


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c.name)
def test_every_output_figure_and_bound_value_is_on_the_page(zensical_site, chapter):
    record = load_record(chapter.name, ROOT / "snippets")
    path, page = html_page(zensical_site, chapter.page)
    article = page[page.index("<article"):page.index("</article>")]
    shown = [text_of(block).rstrip("\n") for block in OUTPUT.findall(article)]
    printed = [s.output.rstrip("\n") for s in record.snippets if s.output]
    assert shown == printed, f"{path}: its output blocks are not the record's, in page order"

    figures = [(f.name, f.sha256) for s in record.snippets for f in s.figures]
    sources = IMG.findall(article)
    assert len(sources) == len(figures), f"{path}: {len(sources)} images, record has {figures}"
    for src, (name, digest) in zip(sources, figures):
        target = Path(posixpath.normpath(path.parent / html.unescape(src)))
        assert target.relative_to(zensical_site).as_posix() == f"figures/{chapter.name}/{name}"
        assert hashlib.sha256(target.read_bytes()).hexdigest() == digest, f"{src}: other bytes"

    prose = text_of(CODE.sub("", article))  # code may hold "{{" (an f-string) or "@run"
    prose += "\n" + "\n".join(html.unescape(alt) for alt in ALT.findall(article))  # a figure's text
    for step in chapter.steps:  # each value as recorded after the snippet it follows
        for binding in step.bindings:
            assert record.snippet(step.snippet).values[binding.body] in prose, \
                f"{{{{ {binding.body} }}}} not shown"
    assert "{{" not in prose, f"{path}: a raw {{{{ }}}} is left"
    assert not re.search(r"^\s*@run\b", prose, re.M), f"{path}: a raw @run line is left"


PAGE = ("# Demo\n\n@run demo/a.py\nFigure: A rising line.\nAlt: One straight line that rises from one to "
        "two across the plot.\n\nThe value is {{ x | .2f }}.\n")
CONFIG = """\
site_name: Fixture
strict: true
nav:
  - "1. Demo": demo.md
markdown_extensions:
  - bookrun.extension
  - attr_list
  - pymdownx.highlight
  - pymdownx.superfences
  - pymdownx.blocks.caption
"""
MKDOCS_PLUGINS = """\
plugins:
  - bookrun:
      frozen: true
  - mkdocs-jupyter:
      include: ["notebooks/*.ipynb"]
      include_source: true
"""
PLOT = ("import matplotlib.pyplot as plt\n\nx = 2.5\nfig, ax = plt.subplots(figsize=(2, 2))\n"
        "_ = ax.plot([1, 2])\nplt.show()\nprint('<b>shown as text</b>')\n")


def test_fixture_site_needs_prepare_and_fresh_records(tmp_path):
    (tmp_path / "mkdocs.yml").write_text(CONFIG)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "demo.md").write_text(PAGE)
    (tmp_path / "snippets" / "demo").mkdir(parents=True)
    snippet = tmp_path / "snippets" / "demo" / "a.py"
    snippet.write_text(PLOT)
    book = Book(root=tmp_path, timeout=60)
    book.build()  # the record, as `python -m bookrun update` writes it

    unprepared = zensical_build(tmp_path)
    assert unprepared.returncode != 0
    assert ("docs/demo.md:3: docs/figures/demo/a-1.svg is missing or differs from the record; "
            "run `python -m bookrun prepare`") in unprepared.stderr, unprepared.stderr

    assets = [f"docs/assets/bookrun/{n}" for n in ("bookrun.css", "copy_above.js", "frames.js")]
    assert sorted(prepare(book)) == assets + ["docs/figures/demo/a-1.svg",
                                              "docs/notebooks/demo/demo.ipynb"]
    assert prepare(book) == []  # nothing rewritten when nothing changed
    built = zensical_build(tmp_path)
    assert built.returncode == 0, built.stderr
    page = (tmp_path / "site" / "demo" / "index.html").read_text()
    assert "&lt;b&gt;shown as text&lt;/b&gt;" in page and "The value is 2.50." in page
    assert 'src="../figures/demo/a-1.svg"' in page
    assert 'download href="../notebooks/demo/demo.ipynb"' in page
    assert (tmp_path / "site" / "notebooks" / "demo" / "demo.ipynb").is_file()
    for asset in assets:  # bookrun's scripts and stylesheet, which no plugin adds here
        assert (tmp_path / "site" / asset.removeprefix("docs/")).is_file(), asset

    # MkDocs publishes its own copies at the same paths: the prepared ones must cause no
    # duplicate file, and mkdocs-jupyter must not take the prepared .ipynb for a page.
    (tmp_path / "mkdocs.yml").write_text(CONFIG + MKDOCS_PLUGINS)
    mkdocs = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", "mk"],
                            cwd=tmp_path, capture_output=True, text=True,
                            env=dict(os.environ, NO_MKDOCS_2_WARNING="1",
                                     PYTHONWARNINGS="default::DeprecationWarning"))
    assert mkdocs.returncode == 0 and "WARNING" not in mkdocs.stderr, mkdocs.stderr
    # What MkDocs says (as a DeprecationWarning, which strict mode does not count) when a
    # plugin adds a file the docs folder already has.
    assert "replace an existing file" not in mkdocs.stderr, mkdocs.stderr
    mk_page = (tmp_path / "mk" / "demo" / "index.html").read_text()
    assert 'src="../figures/demo/a-1.svg"' in mk_page and "The value is 2.50." in mk_page
    assert 'download href="../notebooks/demo/demo.ipynb"' in mk_page
    assert sorted(p.relative_to(tmp_path / "mk").as_posix()
                  for p in (tmp_path / "mk" / "notebooks").rglob("*.*")) == [
        "notebooks/demo/demo.ipynb", "notebooks/demo/index.html"]
    (tmp_path / "mkdocs.yml").write_text(CONFIG)

    snippet.write_text(PLOT.replace("x = 2.5", "x = 3.5"))
    stale = zensical_build(tmp_path)
    assert stale.returncode != 0
    assert ("docs/demo.md:3: snippets/demo/_record.json is missing or older than this page's "
            "snippets; run `python -m bookrun prepare`") in stale.stderr, stale.stderr
    assert "or `python -m bookrun update`" in stale.stderr
