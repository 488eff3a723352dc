"""The public API: `__all__` names what another book may use, loaded only when used."""
import json
import os
import subprocess
import sys
from pathlib import Path

import bookrun

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("markdown", "yaml", "mkdocs", "pymdownx", "nbformat", "py_mini_racer")


def test_import_bookrun_loads_no_submodule_and_no_heavy_library():
    probe = ("import json, sys, bookrun; "
             "print(json.dumps(sorted(m for m in sys.modules if m.startswith('bookrun') "
             f"or m.split('.')[0] in {HEAVY!r})))")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                         text=True, timeout=60, check=True, cwd=ROOT)
    assert json.loads(out.stdout) == ["bookrun"]


def test_every_public_name_resolves():
    for name in bookrun.__all__:
        assert getattr(bookrun, name) is not None, name
    assert set(bookrun.__all__) <= set(dir(bookrun))


def test_a_public_name_is_the_internal_object():
    from bookrun.store.book import Book
    from bookrun.model.page import PageError
    assert bookrun.Book is Book and bookrun.PageError is PageError


def test_an_unknown_name_is_an_attribute_error():
    try:
        bookrun.NoSuchThing
    except AttributeError as exc:
        assert "NoSuchThing" in str(exc)
    else:
        raise AssertionError("bookrun.NoSuchThing resolved")


def test_the_version_is_the_package_metadata_version():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'version = {attr = "bookrun.__version__"}' in text
    assert bookrun.__version__ in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
