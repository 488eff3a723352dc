"""The build-time math and diagram extensions, on small Markdown, in-process (no site build;
tests/hosts/test_math_and_diagrams.py has the cases that need a process of their own)."""
from __future__ import annotations

import re
from pathlib import Path

import markdown
import pytest

from bookrun.markdown import diagrams
from bookrun.markdown import math as bmath

ROOT = Path(__file__).resolve().parents[2]


def convert(text: str, *extensions, configs=None, page=None) -> str:
    """`page`: (path, Markdown as written), as bookrun's extension names it to the others."""
    md = markdown.Markdown(extensions=["bookrun.markdown.math", "tables", *extensions],
                           extension_configs=configs or {})
    md.bookrun_page = page
    return md.convert(text)


def test_inline_and_display_math_become_katex_with_mathml():
    html = convert("Reward $r_t$ and \\(G_t\\).\n\n$$\nG_t = \\sum_k \\gamma^k r_{t+k+1}\n$$\n")
    assert html.count('class="katex"') == 3
    assert html.count('class="katex-display"') == 1
    # Screen readers read the MathML; the visible HTML is hidden from them.
    assert html.count("<math xmlns=\"http://www.w3.org/1998/Math/MathML\"") == 3
    assert 'class="katex-html" aria-hidden="true"' in html
    assert re.search(r'<annotation encoding="application/x-tex">\s*G_t = \\sum_k', html)
    assert "\\(" not in re.sub(r"<annotation.*?</annotation>", "", html)


def test_math_in_a_table_and_escaped_dollars():
    html = convert("| a | b |\n|---|---|\n| $\\tfrac13$ | costs \\$5 |\n")
    assert html.count('class="katex"') == 1
    assert "costs $5" in html


def test_environments_render():
    text = ("$$\n\\begin{aligned}\nF &= a + b\\\\\n  &= c\n\\end{aligned}\n$$\n\n"
            "$$\na_t = \\begin{cases} 1 & x > 0,\\\\ 0 & \\text{otherwise} \\end{cases}\n$$\n")
    html = convert(text)
    assert html.count('class="katex-display"') == 2
    assert "<mtable" in html


def test_a_formula_katex_cannot_draw_names_page_line_and_tex():
    text = "# Title\n\nFine $x$.\n\nBroken $\\frac{a}{b$ here.\n"
    with pytest.raises(bmath.MathError) as err:
        convert(text, page=("docs/chapter.md", text))
    message = str(err.value)
    assert message.startswith("docs/chapter.md:5: KaTeX cannot draw this formula:"), message
    assert "\\frac{a}{b" in message


def test_the_line_refers_to_the_page_as_written_when_a_host_expanded_it():
    written = "Intro.\n\n@run x/y.py\n\nBroken $\\notacommand$.\n"
    expanded = written.replace("@run x/y.py", "```python\n1\n2\n3\n4\n```")
    with pytest.raises(bmath.MathError, match=r"^docs/p\.md:5: "):
        convert(expanded, page=("docs/p.md", written))


def test_without_a_host_the_error_names_the_line_of_the_markdown():
    with pytest.raises(bmath.MathError, match=r"^line 3 of the Markdown converted: .*undefined"):
        convert("a\n\n$\\undefinedmacro{x}$\n")


def test_formulas_are_drawn_once_per_process():
    bmath.render.cache_clear()
    convert("$q_\\pi$ and $q_\\pi$\n\n$$\nq_\\pi\n$$\n")
    info = bmath.render.cache_info()
    assert (info.misses, info.hits) == (2, 1)  # inline and display are different drawings


# -- diagrams --------------------------------------------------------------------------------
FENCES = {"pymdownx.superfences": {"custom_fences": [
    {"name": "mermaid", "class": "mermaid", "format": diagrams.fence_format}]}}


def test_math_left_as_text_in_a_notebook_page_is_drawn_outside_code():
    page = ("<p>Past $1 \\pm \\varepsilon.$ and $\\gamma = $ 0.9; costs $5 and $10.</p>\n"
            "<p>$$\na &lt; b\n$$</p><pre>print('$x$')</pre><code>$y$</code>"
            "<script>inlineMath: [['$','$']]</script>")
    drawn = bmath.draw_math_in_html(page, "notebooks/demo.ipynb")
    assert drawn.count('class="katex"') == 3 and drawn.count('class="katex-display"') == 1
    assert "costs $5 and $10." in drawn and "<mo>&lt;</mo>" in drawn  # unescaped, then drawn
    assert drawn.endswith("<pre>print('$x$')</pre><code>$y$</code>"
                          "<script>inlineMath: [['$','$']]</script>")
    with pytest.raises(bmath.MathError, match=r"^notebooks/demo.ipynb: KaTeX cannot draw"):
        bmath.draw_math_in_html("<p>$\\frac{1}$</p>", "notebooks/demo.ipynb")


def test_every_diagram_of_the_book_is_in_the_committed_cache():
    """A fresh clone builds without a browser: each mermaid fence has its SVG committed."""
    missing = []
    for page in sorted((ROOT / "docs").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        for m in re.finditer(r"^```mermaid\n(.*?)^```", text, re.S | re.M):
            key = diagrams.cache_key(m.group(1))
            if not (ROOT / "diagrams" / f"{key}.svg").is_file():
                missing.append(f"{page.name}:{text.count(chr(10), 0, m.start()) + 1}")
    assert not missing, f"diagrams not in diagrams/ (build once with chromium, commit): {missing}"


def test_a_cached_diagram_is_inlined_with_its_description(tmp_path):
    source = "flowchart LR\n  A --> B\n"
    svg = ('<svg id="diagram-x" role="graphics-document document">'
           "<desc>Diagram, arrows: A to B.</desc></svg>\n")
    (tmp_path / f"{diagrams.cache_key(source)}.svg").write_text(svg, encoding="utf-8")
    html = markdown.markdown(f"```mermaid\n{source}```\n",
                             extensions=["bookrun.markdown.diagrams", "pymdownx.superfences"],
                             extension_configs={"bookrun.markdown.diagrams": {"cache_dir": str(tmp_path)},
                                                **FENCES})
    assert '<div class="bookrun-diagram"' in html
    assert "<desc>Diagram, arrows: A to B.</desc>" in html
    assert 'class="mermaid"' not in html


def test_a_diagram_left_for_mermaid_js_in_a_notebook_page_is_inlined_from_the_cache(tmp_path):
    source = "flowchart LR\n  A --> B\n"
    svg = "<svg><desc>Diagram, arrows: A to B.</desc></svg>\n"
    (tmp_path / f"{diagrams.cache_key(source)}.svg").write_text(svg, encoding="utf-8")
    page = ('<p>Before.</p><div class="jp-Mermaid"><pre class="mermaid">flowchart LR\n'
            '  A --&gt; B\n</pre></div><p>After.</p>')  # as nbconvert writes a fence
    drawn = diagrams.draw_diagrams_in_html(page, tmp_path, "notebooks/demo.ipynb")
    assert drawn.startswith('<p>Before.</p><div class="bookrun-diagram" tabindex="0"')
    assert drawn.endswith(f"{svg}</div><p>After.</p>") and "mermaid" not in drawn


def test_a_missing_diagram_without_a_browser_names_page_and_line(tmp_path, monkeypatch):
    monkeypatch.setattr(diagrams, "CHROMIUM", tmp_path / "no-chromium")
    text = "# T\n\nText.\n\n```mermaid\nflowchart LR\n  A --> B\n```\n"
    md = markdown.Markdown(extensions=["bookrun.markdown.diagrams", "pymdownx.superfences"],
                           extension_configs={"bookrun.markdown.diagrams": {"cache_dir": str(tmp_path)},
                                              **FENCES})
    md.bookrun_page = ("docs/d.md", text)
    with pytest.raises(diagrams.DiagramError, match=r"^docs/d\.md:6: .*not in the cache"):
        md.convert(text)
    assert not list(tmp_path.glob("*.svg")), "nothing half-written"


def test_the_cache_key_follows_source_and_mermaid_version(monkeypatch):
    key = diagrams.cache_key("flowchart LR\n  A --> B\n")
    assert key == diagrams.cache_key("flowchart LR\n  A --> B")  # trailing newline: same
    assert key != diagrams.cache_key("flowchart LR\n  A --> C\n")
    monkeypatch.setattr(diagrams, "MERMAID_VERSION", "0.0.0")
    assert key != diagrams.cache_key("flowchart LR\n  A --> B\n")


def test_mermaid_version_matches_the_vendored_file():
    head = diagrams.MERMAID_JS.read_text(encoding="utf-8")
    assert f'"{diagrams.MERMAID_VERSION}"' in head or f"'{diagrams.MERMAID_VERSION}'" in head
