"""Text from a snippet, shown where a control character would act instead of show.

A snippet's output, a bound value or an error message can hold NUL, BEL, a carriage
return or an ANSI escape sequence. Raw, they would reach the HTML (where `\\r` becomes a
line break and the rest are invisible), the notebook (where `\\r` rewinds the line) or
the author's terminal (where `\\x1b[2J` clears the screen). Every such character is
shown instead as Python writes it in a string, `\\r`, `\\x1b`, `\\x00`: the same on the
page, in the notebook and on the terminal. Newlines and tabs are kept. The record
keeps the raw text, so `check` compares what the snippet printed.
"""
from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, C1 controls (0x9b is a one-byte CSI for some
# terminals), and the Unicode controls that reorder text on the screen.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escape(m: re.Match) -> str:
    ch = m.group()
    if ch == "\r":
        return "\\r"
    return f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}"


def visible(text: str) -> str:
    """`text` with every control character written out, as in a Python string."""
    return CONTROL.sub(_escape, text)


def unprefixed(message: str) -> str:
    """An error's text without a leading `bookrun: `, for a host that says so itself
    (`bookrun: error: ...`), so that no line reads `bookrun: error: bookrun: ...`."""
    return message.removeprefix("bookrun: ")
