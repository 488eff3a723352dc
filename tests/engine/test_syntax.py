"""The engine's parses are safe from threads (CPython 3.11 shares the parser's depth guard)."""
import sys
import threading
from pathlib import Path

from bookrun.parse import syntax
from bookrun.store.key import code_digest

SOURCE = (Path(__file__).resolve().parents[2] / "bookrun" / "execute" / "worker" / "checkpoint.py").read_text()


class Cyclic:
    """Garbage only the collector frees, whose finalizer runs Python mid-parse (a thread switch)."""

    def __del__(self):
        sum(range(20))


# Rounds each thread parses. Without the lock (ast.parse and ast.literal_eval), on
# CPython 3.11.7, every one of 30 runs of 3 rounds raised SystemError, most in a thread's
# first round; 10 rounds leave a margin and take a second or so (150 took 7 s).
ROUNDS = 10


def hammer(parse, literal, errors):
    def work():
        try:
            for _ in range(ROUNDS):
                for _ in range(30):
                    a, b = Cyclic(), Cyclic()
                    a.other, b.other = b, a
                parse(SOURCE)
                literal("[1, (2, 3.0)]")
        except SystemError as exc:
            errors.append(exc)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
    finally:
        sys.setswitchinterval(old)


def test_engine_parses_survive_threads():
    """With ast.parse and ast.literal_eval in place of these two, this fails in well under
    a second on CPython 3.11.7 (3 of 4 threads raise SystemError, most in their first round)."""
    errors = []
    hammer(code_digest, syntax.literal, errors)
    assert errors == []
