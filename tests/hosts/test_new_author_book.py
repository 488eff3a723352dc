"""A new author's book, written from bookrun/README.md alone (issue 43): two chapters of
its own (not examples/small-book), mkdocs.yml copied from the README's plugin line,
built with `mkdocs build --strict` and checked with `bookrun check`, as the README says."""
from __future__ import annotations

import html
import json
import os
import posixpath
import re
import subprocess
import sys
from pathlib import Path

import bookrun
from helpers.paths import ROOT

README = ROOT / "bookrun" / "README.md"
PI = """\
# Monte Carlo estimation of pi

We throw 4000 darts at the unit square, 16 times the 250 of a first try.

@run pi/throw.py max-output=50

The darts estimate pi as {{ pi_hat | .4f }}.

@run pi/picture.py
Figure: The darts, inside the quarter circle or outside it.
Alt: A square of scattered dots, those within a quarter circle centred on the lower
    left corner in one colour and the rest in another.
"""
THROW = """\
import numpy as np

rng = np.random.default_rng(0)
xy = rng.random((4000, 2))
inside = (xy ** 2).sum(axis=1) < 1
pi_hat = 4 * inside.mean()
print(f"{inside.sum()} of {len(xy)} inside")
"""
PICTURE = """\
import matplotlib.pyplot as plt

fig, ax = plt.subplots(figsize=(3, 3))
_ = ax.scatter(*xy[:300].T, c=inside[:300], s=4)
plt.show()
"""
SORTING = """\
# Sorting, comparisons counted

Sorting 8 numbers would take it 28 comparisons.

@run sorting/bubble.py

Bubble sort made {{ comparisons }} comparisons.
"""
BUBBLE = """\
def bubble(xs):
    xs, count = list(xs), 0
    for i in range(len(xs)):
        for j in range(len(xs) - 1 - i):
            count += 1
            if xs[j] > xs[j + 1]:
                xs[j], xs[j + 1] = xs[j + 1], xs[j]
    return xs, count

result, comparisons = bubble([5, 3, 1, 4, 2])
print(result)
"""


def readme_config() -> str:
    """The README's plugin line, as an author copies it."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## The plugin line"):]
    return re.search(r"```yaml\n(.*?)```", section, re.S).group(1)


def write_book(root: Path, config: str | None = None) -> Path:
    (root / "docs").mkdir(parents=True)
    (root / "mkdocs.yml").write_text(config if config is not None else readme_config())
    (root / "docs" / "index.md").write_text("# Small algorithms\n\nTwo chapters.\n")
    (root / "docs" / "pi.md").write_text(PI)
    (root / "docs" / "sorting.md").write_text(SORTING)
    for rel, code in (("pi/throw.py", THROW), ("pi/picture.py", PICTURE),
                      ("sorting/bubble.py", BUBBLE)):
        (root / "snippets" / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / "snippets" / rel).write_text(code)
    return root


def run(args, root: Path) -> subprocess.CompletedProcess:
    # This checkout's bookrun, as a wheel of it would install it.
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", *args], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)


DOWNLOAD = re.compile(r'<a class="md-button" download href="([^"]+)">(.*?)</a>', re.S)


def test_a_book_written_from_the_readme_builds_checks_and_its_buttons_work(tmp_path):
    book = write_book(tmp_path)
    built = run(["mkdocs", "build", "--strict"], book)
    assert built.returncode == 0, built.stderr
    assert "WARNING" not in built.stderr, built.stderr
    for page in ("pi", "sorting"):
        shown = (book / "site" / page / "index.html").read_text(encoding="utf-8")
        article = shown[shown.index("<article"):shown.index("</article>")]
        assert "@run" not in article and "{{" not in article, article
        # The notebook button: an icon, not a shortcode left as text, and a link to a
        # notebook the site has (it was a 404 without mkdocs-jupyter's include_source).
        assert ":material-" not in article and ":simple-" not in article
        [(href, label)] = DOWNLOAD.findall(article)
        assert label.startswith('<span class="twemoji"><svg ') and "Download .ipynb" in label
        target = book / "site" / posixpath.normpath(f"{page}/{html.unescape(href)}")
        assert target.is_file(), f"{href} from {page}/ lands on no file"
        assert json.loads(target.read_text(encoding="utf-8"))["nbformat"] == 4
    assert "The darts estimate pi as 3.1" in (book / "site" / "pi" / "index.html").read_text()

    # The numbers typed in the prose (16, 250, 8, 28) are not audited: the audit
    # is off unless the book turns it on.
    checked = run(["bookrun", "check"], book)
    assert checked.returncode == 0, checked.stderr
    assert "2 chapter(s) match their records" in checked.stdout

    # A failing chapter fails the build, and the last site stays as it was.
    (book / "snippets" / "sorting" / "bubble.py").write_text(BUBBLE + "result.nope\n")
    failed = run(["mkdocs", "build", "--strict"], book)
    assert failed.returncode != 0
    assert "snippets/sorting/bubble.py:12: AttributeError" in failed.stderr, failed.stderr
    assert (book / "site" / "pi" / "index.html").is_file()


AUDIT_ON = "      number_audit: true\n"


def test_the_audit_runs_only_when_asked_and_is_no_reason_to_update(tmp_path, monkeypatch):
    """`number_audit: false` used to change nothing (check always audited), and a typed
    number sent the author to `update`, which cannot fix it."""
    config = readme_config()
    book = write_book(tmp_path, config.replace("      timeout: 300", "      number_audit: "
                                               "false\n      timeout: 300"))
    monkeypatch.chdir(book)
    assert run(["bookrun", "update"], book).returncode == 0
    off = bookrun.check(".")  # a relative root: it raised FileNotFoundError
    assert off.problems == [], off.problems
    (book / "mkdocs.yml").write_text(config.replace("      timeout: 300",
                                                    AUDIT_ON + "      timeout: 300"))
    on = run(["bookrun", "check", "sorting"], book)
    assert on.returncode == 1
    assert "docs/sorting.md:3: 8 is typed in the prose but no snippet" in on.stderr, on.stderr
    assert "bookrun update" not in on.stderr  # the record matches: updating changes nothing
    assert bookrun.build(".", ["sorting"])["sorting"].chapter == "sorting"


def test_a_misspelt_extension_option_is_named_with_its_line_without_a_traceback(tmp_path):
    config = re.sub(r"(?m)^markdown_extensions:.*$", "markdown_extensions:\n"
                    "  - bookrun.extension:\n      min_alt_wrds: 8", readme_config())
    book = write_book(tmp_path, config)
    line = config.splitlines().index("      min_alt_wrds: 8") + 1
    built = run(["mkdocs", "build", "--strict"], book)
    assert built.returncode != 0
    assert (f"bookrun: mkdocs.yml:{line}: bookrun.extension: unknown option 'min_alt_wrds'"
            in built.stderr), built.stderr
    assert "Traceback" not in built.stderr
    checked = run(["bookrun", "check"], book)
    assert checked.returncode == 2 and "Traceback" not in checked.stderr
    assert f"mkdocs.yml:{line}: bookrun.extension: unknown option" in checked.stderr


def test_the_extension_without_the_plugin_fails_the_build_naming_mkdocs_yml(tmp_path):
    """It used to fail with `(unknown page):1`; with neither, MkDocs cannot load bookrun
    at all, and `check` refuses the book (tests/engine/test_author_mistakes.py)."""
    config = readme_config()
    config = re.sub(r"(?m)^markdown_extensions:.*$", "markdown_extensions:\n"
                    "  - bookrun.extension", re.sub(r"  - bookrun:\n(      .*\n)+", "", config))
    book = write_book(tmp_path, config)
    line = config.splitlines().index("  - bookrun.extension") + 1
    built = run(["mkdocs", "build", "--strict"], book)
    assert built.returncode != 0
    assert (f"mkdocs.yml:{line}: bookrun.extension is listed but MkDocs runs no `bookrun` "
            "plugin") in built.stderr, built.stderr
    assert not list(book.glob("site/**/*.html"))  # nothing half-written
