"""Count bookrun's reads of page files and walks of a page (iter_prose_lines calls) during
an in-process `mkdocs build` of the book (frozen: no execution). Usage, from the project
root: BOOKRUN_FROZEN=true python tools/page_reads.py [SITE_DIR]"""
import collections, os, sys, pathlib, time
from pathlib import Path

reads = collections.Counter()
walks = collections.Counter()
root = Path.cwd().resolve()
docs = root / "docs"
orig_read_text = Path.read_text

def read_text(self, *a, **k):
    p = Path(self).resolve() if not Path(self).is_absolute() else Path(self)
    if p.suffix == ".md" and docs in p.parents:
        caller = sys._getframe(1).f_globals.get("__name__", "")
        if caller.startswith("bookrun"):
            reads[(p.relative_to(root).as_posix(), caller)] += 1
    return orig_read_text(self, *a, **k)
Path.read_text = read_text

import bookrun.parse.chapter as chapter_mod
orig_walk = chapter_mod.iter_prose_lines
def walk(text, *a, **k):
    caller = sys._getframe(1)
    walks[(caller.f_globals.get("__name__"), caller.f_code.co_name)] += 1
    return orig_walk(text, *a, **k)
import importlib, pkgutil, bookrun
for m in pkgutil.walk_packages(bookrun.__path__, "bookrun."):
    if m.name.startswith(("bookrun.pdf",)) or m.name.endswith("__main__"):
        continue
    try:
        mod = importlib.import_module(m.name)
    except Exception as exc:
        continue
    if getattr(mod, "iter_prose_lines", None) is orig_walk:
        mod.iter_prose_lines = walk

os.environ["BOOKRUN_FROZEN"] = "true"
from mkdocs.commands.build import build
from mkdocs.config import load_config
t0 = time.time()
cfg = load_config(str(root / "mkdocs.yml"), site_dir=sys.argv[1] if len(sys.argv) > 1 else "/tmp/parse/count-site")
cfg.plugins.on_startup(command="build", dirty=False)
build(cfg)
built_reads, built_walks = collections.Counter(reads), collections.Counter(walks)  # the build only
from bookrun.store.book import Book
chapters = Book(root=root).chapters()
n = len(chapters)
pages = {c.page.resolve().relative_to(root).as_posix() for c in chapters}
by_page = collections.Counter()
for (p, caller), c in built_reads.items():
    by_page[p] += c
print(f"build {time.time()-t0:.0f} s; chapter pages: {n}")
print("reads of chapter pages by bookrun (during the build):", sum(by_page[p] for p in pages),
      "=", {p: by_page[p] for p in sorted(pages)})
rc = collections.Counter()
for (p, caller), c in built_reads.items():
    if p in pages: rc[caller] += c
print("reads by caller module:", dict(rc))
print("walks (iter_prose_lines calls) by caller:", dict(built_walks), "total", sum(built_walks.values()))
print("per chapter page: reads %.2f, walks %.2f" % (sum(by_page[p] for p in pages) / n, sum(built_walks.values()) / n))
