"""The whole book as one HTML page for printing, combined from the BUILT site.

The PDF is printed from the pages the site publishes (MkDocs or Zensical), so every
output, figure and number in it is the checked one. Each page's article is taken as
built; its ids get a prefix unique to the page (`ppo--figure-6-2`), and every link
between pages becomes a link inside the one document. Links to files the book does not
print (notebooks, downloads) point to the published site instead.
"""
from __future__ import annotations

import html
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import yaml

# A front matter of title page and contents: the chapters' running header leaves it blank.
FRONT_PAGE = "front"
# Width the contents reserve for a page number in the first print, so that the real
# numbers of the second print take the same room and move nothing.
PLACEHOLDER = "000"
# A code block up to this many lines is kept on one page; a longer one may break.
SHORT_CODE_LINES = 30

ARTICLE = re.compile(r'<article\b[^>]*class="[^"]*\bmd-content__inner\b[^>]*>(.*?)</article>', re.S)
STYLESHEET = re.compile(r'<link\b[^>]*\brel="stylesheet"[^>]*>')
BODY = re.compile(r"<body\b[^>]*>")
HEADING = re.compile(r'<h([1-6])\b([^>]*)>(.*?)</h\1>', re.S)
ID_ATTR = re.compile(r'(<[a-zA-Z][^<>]*?\s)id="([^"]*)"')
LINK_ATTR = re.compile(r'(<(?:a|area)\b[^<>]*?\s)href="([^"]*)"')
SRC_ATTR = re.compile(r'(<(?:img|source|video|audio)\b[^<>]*?\s)src="([^"]*)"')
SVG_BLOCK = re.compile(r"<svg\b.*?</svg>", re.S)
PRE = re.compile(r'<div class="([^"]*\bhighlight\b[^"]*)"(.*?)(<pre\b.*?</pre>)', re.S)
DETAILS = re.compile(r"<details\b(?![^>]*\bopen\b)")
HEADERLINK = re.compile(r'<a class="headerlink"[^>]*>.*?</a>', re.S)
TAG = re.compile(r"<[^>]+>")
FIGURE_REF = re.compile(r"\bFigure (\d+)\.(\d+)\b")
TOKEN = re.compile(r"(<[^>]+>)")
# Inside these, "Figure 6.2" is not a reference to link: a link already, code, a caption.
NO_LINK = {"a", "pre", "code", "figcaption", "h1", "h2", "h3", "h4", "h5", "h6", "script", "style"}
KATEX_HTML = re.compile(r'<span class="katex-html" aria-hidden="true">.*?</span></span></span>', re.S)


class PrintError(Exception):
    """The built site cannot be printed; the message names the file."""


@dataclass
class Chapter:
    """One page of the nav, as it goes into the print page."""
    nav_title: str
    url: str            # its directory URL relative to the site root: "ppo/", "" for home
    prefix: str         # the page-unique id prefix: "ppo--"
    title: str          # its h1, as text
    body: str           # its article, ids and links rewritten
    sections: list[tuple[str, str]] = field(default_factory=list)  # (id, h2 text)


@dataclass
class PrintBook:
    site_name: str
    description: str
    site_url: str
    head: str                       # the site's stylesheet links
    body_tag: str
    chapters: list[Chapter]

    def anchors(self) -> list[str]:
        """Every id the contents list, in order: each chapter's top and its sections."""
        out = []
        for ch in self.chapters:
            out.append(ch.prefix + "top")
            out.extend(sid for sid, _ in ch.sections)
        return out

    def render(self, pages: dict[str, int] | None = None, paper: str = "a4") -> str:
        """The print page; `pages` maps each anchor to its page number (None: first print)."""
        def number(anchor: str) -> str:
            return str(pages[anchor]) if pages else PLACEHOLDER

        toc = []
        for ch in self.chapters:
            label = chapter_label(ch)
            toc.append(f'<li class="toc-chapter"><a href="#{ch.prefix}top">'
                       f'<span class="toc-title">{esc(label)}</span>'
                       f'<span class="toc-page">{number(ch.prefix + "top")}</span></a>')
            if ch.sections:
                toc.append('<ol class="toc-sections">')
                for sid, text in ch.sections:
                    toc.append(f'<li><a href="#{sid}"><span class="toc-title">{esc(text)}</span>'
                               f'<span class="toc-page">{number(sid)}</span></a></li>')
                toc.append("</ol>")
            toc.append("</li>")
        running = []
        parts = []
        for i, ch in enumerate(self.chapters):
            page_name = f"chapter{i}"
            # The running header: a named page per chapter carries its title (Chromium
            # draws @page margin boxes; it has no string-set to take it from a heading).
            # ("Home" is a web page's word; on paper the page's own title heads it.)
            header = ch.nav_title if chapter_number(ch.nav_title) else ch.title
            running.append(f'@page {page_name} {{ @top-right {{ content: "{css_string(header)}"; }} }}')
            number_label = ""
            if chapter_number(ch.nav_title):
                number_label = (f'<p class="print-chapter-number" aria-hidden="true">'
                                f'Chapter {chapter_number(ch.nav_title)}</p>\n')
            parts.append(f'<section class="print-chapter" id="{ch.prefix}top" '
                         f'style="page: {page_name}">\n{number_label}'
                         f'<article class="md-content__inner md-typeset">\n{ch.body}\n'
                         f"</article>\n</section>")
        size = "A4" if paper == "a4" else "letter"
        return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{esc(self.site_name)}</title>
{self.head}
<link rel="stylesheet" href="assets/print.css">
<style>
@page {{ size: {size}; }}
{chr(10).join(running)}
</style>
</head>
{self.body_tag}
<main class="print-book">
<section class="print-title-page" style="page: {FRONT_PAGE}">
<p class="print-book-title">{esc(self.site_name)}</p>
<p class="print-book-subtitle">{esc(self.description)}</p>
<p class="print-book-url">Read online and run the code: <a href="{esc(self.site_url)}">{esc(self.site_url)}</a></p>
</section>
<nav class="print-toc md-typeset" style="page: {FRONT_PAGE}" aria-labelledby="print-contents">
<h1 id="print-contents">Contents</h1>
<ol class="toc-chapters">
{chr(10).join(toc)}
</ol>
</nav>
{chr(10).join(parts)}
</main>
</body>
</html>
"""


def esc(text: str) -> str:
    return html.escape(text, quote=True)


def css_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def chapter_number(nav_title: str) -> str:
    m = re.match(r"(\d+)\.\s", nav_title)
    return m.group(1) if m else ""


def chapter_label(ch: Chapter) -> str:
    n = chapter_number(ch.nav_title)
    return f"{n}. {ch.title}" if n else ch.title


def text_of(fragment: str) -> str:
    """A heading's words: KaTeX's drawn copy and the permalink removed, tags stripped."""
    fragment = HEADERLINK.sub("", fragment)
    fragment = KATEX_HTML.sub("", fragment)
    return " ".join(html.unescape(TAG.sub("", fragment)).split())


class _IgnoreTags(yaml.SafeLoader):
    """mkdocs.yml has tags (!ENV, !!python/name) the nav does not need."""


_IgnoreTags.add_multi_constructor("!", lambda loader, suffix, node: None)
_IgnoreTags.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)


def read_config(config: Path) -> dict:
    try:
        data = yaml.load(config.read_text(encoding="utf-8"), Loader=_IgnoreTags)
    except (OSError, yaml.YAMLError) as exc:
        raise PrintError(f"{config}: cannot read the book's config: {exc}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("nav"), list):
        raise PrintError(f"{config}: no `nav:` list, so the chapters' order is unknown")
    return data


def nav_pages(config: Path, data: dict) -> list[tuple[str, str]]:
    """(nav title, Markdown path) for each page of the nav, in order."""
    out = []
    for item in data["nav"]:
        if not (isinstance(item, dict) and len(item) == 1):
            raise PrintError(f"{config}: nav entry {item!r} is not `Title: page.md`")
        (title, page), = item.items()
        if not isinstance(page, str) or not page.endswith(".md"):
            raise PrintError(f"{config}: nav entry {title!r} is not one page ({page!r})")
        out.append((str(title), page))
    return out


def page_url(md_path: str) -> str:
    """MkDocs' and Zensical's directory URLs: ppo.md is ppo/, index.md is the root."""
    stem = md_path[:-3]
    if stem == "index":
        return ""
    if stem.endswith("/index"):
        return stem[: -len("index")]
    return stem + "/"


def outside_svg(fragment: str, rewrite) -> str:
    """Apply `rewrite` to the HTML outside inline SVGs: a diagram's own ids are unique
    already (they hash its source) and its stylesheet selects them by name."""
    out, pos = [], 0
    for m in SVG_BLOCK.finditer(fragment):
        out.append(rewrite(fragment[pos:m.start()]))
        out.append(m.group(0))
        pos = m.end()
    out.append(rewrite(fragment[pos:]))
    return "".join(out)


def combine(site: Path, config: Path) -> PrintBook:
    """Read the built site's pages in nav order into one print book."""
    data = read_config(config)
    pages = nav_pages(config, data)
    site_url = str(data.get("site_url") or "")
    if site_url and not site_url.endswith("/"):
        site_url += "/"
    base = site_url or "https://book.invalid/"
    urls = {page_url(md): page_url(md).strip("/").replace("/", "-") or "home" for _, md in pages}
    prefixes = {url: slug + "--" for url, slug in urls.items()}

    home_file = site / "index.html"
    try:
        home_html = home_file.read_text(encoding="utf-8")
    except OSError as exc:
        raise PrintError(f"{home_file}: no built site here; run `mkdocs build` first") from exc
    if not (site / "assets" / "print.css").is_file():
        raise PrintError(f"{site / 'assets' / 'print.css'}: missing; the site was built "
                         "before the print stylesheet existed, build it again")
    head = "\n".join(STYLESHEET.findall(home_html))
    body = BODY.search(home_html)
    # The light palette: a printed page is paper.
    body_tag = re.sub(r'data-md-color-scheme="[^"]*"', 'data-md-color-scheme="default"',
                      body.group(0) if body else "<body>")
    body_tag = body_tag[:-1] + ' class="bookrun-print">'

    chapters = []
    for nav_title, md in pages:
        url = page_url(md)
        path = site / url / "index.html"
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise PrintError(f"{path}: page {md} of the nav is not in the built site") from exc
        m = ARTICLE.search(text)
        if not m:
            raise PrintError(f"{path}: no <article class=\"md-content__inner\"> to print")
        chapters.append(_chapter(nav_title, url, m.group(1), prefixes, base, site_url, path))
    figure_ids = {m.group(1)[len(ch.prefix):]: ch.prefix for ch in chapters
                  for m in re.finditer(r'<figure id="([^"]+)"', ch.body)}
    for ch in chapters:
        ch.body = outside_svg(ch.body, lambda part: link_figure_refs(part, figure_ids))
    return PrintBook(site_name=str(data.get("site_name") or "Book"),
                     description=str(data.get("site_description") or ""),
                     site_url=site_url, head=head, body_tag=body_tag, chapters=chapters)


def _chapter(nav_title, url, article, prefixes, base, site_url, path) -> Chapter:
    prefix = prefixes[url]
    page_base = urljoin(base, url)

    def link(href: str) -> str:
        if href.startswith("#"):
            return "#" + prefix + href[1:] if len(href) > 1 else "#" + prefix + "top"
        absolute = urljoin(page_base, href)
        if not absolute.startswith(base):
            return href  # another site, a mailto: kept as it is
        rest = absolute[len(base):]
        target, _, frag = rest.partition("#")
        target = target.split("?")[0]
        if target.endswith("index.html"):
            target = target[: -len("index.html")]
        if target in prefixes:  # a page of the book: its place in this document
            return "#" + prefixes[target] + (frag or "top")
        # A file the book does not print (a notebook, a download): the published copy.
        return absolute if site_url else href

    def src(value: str) -> str:
        if urlsplit(value).scheme or value.startswith("/"):
            return value
        # Relative to the print page, which sits at the site's root.
        return posixpath.normpath(posixpath.join(url, value)) if url else value

    def rewrite(fragment: str) -> str:
        fragment = ID_ATTR.sub(lambda m: f'{m.group(1)}id="{prefix}{m.group(2)}"', fragment)
        fragment = LINK_ATTR.sub(lambda m: f'{m.group(1)}href="{esc(link(html.unescape(m.group(2))))}"',
                                 fragment)
        fragment = SRC_ATTR.sub(lambda m: f'{m.group(1)}src="{esc(src(html.unescape(m.group(2))))}"',
                                fragment)
        fragment = DETAILS.sub("<details open", fragment)  # answers and folded code print open
        return PRE.sub(_mark_short_code, fragment)

    body = outside_svg(article, rewrite)
    title, sections = "", []
    for m in HEADING.finditer(body):
        level, attrs, inner = m.group(1), m.group(2), m.group(3)
        hid = re.search(r'id="([^"]*)"', attrs)
        if level == "1" and not title:
            title = text_of(inner)
        elif level == "2" and hid:
            sections.append((hid.group(1), text_of(inner)))
    if not title:
        raise PrintError(f"{path}: the page has no <h1> title")
    return Chapter(nav_title=nav_title, url=url, prefix=prefix, title=title, body=body,
                   sections=sections)


def link_figure_refs(fragment: str, figure_ids: dict[str, str]) -> str:
    """Prose names figures ("as Figure 6.2 shows") without linking them; on paper the
    reader cannot scroll, so each mention becomes a link to the figure's page."""
    out, closed = [], {}
    for token in TOKEN.split(fragment):
        if token.startswith("<"):
            m = re.match(r"<(/?)([a-zA-Z0-9]+)", token)
            if m and m.group(2).lower() in NO_LINK and not token.endswith("/>"):
                name = m.group(2).lower()
                closed[name] = closed.get(name, 0) + (-1 if m.group(1) else 1)
            out.append(token)
        elif any(closed.values()):
            out.append(token)
        else:
            def link(m: re.Match) -> str:
                key = f"figure-{m.group(1)}-{m.group(2)}"
                if key not in figure_ids:
                    return m.group(0)
                return f'<a href="#{figure_ids[key]}{key}">{m.group(0)}</a>'
            out.append(FIGURE_REF.sub(link, token))
    return "".join(out)


def _mark_short_code(m: re.Match) -> str:
    """A short code block or output is kept whole on one page (class print-keep)."""
    classes, between, pre = m.groups()
    if pre.count("\n") <= SHORT_CODE_LINES:
        classes += " print-keep"
    return f'<div class="{classes}"{between}{pre}'
