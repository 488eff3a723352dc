"""The execution protocol is a declared number: a change to the worker's code must choose
to bump it (every record is re-executed) or to keep it (every record stays fresh)."""
import shutil

from bookrun import EXECUTION_PROTOCOL, read_chapter
from bookrun.store import key
from bookrun.store.key import WORKER, worker_digest

# The syntax-tree digest of the worker package (bookrun/execute/worker/, less
# protocol_version.py) for each protocol number. Recompute it with the command below.
PINNED = {1: "10255af0ab8821fef0c0c290422a5aafd8377aafbb1459b09370c3c7dfff3a9c",
          # 2: a thread left running fails its snippet; tracebacks keep their two ends;
          # the session ends at once once its result is written (issue 42); frames'
          # checking moved out to bookrun/store/frames_check.py (issue 43, item 10).
          2: "64a5c8187cf5649ad8aa1afdb939ae1675f6769957e60a11dc45aa1d7e0f7b7f"}
RECOMPUTE = 'python -c "from bookrun.store.key import worker_digest; print(worker_digest())"'


def test_the_worker_code_is_pinned_to_the_protocol_number():
    now = worker_digest()
    assert PINNED.get(EXECUTION_PROTOCOL) == now, (
        f"bookrun/execute/worker/ changed (syntax-tree digest {now}) but EXECUTION_PROTOCOL "
        f"is still {EXECUTION_PROTOCOL}. If the change can alter what a snippet prints, "
        "draws, binds or records, bump EXECUTION_PROTOCOL in "
        "bookrun/execute/worker/protocol_version.py and pin the new number to this digest "
        "in PINNED (tests/execute/test_protocol_pin.py), then `python -m bookrun update`. "
        "If it cannot, keep the number and replace its pinned digest with this one. "
        f"Recompute the digest with: {RECOMPUTE}")


def test_a_protocol_number_is_never_reused_for_other_code():
    assert EXECUTION_PROTOCOL == max(PINNED), "a new protocol number is above every pinned one"
    assert len(set(PINNED.values())) == len(PINNED)


def test_the_digest_sees_code_not_comments(tmp_path):
    copy = tmp_path / "worker"
    shutil.copytree(WORKER, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert worker_digest(copy) == worker_digest()
    frames_py = copy / "frames.py"
    source = frames_py.read_text(encoding="utf-8")
    frames_py.write_text("# a comment\n" + source.replace("\n", "\n\n", 3), encoding="utf-8")
    assert worker_digest(copy) == worker_digest()
    # A constant added to the code that records frames: the digest (and so the pin) sees it.
    frames_py.write_text(source + "\nEXTRA_FRAME_SETTING = 1\n", encoding="utf-8")
    assert worker_digest(copy) != worker_digest()
    # The number's own file is not part of what it stands for.
    frames_py.write_text(source, encoding="utf-8")
    (copy / "protocol_version.py").write_text("EXECUTION_PROTOCOL = 99\n", encoding="utf-8")
    assert worker_digest(copy) == worker_digest()


def test_the_key_holds_the_number_not_the_code(tmp_path, monkeypatch):
    (tmp_path / "snippets" / "demo").mkdir(parents=True)
    (tmp_path / "snippets" / "demo" / "a.py").write_text("print(1)\n")
    (tmp_path / "docs").mkdir()
    page = tmp_path / "docs" / "demo.md"
    page.write_text("# Demo\n@run demo/a.py\n")
    chapter = read_chapter(page, tmp_path / "snippets")
    style = tmp_path / "none.mplstyle"
    before = key.step_keys(chapter, tmp_path / "snippets", style, {})
    resume = key.resume_keys(chapter, tmp_path / "snippets", style, {})
    assert len(resume) == len(before) - 1 and set(resume).isdisjoint(before)
    monkeypatch.setattr(key, "worker_digest", lambda folder=WORKER: "0" * 64)
    assert key.step_keys(chapter, tmp_path / "snippets", style, {}) == before
    # Serve's kept sessions are live processes of the old code: never resumed by new code.
    assert key.resume_keys(chapter, tmp_path / "snippets", style, {}) != resume
    monkeypatch.setattr(key, "EXECUTION_PROTOCOL", EXECUTION_PROTOCOL + 1)
    assert key.step_keys(chapter, tmp_path / "snippets", style, {}) != before
