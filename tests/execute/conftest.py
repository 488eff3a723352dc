"""Fixtures the executor's and the isolation tests share."""
import shutil
import tempfile
from pathlib import Path

import pytest

from bookrun.execute.worker import checkpoint
from helpers.books import RESUME_CODE, RESUME_PAGE, make_book


@pytest.fixture
def kept(tmp_path):
    """A book whose builds keep their sessions, as under `mkdocs serve`."""
    book_root = tmp_path / "book"
    book_root.mkdir()
    code = dict(RESUME_CODE, **{"a.py": RESUME_CODE["a.py"].replace(
        "STARTS", repr(str(tmp_path / "starts.txt")))})
    book = make_book(book_root, RESUME_PAGE, code)
    book.checkpoints = Path(tempfile.mkdtemp(prefix="bk-"))  # socket names must be short
    yield book
    checkpoint.release(book.checkpoints / "demo")
    shutil.rmtree(book.checkpoints, ignore_errors=True)
