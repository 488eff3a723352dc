"""What Material's search is handed: each KaTeX formula as its TeX (bookrun.hosts.search_view)."""
from bookrun.hosts.search_view import search_view, without_search_attributes
from bookrun.markdown.math import render


def test_each_formula_becomes_its_tex_in_reading_order():
    ratio, _ = render(r"\frac{a}{b}", False)
    shown, _ = render(r"x^2", True)
    page = f"<p>The ratio {ratio} and</p>{shown}<p>after.</p>"
    assert search_view(page) == r"<p>The ratio \frac{a}{b} and</p>x^2<p>after.</p>"


def test_a_page_without_formulas_is_unchanged_and_search_attributes_go():
    page = '<div class="highlight" data-search-exclude=""><pre>x</pre></div><p>a</p>'
    assert search_view(page) == page
    assert without_search_attributes(page) == '<div class="highlight"><pre>x</pre></div><p>a</p>'
