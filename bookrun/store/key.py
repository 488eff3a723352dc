"""One key for what decides a chapter's outputs, and serve's resume keys derived from it.

A chapter's outputs are decided by: how snippets are run and captured (the worker's
code, compared as syntax trees, so a comment or a reformatting changes nothing), the
environment the session starts with (WORKER_ENV: hash seed, thread counts, SVG dates),
the book's figure style file, and, in page order, each snippet's path, its bytes, the
options on its `@run` line and the `{{ }}` bindings evaluated after it.

A record is stamped with the chapter's key; a build reuses a record whose stamp equals
the key now. Library versions and the CPU are deliberately left out: a record is reused
on any machine, and `check` re-executes to judge whether this machine prints the same.

`step_keys` gives the running hash before each step: everything the session's state at
that step depends on. `mkdocs serve` names the sessions it keeps by those
(bookrun.execute.worker.checkpoint), and the last one, after every step, is the chapter's key.
"""
from __future__ import annotations

import ast
import hashlib
import json
from pathlib import Path

from bookrun.parse import controls as interactive
from bookrun.parse import syntax
from bookrun.model.page import Chapter

WORKER = Path(__file__).resolve().parent.parent / "execute" / "worker"
# The session's own code: the worker and what it imports from bookrun.
ENGINE = ("loop.py", "capture.py", "checkpoint.py", "processes.py", "protocol.py", "state.py")


def _without_docstrings(tree: ast.AST) -> ast.AST:
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(body, list) and body and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            node.body = body[1:] or [ast.Pass()]
    return tree


def code_digest(source: str) -> bytes:
    """Python source as its syntax tree: comments, docstrings and layout do not count."""
    tree = _without_docstrings(syntax.parse(source))
    return hashlib.sha256(ast.dump(tree, annotate_fields=False).encode()).digest()


def engine_digest() -> bytes:
    h = hashlib.sha256()
    for name in ENGINE:
        h.update(name.encode() + b"\0" + code_digest((WORKER / name).read_text(encoding="utf-8")))
    return h.digest()


def step_keys(chapter: Chapter, snippets_root: Path, style: Path, env: dict) -> list[str]:
    """keys[k] decides the session's state before step k; keys[-1] every output."""
    h = hashlib.sha256()
    h.update(engine_digest())
    h.update(json.dumps(env, sort_keys=True).encode())
    h.update(style.read_bytes() if style.is_file() else b"")
    keys = []
    for step in chapter.steps:
        keys.append(h.hexdigest())
        h.update(step.snippet.encode() + b"\0")
        h.update((snippets_root / step.snippet).read_bytes() + b"\0")
        h.update(json.dumps(step.options, sort_keys=True).encode())
        h.update(json.dumps([b.body for b in step.bindings]).encode())
        controls = interactive.stamp(step)
        if controls:  # an interactive figure: its controls and the code recording frames
            h.update(controls + code_digest((WORKER / "frames.py").read_text(encoding="utf-8")))
    keys.append(h.hexdigest())
    return keys
