"""Lighthouse performance of every chapter against the home page, as web authors measure it.

    python benchmarks/bench_lighthouse.py [--runs 3] [--site DIR] [--pages ppo,setup]
                                          [--against OTHER_SITE]

Builds the MkDocs site (or takes a built one with --site), serves it with gzip on
loopback, and runs the project's Lighthouse (package.json; `npm ci`) on the home page
and every chapter with the mobile preset: simulated slow 4G and a 4x slower CPU.
Pages are measured in turn, round after round, so that a busy machine slows them
alike, and the home page is the reference measured in the same run. Prints a
Markdown table of the median of the runs: performance score, total blocking time
and largest contentful paint, and whether each chapter is within 5 points of home
and under 600 ms of blocking (the targets of issue 22). With --against, a second built
site (before a change, say) is measured in turn with the first, page by page, so that a
busy machine slows both alike; one table each.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from helpers import lighthouse_run  # noqa: E402
from helpers.site_server import serve, stop  # noqa: E402

CHAPTERS = ["setup", "return-and-discount", "bandits", "q-learning", "policy-gradients", "ppo",
            "rl-for-language-models"]
POINTS, TBT_MS = 5, 600


def build(site: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_MKDOCS_2_WARNING="1")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site)],
                   cwd=ROOT, env=env, check=True, timeout=900)


def measure(bases: list[str], pages: list[str], runs: int) -> list[dict[str, list[dict]]]:
    """For each site served at one of `bases`, page -> the results of its runs."""
    got: list[dict[str, list[dict]]] = [{p: [] for p in pages} for _ in bases]
    for n in range(runs):
        for page in pages:
            for base, results in zip(bases, got):
                report = lighthouse_run.run(base + (f"{page}/" if page else ""),
                                            ("performance",))
                audits = report["audits"]
                print(f"  run {n + 1}: {base} {page or 'home'}", file=sys.stderr, flush=True)
                if report["categories"]["performance"]["score"] is None:
                    # Lighthouse could not score this load (a metric failed to settle on
                    # a busy machine): said, and left out of the medians, not fatal.
                    print(f"    no score: {report.get('runtimeError') or 'a metric failed'}",
                          file=sys.stderr, flush=True)
                    continue
                results[page].append({
                    "score": report["categories"]["performance"]["score"] * 100,
                    "tbt": audits["total-blocking-time"]["numericValue"],
                    "lcp": audits["largest-contentful-paint"]["numericValue"],
                })
    return got


def table(got: dict[str, list[dict]]) -> bool:
    med = {p: {k: statistics.median(r[k] for r in runs) for k in ("score", "tbt", "lcp")}
           for p, runs in got.items()}
    home = med[""]["score"]
    print("| page | performance | vs home | total blocking time | LCP | target |")
    print("|---|---:|---:|---:|---:|---|")
    ok = True
    for page, m in med.items():
        met = page == "" or (m["score"] >= home - POINTS and m["tbt"] < TBT_MS)
        ok &= met
        print(f"| {page or 'home'} | {m['score']:.0f} | {m['score'] - home:+.0f} | "
              f"{m['tbt']:,.0f} ms | {m['lcp'] / 1000:.1f} s | "
              f"{'' if page == '' else ('met' if met else 'missed')} |")
    runs = len(next(iter(got.values())))
    print(f"\nMedian of {runs} run(s) per page, Lighthouse 12.2.3, mobile preset. Target: "
          f"within {POINTS} points of home and under {TBT_MS} ms of blocking: "
          f"{'met' if ok else 'NOT met'}.")
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--site", type=Path, help="a built site (default: build this tree)")
    parser.add_argument("--pages", help="comma-separated chapters (default: all)")
    parser.add_argument("--against", type=Path, help="a second built site, measured in turn")
    args = parser.parse_args()
    why = lighthouse_run.missing()
    if why:
        sys.exit(why)
    pages = ["", *(args.pages.split(",") if args.pages else CHAPTERS)]
    with tempfile.TemporaryDirectory(prefix="bench-lighthouse-") as tmp:
        site = args.site
        if site is None:
            print("building the site ...", file=sys.stderr, flush=True)
            site = Path(tmp) / "site"
            build(site)
        sites = [site, *([args.against] if args.against else [])]
        served = [serve(s) for s in sites]
        try:
            got = measure([base for _, base in served], pages, args.runs)
        finally:
            for server, _ in served:
                stop(server)
    ok = True
    for site, results in zip(sites, got):
        if args.against:
            print(f"\n{site}:\n")
        ok &= table(results)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
