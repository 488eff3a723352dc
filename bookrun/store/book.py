"""The whole book: find chapters, reuse fresh records, execute stale ones, check."""
from __future__ import annotations

import difflib
import os
import shutil
import signal
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

from bookrun import config as book_config
from bookrun.store import frames_check
from bookrun.config import BookConfig
from bookrun.store.check import same_drawing
from bookrun.store.key import resume_keys, step_keys
from bookrun.errors import UnknownChapter
from bookrun.model.page import (Chapter, ExecutionError, FigureFile, PageError, RecordError, Run,
                    SnippetRecord)
from bookrun.parse.chapter import ChapterDoc, read_page
from bookrun.parse.front_matter import chapter_number, nav_titles
from bookrun.store import session_files
from bookrun.store.audit import unexplained_numbers
from bookrun.store.width import too_wide
from bookrun.store.records import (Record, figures_path, read_if_present, read_record, record_path, release,
                     sha256, versions, write_atomic)
from bookrun.execute import session
from bookrun.execute.session import WORKER_ENV, SessionPolicy, execute


@dataclass
class Book:
    root: Path
    config: BookConfig | None = None  # None: read from mkdocs.yml at the root
    docs_dir: Path | None = None
    snippets_root: Path | None = None
    cache: Path | None = None
    timeout: float | None = None  # None: the config's
    frozen: bool = False  # a stale record is an error, never re-executed (publishing)
    jobs: int = os.cpu_count() or 2
    # Serve only: keep each chapter's session at its snippet boundaries in this folder,
    # and re-run a chapter from its first edited snippet (bookrun.execute.worker.checkpoint).
    checkpoints: Path | None = None
    log = staticmethod(lambda msg: print(msg, file=sys.stderr, flush=True))
    # What the author should fix though the build goes on (a line too wide for the page);
    # the MkDocs host makes it a warning, which a strict build counts.
    warn = staticmethod(lambda msg: print(f"bookrun: warning: {msg}", file=sys.stderr,
                                          flush=True))

    def __post_init__(self):
        self.root = Path(self.root).absolute()  # "." too: the worker runs elsewhere
        docs = self.root / "docs"
        if self.config is None:
            self.config, docs = book_config.load(self.root)
        self.docs_dir = Path(self.docs_dir or docs)
        self.snippets_root = Path(self.snippets_root or self.root / self.config.snippets_dir)
        self.cache = Path(self.cache or self.root / ".cache" / "bookrun")
        self.timeout = float(self.timeout or self.config.timeout)

    @property
    def style(self) -> Path:
        return self.root / self.config.style

    def key(self, chapter: Chapter) -> str:
        """What decides the chapter's outputs (bookrun.store.key): a record's stamp."""
        return step_keys(chapter, self.snippets_root, self.style, WORKER_ENV)[-1]

    def has_notebook(self, chapter: Chapter) -> bool:
        return chapter.name not in self.config.no_notebook

    # -- finding chapters -------------------------------------------------------------
    def chapters(self, broken: dict[Path, str] | None = None) -> list[Chapter]:
        """Every page with `@run` lines. A page error is raised, or, given `broken`
        (serve), kept there under the page's path and the page left out."""
        return [doc.chapter for doc in self.documents(broken)]

    def documents(self, broken: dict[Path, str] | None = None) -> list[ChapterDoc]:
        """Every page with `@run` lines, each read and parsed once (bookrun.parse.chapter):
        what the renderer splices, beside the chapter that runs. When the book numbers
        figures, each knows its chapter's number (front matter, else nav title)."""
        found = []
        titles = nav_titles(book_config.read_site_config(self.root).get("nav"))
        for page in sorted(self.docs_dir.rglob("*.md")):
            shown = os.path.relpath(page, self.root)
            try:
                doc = read_page(page, self.snippets_root, shown, self.config.min_alt_words)
            except PageError as exc:
                if broken is None:
                    raise
                broken[page.resolve()] = str(exc)
                continue
            if doc and self.config.number_figures:
                title = titles.get(page.relative_to(self.docs_dir).as_posix())
                doc = replace(doc, chapter_number=chapter_number(doc.meta, title))
            if doc:
                found.append(doc)
        for c in (d.chapter for d in found):
            users = [os.path.relpath(o.chapter.page, self.root) for o in found
                     if o.chapter.name == c.name]
            if len(users) > 1:
                raise ExecutionError(f"snippets/{c.name}/ is used by more than one page: "
                                     f"{', '.join(users)}")
        return found

    def chapter(self, name: str) -> Chapter:
        found = self.chapters()
        for c in found:
            if c.name == name or c.page.stem == name:
                return c
        raise UnknownChapter(f"no chapter named {name!r}; the book's chapters (snippet "
                             f"folders): {', '.join(c.name for c in found) or 'none'}")

    def too_wide(self, chapter: Chapter, record: Record, figures: Path | None = None) -> list[str]:
        """The chapter's snippets that show a line wider than the page's output block
        (the `max_output_width` option; none when it is 0), their frames' lines read from
        `figures` (the committed figures unless given)."""
        return too_wide(chapter, record, self.config.max_output_width,
                        os.path.relpath(chapter.page, self.root),
                        os.path.relpath(self.snippets_root, self.root),
                        figures or self.figure_dir(chapter.name))

    def figure_dir(self, name: str) -> Path:
        """Committed beside the record, so a fresh clone builds without executing."""
        return figures_path(name, self.snippets_root)

    # -- records --------------------------------------------------------------------
    def fresh_record(self, chapter: Chapter) -> Record | None:
        """The committed record if it matches the code and its figures are in place.

        A record edited by hand or corrupt raises RecordError, frozen build or not: only
        `update` replaces it, so nobody's edit is published or silently thrown away."""
        path = record_path(chapter.name, self.snippets_root)
        rec = read_if_present(path, os.path.relpath(path, self.root))
        if rec is None or rec.stamp != self.key(chapter):
            return None
        # Each file read as data (bookrun.store.session_files): one that is not (a
        # symbolic link, an SVG with a script) raises RecordError rather than be published.
        figs = self.figure_dir(chapter.name)
        if not session_files.committed(chapter, rec, figs, os.path.relpath(figs, self.root)):
            return None
        return rec

    def _record_of(self, chapter: Chapter, run: Run) -> Record:
        snippets = []
        for step, res in zip(chapter.steps, run.steps):
            figures = tuple(FigureFile(n, sha256(run.figdir / n)) for n in res.figures)
            # Each snippet keeps the values bound after it: a body the prose repeats after
            # two snippets may have two values.
            snippets.append(SnippetRecord(step.snippet, res.output, figures, res.frames,
                                          dict(res.values)))
        return Record(chapter.name, self.key(chapter), versions(self.config.libraries),
                      tuple(snippets), run.platform)

    def _install_figures(self, chapter: Chapter, run: Run) -> None:
        target = self.figure_dir(chapter.name)
        target.parent.mkdir(parents=True, exist_ok=True)
        old = target.with_name(target.name + ".old")
        shutil.rmtree(old, ignore_errors=True)
        if target.exists():
            target.rename(old)
        if run.figdir.exists() and any(run.figdir.iterdir()):
            shutil.move(str(run.figdir), str(target))
        shutil.rmtree(old, ignore_errors=True)

    def _commit(self, chapter: Chapter, run: Run) -> Record:
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

        pool = ThreadPoolExecutor(max_workers=max(1, self.jobs))
        try:
            list(pool.map(one, chapters))
        except KeyboardInterrupt:
            # A second Ctrl-C must not cut the cleanup short: the sessions end, each
            # thread removes its scratch, and only whole records were written.
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
            try:
                session.stop_all()
                pool.shutdown(wait=True, cancel_futures=True)
            finally:
                signal.signal(signal.SIGINT, previous)
            raise Interrupted(sorted(results), sorted(c.name for c in chapters
                                                      if c.name not in results)) from None
        pool.shutdown(wait=True)
        if errors:  # one that every chapter met (the sandbox cannot start) said once
            raise ExecutionError("\n\n".join(sorted(set(errors))))
        return results

    def run(self, chapter: Chapter) -> Run:
        keys = (resume_keys(chapter, self.snippets_root, self.style, WORKER_ENV)
                if self.checkpoints is not None else None)
        run = execute(chapter, self.root, self.snippets_root, self.cache / "scratch", self.timeout,
                      self.checkpoints, keys, self.config.fingerprint,
                      self.config.memory_gb,
                      SessionPolicy(self.config.sandbox, self.config.disk_mb,
                                    self.config.pass_env))
        # The session's files, checked and copied into a folder of the host's own
        # (bookrun.store.session_files): all that is recorded, compared or shown from here.
        try:
            return session_files.take(chapter, run, self.cache / "taken",
                                      os.path.relpath(self.snippets_root, self.root),
                                      os.path.relpath(chapter.page, self.root))
        finally:
            shutil.rmtree(run.workdir, ignore_errors=True)

    def build(self, chapters=None, force=False) -> dict[str, Record]:
        """Reuse fresh records; execute (and record) the rest."""
        chapters = self.chapters() if chapters is None else chapters

        def task(ch):
            t0 = time.perf_counter()
            try:
                rec = None if force else self.fresh_record(ch)
            except RecordError as exc:
                raise ExecutionError(str(exc)) from None
            verb = "reused record"
            if rec is None and self.frozen:
                raise ExecutionError(f"{os.path.relpath(record_path(ch.name, self.snippets_root), self.root)}"
                                     ": stale or missing (frozen build: run `python -m bookrun "
                                     "update` and commit the record and its _figures/)")
            if rec is None:
                run = self.run(ch)
                rec, verb = self._commit(ch, run), "executed"
                shutil.rmtree(run.workdir, ignore_errors=True)
            self.log(f"bookrun: {ch.name:<18} {verb} in {time.perf_counter() - t0:.1f} s")
            for warning in self.too_wide(ch, rec):  # a reused record too: the page shows it
                self.warn(warning)
            return rec

        return self._execute_all(chapters, task)

    def check(self, chapters=None) -> "Checked":
        """Execute every chapter fresh and judge it against its committed record."""
        chapters = self.chapters() if chapters is None else chapters

        def task(ch):
            t0 = time.perf_counter()
            run = self.run(ch)
            got = self._record_of(ch, run)
            path = record_path(ch.name, self.snippets_root)
            try:
                expected, unreadable = read_record(path, os.path.relpath(path, self.root)), []
            except RecordError as exc:
                expected, unreadable = None, [str(exc)]
            figures = (self.figure_dir(ch.name), run.figdir)
            problems, notes = compare(ch, expected, got, os.path.relpath(path, self.root),
                                      os.path.relpath(ch.page, self.root), figures)
            problems = unreadable or problems
            wide = self.too_wide(ch, got, run.figdir)  # the fresh frames, before they go
            shutil.rmtree(run.workdir, ignore_errors=True)  # committed figures stay as they are
            # The prose's numbers (the `number_audit` option): they fail the check, but
            # the record matches, so the chapter is not one `update` would fix.
            typed = (unexplained_numbers(ch, got, self.snippets_root,
                                         os.path.relpath(ch.page, self.root))
                     if self.config.number_audit else [])
            verdict = ("matches its record" if not problems else
                       "has a CORRUPT record" if unreadable else "DIFFERS from its record")
            self.log(f"bookrun: {ch.name:<18} {verdict} ({time.perf_counter() - t0:.1f} s)")
            elsewhere = ("" if expected is None or expected.platform == got.platform
                         else platform_difference(expected.platform, got.platform))
            return (problems + typed, notes, got, bool(unreadable), wide, bool(problems),
                    elsewhere)

        found = self._execute_all(chapters, task)
        return Checked([p for ch in chapters for p in found[ch.name][0]],
                       [n for ch in chapters for n in found[ch.name][1]],
                       {ch.name: found[ch.name][2] for ch in chapters},
                       [ch.name for ch in chapters if found[ch.name][5] and not found[ch.name][3]],
                       [ch.name for ch in chapters if found[ch.name][3]],
                       [w for ch in chapters for w in found[ch.name][4]],
                       {ch.name: found[ch.name][6] for ch in chapters
                        if found[ch.name][5] and found[ch.name][6]})


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a run: which chapters had finished (their records written whole)
    and which had not (nothing of them written)."""

    def __init__(self, finished: list[str], stopped: list[str]):
        super().__init__(finished, stopped)
        self.finished, self.stopped = finished, stopped

    def __str__(self) -> str:
        return (f"interrupted: finished {', '.join(self.finished) or 'none'}; stopped "
                f"{', '.join(self.stopped) or 'none'} (nothing of those written)")


@dataclass
class Checked:
    problems: list[str]  # each fails the check
    notes: list[str]  # what a reader of the check should know: other platform, versions
    fresh: dict[str, Record]  # this machine's run of each chapter (the chapter tests read it)
    differing: list[str] = field(default_factory=list)  # chapters whose outputs differ
    corrupt: list[str] = field(default_factory=list)  # chapters whose record cannot be read
    # Lines the fresh run prints wider than the page's output block: reported, never failed.
    too_wide: list[str] = field(default_factory=list)
    # Differing chapters recorded on another platform: chapter -> in what it differs.
    elsewhere: dict[str, str] = field(default_factory=dict)


def compare(chapter: Chapter, expected: Record | None, got: Record, where: str,
            page: str, figures: tuple[Path, Path] | None = None) -> tuple[list[str], list[str]]:
    """Problems and notes. Outputs are the judge; version strings alone never fail.

    Every output must be identical, except that a snippet marked `platform-bound`
    (and the values bound after it) is compared exactly only on the platform that
    recorded it; elsewhere its findings are judged by the chapter's tests. On another
    platform a figure may also differ by the last printed digit of a coordinate
    (drawing.py), when `figures` gives the (recorded, fresh) figure folders.
    """
    if expected is None:
        return [f"{where}: missing or unreadable record"], []
    problems, notes = [], []
    if expected.stamp != got.stamp:
        problems.append(f"{where}: stale: the chapter's snippets or bindings changed since "
                        "it was recorded")
    if release(expected.versions) != release(got.versions):
        notes.append(f"{where}: recorded with {release(expected.versions)}, running "
                     f"{release(got.versions)}; the outputs decide")
    same_platform = expected.platform == got.platform
    bound = {s.snippet for s in chapter.steps if s.platform_bound}
    if not same_platform:
        judged = (f"{len(bound)} platform-bound snippet(s) judged by their findings "
                  f"(the chapter's own tests): {', '.join(sorted(bound))}" if bound
                  else "every output compared exactly")
        notes.append(f"{where}: recorded on another platform "
                     f"({platform_difference(expected.platform, got.platform)}): {judged}")
    exact = lambda snippet: same_platform or snippet not in bound  # noqa: E731
    hint = ("" if same_platform else
            " (recorded on another platform, "
            f"{platform_difference(expected.platform, got.platform)}: this machine's digits "
            "may be right too, so `update` here is no fix; round what it prints, or mark a "
            "chaotic experiment `platform-bound` on its @run line)")
    old = {s.snippet: s for s in expected.snippets}
    for s in got.snippets:
        name = f"snippets/{s.snippet}"
        e = old.get(s.snippet)
        if e is None:
            problems.append(f"{name}: not in the record")
            continue
        if not exact(s.snippet):
            continue
        if e.output != s.output:
            diff = difflib.unified_diff(e.output.splitlines(), s.output.splitlines(),
                                        "expected (record)", "got (fresh run)", lineterm="")
            problems.append(f"{name}: output differs{hint}\n" + "\n".join(diff))
        if [f.sha256 for f in e.figures] != [f.sha256 for f in s.figures]:
            if not same_platform and figures and same_drawings(e, s, *figures):
                notes.append(f"{name}: figures equal to the record up to the last printed "
                             "digit of a coordinate (a rounding tie; see bookrun/drawing.py)")
                continue
            problems.append(f"{name}: figures differ{hint}: expected "
                            f"{[f.name for f in e.figures]}, got "
                            f"{[f.name for f in s.figures]} (or their bytes changed)")
        problems += frames_check.compare(name, e, s, *(figures or (None, None)))
    problems += compare_values(chapter, expected, got, page, exact, hint)
    gone = set(old) - {s.snippet for s in got.snippets}
    if gone:
        problems.append(f"{where}: records snippets no longer on the page: {sorted(gone)}")
    return problems, notes


def platform_difference(recorded: dict, running: dict) -> str:
    """In what two platforms differ, each entry as recorded -> running ("not recorded"
    for a reading the record predates): what may explain other digits."""
    parts = []
    for name in sorted(set(recorded) | set(running)):
        if recorded.get(name) != running.get(name):
            was = recorded[name] if name in recorded else "not recorded"
            now = running[name] if name in running else "not read"
            parts.append(f"{name} {was} -> {now}")
    return "; ".join(parts) or "the same"


def compare_values(chapter: Chapter, expected: Record, got: Record, page: str, exact,
                   hint: str) -> list[str]:
    """Each place the prose binds a value, judged after the snippet it follows (a body
    bound after two snippets is compared at both places)."""
    problems = []
    old = {s.snippet: s.values for s in expected.snippets}
    new = {s.snippet: s.values for s in got.snippets}
    for step in chapter.steps:
        if not exact(step.snippet):
            continue
        before, after = old.get(step.snippet, {}), new.get(step.snippet, {})
        for b in step.bindings:
            if before.get(b.body) != after.get(b.body):
                problems.append(f"{page}:{b.line}: {{{{ {b.body} }}}} expected "
                                f"{before.get(b.body)!r}, got {after.get(b.body)!r} after "
                                f"snippets/{step.snippet}{hint}")
    return problems


def same_drawings(expected: SnippetRecord, got: SnippetRecord, recorded: Path,
                  fresh: Path) -> bool:
    """The snippet's figures, by name and in order, are each the same SVG drawing."""
    names = [f.name for f in expected.figures]
    if names != [f.name for f in got.figures]:
        return False
    return all((recorded / n).is_file() and (fresh / n).is_file()
               and same_drawing((recorded / n).read_bytes(), (fresh / n).read_bytes())
               for n in names)
