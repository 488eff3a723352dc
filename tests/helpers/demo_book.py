"""A two-page fixture book with the real site's configuration and one interactive figure
(a sine wave under three controls), for the interactive figures' browser tests and the
PDF's small prints."""
import re
import shutil
from pathlib import Path

from bookrun.store.book import Book
from helpers.paths import ROOT

FILLER = "\n\n".join(f"Paragraph {n} of text before the figure, to keep it far below the "
                     "first screen." for n in range(60))
PAGE = f"""\
---
chapter: 1
---
# Demo

{FILLER}

@run demo/wave.py
Figure: A sine wave whose frequency, amplitude and name the controls set.
Alt: A sine curve on fixed axes, packing more periods as the frequency rises from 1 to 2.
Interactive: wave
Control: freq = 1 to 2 step 0.5 | frequency | play
Control: amp = 1, 2 | amplitude
Control: name = "a", "b", "c", "d", "e" | curve name

Text after the figure.
"""
WAVE = """\
import numpy as np
import matplotlib.pyplot as plt


def wave(freq=1.0, amp=1, name="a"):
    x = np.linspace(0, 1, 40)
    fig, ax = plt.subplots(figsize=(3, 2))
    _ = ax.plot(x, amp * np.sin(2 * np.pi * freq * x))
    ax.set_ylim(-2.2, 2.2)
    ax.set_title(f"{name}: f = {freq:.1f}")
    print(f"curve {name}: frequency {freq:.1f}, amplitude {amp}")
    plt.show()


wave()
"""
PLAIN = """\
---
chapter: 2
---
# Plain

@run plain/line.py
Figure: A rising line.
Alt: One straight line that rises from one to two across the plot.
"""
LINE = ("import matplotlib.pyplot as plt\n\nfig, ax = plt.subplots(figsize=(2, 2))\n"
        "_ = ax.plot([1, 2])\nplt.show()\n")


def make_project(dest: Path) -> Path:
    """A two-page book with the real site's configuration: one interactive figure."""
    (dest / "docs").mkdir(parents=True)
    shutil.copytree(ROOT / "docs" / "assets", dest / "docs" / "assets")
    (dest / "docs" / "demo.md").write_text(PAGE)
    (dest / "docs" / "plain.md").write_text(PLAIN)
    for chapter, name, code in (("demo", "wave.py", WAVE), ("plain", "line.py", LINE)):
        (dest / "snippets" / chapter).mkdir(parents=True)
        (dest / "snippets" / chapter / name).write_text(code)
    shutil.copy(ROOT / "matplotlibrc", dest / "matplotlibrc")
    config = (ROOT / "mkdocs.yml").read_text()
    nav = "nav:\n  - 1. Demo: demo.md\n  - 2. Plain: plain.md\n\n"
    config = re.sub(r"(?ms)^nav:\n.*?\n\n", nav, config)
    config = re.sub(r"(?m)^watch:\n  - bookrun\n", "", config)  # no bookrun/ folder here
    (dest / "mkdocs.yml").write_text(config)
    Book(root=dest, timeout=120).build()  # the records, as `bookrun update` writes them
    return dest
