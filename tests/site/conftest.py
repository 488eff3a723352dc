"""Fixtures the site's browser tests share: one browser per module, the built site
served on loopback, and its pages. A module serving a site of its own (a fixture book)
defines its own `base_url`."""
import pytest

from helpers.site_server import pages_of, serve, stop


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
    return pages_of(site)
