"""Shared fixtures: one fresh check of every chapter, then one strict build of the records
with MkDocs and one with Zensical; the layer markers, time limits and order of the tests.

Helpers that tests import live in tests/helpers/ (pytest puts tests/ on the path, as the
folder of this conftest); a fixture the layer folders share is defined here."""
import os
import shutil
from pathlib import Path

import pytest

from bookrun.store.book import Book
from bookrun.hosts.prepare import prepare
from helpers.builds import build_frozen, copy_book, zensical_build
from helpers.paths import ROOT
from helpers.recorded import fresh
from helpers.scheduling import ByGroup, first_rank
from helpers.tools import need_zensical


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

    The costliest modules run first (FIRST, in helpers/scheduling.py): with `-n`, each
    starts on a worker of its own while the many short engine tests fill the other
    cores' gaps."""
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


if ByGroup is not None:
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


# pytest makes each temporary folder 0700 (tmp_path, tmp_path_factory.mktemp); a book
# made there must be readable by others, as any folder made with the usual umask is,
# since under root the sandbox runs snippets as an unprivileged user of their own
# (bookrun/execute/sandbox.py). Every temporary folder pytest makes goes through here.
_mktemp = pytest.TempPathFactory.mktemp


def _mktemp_readable(self, basename: str, numbered: bool = True) -> Path:
    path = _mktemp(self, basename, numbered)
    os.chmod(path, 0o755)
    return path


pytest.TempPathFactory.mktemp = _mktemp_readable


@pytest.fixture(scope="session")
def book():
    return Book(root=ROOT)


@pytest.fixture(scope="session")
def checked():
    """Every chapter executed fresh once and judged against its record (the CI check).

    The chapter tests read the same runs (tests/helpers/recorded.py), so nothing runs twice.
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


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """The real site, built in strict mode from the committed records; the path of its
    output folder. (Whether the records still match the code is the book layer's
    question, test_book.py: the site does not wait for it.)"""
    return once_per_run(tmp_path_factory, "site", lambda site: build_frozen(ROOT, site))


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
