"""Where a page's main thread goes while it loads: a Chromium trace, summarised.

    python benchmarks/trace_page.py SITE_DIR PAGE [--throttle 4] [--out trace.json]

Serves SITE_DIR with gzip on loopback, loads PAGE (e.g. `ppo/`) at 390x844 in
Debian's chromium with the CPU slowed THROTTLE times, records a trace with CDP's
Tracing domain, and prints the longest main-thread tasks with the script
function that was on the stack when each forced style or layout: the question
"what makes this page lay out all of itself" answered by line and column.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from helpers.site_server import serve, stop  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
CATEGORIES = ("devtools.timeline,disabled-by-default-devtools.timeline,"
              "disabled-by-default-devtools.timeline.stack,v8.execute,blink.user_timing")


def record(url: str, throttle: int) -> list[dict]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.set_default_timeout(120_000)
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        events: list[dict] = []
        cdp.on("Tracing.dataCollected", lambda e: events.extend(e["value"]))
        done = []
        cdp.on("Tracing.tracingComplete", lambda e: done.append(True))
        cdp.send("Tracing.start", {"categories": CATEGORIES, "transferMode": "ReportEvents"})
        page.goto(url, wait_until="load")
        page.wait_for_timeout(3000)  # the script's work after the load event
        cdp.send("Tracing.end")
        for _ in range(600):
            if done:
                break
            page.wait_for_timeout(100)
        browser.close()
    return events


def summarise(events: list[dict]) -> None:
    renderers = {(e["pid"], e["tid"]) for e in events if e.get("name") == "thread_name"
                 and e["args"].get("name") == "CrRendererMain"}
    busy: Counter = Counter()
    for e in events:
        if e.get("name") == "RunTask" and (e.get("pid"), e.get("tid")) in renderers:
            busy[e["pid"], e["tid"]] += e.get("dur", 0)
    # Playwright's blank page has a renderer too: the page's is the busiest.
    main = busy.most_common(1)[0][0]
    on_main = [e for e in events if (e.get("pid"), e.get("tid")) == main and e.get("ph") == "X"]
    tasks = sorted((e for e in on_main if e["name"] == "RunTask"), key=lambda e: -e.get("dur", 0))
    print("Longest main-thread tasks (ms):", [round(t["dur"] / 1000) for t in tasks[:5]])
    totals: Counter = Counter()
    forced: Counter = Counter()
    for e in on_main:
        if e["name"] in ("Layout", "UpdateLayoutTree", "RecalculateStyles"):
            totals[e["name"]] += e.get("dur", 0) / 1000
            stack = (e.get("args", {}).get("beginData", {}) or {}).get("stackTrace") or []
            if stack:
                top = stack[0]
                where = (f"{top.get('functionName') or '(anonymous)'} "
                         f"{Path(top.get('url', '')).name}:{top.get('lineNumber')}:"
                         f"{top.get('columnNumber')}")
                forced[e["name"], where] += e.get("dur", 0) / 1000
    print("Style and layout on the main thread (ms):",
          {k: round(v) for k, v in totals.items()})
    print("Forced by script (ms, top of the script stack):")
    for (kind, where), ms in forced.most_common(12):
        print(f"  {ms:8.0f}  {kind:18} {where}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("page")
    parser.add_argument("--throttle", type=int, default=4)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    server, base = serve(args.site)
    try:
        events = record(base + args.page, args.throttle)
    finally:
        stop(server)
    if args.out:
        args.out.write_text(json.dumps({"traceEvents": events}))
    summarise(events)


if __name__ == "__main__":
    main()
