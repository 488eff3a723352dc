"""Build speed: cold (every chapter executed), warm (records reused), plain, Zensical.

    python benchmarks/bench_build.py [--repeat 3]

Works on a copy of the book in a temporary folder, so the records and cache in
the working tree are untouched. Prints seconds and the ratio of a warm build to
a plain build of the same pages with execution switched off (target: <= 1.5),
then the Zensical build of the same pages from the same records (`zensical build
--clean -f zensical.yml`, after `python -m bookrun prepare`, as AUTHORING.md says) and MkDocs' warm
build divided by it. Each line gives wall seconds and the CPU seconds the build
used, which a busy machine disturbs less.
"""
import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


ZENSICAL = Path(os.environ.get("ZENSICAL", ROOT / ".venv-zensical" / "bin" / "zensical"))


def timed(cmd, where: Path, env) -> tuple[float, float]:
    """Wall and CPU seconds (the build's process and its children) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=where, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def build(where: Path, execute: bool) -> tuple[float, float]:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", BOOKRUN_EXECUTE=str(execute).lower())
    return timed([sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(where / "site")],
                 where, env)


def zensical_build(where: Path) -> tuple[float, float]:
    # --clean: Zensical keeps a page's HTML while its Markdown is unchanged, so a changed
    # record would not show without it (AUTHORING.md, "Building with Zensical").
    env = dict(os.environ, PYTHONPATH=str(where))
    return timed([str(ZENSICAL), "build", "--clean", "-f", "zensical.yml"], where, env)


def median(runs) -> tuple[float, float]:
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=3, help="warm and plain builds to time")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "book"
        for name in ["docs", "snippets", "bookrun", "mkdocs.yml", "zensical.yml"]:
            src = ROOT / name
            (shutil.copytree if src.is_dir() else shutil.copy)(src, copy / name)
        cold = build(copy, execute=True)  # no figure cache in the copy: every chapter runs
        warm = median([build(copy, execute=True) for _ in range(args.repeat)])
        plain = median([build(copy, execute=False) for _ in range(args.repeat)])
        zensical = None
        if ZENSICAL.exists():
            # The first writes every figure and notebook into docs/, the next nothing.
            prepare = [timed([sys.executable, "-c", "import sys; from pathlib import Path; "
                              "from bookrun.hosts.cli import main; "
                              "sys.exit(main(['prepare'], root=Path.cwd()))"], copy, os.environ)
                       for _ in range(2)]
            zensical = median([zensical_build(copy) for _ in range(args.repeat)])
    line = "{:<40}{:7.2f} s wall {:7.2f} s CPU"
    print(line.format("cold build (every chapter executed):", *cold))
    print(line.format("warm build (records reused, median):", *warm))
    print(line.format("plain build (execution off, median):", *plain))
    print(f"{'warm / plain:':<40}{warm[0] / plain[0]:7.2f}  (target <= 1.5)")
    if zensical is None:
        print(f"Zensical: not timed, {ZENSICAL} is missing (AUTHORING.md, 'Building with Zensical')")
        return
    print(line.format("prepare, first (writes docs/figures...):", *prepare[0]))
    print(line.format("prepare, again (nothing to write):", *prepare[1]))
    print(line.format("Zensical build (records reused, median):", *zensical))
    print(f"{'MkDocs warm / Zensical:':<40}{warm[0] / zensical[0]:7.2f} wall "
          f"{warm[1] / zensical[1]:7.2f} CPU")


if __name__ == "__main__":
    main()
