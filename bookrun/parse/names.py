"""Which files an `@run` line may name: a Python file inside the book's snippets folder.

A directive is read before anything runs, so this is where a path that would leave the
book (`..`, an absolute path, a symlink pointing out) or a name that would break the
page's markup (a space, a quote, a bracket) is refused, with the rule in the message.
"""
from __future__ import annotations

import re
from pathlib import Path

# One part of the path: letters, digits, `_`, `.`, `-`, not starting with `.` or `-`
# (so neither `..` nor a hidden file nor something read as an option).
PART = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")
RULE = ("`@run` names a file as <chapter>/<file>.py under the snippets folder, each part "
        "made of letters, digits, `_`, `.` and `-` and not starting with `.` or `-` "
        "(no spaces, quotes, brackets, `..` or absolute paths)")


def unsafe_name(rel: str, snippets_root: Path) -> str | None:
    """Why `rel` may not be run, or None when it names a file inside `snippets_root`.

    The name is checked before the file system is asked anything, and the file's real
    path (symlinks followed) must stay inside the snippets folder.
    """
    parts = rel.split("/")
    if (len(parts) < 2 or not all(PART.fullmatch(p) for p in parts)
            or not rel.endswith(".py")):
        return f"{RULE}; got {rel!r}"
    root = snippets_root.resolve()
    real = (snippets_root / rel).resolve()
    if not real.is_relative_to(root):
        return f"{rel} leads outside the snippets folder (a symlink to {real}): " \
               "keep the snippet's file in the book"
    return None
