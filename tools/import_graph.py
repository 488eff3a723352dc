"""Print bookrun's module map by layer and fail on an import cycle or an upward arrow.

    python tools/import_graph.py

The pipeline reads bottom to top: each module may import only modules of its own layer
or of the layers under it (and never in a cycle), so the hosts sit on top and the model
at the bottom. A module missing from LAYERS fails too: a new module is placed on purpose.
"""
import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "bookrun"
LAYERS = [
    ("model", ["model", "config", "drawing", "source", "safe_text"]),
    ("parse", ["syntax", "names", "bindings", "interactive", "page", "header", "key", "prose"]),
    ("run", ["processes", "sandbox", "capture", "checkpoint", "frames", "worker", "session"]),
    ("record", ["record", "book"]),
    ("render", ["copy_above", "reach", "highlight", "render", "page_render", "notebook", "math",
                "diagrams"]),
    ("hosts", ["plugin", "serve", "extension", "zensical", "prepare", "print_page", "pdf",
               "__main__"]),
]
RANK = {m: n for n, (_, mods) in enumerate(LAYERS) for m in mods}


def imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.level or 0) >= 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bookrun"):
            parts = node.module.split(".")
            found.update([parts[1]] if len(parts) > 1 else [a.name for a in node.names])
    return found


def main() -> int:
    graph = {p.stem: imports(p) & {q.stem for q in PACKAGE.glob("*.py")} - {p.stem}
             for p in sorted(PACKAGE.glob("*.py")) if p.stem != "__init__"}
    problems = [f"{m}: not placed in a layer (tools/import_graph.py)" for m in graph
                if m not in RANK]
    for m, deps in graph.items():
        problems += [f"{m} ({LAYERS[RANK[m]][0]}) imports {d} ({LAYERS[RANK[d]][0]}): an "
                     "arrow up" for d in sorted(deps) if m in RANK and d in RANK
                     and RANK[d] > RANK[m]]
    seen, stack = set(), []

    def visit(m):
        if m in stack:
            problems.append("cycle: " + " -> ".join(stack[stack.index(m):] + [m]))
            return
        if m in seen:
            return
        seen.add(m)
        stack.append(m)
        for d in sorted(graph.get(m, ())):
            visit(d)
        stack.pop()

    for m in graph:
        visit(m)
    for name, mods in reversed(LAYERS):
        print(f"{name:>7}: " + ", ".join(f"{m} -> {{{', '.join(sorted(graph.get(m, ())))}}}"
                                         for m in mods if m in graph))
    for p in problems:
        print("problem:", p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
