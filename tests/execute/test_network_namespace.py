"""A sandboxed build inside a network namespace of the test's own, where a fake public
address really answers (issue 33): a snippet's child process cannot reach it, cannot
write outside its scratch, sees none of the planted variables and no process of the
host. The same probe run unconfined in that namespace does reach it, so the test can
fail.

The namespace is made here (root and iproute2 needed) and holds only its loopback
interface, which also carries 198.51.100.7 (TEST-NET-2, documentation space; a kernel
without the dummy interface type is common): no packet leaves this machine."""
import json
import os
import shutil
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import pytest

from bookrun.execute import sandbox

ROOT = Path(__file__).resolve().parents[2]
ADDRESS, PORT = "198.51.100.7", 8765
SECRET = "fake-token-for-the-namespace-test"

pytestmark = [
    pytest.mark.skipif(os.geteuid() != 0 or shutil.which("ip") is None,
                       reason="making a network namespace needs root and iproute2's ip"),
    pytest.mark.skipif(sandbox.bubblewrap() is None, reason="no working bubblewrap here"),
]

# What the snippet tries: a raw connection from a child process (no Python-level guard
# there), a write beside the book, the planted variable, and the host's listener.
PROBE = textwrap.dedent(f"""\
    import json, os, socket, sys
    found = {{}}
    try:
        socket.create_connection(("{ADDRESS}", {PORT}), timeout=3).close()
        found["connected"] = True
    except OSError as exc:
        found["connected"] = False
    try:
        with open(sys.argv[1], "w") as f:
            f.write("escaped")
        found["wrote"] = True
    except OSError:
        found["wrote"] = False
    found["secret"] = "{SECRET}" in json.dumps(dict(os.environ))
    def command_line(pid):
        try:
            with open(f"/proc/{{pid}}/cmdline", "rb") as f:
                return f.read()
        except OSError:  # ended meanwhile
            return b""
    found["listener"] = any(b"LISTENER" in command_line(p)
                            for p in os.listdir("/proc") if p.isdigit())
    print(json.dumps(found, sort_keys=True))
    """)

LISTENER = textwrap.dedent(f"""\
    import socket, sys  # LISTENER: the snippet looks for this word in /proc
    server = socket.create_server(("{ADDRESS}", {PORT}))
    print("ready", flush=True)
    while True:
        conn, _ = server.accept()
        sys.stdout.write("connection\\n"); sys.stdout.flush()
        conn.close()
    """)

BUILD = textwrap.dedent("""\
    import sys
    from bookrun.store.book import Book
    book = Book(root=sys.argv[1], timeout=60.0)
    print(book.build()["demo"].output("a.py"), end="")
    """)


@pytest.fixture
def namespace():
    name = f"bookrun-test-{uuid.uuid4().hex[:8]}"
    ns = ["ip", "netns", "exec", name]
    steps = [["ip", "netns", "add", name],
             [*ns, "ip", "addr", "add", f"{ADDRESS}/32", "dev", "lo"],
             [*ns, "ip", "link", "set", "lo", "up"]]
    listener = None
    try:
        for step in steps:
            subprocess.run(step, check=True, capture_output=True, timeout=20)
        listener = subprocess.Popen([*ns, sys.executable, "-c", LISTENER],
                                    stdout=subprocess.PIPE, text=True)
        assert listener.stdout.readline().strip() == "ready"
        yield ns, listener
    finally:  # also after a failed test: no listener outlives it in a deleted namespace
        if listener is not None:
            listener.kill()
            listener.wait(timeout=10)
        subprocess.run(["ip", "netns", "delete", name], capture_output=True, timeout=20)


def probe_book(tmp_path: Path, outside: Path) -> Path:
    (tmp_path / "docs").mkdir(parents=True)
    (tmp_path / "docs" / "demo.md").write_text("# Demo\n@run demo/a.py\n")
    (tmp_path / "snippets" / "demo").mkdir(parents=True)
    (tmp_path / "probe.py").write_text(PROBE)
    (tmp_path / "snippets" / "demo" / "a.py").write_text(
        "import subprocess, sys\n"
        f"_ = subprocess.run([sys.executable, {str(tmp_path / 'probe.py')!r}, "
        f"{str(outside)!r}])\n")
    return tmp_path


def test_in_its_own_namespace_a_snippet_reaches_no_address_path_variable_or_process(
        tmp_path, namespace):
    ns, listener = namespace
    outside = tmp_path / "outside" / "escape.txt"
    outside.parent.mkdir()
    book = probe_book(tmp_path / "book", outside)
    env = dict(os.environ, GITHUB_TOKEN=SECRET, PYTHONPATH=str(ROOT))

    # Unconfined, in the same namespace: the address answers and the file is written.
    plain = subprocess.run([*ns, sys.executable, str(book / "probe.py"), str(outside)],
                           env=env, capture_output=True, text=True, timeout=30)
    assert json.loads(plain.stdout) == {"connected": True, "wrote": True, "secret": True,
                                        "listener": True}
    assert listener.stdout.readline().strip() == "connection"
    outside.unlink()

    built = subprocess.run([*ns, sys.executable, "-c", BUILD, str(book)], env=env,
                           capture_output=True, text=True, timeout=90)
    assert built.returncode == 0, built.stderr[-2000:]
    assert json.loads(built.stdout) == {"connected": False, "wrote": False, "secret": False,
                                        "listener": False}
    assert not outside.exists()
