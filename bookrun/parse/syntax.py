"""Python's parser behind one lock, for the engine's threads.

CPython 3.11 keeps the counter that guards building a syntax tree in state shared by all
threads. Two threads parsing at once (a book keys its chapters in a thread pool) can
then fail with "SystemError: AST constructor recursion depth mismatch"; seen on CI, and
reproduced by tests/engine/test_syntax.py with the lock taken away. Every parse in the engine's own process goes
through here; the worker parses snippets in a process of its own.
"""
from __future__ import annotations

import ast
import threading

_LOCK = threading.RLock()


def parse(source: str, mode: str = "exec") -> ast.AST:
    with _LOCK:
        return ast.parse(source, mode=mode)


def literal(text: str):
    """ast.literal_eval of `text`, parsed under the lock."""
    return ast.literal_eval(parse(text.strip(), mode="eval"))
