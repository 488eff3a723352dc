"""Interactive figures, session side: every frame of a figure, computed and stored.

After a snippet with an interactive figure runs, the worker calls its drawing function
for every combination of control values (bookrun.parse.controls gives them), capturing
the one figure and the one line of text each call shows.

Full SVG per frame would not fit the page budgets (a frame is tens of kB, a figure
has hundreds), and frames share most of their drawing: the axes, ticks and labels.
So the figure the snippet showed is the default frame, published as usual, and a
frame is stored as the SVG groups (matplotlib gives each artist a `<g id=...>`) that
differ from it. Identical groups are stored once in a pool, so a curve shared by 30
frames costs one copy. Glyphs and clip paths (`<defs>`) are hoisted out of the groups
that happen to hold them, into one pool of definitions the browser adds once.

The result is `<stem>-<n>.frames.json` beside the figure in `_figures/`, listed in the
record with its sha256; `compare` names the frames whose picture or text changed.
"""
from __future__ import annotations

import hashlib
import inspect
import io
import itertools
import json
import math
import xml.etree.ElementTree as ET
from contextlib import redirect_stdout
from dataclasses import dataclass
from pathlib import Path

from bookrun.execute.worker.protocol import FigureSpec, FramesEntry, SnippetError, Wire

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
ET.register_namespace("", SVG)
ET.register_namespace("xlink", XLINK)
FORMAT = 1
ID = "id"  # the attribute by which matplotlib names each artist's group


# A frame that cannot be recorded: the session's one located error, naming the page's line.
FrameError = SnippetError


@dataclass(frozen=True)
class ShownControl(Wire):
    """A control as a frames file names it: its parameter, each value as shown."""

    name: str
    shown: tuple[str, ...]


@dataclass(frozen=True)
class FramesData(Wire):
    """A frames file: the figure's controls, the default frame's position, the shared
    definitions and pieces, and per frame its line of text and its groups' pieces."""

    figure: str
    function: str
    controls: tuple[ShownControl, ...]
    default: tuple[int, ...]
    defs: dict[str, str]  # id -> XML, added once to the page's figure
    pieces: tuple[str, ...]  # the groups' XML, each stored once
    frames: tuple[tuple[str, dict[str, int]], ...]  # (text, {group id: piece index})
    format: int = FORMAT

    def to_json(self) -> dict:
        # `format` leads the file, though as the one field with a default it comes last.
        return {"format": self.format, **super().to_json()}


def frames_name(figure: str) -> str:
    return figure[:-len(".svg")] + ".frames.json"


def capture(specs: tuple[FigureSpec, ...], namespace: dict, figdir: Path,
            figures: list[str]) -> tuple[FramesEntry, ...]:
    """Record every frame of each interactive figure the snippet just showed; the
    record's entries."""
    return tuple(record_figure(spec, namespace, figdir, figures) for spec in specs)


def where(spec: FigureSpec, values) -> str:
    return ", ".join(f"{c.name}={v!r}" for c, v in zip(spec.controls, values))


def record_figure(spec: FigureSpec, namespace: dict, figdir: Path,
                  figures: list[str]) -> FramesEntry:
    name = spec.function
    if spec.figure >= len(figures):
        raise FrameError(spec.page, spec.line, f"the snippet showed {len(figures)} figure(s), "
                         f"so there is no figure {spec.figure + 1} to be {name}'s default frame")
    function = namespace.get(name)
    if not callable(function):
        raise FrameError(spec.page, spec.line, f"`Interactive: {name}`: the snippet defines "
                         "no function of that name")
    default = defaults(spec, function)
    figure = figures[spec.figure]
    data = every_frame(spec, function, default, figure, (figdir / figure).read_bytes())
    out = figdir / frames_name(figure)
    out.write_bytes(dump(data.to_json()))
    text = data.frames[flat_index(spec, default)][0]
    return FramesEntry(out.name, hashlib.sha256(out.read_bytes()).hexdigest(), figure,
                       tuple(default), text)


def every_frame(spec: FigureSpec, function, default: list[int], figure: str,
                base_svg: bytes) -> FramesData:
    """Draw each combination of the controls' values; keep what differs from the figure."""
    base = parse_svg(base_svg)
    base_defs = definitions(base)
    pool: dict[str, int] = {}
    extra_defs: dict[str, str] = {}
    frames = []
    for index in itertools.product(*(range(len(c.values)) for c in spec.controls)):
        values = [c.values[i] for c, i in zip(spec.controls, index)]
        svg, text = draw(function, spec, values)
        if list(index) == default and svg != base_svg:
            raise FrameError(spec.page, spec.line, f"{spec.function}() with its defaults draws "
                             "another picture than the figure the snippet showed: the drawing "
                             "must depend on its parameters only (fixed seeds, no state kept "
                             "between calls)")
        frame = parse_svg(svg)
        for key, xml in definitions(frame).items():
            if key not in base_defs:
                extra_defs[key] = xml
        changed = changed_groups(spec, values, base, frame)
        frames.append((text, {k: pool.setdefault(x, len(pool)) for k, x in sorted(changed.items())}))
    return FramesData(figure, spec.function,
                      tuple(ShownControl(c.name, tuple(c.shown)) for c in spec.controls),
                      tuple(default),
                      dict(sorted(extra_defs.items())), tuple(pool), tuple(frames))


def changed_groups(spec: FigureSpec, values, base: ET.Element,
                   frame: ET.Element) -> dict[str, str]:
    """The frame's groups that differ from the default frame, within the frame limit."""
    changed: dict[str, str] = {}
    diff(find(base, "figure_1"), find(frame, "figure_1"), changed)
    size = sum(len(x.encode()) for x in changed.values())
    if size > spec.max_frame_bytes:
        raise FrameError(spec.page, spec.line, f"frame {where(spec, values)} adds "
                         f"{size / 1000:.0f} kB to the default frame, over the limit of "
                         f"{spec.max_frame_bytes // 1000} kB: fix the axes' limits and "
                         "ticks so frames share them, draw fewer points, or raise the "
                         f"limit with max-frame-kb=N on the @run line")
    return changed


def dump(data: dict) -> bytes:
    """Compact JSON, one pool piece and one frame per line: readable in a diff."""
    head = {k: v for k, v in data.items() if k not in ("pieces", "frames")}
    lines = ["{" + json.dumps(head, ensure_ascii=False, separators=(",", ":"))[1:-1] + ","]
    for key in ("pieces", "frames"):
        items = [json.dumps(x, ensure_ascii=False, separators=(",", ":")) for x in data[key]]
        lines.append(f'"{key}":[')
        lines += [x + ("," if n < len(items) - 1 else "") for n, x in enumerate(items)]
        lines.append("]," if key == "pieces" else "]")
    return ("\n".join(lines) + "}\n").encode()


def flat_index(spec: FigureSpec, index: list[int]) -> int:
    flat = 0
    for c, i in zip(spec.controls, index):
        flat = flat * len(c.values) + i
    return flat


def defaults(spec: FigureSpec, function) -> list[int]:
    """Each control's position of the function's default value; errors name the line."""
    page, name = spec.page, spec.function
    params = inspect.signature(function).parameters
    found = []
    for c in spec.controls:
        p = params.get(c.name)
        if p is None:
            raise FrameError(page, c.line, f"{c.name!r} is not a parameter of {name}"
                             f"({', '.join(params)})")
        if p.default is inspect.Parameter.empty:
            raise FrameError(page, c.line, f"{name}'s parameter {c.name!r} needs a "
                             "default: the default frame is the figure the snippet shows")
        at = [i for i, v in enumerate(c.values) if same(v, p.default)]
        if not at:
            raise FrameError(page, c.line, f"the default {c.name}={p.default!r} of "
                             f"{name} is not one of the control's values {list(c.shown)}")
        found.append(at[0])
    return found


def same(a, b) -> bool:
    number = (int, float)
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, number) and isinstance(b, number):
        return math.isclose(a, b, rel_tol=0, abs_tol=1e-12)
    return type(a) is type(b) and a == b


def draw(function, spec: FigureSpec, values: list) -> tuple[bytes, str]:
    """Call the function for one frame: its one figure's SVG and its one line of text."""
    import matplotlib.pyplot as plt

    page, line = spec.page, spec.line
    shown, out = [], io.StringIO()

    def show(*args, **kwargs):
        for num in plt.get_fignums():
            buffer = io.BytesIO()
            # as the session's own plt.show saves a figure, so the default frame matches
            plt.figure(num).savefig(buffer, format="svg", metadata={"Date": None})
            shown.append(buffer.getvalue())
        plt.close("all")

    kept, plt.show = plt.show, show
    plt.close("all")
    kwargs = {c.name: v for c, v in zip(spec.controls, values)}
    try:
        with redirect_stdout(out):
            function(**kwargs)
    except Exception as exc:  # a Refused (a limit, the time) is a BaseException: it passes
        raise FrameError(page, line, f"frame {where(spec, values)}: {spec.function} raised "
                         f"{type(exc).__name__}: {exc}{snippet_line(exc)}") from None
    finally:
        plt.show = kept
        plt.close("all")
    text = out.getvalue()
    if len(shown) != 1:
        raise FrameError(page, line, f"frame {where(spec, values)}: {spec.function} showed "
                         f"{len(shown)} figures; a frame is one figure and one plt.show()")
    if text.count("\n") != 1 or not text.endswith("\n") or not text.strip():
        raise FrameError(page, line, f"frame {where(spec, values)}: {spec.function} printed "
                         f"{text!r}; a frame prints exactly one line saying what it shows")
    return shown[0], text.rstrip("\n")


def snippet_line(exc) -> str:
    import traceback

    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if f.filename.endswith(".py") and "/bookrun/" not in f.filename
              and "site-packages" not in f.filename]
    return f" (at {frames[-1].filename}:{frames[-1].lineno})" if frames else ""


# -- SVG groups -------------------------------------------------------------------------
def parse_svg(data: bytes) -> ET.Element:
    root = ET.fromstring(data)
    # Definitions nested in a group move to the top: the groups then compare by their
    # drawing alone, and swapping a group in the browser never removes a glyph.
    nested = [(parent, d) for parent in root.iter() if parent is not root
              for d in parent if d.tag == f"{{{SVG}}}defs"]
    for parent, d in nested:
        parent.remove(d)
        hoisted = ET.SubElement(root, f"{{{SVG}}}defs")
        hoisted.extend(list(d))
    return root


def definitions(root: ET.Element) -> dict[str, str]:
    return {d.get(ID): canon(d) for defs in root.findall(f"{{{SVG}}}defs")
            for d in defs if d.get(ID)}


def find(root: ET.Element, key: str) -> ET.Element:
    for e in root.iter():
        if e.get(ID) == key:
            return e
    raise ValueError(f"no element {key!r} in the SVG")


def canon(e: ET.Element) -> str:
    """The element as text, without the whitespace that follows it in its parent."""
    tail, e.tail = e.tail, None
    try:
        return ET.tostring(e, encoding="unicode")
    finally:
        e.tail = tail


def diff(old: ET.Element, new: ET.Element, changed: dict[str, str]) -> None:
    """The smallest elements with ids whose replacement turns `old` into `new`."""
    if canon(old) == canon(new):
        return
    keys_old = [c.get(ID) for c in old]
    keys_new = [c.get(ID) for c in new]
    if (old.tag == new.tag and old.attrib == new.attrib and (old.text or "").strip()
            == (new.text or "").strip() and keys_old == keys_new and all(keys_old)):
        for a, b in zip(old, new):
            diff(a, b, changed)
    else:
        changed[old.get(ID)] = canon(new)
