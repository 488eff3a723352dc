""""Copy with the N blocks above": each code block also copies the page's code up to it.

A chapter's snippets run in one session, so most blocks use names that earlier
blocks defined, and a block pasted alone into a REPL fails. Under each block the
page offers a second copy action that puts every snippet from the first to this
one on the clipboard, in page order, each followed by the blank line that closes
an indented block in a REPL (snippets have no blank line inside one: the worker
enforces it).

The text is built here, at build time: each block carries only its own snippet
(a small JSON string in a <script> that is never run nor laid out), and the button
names how many earlier blocks it joins; render/assets/copy_above.js concatenates
them on click. So a page's weight grows by its code once, not quadratically.

Rendering is Markdown first (render.render_step adds a placeholder paragraph,
which survives any nesting: admonitions, collapsible answers), then HTML: the
postprocessor below turns each placeholder into the script and the button.
"""
from __future__ import annotations

import base64
import html
import json
import re

from markdown.postprocessors import Postprocessor

PREFIX = "bookrun-copy-above"
# Base64 has no character Markdown would read as markup, so the placeholder reaches
# the HTML intact whatever encloses it; a tight list item has no <p> around it.
PLACEHOLDER = re.compile(rf"(?:<p>)?{PREFIX}:(\d+)(p?):([A-Za-z0-9+/=]*)(?:</p>)?")
# Pasted after a platform-bound snippet (its own line, then the blank line that closes
# it, so a REPL reads it as nothing): why the reader's digits may differ from the page.
PLATFORM_PASTE_NOTE = ("# platform-bound: the page shows the digits of its recording machine; "
                       "another CPU (vendor, SIMD level, BLAS) prints others, and the "
                       "chapter's tests check the findings\n\n")


def paste_text(code: str) -> str:
    """One snippet as a REPL wants it: its lines, then one blank line."""
    return code.rstrip("\n") + "\n\n"


def placeholder(index: int, code: str, indent: str, platform_bound: bool = False) -> list[str]:
    """Markdown lines standing for block `index` (0-based, page order) and its code."""
    text = paste_text(code) + (PLATFORM_PASTE_NOTE if platform_bound else "")
    data = base64.b64encode(text.encode("utf-8")).decode("ascii")
    return ["", f"{indent}{PREFIX}:{index}{'p' if platform_bound else ''}:{data}"]


def label(index: int) -> str:
    if index == 0:
        return "Copy for a REPL"
    if index == 1:
        return "Copy with the block above"
    return f"Copy with the {index} blocks above"


def script_json(text: str) -> str:
    """A JSON string that cannot end its <script> early nor open a comment."""
    return (json.dumps(text).replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("&", "\\u0026"))


def block_html(index: int, code: str, platform_bound: bool = False) -> str:
    what = label(index)
    hint = ("this block" if index == 0 else
            f"blocks 1 to {index + 1} of this page, in order")
    title = f"Copies {hint}, ready to paste into Python" + (
        "; this block's digits depend on the CPU it runs on" if platform_bound else "")
    return (f'<div class="bookrun-copy-above" data-search-exclude>'
            f'<script type="application/json" data-bookrun-paste="{index}">'
            f"{script_json(code)}</script>"
            f'<button type="button" class="bookrun-copy-above__button" '
            f'data-bookrun-upto="{index}" title="{html.escape(title)}">'
            f"{what}</button></div>")


def expand(text: str) -> str:
    def one(m):
        code = base64.b64decode(m.group(3)).decode("utf-8")
        return block_html(int(m.group(1)), code, m.group(2) == "p")

    return PLACEHOLDER.sub(one, text) if PREFIX in text else text


class CopyAbovePostprocessor(Postprocessor):
    def run(self, text: str) -> str:
        return expand(text)


def register(md) -> None:
    """Add the postprocessor to a Markdown instance (after raw HTML is restored, at 30)."""
    md.postprocessors.register(CopyAbovePostprocessor(md), "bookrun_copy_above", 15)
