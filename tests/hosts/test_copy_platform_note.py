"""A platform-bound block's copy action says its digits depend on the CPU (issue 41):
in the button's title and in the copied text, as a comment a REPL reads as nothing."""
import json
import re
import subprocess
import sys

from bookrun.render import copy_above

CODE = "x = 0.1 + 0.2\nprint(f'{x:.17f}')\n"


def rendered(platform_bound: bool) -> tuple[str, str]:
    [_, line] = copy_above.placeholder(3, CODE, "", platform_bound)
    page = copy_above.expand(f"<p>{line}</p>")
    title = re.search(r'title="([^"]*)"', page).group(1)
    text = json.loads(re.search(r"<script[^>]*>(.*?)</script>", page).group(1))
    return title, text


def test_a_platform_bound_block_says_so_in_its_title_and_its_copied_text():
    title, text = rendered(True)
    assert title.endswith("ready to paste into Python; this block&#x27;s digits depend on "
                          "the CPU it runs on")
    assert text == copy_above.paste_text(CODE) + copy_above.PLATFORM_PASTE_NOTE
    assert text.rstrip("\n").splitlines()[-1].startswith("# platform-bound:")


def test_an_exact_block_copies_its_code_alone():
    title, text = rendered(False)
    assert "CPU" not in title and text == copy_above.paste_text(CODE)


def test_the_note_pasted_into_a_repl_prints_nothing():
    _, text = rendered(True)
    done = subprocess.run([sys.executable, "-i", "-q"], input=text + "print('next')\n\n",
                          capture_output=True, text=True, timeout=30)
    assert done.stdout == "0.30000000000000004\nnext\n", done.stdout + done.stderr
