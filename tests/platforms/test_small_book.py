"""A second book proves the package: examples/small-book builds, checks and renders from
a wheel of bookrun installed in a fresh virtualenv that has no torch and no repository.

Slow by design (a wheel, a virtualenv, the pinned libraries from the package index),
so it lives with the platforms tests."""
import html
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "small-book"
# What the example needs besides bookrun, at the versions the repository is tested with.
PINNED = ("mkdocs", "mkdocs-material", "pymdown-extensions", "markdown", "pyyaml",
          "nbformat", "mini-racer", "watchdog", "numpy", "matplotlib")


def pins() -> list[str]:
    found = {}
    for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines():
        name, _, version = line.partition("==")
        if version and name.strip().lower() in PINNED:
            found[name.strip().lower()] = f"{name.strip()}=={version.strip()}"
    assert set(found) == set(PINNED), set(PINNED) - set(found)
    return list(found.values())


def run(args, cwd, timeout, env=None):
    """A bounded command; its output is in the failure message."""
    t0 = time.perf_counter()
    proc = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)
    took = time.perf_counter() - t0
    print(f"{took:6.1f} s  {' '.join(map(str, args))[:120]}")
    assert proc.returncode == 0, (f"{args} exited {proc.returncode}\n"
                                  f"{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")
    return proc


def install(tmp: Path) -> tuple[Path, dict, Path]:
    """A wheel of bookrun in a fresh virtualenv: (its bin folder, an environment, the wheel)."""
    # Build from a copy of the sources: an in-tree build would leave build/ behind.
    src = tmp / "src"
    shutil.copytree(ROOT / "bookrun", src / "bookrun",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "CHANGELOG.md"):
        shutil.copy(ROOT / name, src / name)
    wheels = tmp / "wheels"
    # This interpreter's setuptools builds it (the build needs nothing from the index).
    run([sys.executable, "-m", "pip", "wheel", str(src), "-w", str(wheels), "--no-deps",
         "--no-build-isolation", "-q"], tmp, timeout=300)
    [wheel] = wheels.glob("bookrun-*.whl")
    venv = tmp / "venv"
    # Without a pip of its own (ensurepip takes most of a minute on a busy machine): this
    # interpreter's pip installs into it (`pip --python`). Nothing else is shared.
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp, timeout=180)
    bin_ = venv / "bin"
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env.update(PATH=f"{bin_}{os.pathsep}{env.get('PATH', '')}", NO_MKDOCS_2_WARNING="1",
               PIP_DISABLE_PIP_VERSION_CHECK="1")
    # No byte-compiling of numpy and matplotlib: the build runs each module once.
    run([sys.executable, "-m", "pip", "--python", str(bin_ / "python"), "install", "-q",
         "--no-compile", str(wheel), *pins()], tmp, timeout=900, env=env)
    return bin_, env, wheel


# One test, so that `-n` cannot split it and install the virtualenv twice.
@pytest.mark.timeout(1800)
def test_the_small_book_builds_checks_and_renders_from_a_wheel(tmp_path):
    bin_, env, wheel = install(tmp_path)
    book = tmp_path / "book"
    shutil.copytree(EXAMPLE, book, ignore=shutil.ignore_patterns("site", ".cache"))

    # The wheel: the package, its data and the console script; nothing of this book.
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        entry_points = next(z.read(n).decode() for n in names
                            if n.endswith(".dist-info/entry_points.txt"))
    assert "bookrun/markdown/vendor/katex/katex.min.js" in names
    assert "bookrun/execute/worker/protocol_version.py" in names
    assert not any(n.startswith(("tests/", "docs/", "snippets/", "examples/")) for n in names)
    assert "bookrun = bookrun.hosts.cli:main" in entry_points
    assert "bookrun = bookrun.hosts.mkdocs:BookrunPlugin" in entry_points

    # The virtualenv imports the installed wheel, not this repository, and has no torch.
    where = run([bin_ / "python", "-c", "import bookrun, importlib.util; "
                 "print(bookrun.__file__); print(importlib.util.find_spec('torch'))"],
                book, timeout=60, env=env).stdout.split("\n")
    assert where[0].startswith(str(bin_.parent)) and "site-packages" in where[0], where
    assert where[1] == "None", "torch is installed in the fresh virtualenv"

    built = run([bin_ / "mkdocs", "build", "--strict"], book, timeout=600, env=env)
    # The committed records are fresh under the installed engine: nothing re-executes.
    assert built.stderr.count("reused record") == 2, built.stderr
    checked = run([bin_ / "bookrun", "check"], book, timeout=600, env=env)
    assert "2 chapter(s) match their records" in checked.stdout

    site = book / "site"
    darts = (site / "darts" / "index.html").read_text(encoding="utf-8")
    [figure] = re.findall(r'<figure id="figure-1-1">.*?</figure>', darts, re.S)
    [src] = re.findall(r'<img[^>]* src="([^"]+\.svg)"', figure)
    assert (site / "darts" / html.unescape(src)).resolve().is_file(), src
    assert '<span class="caption-prefix">Figure 1.1.</span>' in figure
    assert "3141 of 4000 darts landed inside the quarter circle" in darts

    error = (site / "error" / "index.html").read_text(encoding="utf-8")
    [select] = re.findall(r'<select id="figure-2-1-seed".*?</select>', error, re.S)
    assert re.findall(r"<option[^>]*>\s*(\d)\s*</option>", select) == list("012345")
    [frames] = re.findall(r'data-figure="figure-2-1" data-frames="([^"]+)"', error)
    assert (site / "figures" / "error" / frames).is_file(), frames
    assert ('<p class="bookrun-frame-text" aria-live="polite">seed 0: after 20,000 darts '
            'the estimate is 3.1472</p>') in error
    [script] = re.findall(r'<script defer src="([^"]*frames\.js)"', error)
    # The plugin ships frames.js once the package carries it (bookrun/render/assets/).
    if (ROOT / "bookrun" / "render" / "assets" / "frames.js").is_file():
        assert (site / "error" / script).resolve().is_file(), script
