"""Interactive figures: every frame recorded by the session, checked, limited, rendered."""
import json
import re
import shutil
import textwrap
from pathlib import Path

import matplotlib
import pytest

from bookrun.execute.worker import frames
from bookrun.store import frames_check
from bookrun.execute.worker.protocol import ControlSpec, FigureSpec
from bookrun.store.book import Book
from bookrun.parse.controls import notebook_cell
from bookrun.render.notebook import chapter_notebook
from bookrun.parse.chapter import PageError
from helpers.pages import render_book_page
from bookrun.execute.session import ExecutionError

ROOT = Path(__file__).resolve().parents[2]

WAVE = """\
import numpy as np
import matplotlib.pyplot as plt


def wave(freq=1.0, amp=1, label="plain"):
    x = np.linspace(0, 1, 40)
    fig, ax = plt.subplots(figsize=(3, 2))
    _ = ax.plot(x, amp * np.sin(2 * np.pi * freq * x))
    ax.set_ylim(-2.2, 2.2)
    ax.set_title(f"{label}: f = {freq:.1f}")
    print(f"freq {freq:.1f}, amp {amp}, {label}: peak {amp:.1f}")
    plt.show()


wave()
"""


def page(controls: str, words: str = "") -> str:
    return (f"# Demo\n@run demo/wave.py{words}\n"
            "Figure: A sine wave whose frequency and amplitude the controls set.\n"
            "Alt: A sine curve on fixed axes, packing more periods as the frequency rises "
            "from 1 to 2.\n"
            "Interactive: wave\n" + textwrap.dedent(controls))


CONTROLS = """\
Control: freq = 1 to 2 step 0.5 | frequency
Control: amp = 1, 2 | amplitude
Control: label = "plain", "with spaces" | label
"""


def make(tmp_path, text, code=WAVE, **kwargs):
    (tmp_path / "docs").mkdir(parents=True, exist_ok=True)
    (tmp_path / "docs" / "demo.md").write_text(text)
    folder = tmp_path / "snippets" / "demo"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "wave.py").write_text(code)
    shutil.copy(ROOT / "matplotlibrc", tmp_path / "matplotlibrc")
    book = Book(root=tmp_path, timeout=120.0, **kwargs)
    book.log = lambda msg: None
    return book


def test_every_frame_is_recorded_with_its_text(tmp_path):
    book = make(tmp_path, page(CONTROLS))
    rec = book.build()["demo"]
    [entry] = rec.snippets[0].frames
    assert entry.figure == "wave-1.svg" and entry.default == (0, 0, 0)
    assert entry.text == "freq 1.0, amp 1, plain: peak 1.0"
    figs = book.figure_dir("demo")
    data = json.loads((figs / entry.name).read_text())
    assert [c["shown"] for c in data["controls"]] == [["1.0", "1.5", "2.0"], ["1", "2"],
                                                       ["plain", "with spaces"]]
    texts = [f[0] for f in data["frames"]]
    assert len(texts) == 12 and texts[0] == entry.text
    # The last control varies fastest: frame 3 is freq 1.0, amp 2, "plain".
    assert texts[2] == "freq 1.0, amp 2, plain: peak 2.0"
    assert texts[-1] == "freq 2.0, amp 2, with spaces: peak 2.0"
    assert data["frames"][0][1] == {}  # the default frame is the figure itself
    # Each frame, assembled from the default figure and its groups, is the drawing the
    # function makes for those values (glyphs aside, which live in the shared <defs>).
    base = (figs / "wave-1.svg").read_bytes()
    namespace = {}
    matplotlib.rcParams["svg.hashsalt"] = "bookrun"  # as in the session: same marker ids
    exec(compile(WAVE.replace("\nwave()\n", "\n"), "wave.py", "exec"), namespace)
    spec = FigureSpec(0, "wave", 1, "p", 40_000, tuple(
        ControlSpec(name, (), (), name, 1) for name in ("freq", "amp", "label")))
    for n, values in [(5, [1.5, 1, "with spaces"]), (11, [2.0, 2, "with spaces"])]:
        svg, text = frames.draw(namespace["wave"], spec, values)
        assert text == texts[n]
        want = frames.find(frames.parse_svg(svg), "figure_1")
        got = frames.find(frames_check.rebuild(base, frames.FramesData.from_json(data), n),
                          "figure_1")
        assert frames.canon(got) == frames.canon(want)
    # Shared groups are stored once: fewer pieces than changed groups over all frames.
    assert len(data["pieces"]) < sum(len(f[1]) for f in data["frames"])


def test_check_names_the_frame_that_changed(tmp_path):
    book = make(tmp_path, page(CONTROLS))
    book.build()
    changed = WAVE.replace('    ax.set_title(f"{label}: f = {freq:.1f}")\n',
                           '    ax.set_title(f"{label}: f = {freq:.1f}")\n'
                           '    if amp == 2 and label == "plain" and freq == 1.5:\n'
                           '        ax.set_xlim(0, 2)\n')
    (tmp_path / "snippets" / "demo" / "wave.py").write_text(changed)
    problems = book.check().problems
    framed = [p for p in problems if "frames of wave-1.svg differ" in p]
    assert framed and "frame freq=1.5, amp=2, label=plain: picture changed" in framed[0]
    assert "freq=1.0" not in framed[0]  # only the changed frame is named


def test_check_names_a_changed_frame_text(tmp_path):
    book = make(tmp_path, page(CONTROLS))
    book.build()
    changed = WAVE.replace("peak {amp:.1f}", "peak {amp:.1f}{'!' if freq == 2.0 else ''}")
    (tmp_path / "snippets" / "demo" / "wave.py").write_text(changed)
    [problem] = [p for p in book.check().problems if "frames of" in p]
    assert ("frame freq=2.0, amp=1, label=plain: text expected "
            "'freq 2.0, amp 1, plain: peak 1.0', got 'freq 2.0, amp 1, plain: peak 1.0!'"
            in problem)


def test_a_fresh_record_needs_its_frames_file(tmp_path):
    book = make(tmp_path, page(CONTROLS))
    book.build()
    [chapter] = book.chapters()
    assert book.fresh_record(chapter) is not None
    (book.figure_dir("demo") / "wave-1.frames.json").write_text("{}")
    assert book.fresh_record(chapter) is None  # re-executed, like a changed figure
    # and the controls are part of the stamp: a changed value list re-executes too
    book.build()
    (tmp_path / "docs" / "demo.md").write_text(page(CONTROLS.replace("2, ", "2, 3, ").replace(
        "amp = 1, 2", "amp = 1, 2, 3")))
    [chapter] = book.chapters()
    assert book.fresh_record(chapter) is None


@pytest.mark.parametrize("controls, line, message", [
    ("Control: freq = 1, , 2 | frequency\n", 6, "an empty value in the list"),
    ("Control: freq = | frequency\n", 6, "an empty list of values"),
    ("Control: freq = 1 to 2 step 0.3 | frequency\n", 6,
     "2 is not reached from 1 in steps of 0.3"),
    ("Control: freq = 2 to 1 step 0.5 | frequency\n", 6, "a range needs A <= B"),
    ("Control: freq = 1, two | frequency\n", 6, "'two' is not a number or a quoted string"),
    ("Control: freq = 1, 2\n", 6, "write a control as `NAME = VALUES | LABEL`"),
    ("Control: freq = 1, 2 | frequency | loop\n", 6, "write a control as"),
    ("Control: freq = 1, 2 | frequency\nControl: freq = 1 | again\n", 7,
     "control 'freq' is given twice"),
    ("Control: freq = 1, 1.0 | frequency\n", 6, "a value is listed twice"),
    ("", 5, "`Interactive: wave` needs at least one `Control:` line"),
    ("Control: freq = 1 to 100 step 0.1 | frequency\n", 5,
     "991 = 991 frames, over the limit of 400"),
])
def test_bad_controls_name_the_page_line(tmp_path, controls, line, message):
    book = make(tmp_path, page(controls))
    with pytest.raises(PageError) as err:
        book.chapters()
    assert str(err.value).startswith(f"docs/demo.md:{line}: ")
    assert message in str(err.value)


def test_max_frames_is_raised_on_the_directive(tmp_path):
    many = "Control: freq = 1 to 2 step 0.5 | frequency\nControl: amp = 1, 2 | amplitude\n"
    with pytest.raises(PageError, match=r"docs/demo.md:5: 3 x 2 = 6 frames, over the "
                       r"limit of 4.*max-frames=N"):
        make(tmp_path, page(many, " max-frames=4")).chapters()
    [chapter] = make(tmp_path, page(many, " max-frames=6")).chapters()
    assert chapter.steps[0].figures[0].interactive.frames == 6


@pytest.mark.parametrize("controls, message", [
    ("Control: freq = 1.5, 2 | frequency\n",
     "docs/demo.md:6: the default freq=1.0 of wave is not one of the control's values"),
    ("Control: speed = 1, 2 | speed\n",
     "docs/demo.md:6: 'speed' is not a parameter of wave(freq, amp, label)"),
])
def test_defaults_and_names_are_checked_against_the_function(tmp_path, controls, message):
    with pytest.raises(ExecutionError, match=re.escape("failed in " + message)):
        make(tmp_path, page(controls)).build()


def test_a_failing_frame_names_the_page_line_and_values(tmp_path):
    code = WAVE.replace("    x = np.linspace",
                        "    assert freq < 2, 'too fast'\n    x = np.linspace")
    with pytest.raises(ExecutionError) as err:
        make(tmp_path, page(CONTROLS), code).build()
    assert ("failed in docs/demo.md:5: frame freq=2.0, amp=1, label='plain': wave raised "
            "AssertionError: too fast (at snippets/demo/wave.py:6)") in str(err.value)


def test_frame_limits(tmp_path):
    # a frame must print one line
    code = WAVE.replace('    plt.show()\n', '    print("and more")\n    plt.show()\n', 1)
    with pytest.raises(ExecutionError, match="docs/demo.md:5: frame freq=1.0, .*printed "
                       "'freq 1.0, amp 1, plain: peak 1.0\\\\nand more\\\\n'"):
        make(tmp_path, page(CONTROLS), code).build()
    # what a frame adds to the default frame is limited, and the limit can be raised
    big = WAVE.replace("np.linspace(0, 1, 40)", "np.linspace(0, 1, 400)")
    with pytest.raises(ExecutionError, match=r"docs/demo.md:5: frame freq=1.0, amp=1, "
                       r"label='with spaces' adds \d+ kB to the default frame, over the limit of "
                       r"1 kB"):
        make(tmp_path, page(CONTROLS, " max-frame-kb=1"), big).build()
    make(tmp_path, page(CONTROLS, " max-frame-kb=100"), big).build()


def test_the_default_frame_must_be_the_figure_shown(tmp_path):
    code = WAVE.replace("\nwave()\n", "\nwave(amp=2)\n")
    with pytest.raises(ExecutionError, match="docs/demo.md:5: wave\\(\\) with its defaults "
                       "draws another picture"):
        make(tmp_path, page(CONTROLS), code).build()


def test_page_shows_controls_and_loads_the_script_only_when_needed(tmp_path):
    book = make(tmp_path, page(CONTROLS))
    rec = book.build()["demo"]
    md = render_book_page(book, rec, chapter_number="1", script="assets/frames.js")
    assert '<div class="bookrun-frames" data-figure="figure-1-1" ' \
           'data-frames="wave-1.frames.json" hidden>' in md
    assert ('<label for="figure-1-1-freq">frequency</label><input type="range" '
            'id="figure-1-1-freq" min="0" max="2" step="1" value="0" aria-valuetext="1.0"') in md
    assert '<label><input type="radio" name="figure-1-1-amp" value="0" checked>1</label>' in md
    assert ('<p class="bookrun-frame-text" aria-live="polite">freq 1.0, amp 1, plain: '
            'peak 1.0</p>') in md
    assert md.rstrip().endswith('<script defer src="assets/frames.js"></script>')
    plain = make(tmp_path / "plain", "# Demo\n@run demo/wave.py\nFigure: A wave.\n"
                 "Alt: A sine curve on fixed axes, one period from zero to one.\n")
    md = render_book_page(plain, plain.build()["demo"], chapter_number="1",
                          script="assets/frames.js")
    assert "frames.js" not in md and "bookrun-frames" not in md


def test_notebook_gets_live_sliders_where_ipywidgets_is(tmp_path):
    book = make(tmp_path, page(CONTROLS))
    [doc] = book.documents()
    chapter = doc.chapter
    rec = book.build()["demo"]
    text = chapter_notebook(doc, rec, lambda rel: (book.snippets_root / rel).read_text(),
                            book.figure_dir("demo"))
    cells = json.loads(text)["cells"]
    live = [c for c in cells if c["id"].endswith("-live-0")]
    assert len(live) == 1 and live[0]["outputs"] == []
    source = "".join(live[0]["source"])
    assert source == notebook_cell(chapter.steps[0].figures[0].interactive)
    assert ("    _ = interact(wave, freq=(1.0, 2.0, 0.5), amp=[1, 2], "
            "label=['plain', 'with spaces'])") in source
    assert 'print("pip install ipywidgets for live sliders")' in source
    # the cell runs: with the function defined, interact is called (or the hint printed)
    namespace = {}
    exec(compile(WAVE.replace("\nwave()\n", "\n"), "wave.py", "exec"), namespace)
    exec(compile(source, "cell", "exec"), namespace)
