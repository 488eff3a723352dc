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

When Jupyter Book 1.x is installed (a benchmark extra, never the book's requirement: the
program named by JUPYTER_BOOK, or `jupyter-book` on the PATH), the same run also builds
the site's ppo notebook (the whole chapter: prose, code, outputs) with it, measures its
page in the same rounds, and prints its scores beside this book's ppo page and notebook
page, as ratios. --no-jupyter-book leaves it out.
"""
from __future__ import annotations

import argparse
import os
import shutil
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
# Jupyter Book's own defaults, but no execution: the notebook carries its recorded outputs.
JB_CONFIG = """title: Reinforcement learning, by running it
execute:
  execute_notebooks: "off"
"""
JB_TOC = "format: jb-book\nroot: ppo\n"


def build(site: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_MKDOCS_2_WARNING="1")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site)],
                   cwd=ROOT, env=env, check=True, timeout=900)


def measure(targets: list[tuple[str, str]], runs: int) -> dict[str, list[dict]]:
    """label -> the results of its runs, for each (label, url); in rounds, in turn."""
    got: dict[str, list[dict]] = {label: [] for label, _ in targets}
    for n in range(runs):
        for label, url in targets:
            report = lighthouse_run.run(url, ("performance",))
            audits = report["audits"]
            print(f"  run {n + 1}: {url}", file=sys.stderr, flush=True)
            if report["categories"]["performance"]["score"] is None:
                # Lighthouse could not score this load (a metric failed to settle on
                # a busy machine): said, and left out of the medians, not fatal.
                print(f"    no score: {report.get('runtimeError') or 'a metric failed'}",
                      file=sys.stderr, flush=True)
                continue
            got[label].append({
                "score": report["categories"]["performance"]["score"] * 100,
                "tbt": audits["total-blocking-time"]["numericValue"],
                "lcp": audits["largest-contentful-paint"]["numericValue"],
            })
    return got


def medians(runs: list[dict]) -> dict[str, float]:
    return {k: statistics.median(r[k] for r in runs) for k in ("score", "tbt", "lcp")}


def jupyter_book() -> str | None:
    """The Jupyter Book program, where installed."""
    return os.environ.get("JUPYTER_BOOK") or shutil.which("jupyter-book")


def build_jupyter_book(program: str, notebook: Path, out: Path) -> Path:
    """Jupyter Book's site of the one notebook; the folder that holds its ppo.html."""
    source = out / "source"
    source.mkdir(parents=True)
    shutil.copy(notebook, source / "ppo.ipynb")
    (source / "_config.yml").write_text(JB_CONFIG)
    (source / "_toc.yml").write_text(JB_TOC)
    done = subprocess.run([program, "build", str(source), "--path-output", str(out)],
                          capture_output=True, text=True, timeout=900)
    if done.returncode:  # its warnings (links to the other chapters) are shown only then
        sys.exit(f"{program} build failed:\n{done.stdout}\n{done.stderr}")
    return out / "_build" / "html"


def comparison(got: dict[str, list[dict]]) -> None:
    """Jupyter Book's ppo page beside this book's, as ratios to this book's chapter."""
    med = {label: medians(runs) for label, runs in got.items() if runs}
    ours = med["ppo"]
    print("\n| ppo, as built by | performance | total blocking time | LCP | "
          "score / ours | TBT / ours | LCP / ours |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for label, name in (("ppo", "this book (chapter page)"),
                        ("notebooks/ppo", "this book (notebook page)"),
                        ("jupyter-book", "Jupyter Book 1.x (same notebook)")):
        m = med.get(label)
        if m is None:
            continue
        print(f"| {name} | {m['score']:.0f} | {m['tbt']:,.0f} ms | {m['lcp'] / 1000:.1f} s | "
              f"{m['score'] / ours['score']:.2f} | {m['tbt'] / max(ours['tbt'], 1):.1f} | "
              f"{m['lcp'] / ours['lcp']:.1f} |")


def table(got: dict[str, list[dict]]) -> bool:
    med = {p: medians(runs) for p, runs in got.items()}
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
    parser.add_argument("--no-jupyter-book", action="store_true",
                        help="leave out Jupyter Book's build of the ppo notebook")
    args = parser.parse_args()
    why = lighthouse_run.missing()
    if why:
        sys.exit(why)
    pages = ["", *(args.pages.split(",") if args.pages else CHAPTERS)]
    program = None if args.no_jupyter_book or "ppo" not in pages else jupyter_book()
    with tempfile.TemporaryDirectory(prefix="bench-lighthouse-") as tmp:
        site = args.site
        if site is None:
            print("building the site ...", file=sys.stderr, flush=True)
            site = Path(tmp) / "site"
            build(site)
        sites = [site, *([args.against] if args.against else [])]
        if program:
            print(f"building the ppo notebook with {program} ...", file=sys.stderr, flush=True)
            sites.append(build_jupyter_book(program, site / "notebooks" / "ppo" / "ppo.ipynb",
                                            Path(tmp) / "jupyter-book"))
        served = [serve(s) for s in sites]
        bases = [base for _, base in served]
        targets = [(f"{n}:{p}", bases[n] + (f"{p}/" if p else ""))
                   for n in range(len(bases) - bool(program)) for p in pages]
        if program:
            targets += [("0:notebooks/ppo", bases[0] + "notebooks/ppo/"),
                        ("jupyter-book", bases[-1] + "ppo.html")]
        try:
            got = measure(targets, args.runs)
        finally:
            for server, _ in served:
                stop(server)
    ok = True
    for n, site in enumerate(sites[:len(sites) - bool(program)]):
        if args.against:
            print(f"\n{site}:\n")
        ok &= table({p: got[f"{n}:{p}"] for p in pages})
    if program:
        comparison({"ppo": got["0:ppo"], "notebooks/ppo": got["0:notebooks/ppo"],
                    "jupyter-book": got["jupyter-book"]})
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
