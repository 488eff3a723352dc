"""`python -m bookrun pdf`: the built site printed as one book, SITE/book.pdf.

Debian's chromium prints the combined page (bookrun/print_page.py) through Playwright,
tagged and with an outline. The contents need page numbers that only the printed PDF
knows, so the page is printed twice: the first print tells (through pypdf) on which page
every chapter and section starts, the second prints those numbers. The numbers take the
room a placeholder took, so nothing moves; if something did, it prints again.
Chromium stamps the time and a random id into every PDF; pypdf rewrites both, so the
same site gives the same bytes.
"""
from __future__ import annotations

import hashlib
import io
import logging
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from bookrun.pdf.combine import PrintBook, PrintError, combine

# Debian's chromium; BOOKRUN_CHROMIUM names another build of it (a CI runner's Chrome).
CHROMIUM = Path(os.environ.get("BOOKRUN_CHROMIUM") or "/usr/bin/chromium")
PAPERS = {"a4": "A4", "letter": "Letter"}
# Written into the site while printing, then removed; named by process, so prints of
# one site at once (A4 and Letter) do not share it. The name never reaches the PDF.
PRINT_FILE = ".bookrun-print-{pid}.html"
TIMEOUT_MS = 120_000                 # per page load and per print
# Chromium's trailer gives a /Size a few objects short; pypdf warns on every read and
# copes. The file pypdf writes has a correct one.
logging.getLogger("pypdf").setLevel(logging.ERROR)
MAX_PRINTS = 4                       # the second print settles it; two more for safety


@dataclass
class Printed:
    path: Path
    pages: int
    size: int
    seconds: float
    prints: int


def build_pdf(site: Path, config: Path, out: Path | None = None, paper: str = "a4",
              chromium: Path = CHROMIUM) -> Printed:
    if paper not in PAPERS:
        raise PrintError(f"unknown paper {paper!r}: choose one of {', '.join(PAPERS)}")
    if not chromium.exists():
        raise PrintError(f"{chromium}: chromium is not installed (apt-get install chromium); "
                         "the PDF is printed by it and no browser is downloaded")
    t0 = time.perf_counter()
    book = combine(site, config)
    out = out or site / "book.pdf"
    anchors = book.anchors()
    raw, prints = _print_until_settled(book, site, anchors, paper, chromium)
    data = finalize(raw, title=book.site_name)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, out)  # a reader of the site never sees half a PDF
    from pypdf import PdfReader
    return Printed(path=out, pages=len(PdfReader(io.BytesIO(data)).pages), size=len(data),
                   seconds=time.perf_counter() - t0, prints=prints)


def _print_until_settled(book: PrintBook, site: Path, anchors: list[str], paper: str,
                         chromium: Path) -> tuple[bytes, int]:
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    page_file = site / PRINT_FILE.format(pid=os.getpid())
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(chromium), args=["--no-sandbox"],
                                         timeout=TIMEOUT_MS)
            try:
                tab = browser.new_page()
                tab.set_default_timeout(TIMEOUT_MS)
                numbers = None
                for prints in range(1, MAX_PRINTS + 1):
                    page_file.write_text(book.render(numbers, paper), encoding="utf-8")
                    tab.goto(page_file.as_uri(), wait_until="load")
                    tab.evaluate("document.fonts.ready.then(() => true)")
                    # Only the last print needs tags and bookmarks; leaving them out of
                    # the first (which only measures) saves a quarter of its time.
                    final = numbers is not None
                    pdf = tab.pdf(format=PAPERS[paper], print_background=True, outline=final,
                                  tagged=final, prefer_css_page_size=True)
                    found = pages_of(pdf, anchors)
                    if final and found == numbers:
                        return pdf, prints
                    numbers = found
            finally:
                browser.close()
    except PlaywrightError as exc:
        raise PrintError(f"chromium could not print {page_file}: {exc}") from exc
    finally:
        page_file.unlink(missing_ok=True)
    raise PrintError(f"the contents' page numbers did not settle after {MAX_PRINTS} prints")


def pages_of(pdf: bytes, anchors: list[str]) -> dict[str, int]:
    """The page (from 1) each anchor is on: Chromium names every link target in the PDF
    (the contents link to them all)."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(pdf))
    # Chromium writes the names as PDF names ("/ppo--top"), pypdf keeps the slash.
    dests = {name.lstrip("/"): dest for name, dest in reader.named_destinations.items()}
    missing = [a for a in anchors if a not in dests]
    if missing:
        raise PrintError(f"the printed PDF has no destination for {', '.join(missing[:5])}"
                         f"{' ...' if len(missing) > 5 else ''}")
    return {a: reader.get_destination_page_number(dests[a]) + 1 for a in anchors}


def finalize(pdf: bytes, title: str) -> bytes:
    """The same bytes from the same site: fixed dates and an id hashed from the content."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, ByteStringObject, NameObject, TextStringObject

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    info = {"/Title": title, "/Producer": "bookrun (Chromium, pypdf)"}
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit():  # the reproducible-builds convention; otherwise no dates at all
        stamp = time.strftime("D:%Y%m%d%H%M%SZ", time.gmtime(int(epoch)))
        info.update({"/CreationDate": stamp, "/ModDate": stamp})
    meta = writer._info.get_object() if writer._info is not None else None
    for key in ("/CreationDate", "/ModDate"):
        if meta is not None and key in meta:
            del meta[key]
    writer.add_metadata(info)
    if "/Lang" not in writer._root_object:
        writer._root_object[NameObject("/Lang")] = TextStringObject("en")
    renumber_node_ids(writer)
    # pypdf keeps the id Chromium drew at random; the id becomes a hash of the content.
    # (pypdf has no public setter for the trailer's /ID.)
    writer._ID = ArrayObject([ByteStringObject(b"\0" * 16)] * 2)
    first = io.BytesIO()
    writer.write(first)
    digest = ByteStringObject(hashlib.md5(first.getvalue()).digest())
    writer._ID = ArrayObject([digest, digest])
    final = io.BytesIO()
    writer.write(final)
    return final.getvalue()


def main(argv: list[str], root: Path, build_site=None) -> int:
    """`build_site(site)`, when given, builds the site into SITE first if it has none."""
    import argparse
    import sys

    ap = argparse.ArgumentParser(prog="python -m bookrun pdf",
                                 description="Print the built site (mkdocs build or zensical "
                                 "build) as one book: SITE/book.pdf.")
    ap.add_argument("--site", type=Path, default=root / "site",
                    help="the built site (default: site/)")
    ap.add_argument("--paper", choices=sorted(PAPERS), default="a4")
    ap.add_argument("-o", "--output", type=Path, default=None,
                    help="where to write the PDF (default: SITE/book.pdf)")
    ap.add_argument("--config", type=Path, default=root / "mkdocs.yml",
                    help="the config whose nav orders the chapters (default: mkdocs.yml)")
    ap.add_argument("--chromium", type=Path, default=CHROMIUM,
                    help=f"the browser that prints (default: $BOOKRUN_CHROMIUM, else {CHROMIUM})")
    args = ap.parse_args(argv)
    try:
        if build_site is not None and not (args.site / "index.html").is_file():
            print(f"bookrun: {args.site} has no built site: building it first", file=sys.stderr)
            build_site(args.site)
        done = build_pdf(args.site, args.config, args.output, args.paper, args.chromium)
    except PrintError as exc:
        print(f"bookrun: error: {exc}", file=sys.stderr)
        return 1
    shown = done.path.resolve()
    if shown.is_relative_to(Path.cwd()):
        shown = shown.relative_to(Path.cwd())
    print(f"bookrun: {shown}: {done.pages} pages ({args.paper}), "
          f"{done.size / 1e6:.1f} MB, printed {done.prints}x in {done.seconds:.0f} s")
    return 0


NODE_ID = re.compile(r"node(\d+)\Z")


def renumber_node_ids(writer) -> None:
    """Chromium names tagged table headers by DOM node number ("node00060915"; a data
    cell's /Headers and the /IDTree refer to them). The numbers count every node the
    browser ever made, so they drift by one or two between runs; renumbered 1, 2, 3 in
    their order, with the same width, the names keep their order and every reference."""
    from pypdf.generic import ArrayObject, DictionaryObject, TextStringObject

    found = []  # (container, key, number)

    def visit(obj) -> None:
        if isinstance(obj, DictionaryObject):
            items = list(obj.items())
        elif isinstance(obj, ArrayObject):
            items = list(enumerate(obj))
        else:
            return
        for key, value in items:
            if isinstance(value, str):
                m = NODE_ID.match(value)
                if m:
                    found.append((obj, key, m.group(1)))
            else:
                visit(value)

    for obj in writer._objects:
        visit(obj)
    numbers = sorted({n for _, _, n in found}, key=int)
    new = {n: f"node{i:0{len(n)}d}" for i, n in enumerate(numbers, 1)}
    for container, key, n in found:
        container[key] = TextStringObject(new[n])
