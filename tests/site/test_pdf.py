"""The whole book as one PDF (`python -m bookrun pdf`), printed from the real built site."""
import html
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bookrun.pdf.combine import PrintError, combine
from bookrun.store.records import load_record
from helpers.builds import build_frozen
from helpers.demo_book import make_project
from helpers.paths import CHAPTERS, ROOT
from helpers.tools import missing_tool

pypdf = pytest.importorskip("pypdf")
CHROMIUM = Path(os.environ.get("BOOKRUN_CHROMIUM") or "/usr/bin/chromium")

PRINT_TIMEOUT = 900  # seconds for one print of the book (about 2.5 min on a busy machine)
MAX_BYTES = 25_000_000
TAG = re.compile(r"<[^>]+>")
KATEX_HTML = re.compile(r'<span class="katex-html" aria-hidden="true">.*?</span></span></span>', re.S)
ARTICLE = re.compile(r"<article\b[^>]*>(.*?)</article>", re.S)
HEADING = re.compile(r"<h([12])\b[^>]*>(.*?)</h\1>", re.S)
FIGURE = re.compile(r'<figure id="figure-(\d+)-(\d+)">.*?<figcaption>(.*?)</figcaption>', re.S)
PAGES = ["index.html"] + [f"{p}/index.html" for p in CHAPTERS]
# Three printed outputs, each a line of its snippet's recorded output.
RECORDED = [
    ("bandits", "bandits/learning_from_pulls.py",
     " 20 pulls per machine: best-looking machine is C in 98.0% of agents"),
    ("q_learning", "q_learning/gridworld.py", "13 squares to decide in, 52 Q-values to learn"),
    ("rl_for_llms", "rl_for_llms/bradley_terry_reward_model.py",
     "agrees with the raters on 87.3% of 3000 pairs"),
]


def squeeze(text: str) -> str:
    """Text without whitespace: a PDF's extracted lines break where the page did."""
    return "".join(text.split())


def words(fragment: str) -> str:
    fragment = re.sub(r'<a class="headerlink".*?</a>', "", fragment, flags=re.S)
    return " ".join(html.unescape(TAG.sub("", KATEX_HTML.sub("", fragment))).split())


def start_print(site: Path, out: Path, *options: str) -> tuple[subprocess.Popen, Path]:
    proc = subprocess.Popen([sys.executable, "-m", "bookrun", "pdf", "--site", str(site),
                             "-o", str(out), *options], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)))
    return proc, out


def finish(started: tuple[subprocess.Popen, Path]) -> Path:
    proc, out = started
    try:
        log, _ = proc.communicate(timeout=PRINT_TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"bookrun pdf -o {out.name} took over {PRINT_TIMEOUT} s")
    assert proc.returncode == 0, f"bookrun pdf -o {out.name} failed:\n{log}"
    return out


def need_chromium():
    if not CHROMIUM.exists():
        missing_tool(f"the PDF is printed by {CHROMIUM}: apt-get install chromium")


def print_all(started: dict) -> dict[str, Path]:
    """Wait for prints started at once; stop the others if one fails."""
    try:
        return {name: finish(s) for name, s in started.items()}
    finally:
        for proc, _ in started.values():
            if proc.poll() is None:
                proc.kill()
                proc.communicate()


@pytest.fixture(scope="session")
def book_pdf(built_site):
    """The book printed from the built site, to its published place, SITE/book.pdf."""
    need_chromium()
    return finish(start_print(built_site, built_site / "book.pdf"))


@pytest.fixture(scope="module")
def small_prints(tmp_path_factory):
    """A two-chapter book with the real site's configuration (a figure, an interactive
    one, math, code), built and printed three times at once: twice in A4, once in US
    Letter. Chromium stamps a time and a random id into every PDF and bookrun rewrites
    both; the contents take their page numbers from the print they are in. Both are
    properties of the printer, which second and third prints of the whole book (a
    minute of one core each) showed no better."""
    need_chromium()
    project = make_project(tmp_path_factory.mktemp("small-book"))
    # A home page of many short paragraphs: on shorter Letter pages it takes more of
    # them, so the chapters after it start on other pages than in A4.
    home = "\n\n".join(f"Paragraph {n} of the home page." for n in range(168))
    (project / "docs" / "index.md").write_text(f"# A small book\n\nTwo chapters.\n\n{home}\n")
    config = project / "mkdocs.yml"
    config.write_text(config.read_text().replace("nav:\n", "nav:\n  - Home: index.md\n", 1))
    site = build_frozen(project, project / "site")
    return print_all({name: start_print(site, project / f"{name}.pdf",
                                        "--config", str(project / "mkdocs.yml"), *paper)
                      for name, paper in (("first", ()), ("second", ()),
                                          ("letter", ("--paper", "letter")))})


@pytest.fixture(scope="session")
def reader(book_pdf):
    return pypdf.PdfReader(io.BytesIO(book_pdf.read_bytes()))


PDFTOTEXT = Path("/usr/bin/pdftotext")  # poppler-utils


@pytest.fixture(scope="session")
def text(book_pdf):
    """The whole book's text, by poppler's pdftotext: under a second, where pypdf's
    extraction takes about 20 s of one core (pypdf still reads pages one at a time)."""
    if not PDFTOTEXT.exists():
        missing_tool(f"the PDF's text is read by {PDFTOTEXT}: apt-get install poppler-utils")
    proc = subprocess.run([str(PDFTOTEXT), "-enc", "UTF-8", str(book_pdf), "-"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.fixture(scope="session")
def articles(built_site):
    return {name: ARTICLE.search((built_site / name).read_text(encoding="utf-8")).group(1)
            for name in PAGES}


def outline_titles(reader) -> list[str]:
    titles = []

    def walk(items):
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                titles.append(item.title)
    walk(reader.outline)
    return titles


def test_opens_tagged_with_language_title_and_size_limit(book_pdf, reader):
    assert len(reader.pages) > 100, "the seven chapters should fill well over 100 pages"
    root = reader.trailer["/Root"]
    assert bool(root["/MarkInfo"]["/Marked"]), "not a tagged PDF"
    assert "/StructTreeRoot" in root
    assert root["/Lang"] == "en"
    assert reader.metadata.title == "Reinforcement learning, by running it"
    assert book_pdf.stat().st_size <= MAX_BYTES, f"{book_pdf.stat().st_size} bytes"
    # A4, in points (the default paper)
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (595, 842)


def test_every_chapter_and_section_title_is_in_the_outline(reader, articles):
    have = {squeeze(t) for t in outline_titles(reader)}
    wanted = [words(inner) for article in articles.values() for _, inner in HEADING.findall(article)]
    assert len(wanted) > 80
    missing = [t for t in wanted if squeeze(t) not in have]
    assert not missing, f"not in the PDF's outline: {missing}"
    assert "Contents" in have


def test_every_figure_number_appears_with_its_caption(text, articles):
    flat = squeeze(text)
    count = 0
    for article in articles.values():
        for n, m, caption in FIGURE.findall(article):
            # The caption's words before any formula (a formula's glyphs extract differently).
            plain = words(caption.split('<span class="arithmatex"')[0])
            start = " ".join(plain.split()[:10])
            assert start.startswith(f"Figure {n}.{m}."), start
            assert squeeze(start) in flat, f"Figure {n}.{m}: caption not found in the PDF: {start!r}"
            count += 1
    assert count >= 20


def test_no_raw_tex_bindings_or_directives(text):
    # A raw token may only come from printed code: a plot label's mathtext, an
    # f-string's escaped brace. Anywhere else it is prose that was not rendered.
    code = squeeze("".join(p.read_text(encoding="utf-8")
                           for p in sorted((ROOT / "snippets").rglob("*.py"))))
    for raw in ("\\frac", "$$", "@run", "{{"):
        for line in text.splitlines():
            if raw in line:
                assert squeeze(line) in code, f"a raw {raw!r} in the PDF's prose: {line!r}"


@pytest.mark.parametrize("chapter,snippet,line", RECORDED, ids=[r[1] for r in RECORDED])
def test_recorded_outputs_are_printed_verbatim(text, chapter, snippet, line):
    [step] = [s for s in load_record(chapter, ROOT / "snippets").snippets
              if s.snippet == snippet]
    assert line in step.output.splitlines(), f"{snippet}: the record no longer prints {line!r}"
    lines = {" ".join(x.split()) for x in text.splitlines()}
    assert " ".join(line.split()) in lines, f"{snippet}: {line!r} not in the PDF"


def test_internal_links_resolve(reader, articles):
    names = {name.lstrip("/") for name in reader.named_destinations}
    internal = external = 0
    for page in reader.pages:
        for annot in page.get("/Annots") or []:
            annot = annot.get_object()
            if annot.get("/Subtype") != "/Link":
                continue
            if "/Dest" in annot:
                dest = annot["/Dest"]
                if isinstance(dest, str):
                    assert dest.lstrip("/") in names, f"link to {dest}: no such destination"
                else:
                    assert reader.get_destination_page_number(
                        pypdf.generic.Destination("", dest[0], dest[1], *dest[2:])) >= 0
                internal += 1
            elif "/URI" in annot.get("/A", {}):
                external += 1
    headings = sum(len(HEADING.findall(a)) for a in articles.values())
    assert internal > headings, "the contents alone link to every chapter and section"
    assert external > 50, "the reading lists' links are kept"
    # The home page's table links to chapter 3 where chapter 3 starts.
    pages = destination_pages(reader)
    start = pages["bandits--top"]
    assert "Bandits" in reader.pages[start - 1].extract_text()
    # Prose that names a figure links to it ("Figure 6.1" in chapter 6's text).
    figure = pages["ppo--figure-6-1"]
    assert figure >= pages["ppo--top"]
    assert "Figure 6.1." in reader.pages[figure - 1].extract_text()


def destination_pages(reader) -> dict[str, int]:
    return {n.lstrip("/"): reader.get_destination_page_number(d) + 1
            for n, d in reader.named_destinations.items()}


BOOK_STARTS = [("bandits--top", "3. Bandits: learning"), ("ppo--top", "6. PPO: many"),
               ("setup--top", "1. Setup: agents")]


def assert_contents_give_chapter_starts(reader, starts=BOOK_STARTS):
    """The contents (pages 2 and 3) end each chapter's line with the page it starts on."""
    pages = destination_pages(reader)
    contents = "\n".join(p.extract_text() for p in reader.pages[1:3]).splitlines()
    for anchor, words in starts:
        lines = [line for line in contents if line.startswith(words)]
        assert lines, f"{words!r} is not in the contents"
        assert lines[0].split()[-1] == str(pages[anchor]), (lines[0], pages[anchor])
        title = words.split(". ", 1)[1].split(": ")[-1]  # "3. Bandits: learning" -> "learning"
        assert title.split()[0] in reader.pages[pages[anchor] - 1].extract_text()


def test_contents_show_the_pages_chapters_start_on(reader):
    assert_contents_give_chapter_starts(reader)


def test_fonts_are_embedded(reader):
    seen = 0
    for page in reader.pages:
        fonts = (page.get("/Resources") or {}).get("/Font") or {}
        for ref in fonts.values():
            font = ref.get_object()
            if font.get("/Subtype") == "/Type3":
                continue  # its glyphs are drawn by the file itself
            if font.get("/Subtype") == "/Type0":
                font = font["/DescendantFonts"][0].get_object()
            desc = font["/FontDescriptor"].get_object()
            assert any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3")), \
                f"{font.get('/BaseFont')} is not embedded"
            seen += 1
    assert seen > 0


def test_byte_identical_across_two_builds(small_prints):
    first, second = small_prints["first"].read_bytes(), small_prints["second"].read_bytes()
    assert first.startswith(b"%PDF") and len(pypdf.PdfReader(io.BytesIO(first)).pages) >= 3
    assert first == second, "two prints of one site differ"


def test_us_letter(small_prints):
    letter, a4 = (pypdf.PdfReader(small_prints[name]) for name in ("letter", "first"))
    box = letter.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)
    # Letter is shorter than A4: the second chapter starts on a later page, and the
    # contents give Letter's number, not A4's.
    starts = [("demo--top", "1. Demo"), ("plain--top", "2. Plain")]
    assert destination_pages(letter)["plain--top"] > destination_pages(a4)["plain--top"]
    assert_contents_give_chapter_starts(letter, starts)
    assert_contents_give_chapter_starts(a4, starts)


FIXTURE_CONFIG = """\
site_name: Fixture
site_url: https://example.org/fx/
nav:
  - Home: index.md
  - "1. One": one.md
  - "2. Two": two.md
markdown_extensions:
  - toc:
      permalink: !!python/name:builtins.True
"""


def fixture_page(body: str) -> str:
    return ('<html><head><link rel="stylesheet" href="../assets/x.css"></head>'
            '<body data-md-color-scheme="slate"><article class="md-content__inner md-typeset">'
            f"{body}</article></body></html>")


def fixture_site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    (site / "assets").mkdir(parents=True)
    (site / "assets" / "print.css").write_text("")
    (site / "index.html").write_text(fixture_page('<h1 id="home">Home</h1>'))
    for name, body in {
        "one": '<h1 id="one">One</h1><h2 id="sec">A section<a class="headerlink" href="#sec">'
               '&para;</a></h2><p>See <a href="#sec">above</a>, <a href="../two/#figure-2-1">'
               'the figure</a>, <a href="../two/">chapter 2</a>, <a href="../notebooks/one/">'
               'the notebook</a> and <a href="https://arxiv.org/abs/1">a paper</a>; as Figure '
               '2.1 shows.</p><details class="note"><summary>Answer</summary><p>Yes.</p></details>'
               '<svg id="diagram-1"><style>#diagram-1{}</style><use href="#diagram-1"/></svg>',
        "two": '<h1 id="two">Two</h1><figure id="figure-2-1"><p><img alt="words" '
               'src="../figures/two/a.svg" /></p><figcaption><p>Figure 2.1. A line.</p>'
               '</figcaption></figure>',
    }.items():
        (site / name).mkdir()
        (site / name / "index.html").write_text(fixture_page(body))
    (tmp_path / "mkdocs.yml").write_text(FIXTURE_CONFIG)
    return site


def test_combiner_makes_links_between_pages_links_inside_the_book(tmp_path):
    book = combine(fixture_site(tmp_path), tmp_path / "mkdocs.yml")
    home, one, two = book.chapters
    assert [c.title for c in book.chapters] == ["Home", "One", "Two"]
    assert one.sections == [("one--sec", "A section")]
    for fragment in ['id="one--sec"', 'href="#one--sec"', 'href="#two--figure-2-1"',
                     'href="#two--top"', 'href="https://example.org/fx/notebooks/one/"',
                     'href="https://arxiv.org/abs/1"', "<details open",
                     '<a href="#two--figure-2-1">Figure 2.1</a>',
                     # an inline diagram keeps its own ids, which its stylesheet names
                     '<svg id="diagram-1"><style>#diagram-1{}</style><use href="#diagram-1"/>']:
        assert fragment in one.body, fragment
    assert 'src="figures/two/a.svg"' in two.body  # relative to the print page at the root
    assert "Figure 2.1. A line." in two.body  # a caption is not linked to itself
    page = book.render(None, "letter")
    assert 'data-md-color-scheme="default"' in page  # the light palette
    assert "size: letter" in page and '@page chapter1 { @top-right { content: "1. One"; } }' in page
    assert book.anchors() == ["home--top", "one--top", "one--sec", "two--top"]


def test_a_page_missing_from_the_site_is_named(tmp_path):
    site = fixture_site(tmp_path)
    (site / "two" / "index.html").unlink()
    with pytest.raises(PrintError, match=r"two/index.html: page two.md of the nav"):
        combine(site, tmp_path / "mkdocs.yml")


def test_command_without_a_built_site_builds_one_and_names_why_it_cannot(tmp_path):
    """No site: `pdf` builds it first; in a folder with no book that fails, named."""
    site = tmp_path / "site"
    proc = subprocess.run([sys.executable, "-m", "bookrun", "pdf", "--site", str(site)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert proc.returncode == 1
    assert f"{site} has no built site: building it first" in proc.stderr
    assert "mkdocs build failed" in proc.stderr and "no site to print" in proc.stderr
