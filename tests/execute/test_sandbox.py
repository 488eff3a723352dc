"""A snippet sees nothing of the machine it runs on (issue 33): no variable outside the
allow-list, no path writable outside its scratch, bounded disk, a Matplotlib folder of
its own, and no session at all where the sandbox cannot start unless the book says so."""
import ast
import os
import pwd
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from bookrun.execute import environment, sandbox
from bookrun.model.page import ExecutionError
from bookrun.store.book import Book
from helpers.books import PLOT, make_book

ROOT = Path(__file__).resolve().parents[2]
SECRET = "fake-secret-123"
needs_sandbox = pytest.mark.skipif(sandbox.bubblewrap() is None,
                                   reason="no working bubblewrap here")
CONFIG = """\
site_name: Fixture
strict: true
nav:
  - "1. Demo": demo.md
plugins:
  - bookrun:
      timeout: 60
markdown_extensions:
  - attr_list
  - pymdownx.blocks.caption
  - pymdownx.highlight
  - pymdownx.superfences
"""


def files_holding(folder: Path, text: str) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")
                  if p.is_file() and text.encode() in p.read_bytes())


def test_no_secret_of_the_machine_reaches_the_page_the_record_or_the_notebook(tmp_path):
    """The build's environment holds a token; the site, the record and the notebook a
    snippet printing its whole environment produced hold none of it."""
    (tmp_path / "mkdocs.yml").write_text(CONFIG)
    make_book(tmp_path, "# Demo\n@run demo/a.py\n", {"a.py": """\
        import os
        names = sorted(os.environ)
        print(names)
        print(os.environ["HOME"].endswith("/home"), "BOOKRUN_KEEP" in os.environ)
        print({k: v for k, v in os.environ.items() if "SECRET" in k or "TOKEN" in k})
        """})
    env = dict(os.environ, GITHUB_TOKEN=SECRET, AWS_SECRET_ACCESS_KEY=SECRET,
               BOOKRUN_KEEP="1", NO_MKDOCS_2_WARNING="1")
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-d", "site"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert list((tmp_path / "site").rglob("*.ipynb")), "the build wrote no notebook"
    assert files_holding(tmp_path, SECRET) == []
    record = (tmp_path / "snippets" / "demo" / "_record.json").read_text()
    assert "GITHUB_TOKEN" not in record and "AWS_SECRET_ACCESS_KEY" not in record
    assert "True True" in record  # a private home; the book's own BOOKRUN_* pass
    page = (tmp_path / "site" / "demo" / "index.html").read_text()
    assert "PATH" in page and SECRET not in page


def test_a_variable_the_book_names_is_passed_on_purpose(tmp_path, monkeypatch):
    (tmp_path / "mkdocs.yml").write_text(
        "markdown_extensions:\n  - bookrun.extension:\n      pass_env: [DATA_DIR]\n")
    monkeypatch.setenv("DATA_DIR", "/srv/data")
    monkeypatch.setenv("OTHER_DIR", "/srv/other")
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n", {"a.py": """\
        import os
        print(os.environ.get("DATA_DIR"), os.environ.get("OTHER_DIR"))
        """})
    assert book.build()["demo"].output("a.py") == "/srv/data None\n"


@needs_sandbox
def test_every_path_but_the_scratch_is_read_only_and_home_and_tmp_are_private(tmp_path):
    """Another checkout, this repository, /etc: unwritable (or not even there); the
    machine's home folder: absent but for the interpreter bound back; HOME (in the
    scratch) and /tmp: the session's own, which the host never sees."""
    other = tmp_path / "other-clone"  # another checkout beside the book
    other.mkdir()
    home = Path(pwd.getpwuid(os.getuid()).pw_dir)
    targets = [other / "x", ROOT / "docs" / "probe", Path("/etc/probe"), home / ".probe"]
    (tmp_path / "book").mkdir()
    book = make_book(tmp_path / "book", "# Demo\n@run demo/a.py\n", {"a.py": f"""\
        import os
        for path in {[str(t) for t in targets]!r}:
            try:
                open(path, "w").close()
                print("written")
            except OSError as exc:
                print(exc.strerror)

        seen = os.listdir({str(home)!r}) if os.path.isdir({str(home)!r}) else []
        print(seen, os.listdir("/tmp"))
        for path in [os.path.join(os.environ["HOME"], "probe"), "/tmp/bookrun-probe"]:
            with open(path, "w") as f:
                _ = f.write("x")

        print("private files written")
        """})
    *refused, listed, last = book.build()["demo"].output("a.py").splitlines()
    assert all(r in ("Read-only file system", "No such file or directory",
                     "Permission denied") for r in refused), refused
    # What the home folder and /tmp show: only the mount points of what the session
    # needs (the interpreter, the book), none of the host's own files.
    needed = [tmp_path / "book", ROOT, *sandbox.interpreter_paths()]
    allowed = {p.relative_to(f).parts[0] for f in (home, Path("/tmp")) for p in needed
               if f in p.parents}
    home_seen, tmp_seen = ast.literal_eval(listed.replace("] [", "], ["))
    assert set(home_seen) | set(tmp_seen) <= allowed, (home_seen, tmp_seen)
    assert last == "private files written"
    assert not any(t.exists() for t in targets)
    assert not Path("/tmp/bookrun-probe").exists()


def test_the_engines_own_folder_is_bound_back_even_off_the_import_path(monkeypatch):
    """An editable install imports bookrun through a hook, not sys.path: a checkout under
    /tmp (a private folder in the session) left the worker unable to import bookrun."""
    engine = Path(sandbox.__file__).resolve().parents[2]
    monkeypatch.setattr(sys, "path", [p for p in sys.path if Path(p or ".").resolve() != engine])
    monkeypatch.setattr(sys, "prefix", "/nowhere")
    assert engine in sandbox.interpreter_paths()


@needs_sandbox
def test_the_private_tmp_is_bounded_and_the_overflow_names_the_snippet(tmp_path):
    (tmp_path / "mkdocs.yml").write_text(
        "markdown_extensions:\n  - bookrun.extension:\n      disk_mb: 4\n")
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n", {"a.py": """\
        block = b"x" * 2**20
        for n in range(8):
            with open(f"/tmp/part{n}", "wb") as f:
                _ = f.write(block)
        """})
    with pytest.raises(ExecutionError, match=r"snippets/demo/a.py:4: OSError: \[Errno 28\] "
                                             r"No space left on device"):
        book.build()


def test_no_file_grows_past_the_disk_limit_even_in_the_scratch(tmp_path):
    (tmp_path / "mkdocs.yml").write_text(
        "markdown_extensions:\n  - bookrun.extension:\n      disk_mb: 4\n")
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n", {"a.py": """\
        import os
        path = os.path.join(os.environ["MPLCONFIGDIR"], "big")  # in its scratch
        with open(path, "wb") as f:
            _ = f.write(b"x" * 5 * 2**20)
        """})
    # The write stops at the file's cap (EFBIG at its line), unless the scratch's total,
    # the cap plus the session's own files, ends the session first: either names a.py.
    with pytest.raises(ExecutionError, match=r"snippets/demo/a.py:4: OSError: \[Errno 27\] "
                                             r"File too large|into its scratch folder while "
                                             r"running snippets/demo/a.py"):
        book.build()


def cli(root: Path, env: dict, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bookrun", *args], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)


def test_without_bubblewrap_nothing_runs_unless_the_book_turns_the_sandbox_off(tmp_path):
    make_book(tmp_path, "# Demo\n@run demo/a.py\n", {"a.py": "print('ran')\n"})
    bin_dir = tmp_path / "bin"  # a PATH with Python and no bwrap
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(sys.executable)
    env = dict(os.environ, PATH=str(bin_dir), PYTHONPATH=str(ROOT))
    env.pop("BOOKRUN_SANDBOX", None)
    refused = cli(tmp_path, env, "run", "docs/demo.md")
    assert refused.returncode != 0
    assert "the sandbox cannot start (bubblewrap (bwrap) is not on the PATH)" in refused.stderr
    assert "apt-get install bubblewrap" in refused.stderr and "BOOKRUN_SANDBOX=off" in refused.stderr
    assert not (tmp_path / "snippets" / "demo" / "_record.json").exists()
    assert not (tmp_path / ".cache" / "bookrun" / "scratch").exists() or \
        list((tmp_path / ".cache" / "bookrun" / "scratch").iterdir()) == []

    allowed = cli(tmp_path, dict(env, BOOKRUN_SANDBOX="off"), "run", "docs/demo.md")
    assert allowed.returncode == 0, allowed.stderr
    assert "SANDBOX OFF" in allowed.stderr
    (tmp_path / "mkdocs.yml").write_text(
        "markdown_extensions:\n  - bookrun.extension:\n      sandbox: off\n")
    by_config = cli(tmp_path, env, "run", "docs/demo.md")
    assert by_config.returncode == 0 and "SANDBOX OFF" in by_config.stderr


def two_chapters(root: Path, first: str) -> Book:
    """Chapters `a` (its snippet given) and `b` (a plot), each a page of its own."""
    for name, code in (("a", first), ("b", PLOT)):
        (root / "docs").mkdir(parents=True, exist_ok=True)
        (root / "docs" / f"{name}.md").write_text(f"# {name}\n@run {name}/s.py\n")
        (root / "snippets" / name).mkdir(parents=True, exist_ok=True)
        (root / "snippets" / name / "s.py").write_text(textwrap.dedent(code))
    book = Book(root=root, timeout=60)
    book.log = lambda msg: None
    return book


def test_a_snippet_that_rewrites_matplotlibs_folder_changes_no_other_chapters_figures(
        tmp_path):
    clean = two_chapters(tmp_path / "clean", "print('nothing')\n")
    [figure] = clean.build()["b"].snippets[0].figures
    poison = f"""\
        import os
        mine = os.environ["MPLCONFIGDIR"]
        for folder in [mine, {str(environment.shared_matplotlib())!r}]:
            try:
                with open(os.path.join(folder, "matplotlibrc"), "w") as f:
                    _ = f.write("lines.linewidth: 9\\nfigure.facecolor: red\\n")
                for name in os.listdir(folder):
                    if name.startswith("fontlist"):
                        with open(os.path.join(folder, name), "w") as f:
                            _ = f.write("{{}}")
                print("rewrote", folder == mine)
            except OSError as exc:
                print("refused:", exc.strerror)
        """
    poisoned = two_chapters(tmp_path / "poisoned", poison)
    out = poisoned.build([c for c in poisoned.chapters() if c.name == "a"])["a"].output("s.py")
    if sandbox.bubblewrap():  # the engine's own folder is out of reach (a private home)
        assert out.startswith("rewrote True\nrefused: "), out
    [after] = poisoned.build()["b"].snippets[0].figures
    assert after.sha256 == figure.sha256, "another chapter's snippet changed this figure"


def test_the_font_cache_is_built_before_any_snippet_and_never_becomes_output(tmp_path,
                                                                              monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # a machine's first run
    (tmp_path / "book").mkdir()
    book = make_book(tmp_path / "book", "# Demo\n@run demo/plot.py\n", {"plot.py": PLOT})
    rec = book.build()["demo"]
    assert rec.output("plot.py") == "drawn\n"
    assert list(environment.shared_matplotlib().glob("fontlist-*.json"))


def test_the_summary_names_the_protection_in_force():
    assert "bubblewrap sandbox" in sandbox.describe("on")
    assert "SANDBOX OFF" in sandbox.describe("off")


def test_ctrl_c_stops_every_session_at_once_and_leaves_nothing_half_done(tmp_path):
    """A first SIGINT ends the running sessions within seconds, removes their scratch,
    writes no record of an unfinished chapter and says in one line what was done."""
    marker = f"sleep {600 + os.getpid() % 1000}.5"
    book = two_chapters(tmp_path, f"import subprocess, time\n_ = subprocess.Popen("
                                  f"{marker.split()!r})\ntime.sleep(120)\n")
    (book.snippets_root / "b" / "s.py").write_text("print('quick')\n")
    # faulthandler: a SIGABRT makes it print every thread's stack (when it hangs).
    env = dict(os.environ, PYTHONPATH=str(ROOT), BOOKRUN_TIMEOUT="300", PYTHONFAULTHANDLER="1")
    proc = subprocess.Popen([sys.executable, "-m", "bookrun", "update"], cwd=tmp_path,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    scratch = tmp_path / ".cache" / "bookrun" / "scratch"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not (
                (book.snippets_root / "b" / "_record.json").exists() and running(marker)):
            time.sleep(0.1)
        assert running(marker), "chapter a never started its child"
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGABRT)
            pytest.fail("update still ran 30 s after Ctrl-C; its threads:\n"
                        + proc.communicate(timeout=30)[1])
        took = time.monotonic() - t0
    finally:
        proc.kill()
    assert took < 5, f"Ctrl-C took {took:.1f} s"
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    lines = [ln for ln in err.splitlines() if "interrupted" in ln]
    assert lines == ["bookrun: interrupted: finished b; stopped a (nothing of those written)"]
    assert not (book.snippets_root / "a" / "_record.json").exists()
    assert (book.snippets_root / "b" / "_record.json").exists()
    assert list(scratch.iterdir()) == [] if scratch.exists() else True
    end = time.monotonic() + 5
    while running(marker) and time.monotonic() < end:
        time.sleep(0.05)
    assert running(marker) == []


def running(marker: str) -> list[str]:
    """Command lines of this machine's processes that hold `marker`."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and marker in (entry / "cmdline").read_bytes() \
                    .replace(b"\0", b" ").decode() and \
                    (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                found.append(entry.name)
        except (OSError, IndexError):
            continue
    return found
