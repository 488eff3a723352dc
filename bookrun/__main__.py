"""Command line: run one page, check every record against a fresh run, or update them.

    python -m bookrun run docs/bandits.md   execute a page, print outputs and values
    python -m bookrun check [CHAPTER ...]   execute fresh, diff against records (CI)
    python -m bookrun update [CHAPTER ...]  execute fresh and rewrite the records
"""
import argparse
import sys
from pathlib import Path

from .book import Book
from .page import PageError, read_chapter
from .session import ExecutionError


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bookrun", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["run", "check", "update"])
    ap.add_argument("names", nargs="*", help="chapter names (snippet folders) or a page for run")
    ap.add_argument("--timeout", type=float, default=None, help="seconds per chapter")
    args = ap.parse_args(argv)
    book = Book() if args.timeout is None else Book(timeout=args.timeout)
    try:
        if args.command == "run":
            return run_page(book, args.names)
        chapters = [book.chapter(n) for n in args.names] if args.names else book.chapters()
        if args.command == "update":
            book.build(chapters, force=True)
            return 0
        checked = book.check(chapters)
    except (PageError, ExecutionError) as exc:
        print(f"bookrun: error: {exc}", file=sys.stderr)
        return 1
    for note in checked.notes:
        print(f"bookrun: note: {note}", file=sys.stderr)
    problems = checked.problems
    for p in problems:
        print(p + "\n", file=sys.stderr)
    if problems:
        print(f"bookrun: {len(problems)} difference(s); if the change is intended, run "
              "`python -m bookrun update` and commit the records", file=sys.stderr)
        return 1
    print(f"bookrun: {len(chapters)} chapter(s) match their records")
    return 0


def run_page(book: Book, pages) -> int:
    import time
    for page in pages:
        chapter = read_chapter(Path(page), book.snippets_root)
        if chapter is None:
            print(f"{page}: no @run directive")
            continue
        t0 = time.perf_counter()
        run = book.run(chapter)
        for step, res in zip(chapter.steps, run.steps):
            print(f"==> {step.snippet}")
            print(res["output"], end="" if res["output"].endswith("\n") else "\n")
            for fig in res["figures"]:
                path = run.figdir / fig
                print(f"[figure {path} {path.stat().st_size / 1024:.0f} KB]")
            for body, text in res["values"].items():
                print(f"{{{{ {body} }}}} -> {text}")
        print(f"==> {chapter.name}: executed in {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
