"""Links derived from where the book is published, in real `mkdocs build`s of a fixture
book: the Colab button and the clone command from repo_url, the PDF link only in a build
that prints the PDF, and a strict build refusing a placeholder address."""
import html
import os
import re
import subprocess
import sys

from helpers.builds import FIXTURE_CONFIG, build_fixture

# The fixture's config with chapter headers (where the "PDF of the book" button sits).
HEADERS = FIXTURE_CONFIG.replace("      number_figures: true\n",
                                 "      number_figures: true\n      chapter_headers: true\n"
                                 ) + "  - md_in_html\n"
PAGE = """\
---
level: Beginner
before:
  - "[Demo: the sum](demo.md#the-sum)"
done_when:
  - text: You can say why the sum is 3.
    anchor: check-sum
  - text: You can add two numbers.
    anchor: check-add
---
# Demo

## The sum

@run demo/add.py

Get the code:

```bash
@clone
pip install -r requirements.txt
```

@pdf

<a id="check-sum"></a>Why 3? <a id="check-add"></a>And 1 + 2?
"""
SNIPPETS = {"add.py": "print(1 + 2)\n"}
COLAB = ("https://colab.research.google.com/github/ana/rl-book/blob/gh-pages/"
         "notebooks/demo/demo.ipynb")


def built(tmp_path, config=HEADERS, env=None):
    proc = build_fixture(tmp_path, PAGE, SNIPPETS, extra_env=env, config=config)
    assert proc.returncode == 0, proc.stderr
    return (tmp_path / "site" / "demo" / "index.html").read_text()


def test_a_github_repository_gives_the_colab_button_and_the_clone_command(tmp_path):
    # As the Pages workflow sets it: from the environment, so a fork links to itself.
    config = HEADERS.replace("strict: true\n",
                             "strict: true\nrepo_url: !ENV [BOOK_REPO_URL, null]\n")
    page = built(tmp_path, config, {"BOOK_REPO_URL": "https://github.com/ana/rl-book"})
    assert f'href="{COLAB}"' in page and "Open in Colab" in page
    assert 'download href="../notebooks/demo/demo.ipynb"' in page
    text = html.unescape(re.sub(r"<[^>]+>", "", page))
    assert "git clone https://github.com/ana/rl-book && cd rl-book\npip install" in text
    assert "@clone" not in page


def test_without_a_repository_there_is_no_colab_button_and_no_clone_address(tmp_path):
    page = built(tmp_path, env={"BOOK_REPO_URL": "https://github.com/ana/rl-book"})
    assert "colab.research.google.com" not in page and "Open in Colab" not in page
    assert 'download href="../notebooks/demo/demo.ipynb"' in page  # the download stays
    text = html.unescape(re.sub(r"<[^>]+>", "", page))
    assert "Get the code:\npip install -r requirements.txt" in text  # the rest stays
    assert "git clone" not in text and "@clone" not in page


def test_the_pdf_link_appears_only_in_a_build_that_prints_the_pdf(tmp_path):
    without = built(tmp_path)
    assert "book.pdf" not in without and "PDF of the book" not in without
    assert "@pdf" not in without and "chapter-header" in without
    with_pdf = built(tmp_path, env={"BOOKRUN_PDF": "true"})
    # the header's button and the page's own @pdf line
    assert with_pdf.count('href="../book.pdf"') == 2, with_pdf.count("book.pdf")
    assert "PDF of the book" in with_pdf


def test_a_placeholder_address_fails_a_strict_build_and_warns_otherwise(tmp_path):
    config = HEADERS.replace("strict: true\n",
                             "strict: true\nrepo_url: https://github.com/example/rl-book\n")
    proc = build_fixture(tmp_path, PAGE, SNIPPETS, config=config)
    assert proc.returncode != 0
    assert ("demo.md: links a placeholder address, https://colab.research.google.com/github/"
            "example/rl-book/blob/gh-pages/notebooks/demo/demo.ipynb") in proc.stderr
    assert "https://github.com/example/rl-book" in proc.stderr
    # A site_url at a placeholder host is caught too (the canonical link), and without
    # strict the build goes on with the warnings.
    loose = config.replace("strict: true\n", "site_url: https://example.github.io/book/\n")
    proc = build_fixture(tmp_path, PAGE, SNIPPETS, config=loose)
    assert proc.returncode == 0, proc.stderr
    assert "links a placeholder address, https://example.github.io/book/demo/" in proc.stderr


def test_bookrun_pdf_builds_the_site_first_when_there_is_none(tmp_path):
    built(tmp_path)  # the fixture in place (its site then removed)
    subprocess.run(["rm", "-rf", str(tmp_path / "site")], check=True)
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    # No browser: the print fails, after the site was built with its PDF link.
    proc = subprocess.run([sys.executable, "-m", "bookrun", "pdf", "--chromium",
                           str(tmp_path / "no-chromium")], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1 and "no-chromium: chromium is not installed" in proc.stderr
    assert "has no built site: building it first" in proc.stderr
    page = (tmp_path / "site" / "demo" / "index.html").read_text()
    assert 'href="../book.pdf"' in page


def test_zensical_reads_the_repository_from_its_own_config():
    from bookrun.hosts.zensical import _repo_url

    assert _repo_url({"repo_url": "https://github.com/ana/rl-book"}) == (
        "https://github.com/ana/rl-book")
    assert _repo_url({"repo_url": None}) is None and _repo_url({}) is None
    assert _repo_url({"repo_url": "  "}) is None
