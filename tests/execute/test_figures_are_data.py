"""A figure is data, never a door (issue 42): what the host takes from a session.

A snippet finds its session's scratch folder in BOOKRUN_SESSION and its figures in the
`figures/` folder there; these snippets swap what they (or an earlier snippet) wrote for
something else before the host reads it. Each swap must fail the build, `check` and
`update`, naming the snippet, with nothing written into `_figures/` or the record; and
what the host publishes from committed files is read the same way.
"""
import hashlib
import json
import os
import re
import shutil
from pathlib import Path

import pytest

from bookrun.errors import ExecutionError, RecordError
from bookrun.execute.session import MAX_FIGURE_KB
from bookrun.parse.controls import controls_html
from bookrun.render import zoom
from bookrun.store import safe_svg, session_files
from bookrun.store.records import Record, record_path
from bookrun.model.page import SnippetRecord
from helpers.books import PLOT, make_book
from helpers.paths import ROOT

PAGE = "# Demo\n@run demo/a.py\n@run demo/b.py\n"
RUN_B = 3  # the @run line of b.py on PAGE
# b.py shows a figure, then replaces the file the session wrote with `{swap}`.
SWAP = """\
import os
from pathlib import Path

import matplotlib.pyplot as plt

fig, ax = plt.subplots(figsize=(2, 2))
_ = ax.plot([0, 1], [1, 0])
plt.show()
mine = Path(os.environ["BOOKRUN_SESSION"]) / "figures" / "b-1.svg"
drawn = mine.read_text()
mine.unlink()
{swap}
print("swapped")
"""
HOST_FILE = "host-secret.svg"  # beside the book: a file of the machine's, not the session's
SWAPS = {
    "symlink": ("mine.symlink_to(HOST_FILE)", "is a symbolic link"),
    "script": ("mine.write_text(drawn.replace('</svg>', '<script>alert(1)</script></svg>'))",
               "has the element <script>"),
    "onload": ("mine.write_text(drawn.replace('<svg ', '<svg onload=\"alert(1)\" ', 1))",
               "has the event handler onload="),
    "external href": ("mine.write_text(drawn.replace('</svg>', '<image xlink:href="
                      "\"https://tracker.invalid/p.png\" width=\"1\" height=\"1\"/></svg>'))",
                      "has the external reference xlink:href='https://tracker.invalid/p.png'"),
    "javascript href": ("mine.write_text(drawn.replace('</svg>', '<use xlink:href="
                        "\"javascript:alert(1)\"/></svg>'))",
                        "has the external reference xlink:href='javascript:alert(1)'"),
    "oversized": ("mine.write_text(drawn.replace('</svg>', '<!-- ' + 'x' * 600_000 + "
                  "' --></svg>'))", f"over its limit of {MAX_FIGURE_KB} kB"),
    "fifo": ("os.mkfifo(mine)", "is a FIFO"),
    "directory": ("mine.mkdir()", "is a directory"),
}


def hostile(tmp_path, swap: str) -> str:
    """b.py with the swap, HOST_FILE in it the path of a file of the machine's."""
    (tmp_path / HOST_FILE).write_bytes(a_figure())
    return SWAP.format(swap=swap.replace("HOST_FILE", repr(str(tmp_path / HOST_FILE))))


def in_folder(path: Path) -> Path:
    path.mkdir()
    return path


def hostile_book(tmp_path, swap: str):
    return make_book(in_folder(tmp_path / "book"), PAGE,
                     {"a.py": PLOT, "b.py": hostile(tmp_path, swap)})


def a_figure() -> bytes:
    """A real Matplotlib figure of the book's (it passes the allow-list on its own)."""
    return (ROOT / "snippets" / "bandits" / "_figures" / "regret_curves-1.svg").read_bytes()


def nothing_written(book) -> bool:
    return (not book.figure_dir("demo").exists()
            and not record_path("demo", book.snippets_root).exists())


@pytest.mark.parametrize("swap, reason", SWAPS.values(), ids=SWAPS.keys())
def test_a_swapped_figure_fails_the_build_naming_the_snippet(tmp_path, swap, reason):
    book = hostile_book(tmp_path, swap)
    with pytest.raises(ExecutionError) as caught:
        book.build()
    text = str(caught.value)
    assert text.startswith("snippets/demo/b.py: its file b-1.svg in the session's folder "), text
    assert reason in text, text
    assert nothing_written(book)


def test_check_and_update_refuse_it_and_keep_the_committed_files(tmp_path):
    book = hostile_book(tmp_path, "pass")  # b.py first removes its figure: a figure missing
    with pytest.raises(ExecutionError, match="b-1.svg in the session's folder is missing"):
        book.build()
    (book.snippets_root / "demo" / "b.py").write_text(PLOT)
    book.build()
    figures = book.figure_dir("demo")
    before = {p.name: p.read_bytes() for p in figures.iterdir()}
    record = record_path("demo", book.snippets_root).read_bytes()
    (book.snippets_root / "demo" / "b.py").write_text(hostile(tmp_path, SWAPS["symlink"][0]))
    for attempt in (book.check, lambda: book.build(force=True)):  # check, then update
        with pytest.raises(ExecutionError, match="^snippets/demo/b.py: its file b-1.svg in "
                           "the session's folder is a symbolic link"):
            attempt()
        assert {p.name: p.read_bytes() for p in figures.iterdir()} == before
        assert not any(p.is_symlink() for p in figures.iterdir())
        assert record_path("demo", book.snippets_root).read_bytes() == record


WAVE = """\
import matplotlib.pyplot as plt


def wave(freq=1.0):
    fig, ax = plt.subplots(figsize=(2, 2))
    _ = ax.plot([0, 1, 2], [0, freq, 0])
    ax.set_ylim(0, 3)
    print(f"{LINE}freq {freq:.1f}")
    plt.show()


wave()
"""
WAVE_PAGE = ("# Demo\n@run demo/wave.py\n"
             "Figure: A peak whose height the control sets.\n"
             "Alt: One peak in the middle of the plot, its height the chosen frequency.\n"
             "Interactive: wave\n"
             "Control: freq = 1, 2 | frequency\n"
             "@run demo/later.py\n")
# A later snippet puts a script into the frames the page swaps into the figure.
LATER = """\
import json
import os
from pathlib import Path

path = Path(os.environ["BOOKRUN_SESSION"]) / "figures" / "wave-1.frames.json"
data = json.loads(path.read_text())
data["pieces"][0] = data["pieces"][0].replace(">", "><script>alert(1)</script>", 1)
path.write_text(json.dumps(data))
"""


def test_frames_with_a_script_fail_the_build_naming_their_snippet(tmp_path):
    book = make_book(tmp_path, WAVE_PAGE, {"wave.py": WAVE.replace("{LINE}", ""),
                                           "later.py": LATER})
    with pytest.raises(ExecutionError) as caught:
        book.build()
    text = str(caught.value)
    assert text.startswith("snippets/demo/wave.py: its file wave-1.frames.json in the "
                           "session's folder holds SVG the page may not swap in: it has "
                           "the element <script>"), text
    assert nothing_written(book)


def edit_record(book, change):
    """Rewrite the record as `update` would have (digest and all), `change` applied to
    its snippets' entries."""
    path = record_path("demo", book.snippets_root)
    data = json.loads(path.read_text())
    data["snippets"] = change(data["snippets"])
    data["digest"] = Record(data["chapter"], data["stamp"], data["versions"],
                            tuple(SnippetRecord.from_json(s) for s in data["snippets"]),
                            data.get("platform", {})).digest()
    path.write_text(json.dumps(data))


def test_a_committed_figure_that_is_not_data_fails_the_build(tmp_path):
    book = make_book(in_folder(tmp_path / "book"), "# Demo\n@run demo/a.py\n", {"a.py": PLOT})
    book.build()
    figure = book.figure_dir("demo") / "a-1.svg"
    # A symbolic link to the same bytes elsewhere: its hash matches the record.
    elsewhere = tmp_path / "elsewhere.svg"
    shutil.copy(figure, elsewhere)
    figure.unlink()
    figure.symlink_to(elsewhere)
    with pytest.raises(ExecutionError, match=r"snippets/demo/_figures/a-1.svg is a "
                       "symbolic link, which the host never follows; run python -m "
                       "bookrun update demo"):
        book.build()
    # A script in the figure, the record rewritten to its hash.
    figure.unlink()
    figure.write_bytes(elsewhere.read_bytes().replace(b"</svg>", b"<script>1</script></svg>"))
    digest = hashlib.sha256(figure.read_bytes()).hexdigest()
    edit_record(book, lambda ss: [dict(s, figures=[dict(s["figures"][0], sha256=digest)])
                                  for s in ss])
    with pytest.raises(ExecutionError, match=r"snippets/demo/_figures/a-1.svg is not a "
                       "figure the book publishes: it has the element <script>"):
        book.build()
    [chapter] = book.chapters()
    with pytest.raises(RecordError):
        book.fresh_record(chapter)
    book.build(force=True)  # update writes the snippet's own figure again
    assert book.fresh_record(chapter) is not None and not figure.is_symlink()


# -- the allow-list and the reads, on their own ----------------------------------------
COMMITTED_SVG = sorted(ROOT.glob("snippets/*/_figures/*.svg"))
COMMITTED_FRAMES = sorted(ROOT.glob("snippets/*/_figures/*.frames.json"))


def test_every_committed_figure_and_frames_file_passes_the_allow_list():
    assert len(COMMITTED_SVG) >= 20 and len(COMMITTED_FRAMES) >= 5
    for path in COMMITTED_SVG:
        data = path.read_bytes()
        assert len(data) <= MAX_FIGURE_KB * 1000, path
        safe_svg.check_svg(data)
    for path in COMMITTED_FRAMES:
        data = json.loads(path.read_text(encoding="utf-8"))
        for xml in [*data["defs"].values(), *data["pieces"]]:
            safe_svg.check_fragment(xml)


FIGURE = a_figure().decode()
BODY = FIGURE[FIGURE.index("<svg"):]  # without Matplotlib's declaration and document type


def added(markup: str) -> str:
    return FIGURE.replace("</svg>", markup + "</svg>")


def on_figure_group(attribute: str) -> str:
    return FIGURE.replace('<g id="figure_1">', f'<g id="figure_1" {attribute}>')


REFUSED = {  # (the SVG, what the refusal says)
    "script": (added("<script>alert(1)</script>"), "the element <script>"),
    "foreignObject": (added("<foreignObject><p>hi</p></foreignObject>"),
                      "the element <foreignObject>"),
    "onload": (FIGURE.replace("<svg ", '<svg onload="alert(1)" ', 1), "event handler onload"),
    "onClick in a group": (on_figure_group('onClick="x()"'), "event handler onClick"),
    "external use": (FIGURE.replace('xlink:href="#', 'xlink:href="https://e.invalid/f.svg#', 1),
                     "external reference xlink:href='https://e.invalid/f.svg#"),
    "javascript href": (FIGURE.replace('xlink:href="#', 'xlink:href=" java\tscript:x()#', 1),
                        "external reference xlink:href=' java script:x()#"),
    "javascript in a value": (on_figure_group('fill="javascript:x()"'), "a URL in fill="),
    "link out": (added('<a xlink:href="https://e.invalid/"><rect/></a>'), "the element <a>"),
    "url() in a style": (FIGURE.replace('style="fill: #ffffff"',
                                        'style="fill: url(https://e.invalid/)"', 1),
                         "external reference url(https://e.invalid/)"),
    "url() in an attribute": (on_figure_group('fill="url(#a) url(https://e.invalid/#a)"'),
                              "external reference url(https://e.invalid/#a)"),
    "@import": (FIGURE.replace("*{stroke-linejoin", "@import 'https://e.invalid/a.css'; *{"
                               "stroke-linejoin"), "CSS other than Matplotlib's"),
    "css escape": (FIGURE.replace('style="fill: #ffffff"', 'style="fill: u\\72l(x)"', 1),
                   "CSS other than Matplotlib's"),
    "svg in an image": (added('<image xlink:href="data:image/svg+xml;base64,PHN2Zz4="/>'),
                        "external reference xlink:href='data:image/svg+xml"),
    "xml:base": (on_figure_group('xml:base="https://e.invalid/"'), "the attribute"),
    "stylesheet instruction": ('<?xml-stylesheet href="https://e.invalid/a.css"?>' + BODY,
                               "processing instruction <?xml-stylesheet?>"),
    "entity": ('<!DOCTYPE svg [<!ENTITY a "b">]>' + BODY, "document type other than"),
    "attribute default": ('<!DOCTYPE svg [<!ATTLIST svg onload CDATA "x()">]>' + BODY,
                          "document type other than"),
    "comment an HTML parser ends": (added("<!--><img src=x onerror=alert(1)>-->"),
                                    "comment an HTML parser ends early"),
    "CDATA": (added("<![CDATA[<img src=x onerror=alert(1)>]]>"), "CDATA section"),
    "animation": (added('<set attributeName="href" to="javascript:alert(1)"/>'),
                  "the element <set>"),
    "not svg": ("<html><body>hi</body></html>", "not an SVG document"),
}


def test_a_real_figure_passes():
    safe_svg.check_svg(FIGURE.encode())


@pytest.mark.parametrize("svg, reason", REFUSED.values(), ids=REFUSED.keys())
def test_the_allow_list_refuses(svg, reason):
    with pytest.raises(safe_svg.UnsafeSvg, match=re.escape(reason)):
        safe_svg.check_svg(svg.encode())


def test_a_frame_fragment_is_one_drawn_element():
    safe_svg.check_fragment('<g xmlns="http://www.w3.org/2000/svg" id="line2d_1">'
                            '<path d="M 0 0 L 1 1" style="fill: none; stroke: #0072b2"/></g>')
    for xml in ['<svg xmlns="http://www.w3.org/2000/svg"/>',
                '<script xmlns="http://www.w3.org/2000/svg">alert(1)</script>',
                '<g xmlns="http://www.w3.org/2000/svg" onmouseover="alert(1)"/>',
                '<!DOCTYPE g><g xmlns="http://www.w3.org/2000/svg"/>']:
        with pytest.raises(safe_svg.UnsafeSvg):
            safe_svg.check_fragment(xml)


def test_the_host_reads_only_a_regular_file_inside_the_folder(tmp_path):
    folder = tmp_path / "figures"
    folder.mkdir()
    (folder / "ok.svg").write_bytes(b"12345")
    (tmp_path / "host.svg").write_bytes(b"secret")
    (folder / "link.svg").symlink_to(tmp_path / "host.svg")
    os.mkfifo(folder / "fifo.svg")
    (folder / "dir.svg").mkdir()
    os.link(tmp_path / "host.svg", folder / "hard.svg")
    fd = session_files.open_folder(folder, tmp_path)
    try:
        assert session_files.read_file(fd, "ok.svg", 5) == b"12345"
        for name, reason in [("ok.svg", "over its limit"), ("link.svg", "symbolic link"),
                             ("fifo.svg", "FIFO"), ("dir.svg", "directory"),
                             ("hard.svg", "hard link"), ("../host.svg", "plain file name"),
                             ("/etc/passwd", "plain file name"), ("gone.svg", "missing")]:
            with pytest.raises(session_files.Refused, match=reason):
                session_files.read_file(fd, name, 4)
    finally:
        os.close(fd)
    # The folder itself swapped for a link: refused, not followed.
    shutil.rmtree(folder)
    (tmp_path / "real").mkdir()
    folder.symlink_to(tmp_path / "real")
    with pytest.raises(session_files.Refused, match="symbolic link"):
        session_files.open_folder(folder, tmp_path)


# -- the frame's text in the lightbox ----------------------------------------------------
HOSTILE = "<img src=x onerror=window.hit=1> "  # printed by the frame, as its line of text
ASSETS = ROOT / "bookrun" / "render" / "assets"


def test_the_lightbox_is_given_the_frame_text_element_not_the_text_as_html():
    """GLightbox writes a link's data-description into the page as HTML, unless it starts
    with "." (then it takes that element's HTML): frames.js gives it only the selector of
    the frame's line, whose text it sets with textContent."""
    js = (ASSETS / "frames.js").read_text(encoding="utf-8")
    assert re.findall(r"dataset\.description\s*=\s*([^;]+);", js) == ["`.${own}`"]
    assert "innerHTML" not in js and "text.textContent = data.frames[n][0]" in js


def test_the_page_shows_a_printed_tag_as_text(tmp_path):
    from helpers.pages import render_book_page

    book = make_book(tmp_path, WAVE_PAGE.replace("@run demo/later.py\n", ""),
                     {"wave.py": WAVE.replace("{LINE}", HOSTILE)})
    rec = book.build()["demo"]
    md = render_book_page(book, rec, chapter_number="1", script="assets/frames.js")
    assert ('<p class="bookrun-frame-text" aria-live="polite">&lt;img src=x '
            'onerror=window.hit=1&gt; freq 1.0</p>') in md
    outside_code = re.sub(r"(?ms)^```.*?^```$", "", md)  # code and output: highlighted
    assert "<img src=x" not in outside_code


def test_in_a_browser_the_lightbox_shows_the_frame_text_as_text(tmp_path):
    """The engine's figure link and controls, GLightbox as mkdocs-glightbox sets it up and
    frames.js, in Debian's chromium: the enlarged frame's line is text, and nothing runs."""
    browser = pytest.importorskip("helpers.browser")
    site_server = pytest.importorskip("helpers.site_server")
    glightbox = Path(pytest.importorskip("mkdocs_glightbox").__file__).parent / "glightbox"
    book = make_book(in_folder(tmp_path / "book"), WAVE_PAGE.replace("@run demo/later.py\n", ""),
                     {"wave.py": WAVE.replace("{LINE}", HOSTILE)})
    rec = book.build()["demo"]
    site = tmp_path / "site"
    shutil.copytree(book.figure_dir("demo"), site)
    for name in ("glightbox.min.js", "glightbox.min.css"):
        shutil.copy(glightbox / name, site / name)
    shutil.copy(ASSETS / "frames.js", site / "frames.js")
    [doc] = book.documents()
    inter = doc.chapter.steps[0].figures[0].interactive
    entry = rec.snippets[0].frames[0]
    link = zoom.zoomable('<img class="bookrun-figure" src="wave-1.svg" alt="A peak" '
                         'width="200" height="200">')
    link = link.replace(f'<a class="{zoom.LINK}"', f'<a class="glightbox {zoom.LINK}"')
    controls = "\n".join(controls_html(inter, entry, "figure-1", ""))
    (site / "index.html").write_text(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title>'
        '<link rel="stylesheet" href="glightbox.min.css"><script src="glightbox.min.js">'
        f'</script></head><body><figure id="figure-1">{link}</figure>{controls}'
        '<script defer src="frames.js"></script><script>const lightbox = GLightbox('
        '{"touchNavigation": true, "loop": false, "zoomable": true, "draggable": false, '
        '"openEffect": "fade", "closeEffect": "fade"});</script></body></html>')
    server, url = site_server.serve(site, gzip=False)
    try:
        with browser.chromium() as b:
            tab = browser.Tab(b, url, viewport=browser.DESKTOP)
            try:
                assert tab.open("") == []
                page = tab.page
                page.locator('input[name="figure-1-freq"][value="1"]').check(
                    timeout=browser.TIMEOUT_MS)  # freq 2
                page.wait_for_function("() => document.querySelector('.bookrun-frame-text')"
                                       ".textContent.endsWith('freq 2.0')",
                                       timeout=browser.TIMEOUT_MS)
                page.locator("#figure-1 a").focus(timeout=browser.TIMEOUT_MS)
                page.keyboard.press("Enter")
                page.wait_for_selector(".glightbox-container .gslide.current .gslide-desc",
                                       timeout=browser.TIMEOUT_MS)
                page.wait_for_timeout(300)  # an img in the description would have failed by now
                shown = page.evaluate("""() => ({
                    text: document.querySelector('.gslide.current .gslide-desc').textContent,
                    imgs: document.querySelectorAll('.gslide-desc img').length,
                    hit: window.hit === 1})""")
                assert shown == {"text": f"{HOSTILE}freq 2.0", "imgs": 0, "hit": False}
                assert tab.problems == []
            finally:
                tab.close()
    finally:
        site_server.stop(server)
