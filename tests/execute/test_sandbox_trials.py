"""A hostile author's trials (issue 42), each of which succeeded once, as root: inside
the sandbox a snippet holds no capability, sees nothing of the machine but the
interpreter, the book and its scratch, reaches no host socket, writes nothing outside
its scratch, and cannot exhaust processes, disk or time. Under root (as CI runs) the
session is an unprivileged user of its own; as an ordinary user, bwrap's own user
namespace. Each trial's snippet reports what it managed, and the test asserts it
managed nothing."""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from bookrun.errors import ExecutionError
from bookrun.execute import sandbox
from helpers.books import make_book

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(sandbox.bubblewrap() is None,
                                reason="no working bubblewrap here")

# One snippet tries everything that reads or reaches the machine; it prints one JSON
# line of what it found (paths are given by the test).
PROBE = """\
import ctypes, json, os, socket, subprocess, sys
found = {}
status = dict(line.split(":\\t", 1) for line in open("/proc/self/status").read().splitlines()
              if ":\\t" in line)
found["caps"] = [status["CapEff"].strip(), status["CapPrm"].strip(), status["CapBnd"].strip()]
found["uid"] = os.getuid()
def tried(command):
    return subprocess.run(command, capture_output=True).returncode == 0


found["remount"] = tried(["mount", "-o", "remount,rw", BOOK])
found["remount_root"] = tried(["mount", "-o", "remount,rw", "/"])
found["umount"] = tried(["umount", "-l", BOOK])
found["unshare"] = tried(["unshare", "-U", "-r", "true"])
def readable(path):
    try:
        with open(path, "rb") as f:
            f.read(1)
        return True
    except OSError:
        return False


found["planted"] = readable(PLANTED)
found["shadow"] = readable("/etc/shadow")
found["other_project"] = os.path.exists(OTHER)
found["run"] = os.path.exists("/run") and bool(os.listdir("/run"))
found["devices"] = sorted(d for d in ("vda", "sda", "kmsg", "kvm", "tty1", "loop0", "mem")
                          if os.path.exists("/dev/" + d))
def writes(path):
    try:
        with open(path, "w") as f:
            f.write("x")
        return True
    except OSError:
        return False


found["pth"] = writes(PTH)
found["docs"] = writes(os.path.join(BOOK, "docs", "planted.md"))
def answers(path, kind=socket.SOCK_STREAM):
    try:
        s = socket.socket(socket.AF_UNIX, kind)
        s.settimeout(3)
        s.connect(path)
        s.sendall(b"hello")
        return s.recv(5) == b"hello"
    except OSError:
        return False


found["book_socket"] = answers(SOCKET)
found["child_socket"] = subprocess.run(
    [sys.executable, "-c", "import socket; s = socket.socket(socket.AF_UNIX); "
     f"s.connect({SOCKET!r})"], capture_output=True).returncode == 0
print(json.dumps(found, sort_keys=True))
"""


def echo_server(path: Path) -> threading.Thread:
    """A host process's socket in the book's folder, answering whoever connects."""
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    os.chmod(path, 0o777)  # even open to everyone: the filter, not the mode, refuses
    server.listen()
    server.settimeout(60)

    def serve():
        try:
            while True:
                conn, _ = server.accept()
                with conn:
                    conn.sendall(conn.recv(5))
        except OSError:
            pass
        finally:
            server.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return thread


def probe_book(tmp_path: Path) -> tuple[Path, dict]:
    book = tmp_path / "book"
    book.mkdir()
    planted = Path(os.environ.get("HOME", "/root")) / f".bookrun-planted-{os.getpid()}"
    other = tmp_path / "other-project"
    other.mkdir()
    (other / "secret.txt").write_text("not the book's")
    paths = {"BOOK": str(book), "PLANTED": str(planted), "OTHER": str(other),
             "PTH": str(Path(sys.prefix) / "lib" / "bookrun-trial.pth"),
             "SOCKET": str(book / "host.sock")}
    planted.write_text("a host file")
    os.chmod(planted, 0o644)  # readable by anyone on the machine, not in the sandbox
    code = "".join(f"{k} = {v!r}\n" for k, v in paths.items()) + PROBE
    make_book(book, "# Demo\n@run demo/a.py\n", {"a.py": code})
    return book, paths


def run_probe(tmp_path: Path, as_user=None) -> dict:
    book, paths = probe_book(tmp_path)
    echo_server(book / "host.sock")
    # The host's own view first: the planted file and the socket really are there.
    assert Path(paths["PLANTED"]).read_text() == "a host file"
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(paths["SOCKET"])
        s.sendall(b"hello")
        assert s.recv(5) == b"hello"
    script = ("import json, sys\nfrom bookrun.store.book import Book\n"
              "print(Book(root=sys.argv[1], timeout=60.0).build()['demo'].output('a.py'), end='')")
    command = [*(as_user or []), sys.executable, "-c", script, str(book)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, PYTHONPATH=str(ROOT)))
    finally:
        Path(paths["PLANTED"]).unlink()
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert not Path(paths["PTH"]).exists() and not (book / "docs" / "planted.md").exists()
    return found


NOTHING = {"remount": False, "remount_root": False, "umount": False, "unshare": False,
           "planted": False, "shadow": False, "other_project": False, "run": False,
           "devices": [], "pth": False, "docs": False, "book_socket": False,
           "child_socket": False}


def test_as_root_a_snippet_holds_no_capability_sees_no_host_file_and_reaches_no_socket(
        tmp_path):
    if os.geteuid() != 0:
        pytest.skip("this trial is root's (CI runs as root); the user's is below")
    found = run_probe(tmp_path)
    assert found.pop("caps") == ["0000000000000000"] * 3
    assert found.pop("uid") >= sandbox.SANDBOX_UID_BASE  # no account of the machine's
    assert found == NOTHING


def user_command() -> list[str] | None:
    """A command prefix that runs the test's build as an ordinary user, where this
    machine lets one run this very interpreter (under root's 0700 home it cannot)."""
    if os.geteuid() != 0:
        return []
    prefix = [shutil.which("setpriv"), "--reuid=65534", "--regid=65534", "--clear-groups",
              "--"]
    try:
        seen = subprocess.run([*prefix, sys.executable, "-c",
                               "import os, sys; print(sys.prefix, os.__file__)"],
                              capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return prefix if seen == f"{sys.prefix} {os.__file__}" else None


def test_as_an_ordinary_user_the_same_trials_fail():
    prefix = user_command()
    if prefix is None:
        pytest.skip("this machine's interpreter is not readable by another user (it lives "
                    "in root's 0700 home), so no build can run as one here")
    folder = Path(tempfile.mkdtemp(prefix="bookrun-user-"))
    try:
        os.chmod(folder, 0o777)  # the user's own folder for the book
        found = run_probe(folder, prefix)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    assert found.pop("caps") == ["0000000000000000"] * 3
    found.pop("uid")
    assert found == NOTHING


def test_a_fork_bomb_stops_at_the_sessions_process_limit(tmp_path):
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n", {"a.py": """\
        import os
        import time

        children = []
        try:
            for n in range(5000):
                pid = os.fork()
                if pid == 0:
                    time.sleep(30)
                    os._exit(0)
                children.append(pid)
        except OSError as exc:
            print("stopped:", exc.strerror)

        for pid in children:
            os.kill(pid, 9)
            _ = os.waitpid(pid, 0)

        print(len(children) < 5000)
        """})
    assert book.build()["demo"].output("a.py") == ("stopped: Resource temporarily "
                                                   "unavailable\nTrue\n")


def test_the_scratch_folder_is_held_to_disk_mb_in_total_naming_the_snippet(tmp_path):
    (tmp_path / "mkdocs.yml").write_text(
        "markdown_extensions:\n  - bookrun.extension:\n      disk_mb: 8\n")
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n@run demo/b.py\n", {
        "a.py": "print('fine')\n",
        "b.py": """\
        import os
        import time

        folder = os.environ["HOME"]  # in the scratch, on the host's disk
        for n in range(200):  # each file under the per-file cap, 200 MB in all
            with open(os.path.join(folder, f"part{n}"), "wb") as f:
                _ = f.write(b"x" * 2**20)
            time.sleep(0.01)
        """})
    t0 = time.monotonic()
    with pytest.raises(ExecutionError, match=r"wrote \d+ MB into its scratch folder while "
                                             r"running snippets/demo/b.py, past the 8 MB"):
        book.build()
    assert time.monotonic() - t0 < 30


def test_a_thread_left_running_fails_its_snippet_at_once(tmp_path):
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n@run demo/b.py\n", {
        "a.py": "import threading\nimport time\n\n"
                "worker = threading.Thread(target=time.sleep, args=(60,))\n"
                "worker.start()\n",
        "b.py": "print('b ran')\n"})
    t0 = time.monotonic()
    with pytest.raises(ExecutionError, match=r"snippets/demo/a.py:5: a thread started here "
                                             r"\(.*\) was still running when a.py ended"):
        book.build()
    assert time.monotonic() - t0 < 20  # not the thread's 60 s


def test_a_thread_joined_in_its_snippet_is_fine(tmp_path):
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n", {
        "a.py": "import threading\n\nworker = threading.Thread(target=print, args=('hi',))\n"
                "worker.start()\nworker.join()\n"})
    assert book.build()["demo"].output("a.py") == "hi\n"


def test_a_recursion_a_million_deep_fails_fast_naming_the_snippet(tmp_path):
    book = make_book(tmp_path, "# Demo\n@run demo/a.py\n", {"a.py": """\
        import sys
        sys.setrecursionlimit(10**6)


        def deeper(n):
            return deeper(n + 1) + 1


        print(deeper(0))
        """})
    t0 = time.monotonic()
    with pytest.raises(ExecutionError, match=r"snippets/demo/a.py:\d+: RecursionError"):
        book.build()
    assert time.monotonic() - t0 < 12  # 3 s here; formatting every frame took 15 to 113 s


def test_with_the_sandbox_off_the_banner_says_what_a_snippet_can_see():
    said = sandbox.describe("off")
    assert "SANDBOX OFF" in said and "/proc/<parent pid>/environ" in said
    assert "every file you can" in said


def test_a_session_file_swapped_for_a_link_is_never_read_into_the_message(tmp_path):
    """A snippet replaces its live output with a link to a host file, then crashes: the
    crash report (public in a CI log) shows none of that file."""
    secret = tmp_path / "host-secret.txt"
    secret.write_text("HOST-SECRET-LINE\n")
    os.chmod(secret, 0o644)
    (tmp_path / "book").mkdir()
    book = make_book(tmp_path / "book", "# Demo\n@run demo/a.py\n", {"a.py": f"""\
        import ctypes
        import os

        live = os.path.join(os.environ["BOOKRUN_SESSION"], "live")
        for name in ("output", "running"):
            os.replace(os.path.join(live, name), os.path.join(live, name + ".old"))
            os.symlink({str(secret)!r}, os.path.join(live, name))

        ctypes.string_at(0)
        """})
    with pytest.raises(ExecutionError) as err:
        book.build()
    assert "the session died (signal SIGSEGV)" in str(err.value)
    assert "HOST-SECRET-LINE" not in str(err.value)
