""""Copy with the N blocks above": what the page puts on the clipboard runs in a real REPL.

The text under each block's second copy button is read from the built page (the
very data its script joins), pasted into a real `python -i`, and what the REPL
prints is compared with what the page shows under the blocks (the record's
outputs). A browser then clicks the button and presses it from the keyboard, and
the clipboard must hold the same text.
"""
from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import markdown
import pytest

from bookrun.render import copy_above

ROOT = Path(__file__).resolve().parents[2]
PASTE = re.compile(r'<script type="application/json" data-bookrun-paste="(\d+)">(.*?)</script>',
                   re.S)
BUTTON = re.compile(r'<button [^>]*data-bookrun-upto="(\d+)"[^>]*>([^<]*)</button>')
# Chapters whose outputs are exact on every machine (no platform-bound snippet) and
# that run in seconds; each is pasted up to its first, a middle and its last block.
CHAPTERS = {"setup": "setup", "return-and-discount": "return_discount", "bandits": "bandits"}
WHICH = ("first", "middle", "last")
REPL_TIMEOUT = 300  # seconds for a whole chapter pasted into one REPL, on a busy machine
# The reader's REPL: no prompts (so only what the code prints is read), and a figure
# window that the reader closes at once, as tests/repl_paste.py has it.
STARTUP = """\
import sys
sys.ps1 = sys.ps2 = ""
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
plt.show = lambda *args, **kwargs: plt.close("all")
"""


def page_copies(site: Path, chapter: str) -> list[str]:
    """What each block's button copies, in page order, joined as copy_above.js joins them."""
    text = (site / chapter / "index.html").read_text(encoding="utf-8")
    parts = [(int(i), json.loads(body)) for i, body in PASTE.findall(text)]
    assert [i for i, _ in parts] == list(range(len(parts))), "blocks out of order"
    return ["".join(p for _, p in parts[:n + 1]) for n in range(len(parts))]


def record_outputs(folder: str) -> list[str]:
    record = json.loads((ROOT / "snippets" / folder / "_record.json").read_text())
    return ["\n".join(s["output"]) for s in record["snippets"]]  # stored as lines


def paste_into_python(text: str, tmp_path: Path) -> str:
    startup = tmp_path / "startup.py"
    startup.write_text(STARTUP)
    # The worker's environment (bookrun/session.py), from the project root as the book.
    env = dict(os.environ, PYTHONSTARTUP=str(startup), MPLBACKEND="Agg", PYTHONHASHSEED="0",
               SOURCE_DATE_EPOCH="0", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1",
               OPENBLAS_NUM_THREADS="1", PYTHONWARNINGS="default")
    # The reader then leaves the REPL; at end of input it would print a newline.
    proc = subprocess.run([sys.executable, "-q", "-i"], input=text + "raise SystemExit\n",
                          cwd=ROOT, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=REPL_TIMEOUT)
    return proc.stdout


# -- the markup ---------------------------------------------------------------------------
def test_labels_say_how_many_blocks():
    assert copy_above.label(0) == "Copy for a REPL"
    assert copy_above.label(1) == "Copy with the block above"
    assert copy_above.label(6) == "Copy with the 6 blocks above"


def test_placeholder_survives_nesting_and_script_text_is_safe():
    code = 'print("</script><!-- & ok")\nfor i in range(2):\n    print(i)\n'
    body = "\n".join(["!!! note", "", *(copy_above.placeholder(3, code, "    ")), "",
                      "- item", "", *(copy_above.placeholder(4, "x = 1\n", "  "))])
    md = markdown.Markdown(extensions=["admonition"])
    copy_above.register(md)
    out = md.convert(body)
    found = {int(i): json.loads(b) for i, b in PASTE.findall(out)}
    assert found == {3: code + "\n", 4: "x = 1\n\n"}, out
    assert not any("<" in body for _, body in PASTE.findall(out)), "a script could end early"
    assert [label for _, label in BUTTON.findall(out)] == [
        "Copy with the 3 blocks above", "Copy with the 4 blocks above"]


def test_every_code_block_has_both_copy_actions(built_site):
    for chapter in CHAPTERS:
        text = (built_site / chapter / "index.html").read_text(encoding="utf-8")
        blocks = len(re.findall(r'<span class="filename">snippets/', text))
        buttons = BUTTON.findall(text)
        assert len(buttons) == blocks == len(PASTE.findall(text)), chapter
        assert [html.unescape(b[1]) for b in buttons] == [copy_above.label(n)
                                                          for n in range(blocks)]


# -- a real REPL --------------------------------------------------------------------------
@pytest.mark.parametrize("which", WHICH)
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_copy_with_blocks_above_runs_in_python_as_the_page_shows(built_site, tmp_path,
                                                                 chapter, which):
    copies = page_copies(built_site, chapter)
    outputs = record_outputs(CHAPTERS[chapter])
    assert len(copies) == len(outputs), "one copy button per snippet of the record"
    n = {"first": 0, "middle": len(copies) // 2, "last": len(copies) - 1}[which]
    printed = paste_into_python(copies[n], tmp_path)
    # What the REPL printed is what the page shows under blocks 1..n, in order; so
    # under block n it prints exactly that block's output.
    assert printed == "".join(outputs[:n + 1]), (
        f"{chapter}, block {n + 1}: the REPL printed\n{printed[-2000:]}")
    assert printed.endswith(outputs[n])


# -- in the browser -----------------------------------------------------------------------
EMPTY = "(nothing copied yet)"  # Chromium ignores writeText(""): a marker instead


def wait_for_clipboard(page, tries: int = 100) -> str:
    """The clipboard once something replaced EMPTY (at most tries x 100 ms)."""
    for _ in range(tries):
        text = page.evaluate("() => navigator.clipboard.readText()")
        if text != EMPTY:
            return text
        page.wait_for_timeout(100)
    raise AssertionError("nothing was copied")


def test_button_copies_by_mouse_and_keyboard(built_site):
    from helpers.browser import DESKTOP, TIMEOUT_MS, chromium  # skips without chromium
    from helpers.site_server import serve, stop

    chapter = "bandits"
    copies = page_copies(built_site, chapter)
    server, base = serve(built_site)
    try:
        with chromium() as browser:
            context = browser.new_context(viewport=DESKTOP)
            context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base[:-1])
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            errors = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(f"{base}{chapter}/", wait_until="load")
            clipboard = "() => navigator.clipboard.readText()"
            status = ".bookrun-copy-above__status"

            middle = len(copies) // 2
            button = page.locator(f"button[data-bookrun-upto='{middle}']")
            assert button.inner_text() == copy_above.label(middle)
            button.click()
            page.wait_for_function(f"() => document.querySelector('{status}')?.textContent")
            assert page.evaluate(clipboard) == copies[middle]
            assert page.locator(status).first.inner_text() == f"Copied {middle + 1} blocks"

            # The last block a keyboard reaches without opening an answer first.
            last = page.evaluate("() => Math.max(...[...document.querySelectorAll("
                                 "'button[data-bookrun-upto]')].filter(b => !b.closest("
                                 "'details:not([open])')).map(b => +b.dataset.bookrunUpto))")
            assert last > middle
            page.evaluate(f"() => navigator.clipboard.writeText('{EMPTY}')")
            page.locator(f"button[data-bookrun-upto='{last}']").focus()
            page.keyboard.press("Enter")
            assert wait_for_clipboard(page) == copies[last]

            page.evaluate(f"() => navigator.clipboard.writeText('{EMPTY}')")
            page.locator("button[data-bookrun-upto='1']").focus()
            page.keyboard.press("Space")
            assert wait_for_clipboard(page) == copies[1]
            assert not errors, errors
    finally:
        stop(server)
