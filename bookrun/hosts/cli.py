"""Command line: run one page, check every record against a fresh run, or update them.

    python -m bookrun run docs/bandits.md   execute a page, print outputs and values
    python -m bookrun check [CHAPTER ...]   execute fresh, diff against records (CI)
    python -m bookrun update [CHAPTER ...]  execute fresh and rewrite the records
    python -m bookrun prepare               execute what is stale (as a build would), then
                                            write figures, notebooks and bookrun's
                                            assets into docs/ for `zensical build`
    python -m bookrun pdf [--site SITE] [--paper a4|letter] [-o OUT]
                                            print the built site as one book, SITE/book.pdf

Every command stops a chapter after --timeout seconds (default: $BOOKRUN_TIMEOUT, else
the `timeout` option in mkdocs.yml, else 300), the limit `mkdocs build` and `mkdocs serve`
take from the same config (bookrun.config.load). `prepare`, like `mkdocs build`, refuses
to execute when BOOKRUN_FROZEN=true (or the `frozen` option) says so.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from bookrun.store.book import Book, Interrupted
from bookrun.config import ConfigError, load, require_listed
from bookrun.errors import BookrunError
from bookrun.parse.chapter import read_chapter
from bookrun.hosts.prepare import prepare
from bookrun.model.text import unprefixed, visible


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"not a positive number of seconds: {text!r}")
    return value


# Each command's own help (`python -m bookrun check --help`): what it does, then its names.
COMMANDS = {
    "run": ("Execute one page (or several) and print each snippet's output, figures and "
            "values; records nothing.", "the pages to run (docs/page.md)"),
    "check": ("Execute every chapter (or the ones named) afresh and compare it with its "
              "committed record; exit 1, naming each difference, if one differs. Writes "
              "nothing: for CI.", "chapter names (snippet folders or page names); none: all"),
    "update": ("Execute every chapter (or the ones named) afresh and rewrite its record and "
               "figures; commit the result.",
               "chapter names (snippet folders or page names); none: all"),
    "prepare": ("Execute what is stale (as `mkdocs build` would), then write figures, "
                "notebooks and bookrun's assets into the docs folder for `zensical build`.",
                None),
    "pdf": ("Print the built site as one book, SITE/book.pdf "
            "(`python -m bookrun pdf --help`).", None),
}


def parser(root: Path | None) -> argparse.ArgumentParser:
    """The top-level help: the commands."""
    ap = argparse.ArgumentParser(prog="python -m bookrun", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=list(COMMANDS))
    ap.add_argument("arguments", nargs="*", help="the command's (python -m bookrun COMMAND -h)")
    return ap


def command_parser(name: str, root: Path | None) -> argparse.ArgumentParser:
    """One command's parser, whose --help says what that command does."""
    what, names = COMMANDS[name]
    ap = argparse.ArgumentParser(prog=f"python -m bookrun {name}", description=what)
    if names:
        ap.add_argument("names", nargs="*", help=names)
    ap.add_argument("--timeout", type=seconds, default=None,
                    help="seconds per chapter (default: $BOOKRUN_TIMEOUT, else the "
                    "`timeout` option in mkdocs.yml, else 300)")
    ap.add_argument("--root", type=Path, default=root or Path.cwd(),
                    help="the book's folder, where mkdocs.yml is (default: this folder)")
    return ap


def main(argv=None, root: Path | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["pdf"]:  # its own options: it reads the built site, runs nothing
        from bookrun.pdf.build import main as pdf_main
        here = (root or Path.cwd()).resolve()
        return pdf_main(argv[1:], here, lambda site: build_site(here, site))
    # The command is the first word that names one; its options may come anywhere on
    # the line: `check --timeout 600 setup` as well as `--timeout 600 check setup`.
    at = next((i for i, word in enumerate(argv) if word in COMMANDS), None)
    if at is None:
        ap = parser(root)
        if {"-h", "--help"} & set(argv):
            ap.print_help()
            return 0
        words = [w for w in argv if not w.startswith("-")]
        ap.error(f"name a command ({', '.join(COMMANDS)})"
                 + (f", not {words[0]!r}" if words else ""))
    name = argv[at]
    ap = command_parser(name, root)
    args = ap.parse_intermixed_args(argv[:at] + argv[at + 1:])
    args.command, args.names = name, getattr(args, "names", [])
    root = args.root.resolve()
    try:  # mkdocs.yml's options and the environment's, once
        config, docs = load(root)
        # A mkdocs.yml that names no bookrun would publish raw @run lines: refused
        # before anything runs or is written. Zensical (prepare) runs the extension only.
        require_listed(root, extension=name == "prepare")
    except ConfigError as exc:  # a mistake in the command's setting, as argparse says one
        ap.exit(2, f"{ap.prog}: error: {unprefixed(visible(str(exc)))}\n")
    try:
        book = Book(root=root, config=config, docs_dir=docs, timeout=args.timeout,
                    frozen=config.frozen and args.command == "prepare")
        return command(ap, args, book)
    except BookrunError as exc:
        print(f"bookrun: error: {unprefixed(visible(str(exc)))}", file=sys.stderr)
        return 1
    except Interrupted as exc:
        print(f"bookrun: {exc}", file=sys.stderr)
        return 130  # as a shell reports SIGINT


def command(ap: argparse.ArgumentParser, args, book: Book) -> int:
    """Run the parsed command on the book; its exit status."""
    if args.command == "run":
        return run_page(book, args.names)
    if args.command == "prepare":
        if args.names:
            ap.error("prepare takes no chapter names: it prepares the whole book")
        written = prepare(book)
        folder = os.path.relpath(book.docs_dir, book.root)
        print(f"bookrun: figures, notebooks and assets in {folder}/ are current "
              f"({len(written)} file(s) written or removed)")
        return 0
    chapters = [book.chapter(n) for n in args.names] if args.names else book.chapters()
    if args.command == "update":
        book.build(chapters, force=True)
        return 0
    return report(book.check(chapters), len(chapters))


def report(checked, count: int) -> int:
    """Print what `check` found (notes, diffs, the way out); 1 if any record differs."""
    for note in checked.notes:
        print(f"bookrun: note: {visible(note)}", file=sys.stderr)
    for warning in checked.too_wide:  # the page shows these badly; the record is right
        print(f"bookrun: warning: {warning}", file=sys.stderr)
    problems = checked.problems
    for p in problems:  # a diff quotes outputs: written out, never acted on
        print(visible(p) + "\n", file=sys.stderr)
    if checked.corrupt:
        names = " ".join(checked.corrupt)
        print(f"bookrun: corrupt record(s) of {names}: `python -m bookrun update {names}` "
              "writes them afresh from this machine's run; commit the result", file=sys.stderr)
    here = [n for n in checked.differing if n not in checked.elsewhere]
    for name in (n for n in checked.differing if n in checked.elsewhere):
        # Another machine's digits are not a changed book: rewriting the record here
        # would only move the failure to the machine that made it.
        print(f"bookrun: {name} was recorded on another platform "
              f"({checked.elsewhere[name]}) and prints other digits here in snippets not "
              "marked platform-bound; `update` on this machine is no fix: round what they "
              "print, or mark a chaotic experiment `platform-bound` and assert its findings "
              "in the chapter's tests", file=sys.stderr)
    if here:
        names = " ".join(here)
        print(f"bookrun: {names} differ(s) from the record(s); if the change is intended, run "
              f"`python -m bookrun update {names}` and commit the records", file=sys.stderr)
    if problems:
        return 1
    print(f"bookrun: {count} chapter(s) match their records")
    return 0


def run_page(book: Book, pages) -> int:
    for page in pages:
        path = Path(page).resolve()
        shown = os.path.relpath(path, book.root)
        chapter = read_chapter(path, book.snippets_root, shown, book.config.min_alt_words)
        if chapter is None:
            print(f"{shown}: no @run directive")
            continue
        t0 = time.perf_counter()
        run = book.run(chapter)
        try:
            for step, res in zip(chapter.steps, run.steps):
                print(f"==> {os.path.relpath(book.snippets_root / step.snippet, book.root)}")
                output = visible(res.output)  # the terminal shows control characters
                print(output, end="" if output.endswith("\n") else "\n")
                for fig in res.figures:
                    size = (run.figdir / fig).stat().st_size
                    print(f"[figure {fig} {size / 1024:.0f} KB]")
                for body, text in res.values.items():
                    print(f"{{{{ {body} }}}} -> {visible(text)}")
        finally:
            shutil.rmtree(run.workdir, ignore_errors=True)  # a look, not a record: keep nothing
            # The folders of the host's copies and of the sessions' scratch too, unless
            # another run uses them (bookrun.store.session_files).
            for folder in (run.workdir.parent, book.cache / "scratch"):
                try:
                    folder.rmdir()
                except OSError:
                    pass
        print(f"==> {chapter.name}: executed in {time.perf_counter() - t0:.1f} s")
    return 0


def build_site(root: Path, site: Path) -> None:
    """`mkdocs build` of the book at `root` into `site`, linking the PDF about to be
    printed (BOOKRUN_PDF): what `python -m bookrun pdf` runs when there is no site."""
    from bookrun.pdf.combine import PrintError

    env = dict(os.environ, BOOKRUN_PDF="true")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-d", str(site.resolve())],
                          cwd=root, env=env)
    if done.returncode != 0:
        raise PrintError(f"mkdocs build failed (exit {done.returncode}): no site to print")
