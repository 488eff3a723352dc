"""The whole book: find chapters, reuse fresh records, execute stale ones, check."""
from __future__ import annotations

import difflib
import os
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from .page import Chapter, read_chapter
from .prose import unexplained_numbers
from .record import ROOT, Record, read_if_valid, record_path, sha256, stamp, versions, write_atomic
from .session import DEFAULT_TIMEOUT, ExecutionError, Executed, execute


@dataclass
class Book:
    root: Path = ROOT
    docs_dir: Path | None = None
    snippets_root: Path | None = None
    cache: Path | None = None
    timeout: float = DEFAULT_TIMEOUT
    jobs: int = os.cpu_count() or 2
    log = staticmethod(lambda msg: print(msg, file=sys.stderr, flush=True))

    def __post_init__(self):
        self.docs_dir = Path(self.docs_dir or self.root / "docs")
        self.snippets_root = Path(self.snippets_root or self.root / "snippets")
        self.cache = Path(self.cache or self.root / ".cache" / "bookrun")

    # -- finding chapters -------------------------------------------------------------
    def chapters(self) -> list[Chapter]:
        found = []
        for page in sorted(self.docs_dir.rglob("*.md")):
            shown = os.path.relpath(page, self.root)
            chapter = read_chapter(page, self.snippets_root, shown_as=shown)
            if chapter:
                found.append(chapter)
        for c in found:
            users = [os.path.relpath(o.page, self.root) for o in found if o.name == c.name]
            if len(users) > 1:
                raise ExecutionError(f"snippets/{c.name}/ is used by more than one page: "
                                     f"{', '.join(users)}")
        return found

    def chapter(self, name: str) -> Chapter:
        for c in self.chapters():
            if c.name == name or c.page.stem == name:
                return c
        raise SystemExit(f"no chapter named {name!r}")

    def figure_dir(self, name: str) -> Path:
        return self.cache / "figures" / name

    # -- records --------------------------------------------------------------------
    def fresh_record(self, chapter: Chapter) -> Record | None:
        """The committed record if it matches the code and its figures are cached."""
        rec = read_if_valid(record_path(chapter.name, self.snippets_root))
        if rec is None or rec.stamp != stamp(chapter, self.snippets_root):
            return None
        figs = self.figure_dir(chapter.name)
        for s in rec.snippets:
            for f in s["figures"]:
                path = figs / f["name"]
                if not path.is_file() or sha256(path) != f["sha256"]:
                    return None
        return rec

    def _record_of(self, chapter: Chapter, run: Executed) -> Record:
        snippets, values = [], {}
        for step, res in zip(chapter.steps, run.steps):
            snippets.append({
                "snippet": step.snippet,
                "output": res["output"],
                "figures": [{"name": n, "sha256": sha256(run.figdir / n)} for n in res["figures"]],
            })
            values.update(res["values"])
        return Record(chapter.name, stamp(chapter, self.snippets_root), versions(), snippets, values)

    def _install_figures(self, chapter: Chapter, run: Executed) -> None:
        target = self.figure_dir(chapter.name)
        target.parent.mkdir(parents=True, exist_ok=True)
        old = target.with_name(target.name + ".old")
        shutil.rmtree(old, ignore_errors=True)
        if target.exists():
            target.rename(old)
        if run.figdir.exists():
            shutil.move(str(run.figdir), str(target))
        else:
            target.mkdir()
        shutil.rmtree(old, ignore_errors=True)

    def _commit(self, chapter: Chapter, run: Executed) -> Record:
        rec = self._record_of(chapter, run)
        # Figures first: if interrupted before the record is replaced, the old
        # record's figure hashes no longer match and the chapter runs again.
        self._install_figures(chapter, run)
        write_atomic(record_path(chapter.name, self.snippets_root), rec.to_json().encode())
        return rec

    # -- running ------------------------------------------------------------------
    def _execute_all(self, chapters, task):
        """Run `task(chapter)` in parallel; raise one error naming every failure."""
        errors, results = [], {}

        def one(ch):
            t0 = time.perf_counter()
            try:
                results[ch.name] = task(ch)
            except ExecutionError as exc:
                errors.append(str(exc))
                self.log(f"bookrun: {ch.name:<18} FAILED after {time.perf_counter() - t0:.1f} s")

        with ThreadPoolExecutor(max_workers=max(1, self.jobs)) as pool:
            list(pool.map(one, chapters))
        if errors:
            raise ExecutionError("\n\n".join(sorted(errors)))
        return results

    def run(self, chapter: Chapter) -> Executed:
        return execute(chapter, self.root, self.snippets_root, self.cache / "scratch", self.timeout)

    def build(self, chapters=None, force=False) -> dict[str, Record]:
        """Reuse fresh records; execute (and record) the rest."""
        chapters = self.chapters() if chapters is None else chapters

        def task(ch):
            t0 = time.perf_counter()
            rec = None if force else self.fresh_record(ch)
            verb = "reused record"
            if rec is None:
                run = self.run(ch)
                rec, verb = self._commit(ch, run), "executed"
                shutil.rmtree(run.workdir, ignore_errors=True)
            self.log(f"bookrun: {ch.name:<18} {verb} in {time.perf_counter() - t0:.1f} s")
            return rec

        return self._execute_all(chapters, task)

    def check(self, chapters=None) -> list[str]:
        """Execute every chapter fresh; return readable diffs against the records."""
        chapters = self.chapters() if chapters is None else chapters

        def task(ch):
            t0 = time.perf_counter()
            run = self.run(ch)
            got = self._record_of(ch, run)
            expected = read_if_valid(record_path(ch.name, self.snippets_root))
            where = os.path.relpath(record_path(ch.name, self.snippets_root), self.root)
            page = os.path.relpath(ch.page, self.root)
            problems = compare(ch, expected, got, where, page)
            problems += unexplained_numbers(ch, got, self.snippets_root, page)
            if not problems:
                self._install_figures(ch, run)  # identical: a later build can reuse them
            shutil.rmtree(run.workdir, ignore_errors=True)
            verdict = "matches its record" if not problems else "DIFFERS from its record"
            self.log(f"bookrun: {ch.name:<18} {verdict} ({time.perf_counter() - t0:.1f} s)")
            return problems

        found = self._execute_all(chapters, task)
        return [p for ch in chapters for p in found[ch.name]]


def compare(chapter: Chapter, expected: Record | None, got: Record, where: str,
            page: str | None = None) -> list[str]:
    if expected is None:
        return [f"{where}: missing or unreadable record"]
    problems = []
    if expected.versions != got.versions:
        problems.append(f"{where}: recorded with {expected.versions}, running {got.versions}")
    old = {s["snippet"]: s for s in expected.snippets}
    for s in got.snippets:
        name = f"snippets/{s['snippet']}"
        e = old.get(s["snippet"])
        if e is None:
            problems.append(f"{name}: not in the record")
            continue
        if e["output"] != s["output"]:
            diff = difflib.unified_diff(e["output"].splitlines(), s["output"].splitlines(),
                                        "expected (record)", "got (fresh run)", lineterm="")
            problems.append(f"{name}: output differs\n" + "\n".join(diff))
        if [f["sha256"] for f in e["figures"]] != [f["sha256"] for f in s["figures"]]:
            problems.append(f"{name}: figures differ: expected "
                            f"{[f['name'] for f in e['figures']]}, got "
                            f"{[f['name'] for f in s['figures']]} (or their bytes changed)")
    for body, text in got.values.items():
        if expected.values.get(body) != text:
            problems.append(f"{page or chapter.page}: {{{{ {body} }}}} expected "
                            f"{expected.values.get(body)!r}, got {text!r}")
    gone = set(old) - {s["snippet"] for s in got.snippets}
    if gone:
        problems.append(f"{where}: records snippets no longer on the page: {sorted(gone)}")
    return problems
