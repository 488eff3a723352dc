"""The real book: records match fresh runs, the site builds, snippets paste into a REPL."""
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bookrun.execute.session import WORKER_ENV
from helpers.paths import CHAPTERS as CHAPTER_PAGES

ROOT = Path(__file__).resolve().parents[2]


def test_every_chapter_matches_its_record(check_problems):
    assert not check_problems, "\n\n".join(check_problems)


def test_strict_build_renders_every_chapter_without_tracebacks(built_site):
    for page in ["index"] + [f"{p}/index" for p in CHAPTER_PAGES]:
        html = (built_site / f"{page}.html").read_text()
        assert "bookrun-output" in html, f"{page}: no executed output"
        assert "Traceback (most recent call last)" not in html


def test_search_finds_each_chapter_but_not_its_notebook_copy(built_site):
    """A notebook page repeats its chapter's code and outputs: indexed, every search for a
    term in the code would list it twice, and every reader would download the copy."""
    index = json.loads((built_site / "search" / "search_index.json").read_text())
    pages = {doc["location"].split("#")[0] for doc in index["docs"]}
    assert {f"{p}/" for p in CHAPTER_PAGES} <= pages
    assert (built_site / "notebooks" / "bandits" / "index.html").is_file()
    assert not [p for p in pages if p.startswith("notebooks/")]
    # A formula is indexed once, as its TeX (bookrun.hosts.search_view): not as drawn,
    # whose zero-width spaces and layout order garbled previews, nor again as MathML.
    text = " ".join(doc["text"] for doc in index["docs"])
    assert "\u200b" not in text
    clip = next(d["text"] for d in index["docs"] if d["location"] == "ppo/#the-ratio-and-the-clip")
    ratio = r"\frac{\pi_\theta(a_t \mid s_t)}{\pi_{\text{old}}(a_t \mid s_t)}"
    assert ratio in clip and clip.count("\\pi_{\\text{old}}(a_t") == 1
    # Code and printed outputs stay out of the index: a preview is the prose around them.
    assert "bookrun-output" in (built_site / "ppo" / "index.html").read_text()
    for line in ("import numpy as np", "plt.show()", "actor, median per step"):
        assert line not in text, line
    # The page keeps every formula drawn, and none of the search's attributes.
    page = (built_site / "ppo" / "index.html").read_text()
    assert page.count('class="katex"') > 100 and "data-search-exclude" not in page


def test_notebook_pages_describe_each_figure_in_words(built_site, book):
    """A notebook has no alt attribute for an SVG: the caption and the text alternative go
    in a cell under the figure, and the image itself is passed over by screen readers."""
    for chapter in book.chapters():
        figures = sum(len(s.figures) for s in chapter.steps)
        if chapter.name == "home" or not figures:
            continue
        page = (built_site / "notebooks" / chapter.name / "index.html").read_text()
        assert "No description has been provided" not in page, chapter.name
        assert page.count('alt=""') == figures, chapter.name
        assert page.count("What it shows:") == figures, chapter.name
        first = chapter.steps[[bool(s.figures) for s in chapter.steps].index(True)].figures[0]
        assert " ".join(first.alt.split()[:6]) in " ".join(page.split()), chapter.name


def test_each_chapter_has_a_test_module(book):
    """Like FastAPI's docs_src: what a page runs is tested by a file that mirrors it."""
    missing = [c.name for c in book.chapters()
               if c.name != "home" and not (ROOT / "tests" / "book" / f"test_{c.name}.py").is_file()]
    assert not missing


def paste(chapter):
    files = [str(ROOT / "snippets" / s.snippet) for s in chapter.steps]
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "helpers" / "repl_paste.py"), *files],
                          cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env=dict(os.environ, **WORKER_ENV))
    assert proc.returncode == 0, proc.stderr
    return chapter, json.loads(proc.stdout)


def test_snippets_pasted_into_a_repl_print_what_the_session_printed(book, checked):
    """Compared with this machine's fresh run, which the check compares with the record."""
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        pasted = list(pool.map(paste, book.chapters()))
    mismatches = []
    for chapter, outputs in pasted:
        record = checked.fresh[chapter.name]
        for step, shown in zip(chapter.steps, outputs):
            if shown != record.output(step.snippet):
                mismatches.append(f"snippets/{step.snippet}:\n--- record\n"
                                  f"{record.output(step.snippet)}\n--- REPL\n{shown}")
    assert not mismatches, "\n".join(mismatches)


def test_prose_and_code_are_original():
    tool = ROOT.parent / "shared" / "tools" / "originality.py"
    if not tool.is_file():  # a clone of this repository alone has no ../shared
        pytest.skip(f"originality checker not found at {tool} (it ships beside the "
                    "project, not in it)")
    proc = subprocess.run([sys.executable, str(tool), "docs", "snippets"], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.stdout == "", proc.stdout
