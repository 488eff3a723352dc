"""One key for what decides a chapter's outputs, and serve's resume keys derived from it.

A chapter's outputs are decided by: how snippets are run and captured (declared by
the number EXECUTION_PROTOCOL in bookrun.execute.worker.protocol_version, which is bumped
when the worker's code changes in a way that can change outputs; `worker_digest` is the
syntax tree of that code, pinned to the number by a test, so a comment, a reformatting
or a refactoring that keeps the number leaves every record fresh), the
environment the session starts with (WORKER_ENV: hash seed, thread counts, SVG dates),
the book's figure style file, and, in page order, each snippet's path, its bytes, the
options on its `@run` line and the `{{ }}` bindings evaluated after it.

A record is stamped with the chapter's key; a build reuses a record whose stamp equals
the key now. Library versions and the CPU are deliberately left out: a record is reused
on any machine, and `check` re-executes to judge whether this machine prints the same.

`step_keys` gives the running hash before each step: everything the session's state at
that step depends on; the last one, after every step, is the chapter's key. `mkdocs
serve` names the sessions it keeps (bookrun.execute.worker.checkpoint) by `resume_keys`:
those hashes with the worker's code, since a kept session runs the code it started with.
"""
from __future__ import annotations

import ast
import hashlib
import json
from pathlib import Path

from bookrun.execute.worker.protocol_version import EXECUTION_PROTOCOL
from bookrun.parse import controls as interactive
from bookrun.parse import syntax
from bookrun.model.page import Chapter

WORKER = Path(__file__).resolve().parent.parent / "execute" / "worker"
# Not part of what the number stands for: the number itself.
NOT_PROTOCOL = {"protocol_version.py"}


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


def worker_digest(folder: Path = WORKER) -> str:
    """The syntax trees of every module of the worker package (the session's code,
    frames included), as hex: what EXECUTION_PROTOCOL stands for. Not in any key;
    tests/execute/test_protocol_pin.py pins it per protocol number.

        python -c "from bookrun.store.key import worker_digest; print(worker_digest())"
    """
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*.py")):
        name = path.relative_to(folder).as_posix()
        if name in NOT_PROTOCOL:
            continue
        h.update(name.encode() + b"\0" + code_digest(path.read_text(encoding="utf-8")))
    return h.hexdigest()


def step_keys(chapter: Chapter, snippets_root: Path, style: Path, env: dict) -> list[str]:
    """keys[k] decides the session's state before step k; keys[-1] every output."""
    h = hashlib.sha256()
    h.update(f"execution protocol {EXECUTION_PROTOCOL}\0".encode())
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
        if controls:  # an interactive figure: its controls (the frames code is the protocol's)
            h.update(controls)
    keys.append(h.hexdigest())
    return keys


def resume_keys(chapter: Chapter, snippets_root: Path, style: Path, env: dict) -> list[str]:
    """Serve's names for the sessions it keeps before each step: the step keys, and the
    worker's code itself. A kept session is a live process running the code it started
    with, so one kept under an earlier worker is never resumed after an engine edit,
    whether or not the edit bumped EXECUTION_PROTOCOL."""
    code = worker_digest()
    return [hashlib.sha256(f"{code}\0{k}".encode()).hexdigest()
            for k in step_keys(chapter, snippets_root, style, env)[:-1]]
