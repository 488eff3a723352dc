"""Fixtures the executor's and the isolation tests share."""
import os
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
    kept_root = Path(tempfile.mkdtemp(prefix="bk-"))  # socket names must be short
    os.chmod(kept_root, 0o755)  # as serve makes it (mkdir), not 0700 as mkdtemp does
    # The count of starts goes where a session under serve may write: the kept sessions'
    # folder (everything else but its scratch is read-only or private to it).
    code = dict(RESUME_CODE, **{"a.py": RESUME_CODE["a.py"].replace(
        "STARTS", repr(str(kept_root / "starts.txt")))})
    # Under root a session is a user of its own, and the folder stays root's: the count's
    # file is made here, writable by anyone, as a shared file a book offers would be.
    (kept_root / "starts.txt").touch(mode=0o666)
    os.chmod(kept_root / "starts.txt", 0o666)
    book = make_book(book_root, RESUME_PAGE, code)
    book.checkpoints = kept_root
    yield book
    checkpoint.release(book.checkpoints / "demo")
    shutil.rmtree(book.checkpoints, ignore_errors=True)
