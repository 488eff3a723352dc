"""Links derived from where the book is published: Colab, the clone command, the PDF,
and the placeholder addresses a strict build refuses (bookrun.render.links)."""
from bookrun.render.links import (PageLinks, clone_command, colab_url, expand_book_lines,
                                  placeholder_links)

NB = "notebooks/ppo/ppo.ipynb"


def test_colab_opens_the_published_notebook_of_a_github_repository():
    want = "https://colab.research.google.com/github/ana/rl-book/blob/gh-pages/" + NB
    for repo in ("https://github.com/ana/rl-book", "https://github.com/ana/rl-book/",
                 "https://github.com/ana/rl-book.git", "http://www.github.com/ana/rl-book"):
        assert colab_url(repo, NB) == want, repo
    # No repository, or one Colab cannot open: no button.
    for repo in (None, "", "https://gitlab.com/ana/rl-book", "https://github.com/ana"):
        assert colab_url(repo, NB) is None, repo


def test_clone_command_names_the_repository_and_its_folder():
    assert clone_command("https://github.com/ana/rl-book") == (
        "git clone https://github.com/ana/rl-book && cd rl-book")
    assert clone_command("https://gitlab.com/ana/rl-book.git/") == (
        "git clone https://gitlab.com/ana/rl-book.git && cd rl-book")
    assert clone_command(None) is None and clone_command(" ") is None


PAGE = "Clone it:\n\n```bash\n@clone\npip install x\n```\n\n  @pdf\n\nEnd @pdf here.\n"


def test_book_lines_are_filled_when_known_and_dropped_when_not():
    full = expand_book_lines(PAGE, "https://github.com/ana/rl-book", "../book.pdf")
    assert full == ("Clone it:\n\n```bash\ngit clone https://github.com/ana/rl-book && cd "
                    "rl-book\npip install x\n```\n\n  <a class=\"md-button\" download "
                    "href=\"../book.pdf\">PDF of the book</a>\n\nEnd @pdf here.\n")
    bare = expand_book_lines(PAGE, None, None)
    assert bare == "Clone it:\n\n```bash\npip install x\n```\n\n\nEnd @pdf here.\n"


def test_the_pdf_link_exists_only_in_a_build_with_the_pdf():
    assert PageLinks("ppo.md", has_pdf=True).pdf == "../book.pdf"
    assert PageLinks("index.md", has_pdf=True).pdf == "book.pdf"
    assert PageLinks("ppo.md").pdf is None


def test_placeholder_links_are_found_in_any_link_attribute():
    page = ('<a href="https://github.com/example/rl-by-running">x</a>'
            '<link rel="canonical" href="https://example.github.io/rl/ppo/">'
            "<img src='http://cdn.example.com/a.png'>"
            '<a href="https://colab.research.google.com/github/Example/r/blob/gh-pages/a">c</a>'
            '<a href="https://example.org/">o</a><a href="https://example.org/">again</a>'
            '<a href="https://docs.example/x">tld</a>')
    assert placeholder_links(page) == [
        "https://github.com/example/rl-by-running", "https://example.github.io/rl/ppo/",
        "http://cdn.example.com/a.png",
        "https://colab.research.google.com/github/Example/r/blob/gh-pages/a",
        "https://example.org/", "https://docs.example/x"]


def test_real_addresses_and_text_are_not_placeholders():
    page = ('<a href="https://github.com/examples-org/x">a</a>'
            '<a href="https://myexample.com/">b</a><a href="https://ana.github.io/rl/">c</a>'
            '<a href="../example/">relative</a><p>see https://example.com in text</p>'
            '<a href="https://github.com/ana/example">d</a>')
    assert placeholder_links(page) == []
