"""The site's notebook page: a chapter's `page.md#anchor` links (kept so in a notebook
of a book without site_url) lead to that page's address, as the chapter's own do."""
from mkdocs.structure.files import File, Files

from bookrun.hosts.mkdocs import _page_links, _unique_heading_ids


class Page:
    def __init__(self, file):
        self.file = file


def test_a_page_link_in_a_notebook_page_becomes_the_pages_address(tmp_path):
    def page(uri):
        return File(uri, str(tmp_path), str(tmp_path / "site"), use_directory_urls=True)

    # mkdocs-jupyter publishes notebooks/ppo.ipynb as the page notebooks/ppo/, as MkDocs
    # would a Markdown file there
    files = Files([page("ppo.md"), page("notebooks/ppo.md")])
    notebook = Page(files.get_file_from_path("notebooks/ppo.md"))
    html = ('<a href="ppo.md#the-clip">the clip</a> <a href="missing.md">gone</a> '
            '<a href="https://example.org/a.md">out</a>')
    assert _page_links(html, notebook, files) == (
        '<a href="../../ppo/#the-clip">the clip</a> <a href="missing.md">gone</a> '
        '<a href="https://example.org/a.md">out</a>')


def test_repeated_headings_get_the_ids_the_contents_link():
    one = '<h3 id="solution">Solution<a class="anchor-link" href="#solution">¶</a></h3>'
    html = "<h2 id=\"a\">A</h2>" + one + "<p>x</p>" + one + one
    assert _unique_heading_ids(html) == (
        '<h2 id="a">A</h2>' + one + "<p>x</p>"
        + '<h3 id="solution_1">Solution<a class="anchor-link" href="#solution_1">¶</a></h3>'
        + '<h3 id="solution_2">Solution<a class="anchor-link" href="#solution_2">¶</a></h3>')
