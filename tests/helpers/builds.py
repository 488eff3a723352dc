"""Site builds the tests make: MkDocs (a one-page fixture book, or a whole project from
its records) and Zensical, each in a process of its own with this checkout's bookrun."""
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

from helpers.paths import ROOT, ZENSICAL, ZENSICAL_CONFIG
from helpers.tools import need_zensical

# The fixture book's mkdocs.yml: one chapter, the plugin, the extensions its pages need.
FIXTURE_CONFIG = """\
site_name: Fixture
strict: true
nav:
  - "4. Demo": demo.md
plugins:
  - bookrun:
      timeout: 60
markdown_extensions:
  - bookrun.extension:
      min_alt_words: 8
      number_figures: true
  - attr_list
  - pymdownx.blocks.caption
  - pymdownx.highlight
  - pymdownx.superfences
"""


def build_fixture(tmp_path, page, snippets, extra_env=None, timeout="60",
                  config=FIXTURE_CONFIG) -> subprocess.CompletedProcess:
    """`mkdocs build` of a book with one page `docs/demo.md` (dedented) and snippets under
    `snippets/demo/`; the finished process, to read its return code and messages."""
    (tmp_path / "mkdocs.yml").write_text(config.replace("timeout: 60", f"timeout: {timeout}"))
    (tmp_path / "docs").mkdir(exist_ok=True)
    (tmp_path / "docs" / "demo.md").write_text(textwrap.dedent(page))
    folder = tmp_path / "snippets" / "demo"
    folder.mkdir(parents=True, exist_ok=True)
    for name, code in snippets.items():
        (folder / name).write_text(code)
    # PYTHONPATH: this checkout's bookrun, not the one the shared virtualenv installed
    # (the build runs in the fixture's folder, where `import bookrun` would find that).
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONPATH=str(ROOT))
    env.update(extra_env or {})  # a test may set its own PYTHONPATH
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "-d", "site"], cwd=tmp_path,
                          env=env, capture_output=True, text=True)


# The address the built sites are given (the book's mkdocs.yml reads BOOK_SITE_URL, which
# publishing sets): its sitemap lists the pages under it, and it is no placeholder.
LOCAL_SITE = "http://127.0.0.1:8000/"


def build_frozen(project: Path, out: Path) -> Path:
    """A strict `mkdocs build` of a project from its committed records (frozen, as when
    publishing: it shows the checked records or fails); the output folder."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", BOOKRUN_FROZEN="true",
               PYTHONPATH=str(ROOT))
    env.setdefault("BOOK_SITE_URL", LOCAL_SITE)
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
                          cwd=project, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"strict build failed:\n{proc.stdout}\n{proc.stderr}"
    return out


def zensical_build(project: Path) -> subprocess.CompletedProcess:
    """`zensical build --clean` of a project, with this checkout's bookrun (and the
    project's zensical.yml when it has one, as the book does)."""
    need_zensical()
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1")
    env.setdefault("BOOK_SITE_URL", LOCAL_SITE)
    config = ["-f", ZENSICAL_CONFIG] if (project / ZENSICAL_CONFIG).is_file() else []
    return subprocess.run([str(ZENSICAL), "build", "--clean", *config], cwd=project, env=env,
                          capture_output=True, text=True, timeout=600)


def copy_book(dest: Path) -> Path:
    """The book's sources in another folder: Zensical builds only inside its project."""
    # Without the figures and notebooks an earlier `prepare` left in docs/: the copy
    # gets its own.
    prepared = shutil.ignore_patterns("figures", "notebooks")
    shutil.copytree(ROOT / "docs", dest / "docs",
                    ignore=lambda d, names: prepared(d, names) if Path(d) == ROOT / "docs" else [])
    shutil.copytree(ROOT / "snippets", dest / "snippets")
    shutil.copytree(ROOT / "diagrams", dest / "diagrams")  # the committed diagram SVGs
    # mkdocs.yml, Zensical's view of it, and the figure style (part of every record's stamp)
    for name in ("mkdocs.yml", ZENSICAL_CONFIG, "matplotlibrc"):
        shutil.copy(ROOT / name, dest / name)
    return dest
