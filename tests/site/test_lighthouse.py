"""Lighthouse (the pinned 12.2.3, `npm ci`) scores 100 in accessibility, best practices
and SEO on the home page and every chapter of the MkDocs build, and on the home page
and one chapter of the Zensical build.

Each site is served with gzip on loopback, as GitHub Pages serves it, and audited
with Lighthouse's mobile preset in Debian's chromium. Only these three categories
run: they do not depend on the machine's speed (performance does; see
benchmarks/bench_lighthouse.py), and they cost tens of seconds a page.
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from helpers import lighthouse_run
from helpers.paths import CHAPTERS
from helpers.site_server import serve, stop
from helpers.tools import missing_tool

CATEGORIES = ("accessibility", "best-practices", "seo")
# (generator, page): every page of the published build; Zensical's home and one chapter.
CASES = ([("mkdocs", p) for p in ["", *CHAPTERS]]
         + [("zensical", ""), ("zensical", "ppo")])
RUN_TIMEOUT = 240  # seconds for one Lighthouse run on a busy two-core machine

why = lighthouse_run.missing()
if why:
    missing_tool(why, module=True)


@pytest.fixture(scope="module")
def reports(request):
    """{(generator, page): the report, or the LighthouseError} for every case.

    A run is a browser waiting on a page most of its time and the categories do not
    depend on speed: two at a time, each with its own browser, take about half as long."""
    servers, urls = [], {}

    def audit(case):
        generator, page = case
        try:
            return lighthouse_run.run(urls[generator] + (f"{page}/" if page else ""),
                                      CATEGORIES, timeout=RUN_TIMEOUT)
        except lighthouse_run.LighthouseError as exc:
            return exc

    try:
        for generator in dict(CASES):
            site = request.getfixturevalue("built_site" if generator == "mkdocs"
                                           else "zensical_site")
            server, urls[generator] = serve(site)
            servers.append(server)
        with ThreadPoolExecutor(max_workers=2) as pool:
            done = dict(zip(CASES, pool.map(audit, CASES)))
        yield done
    finally:
        for server in servers:
            stop(server)


@pytest.mark.parametrize("generator,page", CASES,
                         ids=[f"{g}-{p or 'home'}" for g, p in CASES])
def test_lighthouse_scores_100(reports, generator, page):
    report = reports[generator, page]
    if isinstance(report, Exception):
        raise report
    got = lighthouse_run.scores(report)
    short = {c: got.get(c) for c in CATEGORIES if got.get(c) != 100}
    assert not short, f"{generator} {page or 'home'}: {short}\n" + "\n".join(
        f"  {c}: {line}" for c in short for line in lighthouse_run.failing_audits(report, c))
