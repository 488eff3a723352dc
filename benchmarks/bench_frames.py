"""The budgets of interactive figures (issue 21), measured on a built site.

    python benchmarks/bench_frames.py [--site DIR]

Without --site it builds the site first (`mkdocs build --strict` into a temporary
folder; stale chapters execute). Prints:

- the new script (docs/assets/frames.js), gzipped, and which pages load it;
- per interactive figure, the bytes that exploring every frame transfers, gzipped
  (its frames file; the default frame is the page's own figure, already loaded);
- the committed bytes of all frame files (snippets/*/_figures/*.frames.json);
- per page with an interactive figure, what its first load transfers in Debian's
  chromium at 390x844, before any scrolling, and whether any frame data was among it;
  then what scrolling to each figure adds.

Gzipped sizes are gzip -9 of the files, as a static host compresses them.
"""
from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
BUDGET = {"script": 5_000, "figure": 250_000, "committed": 2_000_000}
TIMEOUT_MS = 60_000


def gz(path: Path) -> int:
    return len(gzip.compress(path.read_bytes(), 9, mtime=0))


def build() -> Path:
    out = Path(tempfile.mkdtemp(prefix="bench-frames-")) / "site"
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)],
                   cwd=ROOT, env=env, check=True)
    return out


def static_figures(site: Path) -> dict:
    script = ROOT / "docs" / "assets" / "frames.js"
    pages = sorted(p for p in site.rglob("index.html") if "frames.js" in p.read_text("utf-8"))
    files = sorted(site.glob("figures/*/*.frames.json"))
    committed = sorted(ROOT.glob("snippets/*/_figures/*.frames.json"))
    return {
        "script_gzip": gz(script),
        "pages": [p.parent.relative_to(site).as_posix() for p in pages],
        "figures": {f.relative_to(site).as_posix(): {
            "frames": len(json.loads(f.read_text("utf-8"))["frames"]),
            "bytes": f.stat().st_size, "gzip": gz(f)} for f in files},
        "committed": sum(f.stat().st_size for f in committed),
        "all_pages": sorted(p.parent.relative_to(site).as_posix()
                            for p in site.rglob("index.html")),
    }


def browse(site: Path, pages: list[str]) -> dict:
    from playwright.sync_api import sync_playwright

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}/"
    found = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for path in pages:
            ctx = browser.new_context(viewport={"width": 390, "height": 844})
            page = ctx.new_page()
            sizes: dict[str, int] = {}
            page.on("response", lambda r: sizes.__setitem__(r.url, len(r.body())
                                                           if r.ok else 0))
            page.goto(base + path + "/", wait_until="load", timeout=TIMEOUT_MS)
            page.wait_for_timeout(1500)
            first = dict(sizes)
            for fig in page.locator(".bookrun-frames").all():
                fig.evaluate("b => document.getElementById(b.dataset.figure)"
                             ".scrollIntoView()", timeout=TIMEOUT_MS)
                page.wait_for_timeout(800)
            found[path] = {
                "first_load": sum(first.values()),
                "first_load_frames": [u for u in first if u.endswith(".frames.json")],
                "on_approach": {u.rsplit("/", 1)[-1]: n for u, n in sizes.items()
                                if u not in first},
            }
            ctx.close()
        browser.close()
    server.shutdown()
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build one)")
    args = parser.parse_args()
    site = args.site or build()
    s = static_figures(site)
    ok = lambda n, limit: "ok" if n <= limit else "OVER BUDGET"  # noqa: E731
    print(f"new script frames.js: {s['script_gzip']} B gzipped (budget {BUDGET['script']}): "
          f"{ok(s['script_gzip'], BUDGET['script'])}")
    print(f"pages loading it: {', '.join(s['pages']) or 'none'} "
          f"(of {len(s['all_pages'])} pages)")
    for name, f in s["figures"].items():
        print(f"{name}: {f['frames']} frames, {f['bytes']} B, explore all: {f['gzip']} B "
              f"gzipped (budget {BUDGET['figure']}): {ok(f['gzip'], BUDGET['figure'])}")
    print(f"committed frame files: {s['committed']} B (budget {BUDGET['committed']}): "
          f"{ok(s['committed'], BUDGET['committed'])}")
    for path, b in browse(site, s["pages"]).items():
        print(f"{path}: first load {b['first_load']} B uncompressed, frame files in it: "
              f"{len(b['first_load_frames'])}; scrolling to the figures adds "
              + (", ".join(f"{u} {n} B" for u, n in b["on_approach"].items()) or "nothing"))


if __name__ == "__main__":
    main()
