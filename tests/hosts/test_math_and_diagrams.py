"""The math and diagram extensions where they need a process of their own: the same HTML
from two fresh interpreters, a bad formula through a real `mkdocs build`, and a diagram
drawn by chromium (tests/engine/test_math.py has the in-process cases)."""
import subprocess
import sys
import types

import pytest

from bookrun.markdown import diagrams
from helpers.builds import build_fixture
from helpers.paths import ROOT


def test_output_is_identical_across_processes():
    """Byte-identical HTML from a fresh interpreter (no shared cache, a new V8)."""
    text = (ROOT / "docs" / "rl-for-language-models.md").read_text(encoding="utf-8")
    text = "\n".join(ln for ln in text.splitlines() if not ln.lstrip().startswith(("@run", "{{")))
    code = ("import sys, markdown; sys.stdout.write(markdown.markdown(sys.stdin.read(), "
            "extensions=['bookrun.markdown.math', 'tables']))")
    runs = [subprocess.run([sys.executable, "-c", code], input=text, capture_output=True,
                           text=True, check=True, cwd=ROOT,
                           env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}).stdout
            for _ in range(2)]
    assert runs[0] == runs[1]
    assert runs[0].count('class="katex"') > 50


@pytest.mark.skipif(not diagrams.CHROMIUM.is_file(), reason=f"drawing needs {diagrams.CHROMIUM}")
def test_a_new_diagram_is_drawn_cached_and_described_and_a_bad_one_fails(tmp_path):
    source = "flowchart LR\n  A[start] -->|go| B[stop]\n"
    svg = diagrams.diagram_svg(source, tmp_path)
    assert svg.startswith("<svg") and "<desc" in svg
    assert "Diagram, arrows: start to stop (go)." in svg
    assert (tmp_path / f"{diagrams.cache_key(source)}.svg").read_text(encoding="utf-8") == svg
    text = "# T\n\n```mermaid\nflowchart LR\n  A --> \n  --> -->\n```\n"
    host = types.SimpleNamespace(bookrun_page=("docs/bad.md", text))
    with pytest.raises(diagrams.DiagramError, match=r"^docs/bad\.md:4: mermaid cannot draw"):
        diagrams.diagram_svg("flowchart LR\n  A --> \n  --> -->\n", tmp_path, host)


MKDOCS_CONFIG = """\
site_name: Fixture
strict: true
nav:
  - demo.md
plugins:
  - bookrun:
      timeout: 60
markdown_extensions:
  - attr_list
  - bookrun.markdown.math
  - pymdownx.superfences
  - pymdownx.blocks.caption
"""


def test_a_bad_formula_fails_the_mkdocs_build_naming_page_and_line(tmp_path):
    """Through the plugin: the line is the page's as written, before `@run` expanded it."""
    page = "# Demo\n\n@run demo/a.py\n\nFine $x$.\n\nBroken $\\frac{1}{$ here.\n"
    proc = build_fixture(tmp_path, page, {"a.py": "print(1)\nprint(2)\nprint(3)\n"},
                         extra_env={"PYTHONPATH": str(ROOT)}, config=MKDOCS_CONFIG)
    assert proc.returncode != 0
    assert "docs/demo.md:7: KaTeX cannot draw this formula" in proc.stderr, proc.stderr
    assert "\\frac{1}{" in proc.stderr
    assert "Traceback" not in proc.stderr  # stops like a failing snippet, with the message alone
    assert not (tmp_path / "site" / "demo" / "index.html").exists()
