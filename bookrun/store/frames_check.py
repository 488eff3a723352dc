"""A snippet's frames as the host checks them: `check`'s comparison, named by each
changed frame's values, and the reader of a frames file.

The worker writes frames files (bookrun.execute.worker.frames, whose format and
FramesData this reads); nothing here runs in a session, so it lives outside the worker
package, whose code is pinned to the execution protocol: a clearer `check` message
leaves every book's records fresh.
"""
from __future__ import annotations

import gzip
import itertools
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from bookrun.execute.worker.frames import FramesData, find, parse_svg


def compare(name: str, expected, got, recorded: Path | None,
            fresh: Path | None) -> list[str]:
    """Problems with a snippet's frames (SnippetRecords' `frames`): each changed frame
    named by its values."""
    old = {f.figure: f for f in expected.frames}
    new = {f.figure: f for f in got.frames}
    problems = []
    for figure in sorted(set(old) | set(new)):
        e, g = old.get(figure), new.get(figure)
        if e is None or g is None:
            problems.append(f"{name}: figure {figure} is {'not ' if g is None else ''}"
                            f"interactive now, but {'was' if g is None else 'was not'} "
                            "when recorded")
        elif e.sha256 != g.sha256:
            problems.append(f"{name}: frames of {figure} differ: "
                            + frame_changes(recorded, fresh, e.name))
    return problems


def frame_changes(recorded: Path | None, fresh: Path | None, file: str, shown: int = 5) -> str:
    try:
        a = read_frames(recorded / file)
        b = read_frames(fresh / file)
    except (OSError, TypeError, ValueError, KeyError):
        return f"{file} changed (the recorded copy is missing or unreadable)"
    if a.controls != b.controls or len(a.frames) != len(b.frames):
        return "the controls changed"
    names = [c.name for c in a.controls]
    found = []
    for index, (ta, ga), (tb, gb) in zip(itertools.product(*(c.shown for c in a.controls)),
                                         a.frames, b.frames):
        pa = {k: a.pieces[v] for k, v in ga.items()}
        pb = {k: b.pieces[v] for k, v in gb.items()}
        label = ", ".join(f"{n}={v}" for n, v in zip(names, index))
        if ta != tb:
            found.append(f"frame {label}: text expected {ta!r}, got {tb!r}")
        elif pa != pb:
            groups = set(pa) ^ set(pb) or {k for k in pa if pa[k] != pb.get(k)}
            found.append(f"frame {label}: picture changed ({', '.join(sorted(groups))})")
    if not found:
        return "the default frame or the shared definitions changed"
    more = f"; and {len(found) - shown} more" if len(found) > shown else ""
    return "; ".join(found[:shown]) + more


def read_frames(path: Path) -> FramesData:
    return FramesData.from_json(json.loads(path.read_text(encoding="utf-8")))


def gzipped_size(path: Path) -> int:
    return len(gzip.compress(path.read_bytes(), 9, mtime=0))


def rebuild(base_svg: bytes, data: FramesData, n: int) -> ET.Element:
    """Frame `n` as the browser assembles it (docs/assets/frames.js): the default frame
    with the frame's groups swapped in. For tests; the page does this in script."""
    root = parse_svg(base_svg)
    parents = {c: p for p in root.iter() for c in p}
    for key, k in data.frames[n][1].items():
        old = find(root, key)
        parent = parents[old]
        new = ET.fromstring(data.pieces[k])
        new.tail = old.tail
        parent[list(parent).index(old)] = new
    return root


if __name__ == "__main__":  # pragma: no cover - a quick look at a frames file
    for arg in sys.argv[1:]:
        data = read_frames(Path(arg))
        print(arg, len(data.frames), "frames,", len(data.pieces), "pieces,",
              gzipped_size(Path(arg)), "bytes gzipped")
