"""A built site served on loopback with gzip, as GitHub Pages serves it.

    python tests/site_server.py SITE_DIR [PORT]      # serves until interrupted

Lighthouse and the performance benchmark judge transfer sizes and timings, which
differ a great deal between plain and compressed text (a chapter's HTML is mostly
markup for highlighted code and math). Python's own http.server sends no
Content-Encoding, so this handler compresses text types itself, once per file.
"""
from __future__ import annotations

import functools
import gzip
import http.server
import sys
import threading
import xml.etree.ElementTree as ET
from pathlib import Path

COMPRESSED = {".html", ".css", ".js", ".json", ".svg", ".xml", ".txt", ".map", ".ipynb"}


class PlainHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class GzipHandler(PlainHandler):
    # Shared by every request of one server: (path, mtime) -> compressed bytes.
    cache: dict = {}

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not self.path.split("?", 1)[0].endswith("/"):
                return super().send_head()  # the redirect to the folder's URL
            path = path / "index.html"
        wants = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (wants and path.suffix in COMPRESSED and path.is_file()):
            return super().send_head()
        key = (path, path.stat().st_mtime_ns)
        body = self.cache.get(key)
        if body is None:
            body = self.cache[key] = gzip.compress(path.read_bytes(), mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return _Bytes(body)


class _Bytes:
    """What send_head returns: something copyfile reads and do_GET closes."""

    def __init__(self, body: bytes):
        self.body = body

    def read(self, *args):
        body, self.body = self.body, b""
        return body

    def close(self):
        pass


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # A browser that moves on to the next page drops the requests still in flight;
        # the reply's broken pipe is the client's choice, not a fault to print.
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)


def serve(site: Path, port: int = 0, gzip: bool = True):
    """Start serving `site` in a daemon thread; (server, base URL). Stop with stop().
    With gzip, as GitHub Pages serves it; without, bytes on the wire are file sizes."""
    handler = functools.partial(GzipHandler if gzip else PlainHandler, directory=str(site))
    server = _Server(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}/"


def stop(server) -> None:
    server.shutdown()
    server.server_close()


def pages_of(site: Path) -> list[str]:
    """Every HTML page of a built site, as paths relative to its root ("" is home), from
    its sitemap."""
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    urls = ET.parse(site / "sitemap.xml").getroot().findall("s:url/s:loc", ns)
    locs = [e.text.strip() for e in urls]
    home = min(locs, key=len)  # site_url itself
    return [loc[len(home):].strip("/") for loc in locs]


if __name__ == "__main__":
    srv, url = serve(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    print(url, flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        stop(srv)
