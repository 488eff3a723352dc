"""The author's loop under `mkdocs serve`: seconds from a save to the served page.

    python benchmarks/bench_serve.py [CHAPTER] [--dirty]

Clones the repository into a temporary folder (with the local figure and notebook
caches, so the first build reuses records), measures the chapter's own execution
time, then starts `mkdocs serve` there and saves three edits: a line printed by the
chapter's last snippet (twice: the first save runs the chapter from its start, since
serve began from the committed records; the second resumes the session kept before
that snippet), and one sentence of prose. For each it prints the seconds until the
served page shows the change, how many builds the save started, and the server's CPU
seconds (the server's and its children's).
`--dirty` serves with `--dirty --no-strict` (MkDocs warns on every dirty build, and
strict mode turns that warning into a failed build).
"""
import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url: str) -> str:
    try:
        return urllib.request.urlopen(url, timeout=600).read().decode()
    except OSError:
        return ""


def seconds_until(url: str, marker: str, since: float, limit: float = 600) -> float:
    while time.perf_counter() - since < limit:
        if marker in fetch(url):
            return time.perf_counter() - since
        time.sleep(0.05)
    raise SystemExit(f"{url} never showed {marker!r} within {limit:g} s")


def cpu_seconds(pid: int) -> float:
    """CPU time of a process and its finished children: unlike wall time, it does not
    grow when other work shares the machine."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def kept_sessions_cpu(clone: Path) -> dict[int, float]:
    """CPU seconds of each chapter session serve keeps (bookrun.execute.worker.checkpoint), with the
    resumed runs they forked: those are not serve's children, so its own count misses
    them."""
    found = {}
    for proc in Path("/proc").iterdir():
        try:
            cmd = (proc / "cmdline").read_bytes()
            if b"bookrun.execute.worker" in cmd and str(clone).encode() in cmd:
                found[int(proc.name)] = cpu_seconds(int(proc.name))
        except (OSError, ValueError):
            continue
    return found


def builds(log: Path) -> int:
    return log.read_text().count("Building documentation")


def settle(log: Path, quiet: float = 3.0) -> None:
    """Wait until the log has not grown for `quiet` seconds: no build is running."""
    size, still = -1, time.perf_counter()
    while time.perf_counter() - still < quiet:
        now = log.stat().st_size
        if now != size:
            size, still = now, time.perf_counter()
        time.sleep(0.1)


def main() -> None:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # still stop the server, clean up
    ap = argparse.ArgumentParser()
    ap.add_argument("chapter", nargs="?", default="bandits")
    ap.add_argument("--dirty", action="store_true")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-serve-"))
    server = None
    try:
        clone = work / "book"
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
        for cache in ("bookrun", "mkdocs-jupyter"):
            if (ROOT / ".cache" / cache).is_dir():
                shutil.copytree(ROOT / ".cache" / cache, clone / ".cache" / cache,
                                ignore=shutil.ignore_patterns("scratch"))
        env = dict(os.environ, PYTHONPATH=str(clone), NO_MKDOCS_2_WARNING="1")

        # The chapter's own execution time, measured now, on this machine.
        probe = ("import sys, time; from pathlib import Path; from bookrun.store.book import Book\n"
                 "b = Book(root=Path(sys.argv[1])); c = b.chapter(sys.argv[2])\n"
                 "t = time.perf_counter(); r = b.run(c)\n"
                 "import resource; u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
                 "print(time.perf_counter() - t, u.ru_utime + u.ru_stime, c.page.name, "
                 "c.steps[-1].snippet)")
        out = subprocess.run([sys.executable, "-c", probe, str(clone), args.chapter], env=env,
                             cwd=clone, check=True, capture_output=True, text=True).stdout
        execution, execution_cpu, page_name, last = out.split()
        execution, execution_cpu = float(execution), float(execution_cpu)
        shutil.rmtree(clone / ".cache" / "bookrun" / "scratch", ignore_errors=True)

        port, log = free_port(), work / "serve.log"
        cmd = [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"]
        if args.dirty:
            cmd += ["--dirty", "--no-strict"]
        with log.open("w") as sink:
            server = subprocess.Popen(cmd, cwd=clone, env=env, stdout=sink,
                                      stderr=subprocess.STDOUT)
        # Served under the path of site_url, as `mkdocs serve` does (the book's comes from
        # BOOK_SITE_URL, unset here: served at the root).
        site_url = (re.search(r"^site_url:\s*(https?://\S+)", (clone / "mkdocs.yml").read_text(),
                              re.M) or re.match(r"(https?://\S+)", env.get("BOOK_SITE_URL", "")))
        mount = urlsplit(site_url.group(1)).path.rstrip("/") if site_url else ""
        url = f"http://127.0.0.1:{port}{mount}/{Path(page_name).stem}/"
        t0 = time.perf_counter()
        seconds_until(url, f"snippets/{last}", t0)
        settle(log)
        print(f"first build served after {time.perf_counter() - t0:.1f} s "
              f"({builds(log)} build)")

        def timed_save(label, path, marker, text):
            """Seconds until the served page shows `marker` (with no marker: until the
            build ends), builds, server CPU seconds."""
            before, cpu = builds(log), cpu_seconds(server.pid)
            kept = kept_sessions_cpu(clone)
            t = time.perf_counter()
            path.write_text(text)
            if marker:
                took = seconds_until(url, marker, t)
            else:
                while "Documentation built" not in log.read_text().rsplit(
                        "Building documentation", 1)[-1] or builds(log) == before:
                    time.sleep(0.05)
                took = time.perf_counter() - t
            settle(log)
            cpu = cpu_seconds(server.pid) - cpu + sum(
                s - kept.get(pid, 0.0) for pid, s in kept_sessions_cpu(clone).items())
            return label, took, builds(log) - before, cpu

        snippet, page = clone / "snippets" / last, clone / "docs" / page_name
        # After a blank line: the snippet may end in an indented block.
        original = snippet.read_text()
        results = [
            timed_save("snippet save", snippet, "bench-snippet-marker-1",
                       original + "\nprint('bench-snippet-marker-1')\n"),
            timed_save("again", snippet, "bench-snippet-marker-2",
                       original + "\nprint('bench-snippet-marker-2')\n"),
            timed_save("prose save", page, "bench-prose-marker-3",
                       page.read_text() + "\nbench-prose-marker-3\n"),
            # The same bytes saved again: a rebuild with nothing to convert, the floor
            # MkDocs sets (it renders every page's theme template on every rebuild).
            timed_save("no change", page, None, page.read_text()),
        ]

        mode = "serve --dirty --no-strict" if args.dirty else "serve"
        print(f"chapter {args.chapter} ({page_name}): executes in {execution:.1f} s on its own "
              f"({execution_cpu:.1f} s CPU)")
        for what, took, count, cpu in results:
            print(f"{mode}: {what:<12} shown after {took:5.1f} s, {count} build(s), "
                  f"{cpu:5.1f} s CPU")
        for (what, took, _, cpu) in results[:2]:
            print(f"{what} minus the chapter's execution: {took - execution:+.1f} s wall, "
                  f"{cpu - execution_cpu:+.1f} s CPU (target <= +1.5 s)")
        print(f"prose save: {results[2][1]:.1f} s wall, {results[2][3]:.1f} s CPU "
              f"(target <= 2 s); MkDocs' floor, a rebuild with nothing changed: "
              f"{results[3][1]:.1f} s wall, {results[3][3]:.1f} s CPU")
        print(f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        built = [ln.split("built in ")[1] for ln in log.read_text().splitlines()
                 if "Documentation built in" in ln]
        print(f"build times reported by MkDocs: {', '.join(built)}")
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
