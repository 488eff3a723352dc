"""Every chapter on a phone in real Chromium: build-time math and diagrams against client-side ones.

    python benchmarks/bench_pages.py [--baseline COMMIT] [--runs N]

Builds this tree's site and, in the same run, the site of BASELINE (default
d59ac78, the last commit whose pages typeset MathJax and mermaid in the browser;
its tree comes from `git archive`, with this tree's `.cache/` so no chapter
executes when the records match). Serves both on loopback and opens every chapter
at 390x844 in Debian's chromium, unthrottled and with the CPU slowed 4x
(Lighthouse's mobile setting, through CDP's Emulation.setCPUThrottlingRate).
Prints, per chapter and variant: bytes fetched by type, load time (the load
event), time until every formula on the page is drawn in its final font, and
total blocking time (the part over 50 ms of every long task until then, summed);
then the baseline divided by this tree's figures. Each figure is the median of
N loads (default 1), each in a fresh browser context with an empty cache.
"""
from __future__ import annotations

import argparse
import functools
import http.server
import io
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
CHAPTERS = ["setup", "return-and-discount", "bandits", "q-learning", "policy-gradients", "ppo",
            "rl-for-language-models"]
PHONE = {"width": 390, "height": 844}
THROTTLES = (1, 4)
TIMEOUT_MS = 120_000  # a throttled MathJax page took 17 s when this was written

# Installed before the page's own scripts: long tasks from the start, and the first
# frame at which all math is drawn and its fonts are in.
PROBE = """
window.__longtasks = [];
new PerformanceObserver(list => {
  for (const e of list.getEntries()) window.__longtasks.push([e.startTime, e.duration]);
}).observe({type: "longtask", buffered: true});
window.__mathVisible = null;
const drawn = el => {
  const done = el.querySelector(".katex-html, mjx-container");
  return done && done.getBoundingClientRect().width > 0;
};
const watch = () => {
  const all = document.querySelectorAll(".arithmatex");
  if (document.readyState !== "loading" && [...all].every(drawn)
      && document.fonts.status === "loaded") {
    window.__mathVisible = performance.now();
    return;
  }
  requestAnimationFrame(watch);
};
requestAnimationFrame(watch);
"""
RESULTS = """
() => ({
  load: performance.getEntriesByType("navigation")[0].loadEventEnd,
  math: window.__mathVisible,
  blocking: window.__longtasks.filter(([start]) => start <= Math.max(window.__mathVisible,
    performance.getEntriesByType("navigation")[0].loadEventEnd))
    .reduce((sum, [, d]) => sum + Math.max(0, d - 50), 0),
})
"""
KINDS = {"script": "js", "stylesheet": "css", "document": "html", "font": "font", "image": "img"}


def build(tree: Path, site: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(tree), NO_MKDOCS_2_WARNING="1")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site)],
                   cwd=tree, env=env, check=True)


def baseline_tree(commit: str, into: Path) -> Path:
    archive = subprocess.run(["git", "archive", commit], cwd=ROOT, check=True,
                             capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    if (ROOT / ".cache").is_dir():  # the same records' figures: nothing re-executes
        shutil.copytree(ROOT / ".cache", into / ".cache")
    return into


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(site: Path):
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}/"


def load(browser, url: str, throttle: int) -> dict:
    """One cold load on a phone-sized viewport; the figures of that load."""
    context = browser.new_context(viewport=PHONE, color_scheme="light")
    fetched: dict[str, int] = {}

    def on_response(response):
        kind = KINDS.get(response.request.resource_type, "other")
        if response.url.endswith((".woff2", ".woff", ".ttf")):
            kind = "font"
        fetched[kind] = fetched.get(kind, 0) + int(response.header_value("content-length") or 0)

    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.on("response", on_response)
    page.add_init_script(PROBE)
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    page.goto(url, wait_until="load")
    page.wait_for_function("() => window.__mathVisible !== null")
    page.wait_for_timeout(300)  # let a long task that is still running be reported
    out = page.evaluate(RESULTS)
    context.close()
    return {**out, "bytes": fetched}


def measure(browser, bases: dict[str, str], runs: int) -> dict[str, dict]:
    """Both variants load in turn, chapter by chapter, so a busy machine slows both alike."""
    results: dict[str, dict] = {name: {} for name in bases}
    for chapter in CHAPTERS:
        for throttle in THROTTLES:
            loads = {name: [] for name in bases}
            for _ in range(runs):
                for name, base in bases.items():
                    loads[name].append(load(browser, f"{base}{chapter}/", throttle))
            for name, got in loads.items():
                cell = {k: statistics.median(x[k] for x in got) for k in ("load", "math", "blocking")}
                results[name][chapter, throttle] = {**cell, "bytes": got[0]["bytes"]}
        print(f"  measured {chapter}", file=sys.stderr, flush=True)
    return results


def kb(n: float) -> str:
    return f"{n / 1000:,.0f}"


def report(new: dict, old: dict, baseline: str) -> bool:
    print("Bytes fetched by a cold load of each chapter (kB; fonts only those the page uses):")
    kinds = ["html", "js", "css", "font", "img", "other"]
    print(f"{'chapter':24} {'variant':8} " + " ".join(f"{k:>6}" for k in kinds) + f" {'total':>7}")
    for chapter in CHAPTERS:
        for name, res in (("build", new), ("client", old)):
            b = res[chapter, 1]["bytes"]
            print(f"{chapter:24} {name:8} " + " ".join(f"{kb(b.get(k, 0)):>6}" for k in kinds)
                  + f" {kb(sum(b.values())):>7}")
    print()
    print("Times in ms, median per cell: load event, all math drawn, total blocking time (TBT).")
    print(f"'build' is this tree, 'client' is {baseline} (MathJax and mermaid in the browser).")
    ok = True
    for throttle in THROTTLES:
        print(f"\nCPU {throttle}x")
        print(f"{'chapter':24} {'load':>7} {'math':>7} {'TBT':>7} | {'load':>7} {'math':>7} "
              f"{'TBT':>7} | {'load÷':>6} {'TBT÷':>6}")
        print(f"{'':24} {'build':>23} | {'client':>23} | {'client/build':>13}")
        for chapter in CHAPTERS:
            n, o = new[chapter, throttle], old[chapter, throttle]
            load_ratio = o["load"] / n["load"]
            tbt_share = n["blocking"] / o["blocking"] if o["blocking"] else float("inf")
            tbt_ratio = o["blocking"] / n["blocking"] if n["blocking"] else float("inf")
            print(f"{chapter:24} {n['load']:7.0f} {n['math']:7.0f} {n['blocking']:7.0f} | "
                  f"{o['load']:7.0f} {o['math']:7.0f} {o['blocking']:7.0f} | "
                  f"{load_ratio:6.1f} {tbt_ratio:6.1f}")
            if throttle == 4:
                ok &= load_ratio >= 2 and tbt_share <= 0.4
    print("\nTarget at 4x (issue 12): every chapter loads at least 2x faster and blocks at most "
          f"40% as long: {'met' if ok else 'NOT met'}")
    worst = max(new[c, 1]["bytes"].get("js", 0) for c in CHAPTERS)
    print(f"Largest script load of a chapter (build): {kb(worst)} kB (budget 250 kB)")
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="d59ac78")
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="bench-pages-") as tmp:
        tmp = Path(tmp)
        print(f"building this tree and {args.baseline} ...", file=sys.stderr, flush=True)
        build(ROOT, tmp / "site-build")
        build(baseline_tree(args.baseline, tmp / "baseline"), tmp / "site-client")
        servers = [serve(tmp / "site-build"), serve(tmp / "site-client")]
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                got = measure(browser, {"build": servers[0][1], "client": servers[1][1]},
                              args.runs)
                browser.close()
        finally:
            for server, _ in servers:
                server.shutdown()
                server.server_close()
    report(got["build"], got["client"], args.baseline)


if __name__ == "__main__":
    main()
