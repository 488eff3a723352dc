"""Fixtures the site's browser tests share: one browser per module, the built site
served on loopback, and its pages. A module serving a site of its own (a fixture book)
defines its own `base_url`."""
import xml.etree.ElementTree as ET

import pytest

from helpers.site_server import serve, stop


@pytest.fixture(scope="module")
def base_url(site):
    server, url = serve(site, gzip=False)
    yield url
    stop(server)


@pytest.fixture(scope="module")
def browser():
    from helpers.browser import chromium  # skips where chromium or Playwright is missing

    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def site_pages(site):
    """Every HTML page of the site, as paths relative to its root ("" is home), from its
    sitemap."""
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    urls = ET.parse(site / "sitemap.xml").getroot().findall("s:url/s:loc", ns)
    locs = [e.text.strip() for e in urls]
    home = min(locs, key=len)  # site_url itself
    return [loc[len(home):].strip("/") for loc in locs]
