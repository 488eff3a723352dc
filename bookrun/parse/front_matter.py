"""A page's YAML front matter, split from its text with the line numbers kept."""
from __future__ import annotations

import re

import yaml

from bookrun.model.page import PageError

FRONT_MATTER_END = re.compile(r"^(---|\.\.\.)\s*$")


def front_matter_end(lines: list[str]) -> int:
    """The line number (1-based) that closes the front matter; 0 when the page has none
    (or never closes it: split_front_matter names that error)."""
    if not lines or lines[0].strip() != "---":
        return 0
    return next((i + 1 for i in range(1, len(lines)) if FRONT_MATTER_END.match(lines[i])), 0)


def split_front_matter(text: str, shown: str) -> tuple[dict, str]:
    """The front matter's fields, and the text with the front matter blanked out
    (empty lines in its place, so line numbers in later errors still match the file)."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return {}, text
    end = next((i for i in range(1, len(lines)) if FRONT_MATTER_END.match(lines[i])), None)
    if end is None:
        raise PageError(shown, 1, "front matter opened with `---` is never closed")
    try:
        meta = yaml.safe_load("\n".join(lines[1:end])) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = 2 + mark.line if mark is not None else 1
        raise PageError(shown, line, f"front matter is not valid YAML: {exc}") from None
    if not isinstance(meta, dict):
        raise PageError(shown, 2, "front matter must be a mapping of `key: value` lines")
    return meta, "\n".join([""] * (end + 1) + lines[end + 1:])


def chapter_number(meta: dict, title: str | None) -> str | None:
    """`chapter:` from the front matter, else the number of a nav title like `3. Bandits`."""
    if "chapter" in meta:
        return str(meta["chapter"])
    m = re.match(r"(\d+)\.\s", title or "")
    return m.group(1) if m else None


def nav_titles(nav) -> dict[str, str]:
    """Each page of a mkdocs.yml `nav` (its path in the docs folder) and its title there:
    `- 3. Bandits: bandits.md` gives {"bandits.md": "3. Bandits"}, sections included."""
    found = {}
    for entry in nav if isinstance(nav, list) else []:
        for title, value in (entry.items() if isinstance(entry, dict) else ()):
            if isinstance(value, str):
                found[value] = str(title)
            else:
                found.update(nav_titles(value))
    return found
