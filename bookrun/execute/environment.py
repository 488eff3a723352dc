"""What a session's process sees of the machine: an allow-listed environment and a
private Matplotlib folder.

A snippet is untrusted code whose output is published: it must not find the author's
or the CI's secrets (tokens, keys) in `os.environ`. So a session starts from nothing but
what running Python needs (PATH, the locale, the time zone), the book's own BOOKRUN_*
variables and the ones the book names in its `pass_env` option, plus the engine's fixed
settings (bookrun.execute.session.WORKER_ENV). HOME is a fresh folder in the session's
scratch, so configuration and caches under `~` are neither read nor written.

Matplotlib's font cache is built once per machine and interpreter by the engine,
outside any snippet's capture, so that "Matplotlib is building the font cache" can never
become a snippet's output; each session then gets its own copy of it, so what one
snippet writes there cannot change another chapter's figures. The cache is the
engine's, beside the user's other caches, keyed by the interpreter and the Matplotlib
release: a cache written by another Python (seen: one written while its virtualenv was
being deleted, without Matplotlib's bundled fonts) is never read.
"""
from __future__ import annotations

import hashlib
import importlib.metadata
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import bookrun

ALWAYS = ("PATH", "LANG", "LANGUAGE", "TZ")  # plus every LC_* variable
BOOK_PREFIX = "BOOKRUN_"
# Where this engine is imported from: the worker must import the same code.
ENGINE_PATH = str(Path(bookrun.__file__).resolve().parent.parent)
FONT_CACHE_SECONDS = 300

_font_lock = threading.Lock()
_font_tried: set[Path] = set()


def passed(environ: dict, pass_env: tuple[str, ...] = ()) -> dict:
    """The variables of `environ` a session may see."""
    return {k: v for k, v in environ.items()
            if k in ALWAYS or k.startswith("LC_") or k.startswith(BOOK_PREFIX)
            or k in pass_env}


def session_env(work: Path, fixed: dict, pass_env: tuple[str, ...] = (),
                environ: dict | None = None) -> dict:
    """The whole environment of a session's worker, its home folder made."""
    home = work / "home"
    home.mkdir(exist_ok=True)
    env = passed(os.environ if environ is None else environ, pass_env)
    env.setdefault("PATH", os.defpath)
    env.update(fixed, HOME=str(home), PYTHONPATH=ENGINE_PATH)
    return env


def shared_matplotlib() -> Path:
    """The engine's Matplotlib folder for this interpreter and Matplotlib release."""
    try:
        release = importlib.metadata.version("matplotlib")
    except importlib.metadata.PackageNotFoundError:
        release = "none"
    key = hashlib.sha256(f"{sys.prefix}\0{release}".encode()).hexdigest()[:16]
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "bookrun" / f"matplotlib-{release}-{key}"


def font_cache(folder: Path) -> Path:
    """Matplotlib's settings folder with its font cache built (once per process and
    folder; without Matplotlib, the empty folder)."""
    folder.mkdir(parents=True, exist_ok=True)
    with _font_lock:
        if folder not in _font_tried and not any(folder.glob("fontlist-*.json")):
            env = dict(passed(os.environ), MPLCONFIGDIR=str(folder), MPLBACKEND="Agg",
                       HOME=str(folder))
            try:  # what it prints (the cache message) goes nowhere
                subprocess.run([sys.executable, "-c", "import matplotlib.font_manager"],
                               env=env, stdin=subprocess.DEVNULL, capture_output=True,
                               timeout=FONT_CACHE_SECONDS)
            except (OSError, subprocess.SubprocessError):
                pass  # the session then builds its own, as before; nothing is lost
        _font_tried.add(folder)
    return folder


def private_matplotlib(work: Path) -> Path:
    """The session's own copy of the engine's Matplotlib folder."""
    mine = work / "matplotlib"
    shutil.copytree(font_cache(shared_matplotlib()), mine, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("*.lock"))
    return mine
