"""The engine apart from the book: its layers, no library of the book named in it, and a
small book that builds, checks and renders where neither numpy nor torch is installed."""
import ast
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

from helpers import scheduling
from helpers.builds import zensical_build
from helpers.paths import ROOT, ZENSICAL


def test_modules_import_only_their_own_layer_or_those_below():
    proc = subprocess.run([sys.executable, "tools/import_graph.py"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0].strip().startswith("hosts:")


def test_the_engine_names_no_library_of_this_book():
    named = [f"{p.name}:{n}" for p in sorted((ROOT / "bookrun").rglob("*.py"))
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"torch|gymnasium", line)]
    assert named == []


BOOK = {
    "mkdocs.yml": """\
        site_name: Plain
        nav:
          - "1. Plain": plain.md
        markdown_extensions:
          - bookrun.extension:
              libraries: [markdown]
          - attr_list
          - pymdownx.blocks.caption
          - pymdownx.highlight
          - pymdownx.superfences
        """,
    "docs/plain.md": """\
        # Plain

        @run plain/count.py

        The sum is {{ total }}.
        """,
    "snippets/plain/count.py": """\
        total = sum(range(5))
        print("counted", total)
        """,
}


def test_a_book_without_numpy_or_torch_builds_checks_and_renders(tmp_path):
    """In Zensical's virtualenv, which has neither: bookrun needs only what it declares."""
    python = ZENSICAL.parent / "python"
    if not python.is_file():
        zensical_build(tmp_path)  # skips (or fails on CI) with the install command
    probe = subprocess.run([str(python), "-c", "import numpy"], capture_output=True)
    assert probe.returncode != 0, "this virtualenv has numpy: the test would prove nothing"
    for name, text in BOOK.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(textwrap.dedent(text))
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1")

    def bookrun(*args):
        return subprocess.run([str(python), "-m", "bookrun", *args, "--root", str(tmp_path)],
                              capture_output=True, text=True, env=env, timeout=120)

    for command in ("update", "check", "prepare"):
        proc = bookrun(command)
        assert proc.returncode == 0, f"{command}: {proc.stderr}"
    record = (tmp_path / "snippets" / "plain" / "_record.json").read_text()
    assert '"counted 10"' in record and '"markdown"' in record and "numpy" not in record
    built = zensical_build(tmp_path)
    assert built.returncode == 0, built.stderr
    page = (tmp_path / "site" / "plain" / "index.html").read_text()
    assert "counted 10" in page and "The sum is 10." in page


HUNG = '''\
import pytest
from playwright.sync_api import sync_playwright


@pytest.fixture
def page():
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                    args=["--no-sandbox", "--headless"])
        yield browser.new_page()


def test_a_browser_wait_that_never_ends(page):
    page.evaluate("() => new Promise(() => {})")  # resolves never
'''


def test_a_hung_browser_wait_fails_within_its_limit_with_a_stack(tmp_path):
    """The suite's configuration (pyproject.toml) bounds every test: a browser wait that
    never ends fails at the limit and prints where it hung, instead of stalling CI."""
    if not Path("/usr/bin/chromium").is_file():
        import pytest
        pytest.skip("needs Debian's chromium (apt-get install chromium)")
    (tmp_path / "test_hung.py").write_text(HUNG)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"), "--rootdir",
         str(tmp_path), "-o", "timeout=5", "-p", "no:cacheprovider", "test_hung.py",
         # Only the wait is timed here: starting chromium on a busy machine can take
         # longer than the 5 s this test allows itself.
         "-o", "timeout_func_only=true"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stdout[-2000:]
    assert "Failed: Timeout (>5.0s) from pytest-timeout" in proc.stdout
    assert "test_hung.py:14: " in proc.stdout  # the line it hung on, in the traceback
    assert "+ Timeout +" in proc.stdout  # and pytest-timeout's dump of every thread


def test_every_stylesheet_parses_to_whole_rules():
    """A rule left open (as a merge can leave one) swallows every rule after it, and the
    page still builds: parse each stylesheet and each rule's declarations."""
    import tinycss2

    for sheet in sorted((ROOT / "docs" / "assets").glob("*.css")):
        rules = tinycss2.parse_stylesheet(sheet.read_text(encoding="utf-8"),
                                          skip_comments=True, skip_whitespace=True)
        errors = [r for r in rules if r.type == "error"]
        for rule in rules:
            if rule.type == "qualified-rule":
                errors += [d for d in tinycss2.parse_declaration_list(
                    rule.content, skip_comments=True, skip_whitespace=True)
                    if d.type == "error"]
        assert not errors, f"{sheet.name}: {[(e.source_line, e.message) for e in errors]}"


def test_the_scheduler_keeps_costly_modules_whole_and_names_real_modules():
    """`-n` (tests/helpers/scheduling.py): the book's chapter tests go to one worker together, a
    module with costly fixtures is one unit, any other test is a unit of its own; and
    every module the order names exists (a renamed file would silently run last)."""
    for name in set(scheduling.FIRST) | scheduling.WHOLE:
        assert name == "book" or list((ROOT / "tests").glob(f"*/{name}.py")), name
    scope = scheduling.ByGroup._split_scope  # it reads nothing of the scheduler's own
    assert scope(None, "tests/book/test_bandits.py::test_expected_reward_exact") == "book"
    assert scope(None, "tests/book/test_book.py::test_every_chapter_matches_its_record") == "book"
    assert scope(None, "tests/site/test_pdf.py::test_us_letter") == "test_pdf"
    engine = "tests/execute/test_executor.py::test_two_fresh_executions_are_byte_identical"
    assert scope(None, engine) == engine
    assert scheduling.first_rank("test_small_book") == 0
    assert scheduling.first_rank("test_docs") == len(scheduling.FIRST)


def test_tests_share_code_through_helpers_only():
    """A test module imports no conftest and no other test module: what tests share is in
    tests/helpers/ (or is a fixture of a conftest), so moving or renaming a test module
    breaks no other."""
    imports = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            imports += [f"{path.relative_to(ROOT)}:{node.lineno}: {name}" for name in names
                        if name.split(".")[0] == "conftest" or name.startswith("test_")]
    assert imports == []
