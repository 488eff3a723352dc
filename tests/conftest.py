"""Shared fixtures: one fresh check of every chapter, then one strict build of the records
with MkDocs and one with Zensical."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bookrun.store.book import Book
from bookrun.hosts.prepare import prepare
# Test modules that still import a fixture or helper from another test module find it
# by name (pytest puts only the importing module's own folder on the path).
for _folder in ("execute", "hosts", "site"):
    sys.path.insert(0, str(Path(__file__).resolve().parent / _folder))

from helpers.recorded import fresh  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# Zensical lives in its own virtualenv (requirements-zensical.txt); .ci/run creates it.
ZENSICAL = Path(os.environ.get("ZENSICAL", ROOT / ".venv-zensical" / "bin" / "zensical"))
# Zensical's config: mkdocs.yml with its own site_dir (Zensical has no --site-dir flag).
ZENSICAL_CONFIG = "zensical.yml"
INSTALL_ZENSICAL = ("python -m venv .venv-zensical && "
                    ".venv-zensical/bin/pip install -r requirements-zensical.txt")


# The suite's layers (CONTRIBUTING.md, "Tests"): each test gets one marker, from what it needs.
# Seconds per test, by layer, unless a test sets its own: a test's limit includes the
# setup of the shared fixtures it is the first to need (the book's run, a site build).
# The first test to need the real book waits for every chapter to run (several minutes
# on two cores), and the first site test for that and a site build too.
LIMITS = {"engine": 120, "execute": 120, "hosts": 120, "book": 1800, "site": 1800,
          "platforms": 2400}
# Modules whose fixtures reach the built sites indirectly (getfixturevalue).
SITE_MODULES = {"test_lighthouse"}
SITE_FIXTURES = {"built_site", "zensical_site", "site", "base_url"}
BOOK_FIXTURES = {"checked", "check_problems"}


def pytest_collection_modifyitems(config, items):
    """Each test's marker is its folder (tests/engine, execute, hosts, book, site,
    platforms). Its time limit is its folder's, or the site's or the book's when it
    needs their shared fixtures (which it may be the first to set up).

    The costliest modules run first (FIRST): with `-n`, each starts on a worker of its own
    while the many short engine tests fill the other cores' gaps."""
    items.sort(key=lambda item: first_rank(item.module.__name__))
    for item in items:
        layer = Path(item.path).parent.name
        if layer not in LIMITS:
            raise pytest.UsageError(f"{item.nodeid}: a test lives in one of the layer folders "
                                    f"under tests/ ({', '.join(LIMITS)})")
        item.add_marker(getattr(pytest.mark, layer))
        names = set(getattr(item, "fixturenames", ()))
        needs = ("site" if names & SITE_FIXTURES or item.module.__name__ in SITE_MODULES else
                 "book" if names & BOOK_FIXTURES or any(isinstance(v, fresh) for v in
                                                        vars(item.module).values()) else layer)
        if item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(max(LIMITS[layer], LIMITS[needs])))


# The modules that cost most, costliest first (CONTRIBUTING.md, "Tests"): the audits of
# every page in a browser, the real book's run (its chapter tests share it), the PDF
# prints, Lighthouse, the book on portable kernels, the page loads; then those that
# mostly wait (time limits, killed sessions, serve's rebuilds), which overlap well with
# the others. The quick modules come last and fill the end.
FIRST = ["test_accessibility", "book", "test_pdf", "test_lighthouse", "test_platforms",
         "test_browser", "test_executor", "test_isolation", "test_interactive_browser",
         "test_interactive", "test_copy_above", "test_plugin", "test_layout", "test_syntax"]


# Modules run whole on one worker under -n: their module fixtures are the cost (split,
# each worker would set them up again each time it came back to the module; a browser
# is launched per module, hence test_copy_above).
WHOLE = {"book", "test_accessibility", "test_browser", "test_copy_above",
         "test_interactive_browser", "test_lighthouse", "test_pdf"}


def group_of(module: str) -> str:
    """The chapter tests and test_book share one run of the real book: one group, so that
    with `-n` the book runs on one worker only (recorded.py runs it once per process)."""
    return "book" if module == "test_book" or module[len("test_"):] in CHAPTER_MODULES else module


def first_rank(module: str) -> int:
    group = group_of(module)
    return FIRST.index(group) if group in FIRST else len(FIRST)


CHAPTER_MODULES = {c.name for c in Book(root=ROOT).chapters()}


try:
    from xdist.scheduler import LoadScopeScheduling
except ImportError:  # pytest-xdist is in requirements.txt; without it, no -n and no hook
    LoadScopeScheduling = None

if LoadScopeScheduling is not None:
    class ByGroup(LoadScopeScheduling):
        """`-n`: units of work handed out in the collection's order (costliest first) to
        whichever worker is nearly done. A module whose fixtures cost much (an audit of
        every page, the prints, Lighthouse) is one unit, so they run once, and so is the
        book's group; any other test is a unit of its own, so that a module of short
        tests spreads over every worker."""

        def _split_scope(self, nodeid: str) -> str:
            group = group_of(Path(nodeid.split("::", 1)[0]).stem)
            return group if group in WHOLE else nodeid

    def pytest_xdist_make_scheduler(config, log):
        if config.getoption("dist") == "load":  # -n's default; other --dist modes stay
            config.option.loadscopereorder = False  # keep FIRST's order, not size's
            return ByGroup(config, log)
        return None

    @pytest.hookimpl(wrapper=True)
    def pytest_xdist_auto_num_workers(config):
        """`-n auto`: one worker more than xdist counts cores. Parts of the suite wait
        (Lighthouse's quiet windows, page loads, the time-limit tests), and with a worker
        per core the cores idled through them: on two cores, 547 s with two workers and
        486 s with three, the cores busy 82% and 98% (DESIGN-NOTES.md, "axe-core from
        npm, and a third worker"). PYTEST_XDIST_AUTO_NUM_WORKERS still sets the number."""
        cores = yield
        return cores if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS") else cores + 1


@pytest.fixture(scope="session")
def book():
    return Book(root=ROOT)


@pytest.fixture(scope="session")
def checked():
    """Every chapter executed fresh once and judged against its record (the CI check).

    The chapter tests read the same runs (tests/recorded.py), so nothing runs twice.
    """
    from helpers.recorded import FRESH

    return FRESH.everything()


@pytest.fixture(scope="session")
def check_problems(checked):
    return checked.problems


def once_per_run(tmp_path_factory, name: str, make) -> Path:
    """`make(folder)` -> a path, made once per run even under `-n`: the workers share the
    run's temporary folder, and the first to take the lock makes it while the others
    wait, then reuse it (pytest-xdist's documented recipe). A failed make leaves no
    mark, so each worker that needs it fails with the same message."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return make(tmp_path_factory.mktemp(name))
    from filelock import FileLock

    shared = tmp_path_factory.getbasetemp().parent
    made = shared / f"{name}.made"  # holds the path make returned
    with FileLock(str(shared / f"{name}.lock")):
        if not made.is_file():
            folder = shared / name
            shutil.rmtree(folder, ignore_errors=True)  # what a failed make left
            folder.mkdir()
            made.write_text(str(make(folder)))
    return Path(made.read_text())


def build_site(site: Path) -> Path:
    # Frozen, as when publishing: the site shows the committed (checked) records or fails.
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", BOOKRUN_FROZEN="true")
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"strict build failed:\n{proc.stdout}\n{proc.stderr}"
    return site


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """The real site, built in strict mode from the committed records; the path of its
    output folder. (Whether the records still match the code is the book layer's
    question, test_book.py: the site does not wait for it.)"""
    return once_per_run(tmp_path_factory, "site", build_site)


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


def missing_tool(why: str, module: bool = False):
    """Skip (the test, or with `module` the whole module at import), saying why; under CI
    (`CI=true`), where .ci/run installs every tool, fail."""
    if os.environ.get("CI") == "true":
        pytest.fail(why, pytrace=False)
    pytest.skip(why, allow_module_level=module)


def need_zensical() -> None:
    if not ZENSICAL.exists():
        missing_tool(f"Zensical is not installed at {ZENSICAL}: {INSTALL_ZENSICAL}")


def zensical_build(project: Path) -> subprocess.CompletedProcess:
    """`zensical build --clean` of a project, with this checkout's bookrun (and the
    project's zensical.yml when it has one, as the book does)."""
    need_zensical()
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1")
    config = ["-f", ZENSICAL_CONFIG] if (project / ZENSICAL_CONFIG).is_file() else []
    return subprocess.run([str(ZENSICAL), "build", "--clean", *config], cwd=project, env=env,
                          capture_output=True, text=True, timeout=600)


def build_zensical_site(folder: Path) -> Path:
    project = copy_book(folder)
    prepare(Book(root=project, frozen=True))  # frozen: never executes, like built_site
    proc = zensical_build(project)
    assert proc.returncode == 0, f"zensical build failed:\n{proc.stdout}\n{proc.stderr}"
    assert not (project / "site").exists(), "Zensical wrote into MkDocs' site/"
    return project / "site-zensical"


@pytest.fixture(scope="session")
def zensical_site(tmp_path_factory):
    """The same book built by Zensical from the committed records (AUTHORING.md's two
    commands: prepare, then build); the path of its output folder."""
    need_zensical()  # skips (fails, under CI) in each worker, before the lock
    return once_per_run(tmp_path_factory, "zensical", build_zensical_site)


@pytest.fixture(scope="module", params=["mkdocs", "zensical"])
def site(request):
    """The built site, once per generator: the browser and budget checks run on both."""
    return request.getfixturevalue("built_site" if request.param == "mkdocs" else "zensical_site")
