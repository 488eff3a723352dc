"""Figures a phone can read: each figure opens enlarged, and side-by-side panels stack.

At build time, `panels` reads a figure's SVG (Matplotlib's, text drawn as glyphs) and
finds the crops that cut a row of panels apart between their labels; the page's image
carries them (`data-panels`). After Markdown, the postprocessor wraps each figure's
image in a link to itself (the MkDocs host adds the class `glightbox`, and the lightbox
opens it by click, tap or Enter; elsewhere the link opens the image) and, when it has
panels, adds the same image once per panel, cropped by CSS alone, which bookrun.css
shows instead of the whole figure in a narrow column. Nothing is measured in the
browser; an interactive figure's frames swap every copy's src (frames.js).
"""
from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

from markdown import Extension
from markdown.postprocessors import Postprocessor

SVG = "{http://www.w3.org/2000/svg}"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
NARROW = 0.12  # an axes narrower than this share of the figure is a colourbar, not a panel
PAD = 2.0  # points kept around a panel's outermost label
TRANSFORM = re.compile(r"(translate|scale|rotate|matrix)\(([^)]*)\)")
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _parse(transform: str | None):
    """An SVG transform attribute as the affine (a, b, c, d, e, f)."""
    m = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    for kind, args in TRANSFORM.findall(transform or ""):
        v = [float(x) for x in NUMBER.findall(args)]
        if kind == "translate":
            t = (1, 0, 0, 1, v[0], v[1] if len(v) > 1 else 0)
        elif kind == "scale":
            t = (v[0], 0, 0, v[1] if len(v) > 1 else v[0], 0, 0)
        elif kind == "rotate":
            r = math.radians(v[0])
            t = (math.cos(r), math.sin(r), -math.sin(r), math.cos(r), 0, 0)
        else:
            t = tuple(v)
        m = _compose(m, t)
    return m


def _transform(node):
    return _parse(node.get("transform"))


def _id(node) -> str:
    return node.get("id", "")


def _xy(node) -> tuple[str | None, str | None]:
    """A `use` element's position; both None for a glyph (placed by its transform)."""
    return tuple(node.get(axis) for axis in "xy")


def _compose(m, t):
    a, b, c, d, e, f = m
    A, B, C, D, E, F = t
    return (a * A + c * B, b * A + d * B, a * C + c * D, b * C + d * D,
            a * E + c * F + e, b * E + d * F + f)


def _apply(m, x, y):
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def _path_box(path, m):
    """The box of a <path> element's points under the affine `m`."""
    nums = [float(x) for x in NUMBER.findall(path.get("d") or "")]
    pts = [_apply(m, nums[i], nums[i + 1]) for i in range(0, len(nums) - 1, 2)]
    return _box(pts)


def _box(pts):
    if not pts:
        return None
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return (min(xs), min(ys), max(xs), max(ys))


def _union(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _extent(node, m):
    """The box of what `node` draws: glyphs (a `use` is one glyph, 100 units to the em)
    and paths; clip paths and definitions left out."""
    box = None
    for child in node:
        tag = child.tag.replace(SVG, "")
        if tag in ("defs", "clipPath", "metadata", "style"):
            continue
        cm = _compose(m, _transform(child))
        if tag == "use":  # a glyph (a font's, 100 units to the em) or a marker at x, y
            x, y = _xy(child)
            cm = _compose(cm, (1, 0, 0, 1, float(x or 0), float(y or 0)))
            glyph = x is None and y is None
            box = _union(box, _box([_apply(cm, x, y) for x in ((0, 70) if glyph else (0,))
                                    for y in ((-25, 75) if glyph else (0,))]))
        elif tag == "path":
            box = _union(box, _path_box(child, cm))
        elif tag == "g":
            box = _union(box, _extent(child, cm))
    return box


def _row(axes: list, width: float) -> list | None:
    """[frame box, drawn box] per panel, left to right, when the axes stand in one row of
    two or more (a colourbar joined to its panel); None otherwise."""
    axes = sorted((a for a in axes if a[0] and a[1]), key=lambda a: a[0][0])
    row = []
    for frame, drawn in axes:
        if row and frame[2] - frame[0] < NARROW * width:  # a colourbar joins its panel
            row[-1] = [_union(row[-1][0], frame), _union(row[-1][1], drawn)]
        else:
            row.append([frame, drawn])
    if len(row) < 2:
        return None
    if any(f[1] > row[0][0][3] or f[3] < row[0][0][1] for f, _ in row):  # not one row
        return None
    return row


def panels(svg: str) -> tuple[float, float, list[float], list[float]] | None:
    """(width, height, title, cuts) of a figure whose axes stand in one row of two or
    more panels, in the SVG's units: a title strip `title` = [left, right, bottom] (or
    []) above panels cut at `cuts` (from 0 to the width). None for any other figure."""
    try:
        root = ET.fromstring(svg)
    except ET.ParseError:
        return None
    view = [float(x) for x in NUMBER.findall(root.get("viewBox") or "")]
    figure = root.find(f"{SVG}g")
    if len(view) != 4 or figure is None:
        return None
    width, height = view[2], view[3]
    ident = _parse(None)
    axes, loose = [], None
    for child in figure:
        name = _id(child)
        if name.startswith("axes_"):
            frame = next((g for g in child if _id(g).startswith("patch_")), None)
            path = frame.find(f"{SVG}path") if frame is not None else None
            if path is None:
                return None
            axes.append([_path_box(path, ident), _extent(child, ident)])
        elif name != "patch_1":
            loose = _union(loose, _extent(child, ident))
    row = _row(axes, width)
    if row is None:
        return None
    title = []
    if loose is not None:  # a figure title: its own strip above the panels, or no split
        top = round(min(d[1] for _, d in row) - PAD / 2, 2)
        if loose[3] > top:
            return None
        title = [round(max(loose[0] - PAD, 0), 2), round(min(loose[2] + PAD, width), 2), top]
    cuts = _cuts(row, width)
    return None if cuts is None else (width, height, title, cuts)


def _cuts(row: list, width: float) -> list[float] | None:
    """Where to cut between panels: halfway across each gap between their labels, from 0
    to the width; None where two panels' labels overlap (a glyph's box is generous)."""
    cuts = [0.0]
    for (_, left), (_, right) in zip(row, row[1:]):
        if left[2] > right[0] + 2 * PAD:
            return None
        cuts.append(round((left[2] + right[0]) / 2, 2))
    return cuts + [width]


def smallest_text(svg: str) -> float | None:
    """The size, in the SVG's units, of the figure's smallest text (each text at its
    largest glyph, so a subscript does not count); None without text."""
    try:
        root = ET.fromstring(svg)
    except ET.ParseError:
        return None
    sizes = []

    def walk(node, m, text):
        for child in node:
            tag = child.tag.replace(SVG, "")
            if tag in ("defs", "clipPath", "metadata", "style"):
                continue
            cm = _compose(m, _transform(child))
            if tag == "use" and text is not None and _xy(child)[0] is None:
                text.append(math.hypot(cm[0], cm[1]) * 100)  # glyphs: 100 units to the em
            elif tag == "g":
                own = [] if _id(child).startswith("text_") else None
                walk(child, cm, own if own is not None else text)
                if own:
                    sizes.append(max(own))

    walk(root, _parse(None), None)
    return min(sizes) if sizes else None


READABLE = 9.0  # CSS px: the smallest text a figure may show on a screen


def figure_attributes(svg: str) -> str:
    """attr_list entries for a figure's image: its size, its panels (`data-panels`), the width
    below which its smallest text would read under READABLE px (a narrower column then
    scrolls it sideways rather than shrink it: `--bookrun-min-width`, screen only)."""
    view = [float(x) for x in NUMBER.findall(_view_box(svg))]
    smallest = smallest_text(svg)
    out = []
    if len(view) == 4:
        # Its size (CSS px; Matplotlib's viewBox is in points) reserves its place before
        # it loads: a link followed on a slow load otherwise landed thousands of pixels
        # off as the figures above it arrived and pushed its target down.
        out.append(f'width="{view[2] * 4 / 3:.0f}" height="{view[3] * 4 / 3:.0f}"')
    found = panels(svg)
    if found is not None:
        width, height, title, cuts = found
        out.append('data-panels="' + " ".join(f"{x:g}" for x in [width, height, *cuts])
                   + (f' title {" ".join(f"{x:g}" for x in title)}' if title else "") + '"')
    if len(view) == 4 and smallest:
        out.append(f'style="--bookrun-min-width: {math.ceil(view[2] * READABLE / smallest)}px"')
    return " ".join(out)


def _view_box(svg: str) -> str:
    m = re.search(r'<svg\b[^>]*\bviewBox="([^"]*)"', svg)
    return m.group(1) if m else ""


def _crop(src: str, x: float, y: float, w: float, h: float, width: float) -> str:
    """One region of the image, by CSS: a box of the region's shape, the image inside
    it scaled and shifted (percentages of the box's width, vertical margins too)."""
    return (f'<span class="bookrun-panel" style="aspect-ratio:{w:g}/{h:g};'
            f'max-width:{w * 4 / 3:.0f}px">'
            f'<img class="off-glb" src="{src}" alt="" style="width:{_pc(width / w)};'
            f'margin:{_pc(-y / w)} 0 0 {_pc(-x / w)}"></span>')


def _pc(share: float) -> str:
    return f"{100 * share:.4g}%" if share else "0"


LINK = "bookrun-zoom"  # the class of a figure's link
IMG = re.compile(r'<img\b[^>]*\bclass="bookrun-figure"[^>]*>')
ATTR = re.compile(r'\s([\w:-]+)="([^"]*)"')


def zoomable(tag: str) -> str:
    """A figure's <img> in its link, with its stacked panels when it has any."""
    attrs = dict(ATTR.findall(tag))
    src, spec, alt = (attrs.get(name, "") for name in ("src", "data-panels", "alt"))
    inner = re.sub(r'\sdata-panels="[^"]*"', "", tag)
    if spec:
        row, _, title = spec.partition(" title ")
        width, height, *cuts = (float(v) for v in row.split())
        left, right, top = (float(v) for v in title.split()) if title else (0, 0, 0)
        crops = ([(left, 0, right - left, top)] if top else []) + [
            (a, top, b - a, height - top) for a, b in zip(cuts, cuts[1:])]
        inner += (f'<span class="bookrun-panels" role="img" aria-label="{alt}">'
                  + "".join(_crop(src, *c, width) for c in crops) + "</span>")
    return (f'<a class="{LINK}" href="{src}" data-type="image"'
            f'{" data-panels" if spec else ""}>{inner}</a>')


class ZoomPostprocessor(Postprocessor):
    def run(self, text: str) -> str:
        return IMG.sub(lambda m: zoomable(m.group(0)), text)


def register(md) -> None:
    """After raw HTML is restored (30), like the copy buttons."""
    md.postprocessors.register(ZoomPostprocessor(md), "bookrun_zoom", 14)


class ZoomExtension(Extension):
    """The postprocessor alone (bookrun.extension registers it itself)."""

    def extendMarkdown(self, md):
        register(md)

