"""Whether an SVG is a drawing and nothing more: the allow-list every published SVG passes.

A figure file and each SVG fragment of a frames file (the groups frames.js swaps into
the page) is written by the session, which runs untrusted code, and the site serves
it from its own origin: opened directly, an SVG runs its scripts there, and a notebook
page inlines it into its HTML. So the host accepts only what Matplotlib's SVG backend
writes (bookrun/execute/worker draws every figure with it): its elements, its
attributes, references to the file's own `#id`s, PNG images inlined as `data:` URLs,
and the one-line stylesheet it puts in `<defs>`. Anything else is refused, never
repaired: a figure the check would have to change is not the snippet's drawing.

The text is parsed by defusedxml (no entity declarations, no external entities, no
document type but Matplotlib's own), and the parser reports comments and processing
instructions, so nothing that a browser's HTML parser would read differently (a
notebook page inlines the SVG) passes unseen. DESIGN-NOTES.md has the decision.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
CC = "http://creativecommons.org/ns#"
DC = "http://purl.org/dc/elements/1.1/"
# The document type Matplotlib writes: (name, public id, system id), no internal subset.
DOCTYPE = ("svg", "-//W3C//DTD SVG 1.1//EN", "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd")

# What matplotlib.backends.backend_svg writes, less `<a>` (a link out, from an
# artist's set_url, which no figure here needs).
ELEMENTS = {f"{{{SVG}}}{name}" for name in (
    "svg", "g", "defs", "style", "path", "use", "rect", "clipPath", "pattern", "image",
    "linearGradient", "stop", "filter", "feComposite", "feColorMatrix", "text", "tspan",
    "title", "metadata")}
# Inside <metadata> only: the RDF block naming the creator (Matplotlib and its version).
METADATA = ({f"{{{RDF}}}{n}" for n in ("RDF", "Bag", "li")}
            | {f"{{{CC}}}{n}" for n in ("Work", "Agent")}
            | {f"{{{DC}}}{n}" for n in ("type", "format", "creator", "title", "date",
                                        "description", "subject", "rights", "publisher",
                                        "contributor", "coverage", "identifier", "language",
                                        "relation", "source")})
ANY_ELEMENT = ELEMENTS | METADATA
ATTRIBUTES = {
    "id", "d", "style", "transform", "x", "y", "width", "height", "viewBox", "version",
    "clip-path", "patternUnits", "fill", "fill-opacity", "opacity", "stroke",
    "stroke-width", "shape-rendering", "filter", "type", "offset", "x1", "y1", "x2", "y2",
    "gradientUnits", "in", "in2", "operator", "k1", "k2", "k3", "k4", "values",
    "preserveAspectRatio", "href", f"{{{XLINK}}}href"}
HREFS = {"href", f"{{{XLINK}}}href"}
LOCAL = r"#[A-Za-z0-9_][A-Za-z0-9_.:-]*"  # a reference to an element of the same file
LOCAL_REF = re.compile(LOCAL)
PNG = re.compile(r"data:image/png;base64,[A-Za-z0-9+/=\s]*")  # an imshow's pixels
URL = re.compile(r"url\(([^)]*)\)", re.IGNORECASE)
# Matplotlib's CSS: `fill: #1f77b4; stroke-dasharray: 3.7,1.6`, fonts as 'DejaVu Sans',
# the stylesheet `*{stroke-linejoin: round; ...}`; no at-rules, escapes or functions.
CSS = re.compile(r"[A-Za-z0-9#:;.,%\s'\"_*{}+-]*")
SCHEMES = re.compile(r"(javascript|vbscript|data):", re.IGNORECASE)
INVISIBLE = re.compile(r"[\s\x00-\x1f]+")
SHOWN = 60  # characters of an offending value quoted in a refusal


class UnsafeSvg(ValueError):
    """What makes an SVG more than a drawing, as a phrase: `has <script>`."""


class _Builder(ET.TreeBuilder):
    """The tree, and every processing instruction and comment, wherever they stand."""

    def __init__(self):
        super().__init__(insert_comments=True)
        self.instructions: list[str] = []
        self.comments: list[str] = []

    def pi(self, target, text=None):
        self.instructions.append(target)
        return super().pi(target, text)

    def comment(self, text):
        self.comments.append(text)
        return super().comment(text)


class _Parser(DefusedXMLParser):
    """defusedxml's parser, its document type refused unless it is Matplotlib's."""

    def __init__(self, target, doctype: bool):
        super().__init__(target=target, forbid_dtd=True)
        self.doctype = doctype

    def defused_start_doctype_decl(self, name, sysid, pubid, has_internal_subset):
        if not (self.doctype and (name, pubid, sysid) == DOCTYPE and not has_internal_subset):
            raise UnsafeSvg(f"has a document type other than Matplotlib's ({name!r}, "
                            f"{sysid!r}{', with declarations' if has_internal_subset else ''})")


def check_svg(data: bytes) -> None:
    """Raise UnsafeSvg unless `data` is a whole SVG file as Matplotlib writes one."""
    root = _parse(data, doctype=True)
    if root.tag != f"{{{SVG}}}svg":
        raise UnsafeSvg(f"is not an SVG document (its root is <{_name(root.tag)}>)")
    _check_tree(root)


def check_fragment(xml: str) -> None:
    """Raise UnsafeSvg unless `xml` is one SVG element a frames file may hold (a group
    the page swaps in, or a definition it adds): no document type, no declaration."""
    root = _parse(xml.encode("utf-8"), doctype=False)
    if root.tag == f"{{{SVG}}}svg" or root.tag not in ELEMENTS:
        raise UnsafeSvg(f"has the element <{_name(root.tag)}>, which a frame does not draw")
    _check_tree(root)


def _parse(data: bytes, doctype: bool) -> ET.Element:
    if b"<![CDATA[" in data:
        raise UnsafeSvg("has a CDATA section, which Matplotlib does not write")
    builder = _Builder()
    parser = _Parser(builder, doctype)
    try:
        parser.feed(data)
        root = parser.close()
    except UnsafeSvg:
        raise
    except DefusedXmlException as exc:
        raise UnsafeSvg(f"declares what a drawing does not ({type(exc).__name__})") from None
    except ET.ParseError as exc:
        raise UnsafeSvg(f"is not well-formed XML ({exc})") from None
    if builder.instructions:
        raise UnsafeSvg(f"has a processing instruction <?{builder.instructions[0]}?>")
    for text in builder.comments:
        # Matplotlib writes a label's text as `<!-- text -->`. A comment opening with
        # `>` or `->` ends at once in an HTML parser (a notebook page inlines the SVG),
        # and what follows it would be markup there.
        if text.startswith((">", "->")):
            raise UnsafeSvg(f"has a comment an HTML parser ends early: {_quote(text)}")
    return root


def _check_tree(root: ET.Element) -> None:
    inside = {root: False}  # element -> whether it is inside <metadata>
    for parent in root.iter():
        for child in parent:
            inside[child] = inside[parent] or parent.tag == f"{{{SVG}}}metadata"
    for e in root.iter():
        if not isinstance(e.tag, str):
            continue  # a comment, checked by the parse
        if e.tag not in (ANY_ELEMENT if inside[e] else ELEMENTS):
            raise UnsafeSvg(f"has the element <{_name(e.tag)}>, which a drawing does not need")
        for name, value in e.attrib.items():
            _check_attribute(e, name, value, inside[e])
        if e.tag == f"{{{SVG}}}style":
            if e.get("type", "text/css") != "text/css" or len(e):
                raise UnsafeSvg("has a <style> that is not one CSS text")
            _check_css(e.text or "", lambda: "its <style>")


def _check_attribute(e: ET.Element, name: str, value: str, in_metadata: bool) -> None:
    where = lambda: f"{_name(name)}={_quote(value)} on <{_name(e.tag)}>"  # noqa: E731
    if name.rpartition("}")[2][:2].lower() == "on":
        raise UnsafeSvg(f"has the event handler {where()}")
    if in_metadata and name == f"{{{RDF}}}resource":
        if not value.startswith("http://purl.org/dc/dcmitype/"):
            raise UnsafeSvg(f"has the reference {where()}")
        return
    if name not in ATTRIBUTES:
        raise UnsafeSvg(f"has the attribute {where()}, which Matplotlib does not write")
    if name in HREFS:
        if LOCAL_REF.fullmatch(value):
            return
        if e.tag == f"{{{SVG}}}image" and PNG.fullmatch(value):
            return
        raise UnsafeSvg(f"has the external reference {where()} (a drawing refers only "
                        "to its own #ids)")
    if ":" in value and SCHEMES.search(INVISIBLE.sub("", value)):
        raise UnsafeSvg(f"has a URL in {where()}")
    if name == "style":
        _check_css(value, where)
    elif "(" in value:
        _check_urls(value, where)


def _check_css(text: str, where) -> None:
    """`where()` names the place, for the refusal."""
    if not CSS.fullmatch(URL.sub("", text)):
        raise UnsafeSvg(f"has CSS other than Matplotlib's (an at-rule, an escape or a "
                        f"function) in {where()}: {_quote(text)}")
    if ":" in text and SCHEMES.search(INVISIBLE.sub("", text)):
        raise UnsafeSvg(f"has a URL in the CSS of {where()}")
    _check_urls(text, where)


def _check_urls(value: str, where) -> None:
    for target in URL.findall(value):
        if not LOCAL_REF.fullmatch(target.strip()):
            raise UnsafeSvg(f"has the external reference url({target}) in {where()}")


def _name(tag: str) -> str:
    """A tag or attribute as written, its namespace as the usual prefix."""
    for uri, prefix in ((SVG, ""), (XLINK, "xlink:"), (RDF, "rdf:"), (CC, "cc:"), (DC, "dc:")):
        if tag.startswith(f"{{{uri}}}"):
            return prefix + tag[len(uri) + 2:]
    return tag


def _quote(text: str) -> str:
    return repr(text[:SHOWN] + ("..." if len(text) > SHOWN else ""))
