"""Shared fixtures: one fresh check of every chapter, then one strict build of the records."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bookrun.book import Book

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def book():
    return Book(root=ROOT)


@pytest.fixture(scope="session")
def checked():
    """Every chapter executed fresh once and judged against its record (the CI check).

    The chapter tests read the same runs (tests/recorded.py), so nothing runs twice.
    """
    from recorded import FRESH

    return FRESH.everything()


@pytest.fixture(scope="session")
def check_problems(checked):
    return checked.problems


@pytest.fixture(scope="session")
def built_site(check_problems, tmp_path_factory):
    """The real site, built in strict mode; the path of its output folder."""
    site = tmp_path_factory.mktemp("site")
    # Frozen, as when publishing: the site shows the committed (checked) records or fails.
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", BOOKRUN_FROZEN="true")
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, f"strict build failed:\n{proc.stdout}\n{proc.stderr}"
    return site
