"""Drawing code out of the reading line: a snippet's lines after the fold marker are
shown folded under its code block; every copy of the snippet still holds all of it."""
import base64
import re

from bookrun.render import copy_above
from bookrun.parse.chapter import parse_chapter
from bookrun.render.links import PageLinks
from bookrun.render.page import FOLD, render_page, split_drawing

SNIPPET = f"""import numpy as np

total = np.arange(4).sum()
print(total)

{FOLD}
fig_data = [total, total * 2]
_ = fig_data
"""


def render(tmp_path, code=SNIPPET):
    (tmp_path / "snippets" / "demo").mkdir(parents=True)
    (tmp_path / "snippets" / "demo" / "a.py").write_text(code)
    text = "# Demo\n\n@run demo/a.py\n\nAfter.\n"
    doc = parse_chapter(text, tmp_path / "snippets", "docs/demo.md")
    return render_page(doc, None, lambda rel: code, PageLinks("demo.md"))


def test_the_drawing_code_is_folded_under_the_block(tmp_path):
    out = render(tmp_path)
    shown, folded = out.split('??? example "The code that draws the figure (2 lines)"')
    assert "print(total)" in shown and "fig_data" not in shown and FOLD not in out
    assert "    fig_data = [total, total * 2]" in folded  # inside the collapsed box
    # the REPL copy holds the whole snippet, marker and all, in order
    data = re.search(rf"{copy_above.PREFIX}:0:([A-Za-z0-9+/=]+)", out).group(1)
    assert base64.b64decode(data).decode() == copy_above.paste_text(SNIPPET)


def test_a_snippet_without_the_marker_is_shown_whole(tmp_path):
    code = SNIPPET.replace(FOLD + "\n", "")
    assert split_drawing(code) == (code, "")
    assert "???" not in render(tmp_path, code)
    # the marker counts only as a whole line at the start of a line
    indented = SNIPPET.replace(FOLD, "    " + FOLD)
    assert split_drawing(indented) == (indented, "")
