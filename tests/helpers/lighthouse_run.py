"""Run the project's pinned Lighthouse (package.json, `npm ci`) on one URL.

Lighthouse 12.2.3 from node_modules/, with Debian's chromium, the default mobile
preset (simulated slow 4G, 4x CPU) and a time limit; returns the parsed JSON report.
"""
from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = "/usr/bin/chromium"
CHROME_FLAGS = ("--headless --no-sandbox --disable-gpu --disable-background-networking "
                "--disable-component-update --disable-sync")
INSTALL = "npm ci (installs the Lighthouse pinned in package-lock.json)"


class LighthouseError(RuntimeError):
    pass


def missing() -> str | None:
    """Why Lighthouse cannot run here, or None."""
    if not LIGHTHOUSE.exists():
        return f"Lighthouse is not installed in {LIGHTHOUSE.parent}: {INSTALL}"
    if not Path(CHROMIUM).exists():
        return f"Lighthouse needs {CHROMIUM}: apt-get install chromium"
    return None


def run(url: str, categories: tuple[str, ...], timeout: float = 240) -> dict:
    """One Lighthouse run; its report. Raises LighthouseError naming the URL on failure."""
    with tempfile.TemporaryDirectory(prefix="lighthouse-") as tmp:
        out = Path(tmp) / "report.json"
        cmd = [str(LIGHTHOUSE), url, "--output=json", f"--output-path={out}", "--quiet",
               f"--only-categories={','.join(categories)}", f"--chrome-flags={CHROME_FLAGS}",
               # The whole page drawn as one image, for the HTML report's element
               # thumbnails: no score reads it, and on a chapter it costs 10-15% of a run.
               "--disable-full-page-screenshot"]
        # Lighthouse's own Chrome profile and temporary files go to this run's folder.
        env = dict(os.environ, CHROME_PATH=CHROMIUM, TMPDIR=tmp)
        try:
            proc = subprocess.run(cmd, env=env, capture_output=True, text=True,
                                  timeout=timeout, start_new_session=True)
        except subprocess.TimeoutExpired as exc:
            raise LighthouseError(f"Lighthouse on {url} took over {timeout:.0f} s") from exc
        if proc.returncode != 0 or not out.exists():
            raise LighthouseError(f"Lighthouse on {url} failed ({proc.returncode}):\n"
                                  f"{proc.stderr[-3000:]}")
        report = json.loads(out.read_text())
    if report.get("runtimeError"):
        raise LighthouseError(f"Lighthouse on {url}: {report['runtimeError']}")
    return report


def scores(report: dict) -> dict[str, int]:
    """Category id -> score out of 100 (None when Lighthouse could not score it)."""
    return {cid: (None if c["score"] is None else round(c["score"] * 100))
            for cid, c in report["categories"].items()}


def failing_audits(report: dict, category: str) -> list[str]:
    """The audits that cost points in a category, with the first few elements each names."""
    lines = []
    for ref in report["categories"][category]["auditRefs"]:
        audit = report["audits"][ref["id"]]
        if ref.get("weight", 0) and audit["score"] is not None and audit["score"] < 1:
            items = (audit.get("details") or {}).get("items") or []
            nodes = [(i.get("node") or {}).get("selector", "") for i in items[:3]]
            lines.append(f"{audit['id']}: {audit['title']} {nodes}")
    return lines
