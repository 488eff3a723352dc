"""Build speed: cold (every chapter executed), warm (records reused), and plain.

    python benchmarks/bench_build.py [--repeat 3]

Works on a copy of the book in a temporary folder, so the records and cache in
the working tree are untouched. Prints seconds and the ratio of a warm build to
a plain build of the same pages with execution switched off (target: <= 1.5).
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build(where: Path, execute: bool) -> float:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", BOOKRUN_EXECUTE=str(execute).lower())
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(where / "site")],
                   cwd=where, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=3, help="warm and plain builds to time")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "book"
        for name in ["docs", "snippets", "bookrun", "mkdocs.yml"]:
            src = ROOT / name
            (shutil.copytree if src.is_dir() else shutil.copy)(src, copy / name)
        cold = build(copy, execute=True)  # no figure cache in the copy: every chapter runs
        warm = [build(copy, execute=True) for _ in range(args.repeat)]
        plain = [build(copy, execute=False) for _ in range(args.repeat)]
    w, p = statistics.median(warm), statistics.median(plain)
    print(f"cold build (every chapter executed):   {cold:7.2f} s")
    print(f"warm build (records reused, median):   {w:7.2f} s")
    print(f"plain build (execution off, median):   {p:7.2f} s")
    print(f"warm / plain:                          {w / p:7.2f}  (target <= 1.5)")


if __name__ == "__main__":
    main()
